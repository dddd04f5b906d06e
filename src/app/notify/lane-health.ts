/**
 * Whether the notify lanes move: a lane paused (BullMQ's `paused` in the
 * queue's meta hash: nothing of rollout-doctor pauses a lane that way, so someone wrote
 * it) or stalled (jobs waiting, and the oldest of them the same one for STALL_MS: no
 * consumer takes them) posts nothing, silently. Each check sets
 * rollout_doctor_notify_lane_problem{queue,reason} to 1 or 0 and logs when a problem
 * starts and when it ends.
 */
import type { Redis } from 'ioredis';
import type { Gauge } from 'prom-client';
import type { Logger } from '../../logger.js';
import { NOTIFY_QUEUES, QUEUE_PREFIX } from '../../queue/names.js';

/** Longer than a chat API's Retry-After pause (the job waits at the head meanwhile). */
export const STALL_MS = 120_000;
const CHECK_MS = 15_000;

type LaneProblem = 'paused' | 'stalled';

interface LaneHealthOptions {
  connection: Redis;
  gauge?: Gauge<'queue' | 'reason'>;
  logger: Logger;
  queues?: readonly string[];
  stallMs?: number;
  now?: () => number;
}

interface LaneHealth {
  /** Reads each lane once; the problems found, by queue. */
  check: () => Promise<{ queue: string; problem: LaneProblem }[]>;
}

export function createLaneHealth(options: LaneHealthOptions): LaneHealth {
  const now = options.now ?? Date.now;
  const stallMs = options.stallMs ?? STALL_MS;
  const queues = options.queues ?? NOTIFY_QUEUES;
  /** Per queue: its oldest waiting job and since when it was seen there. */
  const heads = new Map<string, { id: string; since: number }>();
  const reported = new Set<string>();

  const report = (queue: string, problem: LaneProblem, on: boolean, detail: object): void => {
    options.gauge?.set({ queue, reason: problem }, on ? 1 : 0);
    const key = `${queue}/${problem}`;
    if (on && !reported.has(key)) {
      reported.add(key);
      options.logger.error(
        { queue, problem, ...detail },
        problem === 'paused'
          ? 'notify lane paused: nothing in it is posted until it is resumed (HDEL rd:<queue>:meta paused)'
          : 'notify lane stalled: its oldest waiting job has not moved',
      );
    } else if (!on && reported.delete(key)) {
      options.logger.info({ queue, problem }, 'notify lane moves again');
    }
  };

  const checkOne = async (queue: string): Promise<LaneProblem[]> => {
    const key = (type: string): string => `${QUEUE_PREFIX}:${queue}:${type}`;
    const [paused, waiting, oldest] = await Promise.all([
      options.connection.hexists(key('meta'), 'paused'),
      options.connection.llen(key('wait')),
      // BullMQ adds to the left and takes from the right: the oldest waiting job is last.
      options.connection.lindex(key('wait'), -1),
    ]);
    const t = now();
    const head = heads.get(queue);
    if (waiting === 0 || oldest === null) heads.delete(queue);
    else if (head?.id !== oldest) heads.set(queue, { id: oldest, since: t });
    const since = heads.get(queue)?.since ?? t;
    const isPaused = paused === 1;
    // A paused lane is reported as paused, not also as stalled.
    const stalled = !isPaused && waiting > 0 && t - since >= stallMs;
    report(queue, 'paused', isPaused, { waiting });
    report(queue, 'stalled', stalled, {
      waiting,
      oldestJob: oldest,
      forSeconds: Math.round((t - since) / 1000),
    });
    return [...(isPaused ? (['paused'] as const) : []), ...(stalled ? (['stalled'] as const) : [])];
  };

  return {
    check: async () => {
      const found: { queue: string; problem: LaneProblem }[] = [];
      for (const queue of queues) for (const problem of await checkOne(queue)) found.push({ queue, problem });
      return found;
    },
  };
}

/** Checks every CHECK_MS until stopped (src/app/runtime.ts); a failed read is skipped (Redis down is /readyz's). */
export function startLaneHealth(options: LaneHealthOptions & { intervalMs?: number }): { stop: () => void } {
  const health = createLaneHealth(options);
  const timer = setInterval(() => {
    health.check().catch((error: unknown) => options.logger.debug({ err: error }, 'notify lane check'));
  }, options.intervalMs ?? CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
