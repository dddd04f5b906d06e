/**
 * A finding's headline as data: the facts its English summary is written from, keyed,
 * so that a reader of another language gets the same sentence from the message
 * catalogue (src/report/finding-words.ts) instead of a translation of English prose.
 * Only findings that set it are translated; the others show their English summary.
 * Every string here is cluster text (names), shown as text wherever it goes.
 */
export type FindingWords =
  | {
      readonly key: 'surge-deadlock';
      readonly params: SurgeDeadlockParams;
    }
  | {
      /**
       * A surge deadlock that stops the rollout only if another workload's Pending pods of
       * the same priority are placed first (forward/queue-race.ts): `rivals`, named.
       */
      readonly key: 'surge-deadlock-race';
      readonly params: SurgeDeadlockParams & { readonly rivals: string };
    }
  | {
      /** A surge deadlock that holds only while running Jobs or neighbour rollouts keep the room. */
      readonly key: 'surge-deadlock-waits';
      readonly params: SurgeDeadlockParams & WaitParams;
    }
  | {
      readonly key: 'crash-loop-on-node';
      readonly params: {
        readonly name: string;
        /** The nodes it crashes on, and those where the same template runs Ready, joined with ", ". */
        readonly badNodes: string;
        readonly goodNodes: string;
        /** The failing containers' names, joined with ", ". */
        readonly containers: string;
        readonly crashing: number;
        readonly total: number;
        /** The last exit code seen on a crashing node, and its reason; absent: not seen. */
        readonly exitCode?: number;
        readonly reason?: string;
      };
    }
  | {
      /** An Argo Rollout its controller holds paused (analyzers/rollout-halt.ts). */
      readonly key: 'argo-paused';
      readonly params: {
        /** "rollout/web", and the Rollout's name for the commands. */
        readonly ref: string;
        readonly name: string;
        /** The pause's reason (CanaryPauseStep, BlueGreenPause, InconclusiveAnalysisRun, spec.paused, …). */
        readonly reason: string;
        /** The canary step it stands at (1-based) of how many, when it has steps. */
        readonly step?: number;
        readonly steps?: number;
        readonly since?: string;
        /** A timed pause step: its length ("1h"), its end ("2026-11-24 11:00 UTC"), and the span between the end and the read. */
        readonly timed?: {
          readonly lasts: string;
          readonly endsAt: string;
          readonly ended: boolean;
          readonly gap: string;
        };
      };
    }
  | {
      /** A Deployment paused mid-rollout (forward/paused.ts). */
      readonly key: 'deployment-paused';
      readonly params: {
        /** "deployment/web", its namespace and its kind's word ("Deployment"). */
        readonly ref: string;
        readonly namespace: string;
        readonly kind: string;
        readonly desired: number;
        /** Available replicas; absent: its status was not read. */
        readonly available?: number;
        /** Each revision the pause holds, old ones first, and whether the new template has none yet. */
        readonly holds: readonly PausedHold[];
        readonly noNew: boolean;
        readonly resume: PausedResume;
        /** Its Progressing condition still reads ProgressDeadlineExceeded from before the pause. */
        readonly deadlineExceeded: boolean;
        /**
         * Its new ReplicaSet holds every replica, each Ready or starting: once all are
         * available the controller scales the old ones to 0 while paused (scale(), IsSaturated).
         */
        readonly saturating: boolean;
        /**
         * The HorizontalPodAutoscaler that sets a new replica count at its next sync, and the
         * count: the paused controller spreads it over the ReplicaSets (proportional scaling).
         */
        readonly autoscaler?: string;
        readonly scaledTo?: number;
      };
    }
  | {
      /** An update that waits for old pods to be deleted (updateStrategy OnDelete; forward/on-delete.ts). */
      readonly key: 'update-on-delete';
      readonly params: {
        /** "statefulset/db". */
        readonly ref: string;
        /** Pods still on an old revision, of all the workload's pods. */
        readonly old: number;
        readonly total: number;
        /** Their names, in the order to delete them (the first few, joined with ", "). */
        readonly pods: string;
        /** The first to delete, and the command that does it (a code span). */
        readonly first: string;
        readonly command: string;
        /** A StatefulSet's: the controller's own order is from the highest ordinal down. */
        readonly byOrdinal: boolean;
      };
    }
  | {
      /** An Argo canary's step ahead a quota holds only without the namespace's other pods (forward/quota-neighbours.ts). */
      readonly key: 'quota-waits';
      readonly params: {
        /** "rollout/web". */
        readonly ref: string;
        /** Paused now (the wait comes once it is resumed). */
        readonly paused: boolean;
        /** The step (1-based) and its action as the manifest says it; absent: the promotion after the last step. */
        readonly step?: number;
        readonly action?: string;
        readonly canary: number;
        readonly stable: number;
        readonly quota: string;
        readonly resource: string;
        /** What the step's pods charge, and the quota's hard limit, as quantities. */
        readonly ours: string;
        readonly hard: string;
        /** How many other pods of the namespace, and their names with their owners, joined with ", ". */
        readonly count: number;
        readonly pods: string;
        /** The commands that raise the quota and abort the rollout (code spans). */
        readonly edit: string;
        readonly abort: string;
      };
    };

