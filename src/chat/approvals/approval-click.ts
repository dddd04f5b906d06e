/**
 * An approver's click as the decision takes it (the port's press, whatever the
 * platform), and the decision's outcome (src/chat/approvals/approve.ts).
 */
import type { StoredPlan } from '../../queue/plan-store.js';
import type { ExclusionTtl, ExclusionTtlChoice } from '../../remediation/exclusion-ttl.js';
import type { Requester } from '../actions.js';
import type { Platform, Rich } from '../model.js';

export interface ApprovalClick {
  user: string;
  channel: string;
  /** The message the button is on, and its thread root (the thread gets the outcome). */
  messageTs: string;
  rootTs: string;
  planId: string;
  /** The shown digest the button carried (null: a button posted before buttons carried one). */
  shown: string | null;
  /**
   * Who asked for the diagnosis, as the button carried it (the app put it there from its
   * signed subscription; NO_REQUESTER: an alert thread); null: a button posted before
   * buttons named one.
   */
  requester: Requester | null;
  /** The platform of the clicker and of the ids in the answers (absent: Slack, the first). */
  platform?: Platform;
  /**
   * How long a node exclusion lasts, as the clicker chose it beside the button (one of
   * the closed set, checked on the way in); absent: as the plan says (chosen-duration.ts).
   */
  lasts?: ExclusionTtlChoice;
}

export type ApprovalOutcome =
  /** Nothing changed; tell the clicker why. */
  | {
      kind: 'refused';
      text: Rich;
      /** A later diagnosis re-made the plan: its kind, for the clicked message to say so. */
      superseded?: string;
    }
  /** The plan expired: tell the clicker and mark the button. */
  | { kind: 'expired'; stored: StoredPlan }
  /** Recorded, more approvers needed. `ttl`: how long the exclusion approved lasts (none: no exclusion). */
  | { kind: 'recorded'; approvals: number; required: number; ttl?: ExclusionTtl }
  /** Claimed and queued: mark the button approved. `ttl` as above. */
  | { kind: 'approved'; stored: StoredPlan; approvers: string[]; ttl?: ExclusionTtl };
