/**
 * The jobs a worker is running, so a worker told to stop can hand back at once what it
 * cannot finish within its grace period. BullMQ's `Job.moveToWait(token)`
 * (moveJobFromActiveToWait.lua) removes the lock, if it is still this worker's, and
 * puts the job back at the end of the wait list: another worker takes it within
 * moments, where letting the lock lapse left it for the lock duration plus a stalled
 * check. No attempt is spent. What the stopping worker still does for a handed-back
 * job is harmless: it writes nothing once its lock is gone (src/worker/job-fence.ts),
 * and its outcomes give way to the next attempt's (src/worker/outbox.ts).
 */
import type { Job } from 'bullmq';

export interface RunningJobs<D, R> {
  /** The processor, recording each job (and its lock token) while it runs. */
  processor: (job: Job<D>, token?: string) => Promise<R>;
  /** Moves every job still running back to wait; the ids handed back (a job whose lock was already lost is not). */
  handBack(): Promise<string[]>;
  /** The ids of the jobs running now. */
  ids(): string[];
  /**
   * Resolves once no job runs (at once when none does). Unlike BullMQ's `pause()` it asks
   * Redis nothing: with Redis gone, `pause()` never resolves.
   */
  idle(): Promise<void>;
}

/** How long one hand-back may take: a Redis that does not answer leaves the job to the stalled check. */
const HAND_BACK_MS = 2_000;

export function trackRunning<D, R>(process: (job: Job<D>, token?: string) => Promise<R>): RunningJobs<D, R> {
  const running = new Map<string, { job: Job<D>; token: string }>();
  let waiting: (() => void)[] = [];
  const settle = (): void => {
    if (running.size > 0) return;
    const resolve = waiting;
    waiting = [];
    for (const done of resolve) done();
  };
  return {
    async processor(job, token) {
      const id = String(job.id);
      if (token !== undefined) running.set(id, { job, token });
      try {
        return await process(job, token);
      } finally {
        running.delete(id);
        settle();
      }
    },
    ids: () => [...running.keys()],
    idle: () =>
      running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)),
    async handBack() {
      const jobs = [...running.entries()];
      running.clear();
      settle();
      const moved = await Promise.all(
        jobs.map(async ([id, { job, token }]) => {
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              job.moveToWait(token),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error('no answer')), HAND_BACK_MS);
              }),
            ]);
            return id;
          } catch {
            return undefined;
          } finally {
            clearTimeout(timer);
          }
        }),
      );
      return moved.filter((id): id is string => id !== undefined);
    },
  };
}
