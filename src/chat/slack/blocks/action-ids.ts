/**
 * Action ids of the result message's buttons. Buttons in one actions block need
 * distinct ids, so approve/undo buttons carry an index suffix; listeners match
 * by prefix. An Apply or Undo button's value holds the plan id, the digest of the
 * plan as the message shows it and who asked for the diagnosis (planButtonValue); a
 * status button's only the plan id;
 * Re-run's the target.
 */
import {
  DEFAULT_WORKLOAD_KIND,
  kindOfType,
  typeOfKind,
  type WorkloadKind,
} from '../../../diagnosis/workload-ref.js';
import { isRequester, type RerunTarget, type Requester } from '../../actions.js';
export const ACTION = {
  approve: 'approve_plan',
  undo: 'undo_plan',
  rerun: 'rerun_diagnosis',
  dismiss: 'dismiss_result',
  /** A plan that was approved or expired: the button only says so, it never applies anything. */
  status: 'plan_status',
  /** Draft post-mortem: its value is POSTMORTEM_VALUE, the incident is the app's record of the message. */
  postmortem: 'draft_postmortem',
  /** Propose in Git: its value is an Apply's (planButtonValue), its index suffix its Apply's. */
  propose: 'propose_plan',
  /**
   * The select beside an exclude-node plan's Apply: how long the exclusion lasts. Its
   * index suffix is its Apply's; its value reaches the app with the Apply's press
   * (the interaction's state), and choosing alone writes nothing.
   */
  lasts: 'exclusion_lasts',
} as const;

/** The one value a Draft post-mortem button carries. */
export const POSTMORTEM_VALUE = 'postmortem';

export const APPROVE_ACTION_PATTERN = /^approve_plan(\.\d+)?$/;
export const UNDO_ACTION_PATTERN = /^undo_plan(\.\d+)?$/;
export const STATUS_ACTION_PATTERN = /^plan_status(\.\d+)?$/;
export const PROPOSE_ACTION_PATTERN = /^propose_plan(\.\d+)?$/;
export const LASTS_ACTION_PATTERN = /^exclusion_lasts(\.\d+)?$/;

/** The index suffix of a button's action id ("approve_plan.3" → ".3"), or "". */
export function actionIndexSuffix(actionId: unknown): string {
  return typeof actionId === 'string' ? (/\.\d+$/.exec(actionId)?.[0] ?? '') : '';
}

// The port's words for who asked and what a Re-run diagnoses (src/chat/actions.ts).
export { NO_REQUESTER, isRequester, type Requester, type RerunTarget } from '../../actions.js';

/**
 * Re-run button value: "cluster/namespace/name" for a Deployment, "cluster/namespace/name/type"
 * for another kind (no Kubernetes name holds a '/').
 */
export function rerunValue(cluster: string, target: RerunTarget): string {
  const kind = target.kind ?? DEFAULT_WORKLOAD_KIND;
  const type = kind === DEFAULT_WORKLOAD_KIND ? '' : `/${typeOfKind(kind)}`;
  return `${cluster}/${target.namespace}/${target.name}${type}`;
}

export function parseRerunValue(
  value: string,
): { cluster: string; namespace: string; name: string; kind: WorkloadKind } | null {
  const [cluster, namespace, name, type, ...rest] = value.split('/');
  const kind = type === undefined ? DEFAULT_WORKLOAD_KIND : kindOfType(type);
  if (!cluster || !namespace || !name || kind === undefined || rest.length > 0) return null;
  return { cluster, namespace, name, kind };
}

const SHOWN_DIGEST = /^[0-9a-f]{64}$/;

/**
 * Apply/Undo button value: "<plan id>:<shown digest>:<requester>". Slack returns a
 * button's value in the signed interaction exactly as the app posted it, so the digest
 * tells the click handler what the approver was shown, and the requester who asked for
 * the diagnosis (a user id, or "-" for a message nobody asked for), so that no record a
 * Redis writer can delete decides the two-person rule (plan ids never contain ':').
 * With `requester` null (not known: an Undo of an approval given before buttons named
 * one) the value is the earlier "<plan id>:<shown digest>".
 */
export function planButtonValue(planId: string, shown: string, requester: Requester | null = null): string {
  return requester === null ? `${planId}:${shown}` : `${planId}:${shown}:${requester}`;
}

/**
 * The plan id, shown digest and requester of an Apply/Undo button; `shown` null for a
 * value without one (posted before v2), `requester` null for a value without one
 * (posted before buttons named the requester).
 */
export function parsePlanButtonValue(value: string): {
  planId: string;
  shown: string | null;
  requester: Requester | null;
} {
  const [planId = '', digest = '', requester, ...rest] = value.split(':');
  if (planId !== '' && SHOWN_DIGEST.test(digest) && rest.length === 0) {
    if (requester === undefined) return { planId, shown: digest, requester: null };
    if (isRequester(requester, 'slack')) return { planId, shown: digest, requester };
  }
  return { planId: value, shown: null, requester: null };
}

/**
 * block_ids of a result's verdict line and of the line that says where its approved fix
 * stands: src/chat/notify/root-update.ts re-renders these two as the fix's outcomes arrive.
 */
export const ROOT_BLOCK = { verdict: 'rd-verdict', state: 'rd-state', resolved: 'rd-resolved' } as const;
