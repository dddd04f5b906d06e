/**
 * What a forward run ends in (run.ts), and which run it is: the types run.ts and the
 * modules it calls (unbuilt.ts) share.
 */
import type { Pod } from '../k8s.js';
import type { StepShortfall } from './canary-steps.js';
import type { Step } from './model.js';
import type { QuotaRef } from './world.js';

export type Outcome =
  | { result: 'completes'; ticks: number; steps: Step[] }
  /** Nothing changes any more and pods of the new revision are missing: `pending` wait forever, or creates are refused. */
  | {
      result: 'blocked';
      ticks: number;
      steps: Step[];
      pending: Pod[];
      refused: boolean;
      quota?: QuotaRef;
      /** An Argo canary's step that can never be reached (the end state may fit). */
      step?: StepShortfall['step'];
    }
  /** New pods never become Ready by themselves (crash, pull, probe): not a capacity question. */
  | {
      result: 'failing';
      ticks: number;
      steps: Step[];
      /**
       * The nodes of the new pods that never become Ready, where each is a node whose
       * kubelet does not report (NotReady, unreachable): they wait for their node rather
       * than fail of themselves. Absent: some fail on a node that reports.
       */
      nodesDown?: string[];
    }
  /**
   * A kind whose updates the model does not follow to the end (a StatefulSet's ordered
   * pods, an Argo canary's steps), with a pod on its way: a new pod starting, or an old
   * one terminating. Whatever comes after, the next step happens by itself.
   */
  | { result: 'moving'; steps: Step[] }
  | { result: 'unknown'; why: string };

/**
 * 'as-is': the rollout from the snapshot; 'without-old': the same with this workload's
 * old pods gone first; 'next-rollout': the next template change from the steady state
 * (every pod now running is an old one), which RolloutAtRisk predicts; 'candidate': the
 * same for a manifest about to be applied (check, the admission webhook: src/check's
 * candidate snapshot, whose template is the manifest's), where StatefulSets and basic
 * Argo canaries are run as the rolling update they keep to (proxy-strategy.ts).
 */
export type Variant = 'as-is' | 'without-old' | 'next-rollout' | 'candidate';
