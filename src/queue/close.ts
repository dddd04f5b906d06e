import type { Worker } from 'bullmq';

/**
 * Graceful worker shutdown: stop taking jobs and let running ones finish for up to
 * `graceMs`; after that, force-close (unfinished jobs' locks lapse and another
 * worker picks them up through stalled-job recovery).
 *
 * `pause()` does the waiting and `close()` comes only after it: BullMQ's `close()`
 * returns the close already in flight, so a graceful `close()` followed by
 * `close(true)` would never force anything and the grace period would not hold.
 * @returns 'drained' or 'forced'.
 */
export async function closeWorkerWithGrace(worker: Worker, graceMs: number): Promise<'drained' | 'forced'> {
  let timer: NodeJS.Timeout | undefined;
  const graceful = worker.pause().then(() => 'drained' as const);
  const deadline = new Promise<'forced'>((resolve) => {
    timer = setTimeout(() => resolve('forced'), graceMs);
  });
  const result = await Promise.race([graceful, deadline]);
  clearTimeout(timer);
  await worker.close(result === 'forced');
  return result;
}
