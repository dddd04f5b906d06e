/**
 * The watch's debounce: signals of one workload become one diagnosis, then the
 * workload cools down (session.ts feeds it, watch.ts queues what it fires).
 */
import type { WorkloadRef } from '../../diagnosis/workload-ref.js';

/** One workload the watch signalled, and why (the reasons merged by the debounce). */
export interface TriggeredWorkload extends WorkloadRef {
  reasons: string[];
  pods: string[];
}

interface WorkloadTriggerDeps {
  /** Signals of one workload within this window make one diagnosis. */
  debounceMs: number;
  /**
   * After a diagnosis, signals of the workload wait this long before the next one,
   * doubling with each diagnosis up to `maxCooldownMs` (a crash loop's back-off does
   * the same), and back to the start once the workload was quiet for `maxCooldownMs`.
   */
  cooldownMs: number;
  maxCooldownMs: number;
  /**
   * At most this many diagnoses per namespace in any minute (default 10): a tenant who
   * can create workloads in a watched namespace cannot flood the queue and the channel.
   * A workload past it keeps its signals and is diagnosed once the
   * namespace's minute has room.
   */
  maxPerNamespacePerMinute?: number;
  enqueue: (workload: TriggeredWorkload) => Promise<void>;
  logger: { warn(obj: object, msg: string): void };
  now?: () => number;
}

export interface WorkloadTrigger {
  signal(s: WorkloadRef & { pod: string; reason: string }): void;
  /** Diagnoses queued so far. */
  readonly queued: number;
  stop(): void;
}

interface TriggerState {
  workload: WorkloadRef;
  timer: NodeJS.Timeout | undefined;
  lastQueuedAt: number | undefined;
  /** Diagnoses in the current run of signals (sets the cooldown). */
  streak: number;
  reasons: Set<string>;
  pods: Set<string>;
}

/**
 * Debounce per workload: the first signal arms a timer of `debounceMs`; every signal
 * of the same workload until it fires joins the same diagnosis (a burst of events
 * gives one). After a diagnosis the workload cools down (`cooldownMs`, doubling per
 * diagnosis up to `maxCooldownMs`): signals in that time are merged into one
 * diagnosis at its end. So an early signal (a first restart, before the pod counts
 * as crash-looping) is followed up within seconds, and a crash loop going on for
 * hours costs a diagnosis every few minutes at most.
 */
export function createWorkloadTrigger(deps: WorkloadTriggerDeps): WorkloadTrigger {
  const now = deps.now ?? Date.now;
  const states = new Map<string, TriggerState>();
  let queued = 0;
  let stopped = false;
  const namespaceRoom = namespaceBudget(deps.maxPerNamespacePerMinute ?? 10, now, deps.logger);

  const cooldown = (st: TriggerState): number =>
    Math.min(deps.maxCooldownMs, deps.cooldownMs * 2 ** Math.max(0, st.streak - 1));

  const prune = (): void => {
    const t = now();
    for (const [key, st] of states) {
      if (
        st.timer === undefined &&
        (st.lastQueuedAt === undefined || t - st.lastQueuedAt >= deps.maxCooldownMs)
      ) {
        states.delete(key);
      }
    }
  };

  const fire = (st: TriggerState): void => {
    st.timer = undefined;
    if (stopped) return;
    const { namespace, name } = st.workload;
    const wait = namespaceRoom(namespace);
    if (wait > 0) {
      // Signals stay merged; tried again when the namespace's minute has room.
      st.timer = setTimeout(() => fire(st), wait);
      return;
    }
    const workload = { ...st.workload, reasons: [...st.reasons].sort(), pods: [...st.pods].sort() };
    st.reasons = new Set();
    st.pods = new Set();
    st.lastQueuedAt = now();
    st.streak += 1;
    queued += 1;
    deps.enqueue(workload).catch((error: unknown) => {
      // Not lost (Redis away, a restart): the signals go back and are tried again
      // after a cooldown, merged with any that came meanwhile.
      queued -= 1;
      for (const r of workload.reasons) st.reasons.add(r);
      for (const p of workload.pods) if (st.pods.size < 20) st.pods.add(p);
      if (!stopped && st.timer === undefined) st.timer = setTimeout(() => fire(st), deps.cooldownMs);
      deps.logger.warn(
        { namespace, name, reason: error instanceof Error ? error.message : String(error) },
        'early-warning diagnosis could not be queued',
      );
    });
  };

  return {
    signal(s) {
      if (stopped) return;
      const key = `${s.kind}/${s.namespace}/${s.name}`;
      let st = states.get(key);
      if (!st) {
        if (states.size >= 1_000) prune();
        st = {
          workload: { kind: s.kind, namespace: s.namespace, name: s.name },
          timer: undefined,
          lastQueuedAt: undefined,
          streak: 0,
          reasons: new Set(),
          pods: new Set(),
        };
        states.set(key, st);
      }
      st.reasons.add(s.reason);
      if (st.pods.size < 20) st.pods.add(s.pod);
      if (st.timer !== undefined) return;
      const t = now();
      // Quiet for the longest cooldown: a new episode starts from the shortest.
      if (st.lastQueuedAt !== undefined && t - st.lastQueuedAt >= deps.maxCooldownMs) st.streak = 0;
      const due = Math.max(t + deps.debounceMs, (st.lastQueuedAt ?? -Infinity) + cooldown(st));
      const state = st;
      st.timer = setTimeout(() => fire(state), due - t);
    },
    get queued() {
      return queued;
    },
    stop() {
      stopped = true;
      for (const st of states.values()) clearTimeout(st.timer);
      states.clear();
    },
  };
}

/**
 * At most `perNamespace` diagnoses a minute per namespace: the returned function says
 * how many ms until the namespace has room for one more (0: now, and takes it), and
 * warns once a minute per namespace that signals wait.
 */
function namespaceBudget(
  perNamespace: number,
  now: () => number,
  logger: WorkloadTriggerDeps['logger'],
): (namespace: string) => number {
  /** When each namespace's last diagnoses were queued, within the last minute. */
  const recent = new Map<string, number[]>();
  /** Namespaces already warned about this minute. */
  const warned = new Map<string, number>();
  return (namespace) => {
    const t = now();
    const times = (recent.get(namespace) ?? []).filter((at) => t - at < 60_000);
    recent.set(namespace, times);
    if (times.length < perNamespace) {
      times.push(t);
      return 0;
    }
    if ((warned.get(namespace) ?? -Infinity) <= t - 60_000) {
      warned.set(namespace, t);
      logger.warn(
        { namespace, limit: perNamespace },
        'early warning: more workloads of this namespace signalled this minute than it diagnoses; the rest wait for room',
      );
    }
    return 60_000 - (t - (times[0] ?? t)) + 1;
  };
}
