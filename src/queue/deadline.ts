/**
 * The one deadline helper for Redis calls made before someone gets an answer:
 * a slash command's ack (Slack waits 3 s), a Teams invoke's response, an Approve
 * press, the Alertmanager webhook. A Redis that stalls (the connection open, nothing
 * answered: a paused server, a slow fsync, a black hole) must not hold the answer past
 * the platform's window: the call is given up at the deadline, with a RedisTroubleError
 * saying why, and the caller answers "try again" and makes sure that nothing it sent
 * runs unseen (a late job is withdrawn: src/queue/producers.ts).
 *
 * What Redis said is classified here, once (`redisTrouble`), so every answer names the
 * same thing: a full Redis (OOM, noeviction) is not "unreachable".
 */

/** Why Redis did not take a call. */
type RedisTrouble =
  /** No answer before the deadline: the connection is open but nothing comes back. */
  | 'stalled'
  /** Out of memory with `noeviction`: every write that needs memory is refused (reads still answer). */
  | 'full'
  /** A replica answered a write (a failover under way, or a demoted master). */
  | 'read-only'
  /** No connection: refused, closed, or still looking for a master. */
  | 'unreachable';

/** A Redis call the caller must answer without: the queue, a budget, a claim. */
export class RedisTroubleError extends Error {
  override name = 'RedisTroubleError';
  readonly trouble: RedisTrouble;
  constructor(message: string, options: { cause?: unknown; trouble?: RedisTrouble } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.trouble = options.trouble ?? redisTrouble(options.cause);
  }
}

/**
 * What an error from a Redis call says about Redis. Redis's own refusals start with
 * their code (`OOM command not allowed when used memory > 'maxmemory'`, `READONLY You
 * can't write against a read only replica`, `MISCONF … unable to persist`); ioredis's
 * own (`Command timed out`, `Connection is closed`, `Stream isn't writeable`) describe
 * the connection.
 */
export function redisTrouble(error: unknown): RedisTrouble {
  if (error instanceof RedisTroubleError) return error.trouble;
  // src/queue/role.ts: ROLE answered, and not as a master.
  if (error instanceof Error && error.name === 'RedisReadOnlyError') return 'read-only';
  const message = error instanceof Error ? error.message : String(error ?? '');
  // BullMQ and ioredis pass Redis's reply through, sometimes behind a prefix of their own.
  if (/(^|\s|:)OOM\b/.test(message)) return 'full';
  // A server that cannot persist refuses writes the same way, until it can again.
  if (/(^|\s|:)MISCONF\b/.test(message)) return 'full';
  if (/(^|\s|:)READONLY\b/.test(message)) return 'read-only';
  if (/Command timed out|did not answer within/.test(message)) return 'stalled';
  return 'unreachable';
}

/** A point in time Redis calls must answer by, shared by every call of one answer. */
export interface Deadline {
  /** Milliseconds left (0 once passed). */
  left(): number;
  /**
   * `work`, or a RedisTroubleError once the deadline passed (`stalled`) or Redis failed
   * it (classified). The work is not cancelled: whatever it sent may still run in Redis
   * later, which the caller must make harmless (withdraw a job, release a claim).
   */
  bound<T>(work: Promise<T>, what: string): Promise<T>;
}

/**
 * A deadline `ms` from now. `stallMs`: how long one call may go unanswered before it is
 * given up as stalled, however much of the deadline is left (a deadline longer than the
 * answer's window, held for a failover: src/chat/use-cases/approve-press.ts). It never
 * reaches past the deadline.
 */
export function deadlineIn(
  ms: number,
  now: () => number = Date.now,
  options: { stallMs?: number } = {},
): Deadline {
  const at = now() + ms;
  const left = (): number => Math.max(0, at - now());
  const stallMs = options.stallMs ?? Infinity;
  return { left, bound: (work, what) => settleBy(work, what, Math.min(left(), stallMs)) };
}

/** `work` bounded by `ms` alone: the same as `deadlineIn(ms).bound(work, what)`. */
export function withDeadline<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  return settleBy(work, what, ms);
}

/**
 * Races `work` against a timer of `ms`. When the timer fires, the replies already read
 * from the socket are let through first (one turn of the event loop: timers run before
 * I/O callbacks, so a reply that arrived while the loop was busy would otherwise lose to
 * a timer that fired in the same turn), and an answer that came in time is taken.
 */
function settleBy<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  // One promise and one timer per call, no race or finally chains: every Redis call of
  // every answer goes through here, on the path that acks.
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(
            new RedisTroubleError(`${what}: Redis did not answer within ${ms} ms`, { trouble: 'stalled' }),
          );
        }),
      ms,
    );
    // Handled either way: a call given up on may still fail later, which is not an
    // unhandled rejection.
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(
          error instanceof RedisTroubleError
            ? error
            : new RedisTroubleError(`${what}: ${error instanceof Error ? error.message : String(error)}`, {
                cause: error,
              }),
        );
      },
    );
  });
}

/**
 * An error of a Redis call that a failover under way explains, and after which the call
 * was not run or is safe to send again: no connection (refused, reset, closed, not yet
 * writeable while ioredis looks for the master, its retries per request used up), a
 * replica's READONLY (the old master demoted), a promoted replica still LOADING, or a
 * replica with its master link down. Not a full Redis (no failover frees memory) and
 * not a stall (its deadline is spent).
 */
export function failingOver(error: unknown): boolean {
  const trouble = redisTrouble(error);
  if (trouble === 'read-only') return true;
  if (trouble !== 'unreachable') return false;
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /Connection is closed|Stream isn't writeable|max retries per request|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|All sentinels are unreachable|(^|\s|:)LOADING\b|(^|\s|:)MASTERDOWN\b/i.test(
    message,
  );
}

/** How long a call held through a failover waits between tries. */
const FAILOVER_PAUSE_MS = 100;

/**
 * `call()`, bounded by `deadline`, and again every 100 ms while it fails for a reason a
 * failover under way explains (`failingOver`), until it answers or the deadline is
 * spent: a press made in the seconds a Sentinel failover takes is held, not refused.
 * Every try shares the one deadline; none gets the whole time again. Only
 * for calls that are safe to send twice (reads, or writes made idempotent: a retry after
 * a reply lost with the old master must not count twice). The last error is thrown.
 */
export async function throughFailover<T>(
  deadline: Deadline,
  what: string,
  call: () => Promise<T>,
  pauseMs: number = FAILOVER_PAUSE_MS,
): Promise<T> {
  for (;;) {
    try {
      return await deadline.bound(call(), what);
    } catch (error) {
      // A pause that would end past the deadline leaves no time for another try.
      if (!failingOver(error) || deadline.left() <= pauseMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
