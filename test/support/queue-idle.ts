import { Queue } from 'bullmq';
import { closeConnection, createProducerConnection } from '../../src/queue/connection.js';
import { QUEUE_PREFIX } from '../../src/queue/names.js';
import { SIGNAL_WAIT_MS } from './timeouts.js';

/** Jobs still to run or running: a queue with none of these has nothing in flight. */
const PENDING = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/**
 * Waits until none of the named queues has a job pending or running. The positive
 * signal a test needs before asserting that something did NOT happen: once the event
 * that could cause it was accepted (its producer returned) and the queues are idle,
 * every consequence has already landed, so no sleep has to guess how long that takes.
 * Jobs enqueue their follow-ups while still active, so a chain is never seen idle
 * halfway.
 */
export async function waitForIdleQueues(
  redisUrl: string,
  names: string[],
  options: { prefix?: string; timeoutMs?: number } = {},
): Promise<void> {
  // One endpoint or a Sentinel set (redis+sentinel://), as the processes read REDIS_URL.
  const connection = createProducerConnection(redisUrl, {
    enableOfflineQueue: true,
    maxRetriesPerRequest: 3,
  });
  connection.on('error', () => undefined); // a drill's failover; the counts below retry
  const queues = names.map((name) => new Queue(name, { connection, prefix: options.prefix ?? QUEUE_PREFIX }));
  const deadline = Date.now() + (options.timeoutMs ?? SIGNAL_WAIT_MS);
  try {
    for (;;) {
      const counts = await Promise.all(queues.map((q) => q.getJobCounts(...PENDING)));
      const pending = counts.flatMap((c) => Object.values(c)).reduce((a, b) => a + b, 0);
      if (pending === 0) return;
      if (Date.now() > deadline) {
        throw new Error(`queues ${names.join(', ')} still busy: ${JSON.stringify(counts)}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await Promise.all(queues.map((q) => q.close()));
    await closeConnection(connection);
  }
}
