/**
 * Where the admission webhook puts its announcements (announce.ts): the app's alert
 * notify lane (`notify-alerts`), each signed with the webhook's own key
 * (ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY, signer 'admission': src/queue/notify-signature.ts),
 * over a fail-fast connection (no offline queue, bounded adds). The app posts nothing it
 * cannot verify, and the key signs nothing but warned applies.
 */
import type { Logger } from '../logger.js';
import { createProducerConnection, closeConnection } from '../queue/connection.js';
import { createProducers } from '../queue/producers.js';
import { signNotify } from '../queue/notify-signature.js';
import type { SigningKey } from '../trust/approval-signature.js';
import { DEDUP_MS, SEND_TIMEOUT_MS, type AdmissionWarningJob } from './announce.js';

export interface AnnounceQueue {
  send: (job: AdmissionWarningJob, dedupId: string) => Promise<void>;
  close: () => Promise<void>;
}

export function announceQueue(options: {
  redisUrl: string;
  cluster: string;
  key: SigningKey;
  logger: Logger;
}): AnnounceQueue {
  const connection = createProducerConnection(options.redisUrl);
  connection.on('error', (error) => options.logger.debug({ err: error }, 'announcement Redis connection'));
  const producers = createProducers({
    connection,
    clusters: [options.cluster],
    timeoutMs: SEND_TIMEOUT_MS,
    signNotify: (job) => signNotify(job, 'admission', options.key),
    onError: (error) => options.logger.debug({ err: error }, 'announcement queue'),
  });
  return {
    send: (job, dedupId) =>
      producers.enqueueNotify(job, { background: true, deduplication: { id: dedupId, ttl: DEDUP_MS } }),
    close: async () => {
      await producers.close().catch(() => undefined);
      await closeConnection(connection).catch(() => undefined);
    },
  };
}