/** One ReplicaSet a pause holds, and its pods by phase. */
export interface PausedHold {
  readonly old: boolean;
  readonly name: string;
  readonly pods: number;
  readonly ready: number;
  readonly starting: number;
  readonly pending: number;
  readonly failing: number;
  readonly terminating: number;
}

/** What resuming a paused rollout does, run forward; `codes`: the other findings' codes, joined with ", ". */
export type PausedResume =
  | { readonly result: 'finishes' }
  | {
      readonly result: 'blocked';
      readonly pending: number;
      readonly refused: boolean;
      readonly evenWithoutOld: boolean;
      readonly codes: string;
    }
  | { readonly result: 'failing'; readonly codes: string }
  | { readonly result: 'unknown' };

/** A surge deadlock's headline facts (analyzers/surge-deadlock.ts). */
interface SurgeDeadlockParams {
  /** The workload, the new Pending pod, the node and what it needs there (a resource name, "host port 8080"). */
  readonly name: string;
  readonly kind: string;
  readonly pod: string;
  readonly node: string;
  readonly need: string;
  /** The old pods holding it, joined with ", ". */
  readonly holders: string;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  /** Likely, not proved (a read is missing). */
  readonly likely: boolean;
  /**
   * The new pod's priority equals the old pods' (the usual case): the scheduler's
   * preemption takes only pods of lower priority. Else it does not preempt them for
   * another reason (a lower priority, preemptionPolicy Never, its own "no victim").
   */
  readonly samePriority?: boolean;
  /**
   * A traffic-routed Argo canary: the stable ReplicaSet keeps every pod until promotion
   * and the canary's pods start beside them; maxSurge and maxUnavailable do not apply.
   */
  readonly routed?: boolean;
}

/**
 * What a blocked rollout waits for (forward/job-wait.ts, `Finding.waitsFor`), for its
 * headline in another language: `waitNames` the Jobs' or Deployments' names joined with
 * ", "; `rollouts`: neighbour rollouts' old pods, not Jobs; `bound`: judged by a bound on
 * room, not a run; `unread`: a neighbour's Deployment was not read.
 */
interface WaitParams {
  readonly waitNames: string;
  /** `waitNames` carry each holder's kind ("Rollout ml/beta"): some are Argo Rollouts. */
  readonly kinds: boolean;
  readonly rollouts: boolean;
  /** A neighbour Deployment scaling down to its replicas, not Jobs or a rollout. */
  readonly scaleDown: boolean;
  /** That scale-down is bounded by the neighbour's autoscaler (its maxReplicas stay at most). */
  readonly capped: boolean;
  readonly one: boolean;
  readonly some: boolean;
  readonly bound: boolean;
  readonly unread: boolean;
  /** A neighbour's newest pods are still starting, not Ready yet. */
  readonly starting: boolean;
}

/**
 * A pause its controller ends by itself: an Argo timed pause step (or autoPromotionSeconds)
 * whose end is still ahead. Nobody needs to act; every other pause waits for a person.
 */
function pauseEndsByItself(finding: { readonly code: string; readonly says?: FindingWords }): boolean {
  const says = finding.says;
  return (
    finding.code === 'RolloutPaused' && says?.key === 'argo-paused' && says.params.timed?.ended === false
  );
}

/** Paused, and by pauses that all end by themselves: no person needs to act (report and scan). */
export function pausesEndByThemselves(
  findings: readonly { readonly code: string; readonly says?: FindingWords }[],
): boolean {
  const pauses = findings.filter((f) => f.code === 'RolloutPaused');
  return pauses.length > 0 && pauses.every(pauseEndsByItself);
}
