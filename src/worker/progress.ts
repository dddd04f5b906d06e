/**
 * Monotonic sequence numbers for a run's notifications: wall-clock based so a
 * retry on another worker continues above the previous attempt's numbers, with a
 * counter for notifications within the same millisecond.
 */
export function createSequence(now: () => number = Date.now): () => number {
  let last = 0;
  return () => {
    last = Math.max(last + 1, now() * 1000);
    return last;
  };
}

/** True when this attempt is the job's last: the user must hear about the failure now. */
export function isLastAttempt(job: { attemptsMade: number; opts: { attempts?: number } }): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
