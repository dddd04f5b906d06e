/**
 * What the remediate processor says in the thread, apart from its decisions
 * (remediate-processor.ts): the detail of each remediation-outcome reply. The app
 * renders the reply (src/chat/use-cases/outcome.ts) and escapes this text there,
 * since it carries names from the cluster and reasons from the API server.
 */
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { messageTime } from '../text/time.js';
import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import type { StepEvent } from '../kube/write/stepped-walk.js';
import type { RemediationPlan } from '../remediation/plan.js';

export const remediateWords = {
  notApproved: (stored: boolean): string =>
    stored
      ? 'the plan was not approved; nothing was applied.'
      : 'the plan is no longer stored; nothing was applied. Press Re-run.',
  otherCluster: (planCluster: string, jobCluster: string): string =>
    `not applied: this plan was made for cluster ${planCluster}, not ${jobCluster}. Press Re-run.`,
  untrusted: (reason: string): string =>
    `not applied: ${reason}. Nothing was changed; the plan or its approval may have been altered where they are stored. Press Re-run for a fresh plan.`,
  /** This worker's clock is off (src/queue/clock-watch.ts): nothing is checked or written by it. */
  clock: (problem: string): string =>
    `not applied: ${problem}. Nothing was changed; press Approve again once it is fixed, or Re-run.`,
  /** A genuine approval whose time is past by this worker's clock, which is in step with Redis's. */
  approvalExpired: (): string =>
    "not applied: the approval's time had passed by this worker's clock, which is in step with Redis's; if the job did not wait that long, the clock of the app that signed it is behind: fix time sync (NTP, chrony) on the app's node. Nothing was changed; press Re-run for a fresh plan.",
  expired: (ref: WorkloadRef, expiresAt: number): string => {
    return `not applied: the plan for ${typeOfKind(ref.kind)}/${ref.name} expired at ${messageTime(expiresAt)} before a worker could apply it. Re-run for a fresh plan.`;
  },
  outsideKind: (plan: RemediationPlan, reason: string): string =>
    `not applied: the stored ${plan.kind} plan for ${typeOfKind(plan.target.kind)}/${plan.target.name} is outside what that kind may change (${reason}). Nothing was changed; the plan may have been altered where it is stored.`,
  stale: (ref: WorkloadRef, reason: string): string =>
    `not applied: ${typeOfKind(ref.kind)}/${ref.name} changed since the diagnosis (${reason}). Re-run for a fresh plan.`,
  failed: (plan: RemediationPlan, reason: string, outcomeUnknown: boolean): string =>
    outcomeUnknown
      ? `${plan.kind} on ${typeOfKind(plan.target.kind)}/${plan.target.name}: the API server did not answer the write (${reason}), so it may or may not have been applied. Press Re-run to see the ${plan.target.kind} as it is now; a retry never applies twice.`
      : `${plan.kind} on ${typeOfKind(plan.target.kind)}/${plan.target.name} failed: ${reason}. Nothing was changed; press Re-run for a fresh message and approve it again once the cause is fixed.`,
  /** The one "applied" reply: what was done, any note, the fields changed, and what is watched next. */
  applied: (plan: RemediationPlan, note: string | undefined, changed: string, watching: string): string =>
    `${plan.summary} (${note ? `${note}; ` : ''}changed ${changed}). ${watching}`,
  /** A reply about the workload after the change: rolled out, paused, still failing. */
  about: (ref: WorkloadRef, text: string): string => `${typeOfKind(ref.kind)}/${ref.name}: ${text}`,
  /** A step of a stepped walk, one line (the step's data goes with it for the full reply). */
  step: (event: Exclude<StepEvent, { phase: 'done' }>): string => {
    switch (event.phase) {
      case 'waiting-ready':
        return `step 1 of ${event.of} started`;
      case 'ready':
        return `step ${event.step} of ${event.of} done`;
      case 'stopped':
        return `stopped at step ${event.step} of ${event.of}`;
      case 'marks-left':
        return `${event.pods.join(', ')} still marked with controller.kubernetes.io/pod-deletion-cost`;
    }
  },
};
