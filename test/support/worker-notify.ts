import { createProducerConnection } from '../../src/queue/connection.js';
import { signNotify } from '../../src/queue/notify-signature.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { testKeys } from './plan-keys.js';

/**
 * Producers that queue notifications as a worker does, signed with the test workers'
 * notify key (testKeys): for tests that stand in for a worker's result or outcome.
 */
export function workerNotifyProducers(
  redisUrl: string,
  keys = testKeys,
): Producers & { close(): Promise<void> } {
  const connection = createProducerConnection(redisUrl);
  connection.on('error', () => undefined);
  const producers = createProducers({
    connection,
    clusters: ['default'],
    signNotify: (job) => signNotify(job, 'worker', keys.notify.signing),
  });
  return {
    ...producers,
    async close() {
      await producers.close();
      connection.disconnect();
    },
  };
}
