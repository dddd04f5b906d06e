import type { Worker } from 'bullmq';

/**
 * Graceful worker shutdown: stop taking jobs and let running ones finish for up to
 * `graceMs`; after that, `handBack` (src/worker/running-jobs.ts) moves what still runs
 * back to wait, so another worker takes it at once, and the worker is force-closed. A
 * job that could not be handed back (Redis away) is left to the stalled-job check once
 * its lock lapses.
 *
 * `pause()` does the waiting and `close()` comes only after it: BullMQ's `close()`
 * returns the close already in flight, so a graceful `close()` followed by
 * `close(true)` would never force anything and the grace period would not hold.
 *
 * `idle` (src/worker/running-jobs.ts) ends the wait too, once no job runs: `pause()`
 * waits for BullMQ's fetch loop and then reconnects its blocking connection, and with
 * Redis gone neither ever ends, so a worker with nothing running sat out the whole grace
 * period (25 s by default) before it even began to close.
 * @returns 'drained' or 'forced'.
 */
export async function closeWorkerWithGrace(
  worker: Worker,
  graceMs: number,
  handBack?: () => Promise<unknown>,
  idle?: () => Promise<void>,
): Promise<'drained' | 'forced'> {
  let timer: NodeJS.Timeout | undefined;
  // A pause that fails is not a drain: idle() or the grace period decides then.
  const paused = worker.pause().catch(() => new Promise<void>(() => undefined));
  const graceful = Promise.race([paused, ...(idle ? [idle()] : [])]).then(() => 'drained' as const);
  const deadline = new Promise<'forced'>((resolve) => {
    timer = setTimeout(() => resolve('forced'), graceMs);
  });
  const result = await Promise.race([graceful, deadline]);
  clearTimeout(timer);
  if (result === 'forced') await handBack?.();
  // With Redis unreachable, close() waits for commands that retry forever
  // (maxRetriesPerRequest: null); bound it so SIGTERM still ends the process. The
  // caller then disconnects the connections, and unfinished jobs stall back to the queue.
  let closeTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    worker.close(result === 'forced'),
    new Promise<void>((resolve) => {
      closeTimer = setTimeout(resolve, CLOSE_BOUND_MS);
    }),
  ]);
  clearTimeout(closeTimer);
  return result;
}

const CLOSE_BOUND_MS = 3_000;
