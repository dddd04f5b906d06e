import type { Logger } from './logger.js';

/** What happened to a remediation plan; one structured line per event. */
export type AuditEvent =
  | {
      action: 'approval';
      planId: string;
      cluster: string;
      namespace: string;
      deployment: string;
      kind: string;
      user: string;
      /** 'claimed' when this approval starts the change, 'recorded' when more approvers are needed. */
      result: 'claimed' | 'recorded';
      /** How long the node exclusion approved lasts (`4h`, `until-removed`), as its approver chose it; absent: no exclusion. */
      lasts?: string;
    }
  | {
      action: 'refusal';
      planId: string;
      cluster?: string;
      namespace?: string;
      deployment?: string;
      user: string;
      reason:
        | 'not-approver'
        | 'expired'
        | 'already-claimed'
        | 'unknown-plan'
        | 'same-approver'
        | 'self-approval'
        /** Another plan of the same result message was approved first: one fix per message. */
        | 'other-plan-approved'
        /** Dismiss by someone who neither asked for the result nor may approve there (planId 'dismiss'). */
        | 'not-requester'
        /** A diagnosis, scan or Re-run the read policy does not allow (planId 'diagnose', 'scan' or 'rerun'). */
        | 'not-reader'
        /**
         * The stored plan is not what the clicked message showed (its shown digest
         * differs), and no later worker-signed diagnosis shows it either: altered in
         * Redis, or a diagnosis whose result had not arrived yet. Also: at the claim, an
         * approval recorded without the app's mark (approvals cleared). Nothing approved.
         */
        | 'tampered'
        /**
         * A later diagnosis of the same Deployment re-made the plan (same id) with other
         * details, as its worker-signed result shows: the clicked message is older. Nothing approved.
         */
        | 'superseded'
        /** A button or a plan from before an upgrade (no shown digest, another seal version). */
        | 'outdated'
        /**
         * Approvals of the plan are recorded for another duration of its node exclusion
         * than this approver chose: the first stands, this one is not recorded.
         */
        | 'other-duration'
        /** A press naming how long a node exclusion lasts, for a plan that writes none. */
        | 'not-offered'
        | 'rate-limited'
        /**
         * The command budget could not be read (Redis stalled, full, read-only or
         * unreachable): the start is refused, visibly, rather than let through unbudgeted.
         */
        | 'budget-unread'
        /**
         * A diagnosis, scan or Re-run whose run gave its message no final result within
         * ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS (a run that never ends, or a job or run
         * record pinned in Redis): its message says it could not finish. planId 'alert'
         * (user ALERTMANAGER): an alert thread whose diagnosis never came, said in the thread.
         */
        | 'unfinished';
      detail?: string;
    }
  | {
      /** A notify job the app would not post: no valid signature of the kind's maker. */
      action: 'notification';
      /** The notify job's id (audit lines are keyed by planId). */
      planId: string;
      kind: string;
      queue: string;
      outcome: 'tampered';
      detail: string;
    }
  | {
      action: 'outcome';
      planId: string;
      cluster: string;
      namespace: string;
      deployment: string;
      kind: string;
      approvedBy: string[];
      outcome:
        | 'applied'
        | 'already-applied'
        | 'refused'
        | 'failed'
        | 'rolled-out'
        /** The replacements of the pods a plan deleted are Ready (no rollout was started). */
        | 'pods-ready'
        | 'still-failing'
        | 'timeout'
        /** Applied to a paused Deployment; its rollout waits for `kubectl rollout resume`. */
        | 'paused'
        /** Approved, but the job could not be queued: the claim was released, nothing applied. */
        | 'not-queued'
        /**
         * The plan's seal, its approval's signature or the job did not verify, an approval
         * was replayed, or the plan was outside what its kind may change: nothing applied.
         */
        | 'tampered';
      detail?: string;
    }
  | {
      /**
       * A "Propose in Git" job's outcome (src/worker/propose-processor.ts; planId
       * propose/<plan id>, as its approval was signed): the pull request opened or updated
       * (`url`), nothing to change, the change left to make by hand, refused, failed, or
       * a job whose plan or approval did not verify (tampered: nothing pushed).
       */
      action: 'proposal';
      planId: string;
      cluster: string;
      namespace: string;
      deployment: string;
      kind: string;
      approvedBy: string[];
      outcome: 'opened' | 'updated' | 'unchanged' | 'by-hand' | 'refused' | 'failed' | 'tampered';
      url?: string;
      detail?: string;
    }
  | {
      /**
       * A node exclusion that ends itself (src/worker/exclusion-expiry.ts):
       * removed when it expired (as its approver chose when approving it), or its
       * removal offered when the excluded nodes no longer carry what set them apart.
       */
      action: 'exclusion';
      planId: string;
      cluster: string;
      namespace: string;
      deployment: string;
      cause: 'expired' | 'nodes-changed';
      outcome: 'removed' | 'already-removed' | 'refused' | 'failed' | 'offered' | 'waiting';
      detail?: string;
    }
  | {
      /**
       * A post-mortem draft posted in a thread by the Draft post-mortem button
       * (src/chat/use-cases/postmortem-press.ts): who pressed, which incident, the
       * file posted (or quoted over messages where the platform posts no file) and how
       * many events of the record it was drafted from. It names no workload, so it is not
       * kept in the incident's own record (a draft does not change what it drafts).
       */
      action: 'postmortem';
      planId: 'postmortem';
      cluster: string;
      namespace: string;
      /** The incident drafted (CLUSTER/NAMESPACE/NAME). */
      incident: string;
      user: string;
      /** The chat conversation it was posted in. */
      channel: string;
      file: string;
      posted: 'file' | 'snippets';
      entries: number;
    }
  | AuditDiagnosis;

/**
 * One finding of a diagnosis as the audit keeps it (src/postmortem reads it back): its
 * code and summary, and the error messages of its evidence as the cluster wrote them
 * (untrusted text, cut to a bound).
 */
interface AuditFinding {
  code: string;
  severity: string;
  summary: string;
  messages: string[];
}

/**
 * What one diagnosis of a workload found and offered (planId 'diagnosis'), so an
 * incident's record holds its evidence and alternatives beside the approvals.
 */
export interface AuditDiagnosis {
  action: 'diagnosis';
  planId: 'diagnosis';
  cluster: string;
  namespace: string;
  /** The workload's name (the field every audit event names it by). */
  deployment: string;
  /** The workload's kind (Deployment, StatefulSet, DaemonSet, Rollout). */
  workloadKind: string;
  /** Who asked: a person id, or ALERTMANAGER, EARLYWARNING, ADMISSION. */
  requestedBy: string;
  /** When the request was queued (RFC 3339): the first signal's time. */
  requestedAt: string;
  findings: AuditFinding[];
  offered: { id: string; kind: string; summary: string }[];
  notOffered: { kind: string; addresses: string; reason: string }[];
  /** The workload's replicas as read; absent when its status was not read. */
  serving?: { desired: number; available: number; updated: number };
  /** Changes to commit to the manifest (unified-diff lines, cut to a bound). */
  manifestChanges?: { addresses: string; where: string; diff: string }[];
}

/** Writes audit events as `audit: true` log lines, so they can be shipped apart from the rest. */
export interface Audit {
  record(event: AuditEvent): void;
}

/** @example createAudit(logger).record({ action: 'refusal', planId, user, reason: 'not-approver' }) */
export function createAudit(logger: Logger): Audit {
  const child = logger.child({ audit: true });
  return {
    record(event) {
      child.info({ event }, `audit ${event.action} ${event.planId}`);
    },
  };
}
