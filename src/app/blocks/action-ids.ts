/**
 * Action ids of the result message's buttons. Buttons in one actions block need
 * distinct ids, so approve/undo buttons carry an index suffix; listeners match
 * by prefix. An Apply or Undo button's value holds the plan id and the digest of the
 * plan as the message shows it (planButtonValue); a status button's only the plan id;
 * Re-run's the target.
 */
export const ACTION = {
  approve: 'approve_plan',
  undo: 'undo_plan',
  rerun: 'rerun_diagnosis',
  dismiss: 'dismiss_result',
  /** A plan that was approved or expired: the button only says so, it never applies anything. */
  status: 'plan_status',
} as const;

export const APPROVE_ACTION_PATTERN = /^approve_plan(\.\d+)?$/;
export const UNDO_ACTION_PATTERN = /^undo_plan(\.\d+)?$/;
export const STATUS_ACTION_PATTERN = /^plan_status(\.\d+)?$/;

/** The index suffix of a button's action id ("approve_plan.3" → ".3"), or "". */
export function actionIndexSuffix(actionId: unknown): string {
  return typeof actionId === 'string' ? (/\.\d+$/.exec(actionId)?.[0] ?? '') : '';
}

/** Re-run button value: "cluster/namespace/name". */
export function rerunValue(cluster: string, namespace: string, name: string): string {
  return `${cluster}/${namespace}/${name}`;
}

export function parseRerunValue(value: string): { cluster: string; namespace: string; name: string } | null {
  const [cluster, namespace, name, ...rest] = value.split('/');
  return cluster && namespace && name && rest.length === 0 ? { cluster, namespace, name } : null;
}

const SHOWN_DIGEST = /^[0-9a-f]{64}$/;

/**
 * Apply/Undo button value: "<plan id>:<shown digest>". Slack returns a button's value in
 * the signed interaction exactly as the app posted it, so the digest tells the click
 * handler what the approver was shown (plan ids never contain ':').
 */
export function planButtonValue(planId: string, shown: string): string {
  return `${planId}:${shown}`;
}

/** The plan id and shown digest of an Apply/Undo button; `shown` null for a value without one (posted before v2). */
export function parsePlanButtonValue(value: string): { planId: string; shown: string | null } {
  const at = value.lastIndexOf(':');
  const digest = at < 0 ? '' : value.slice(at + 1);
  return at > 0 && SHOWN_DIGEST.test(digest)
    ? { planId: value.slice(0, at), shown: digest }
    : { planId: value, shown: null };
}
