/**
 * Action ids of the result message's buttons. Buttons in one actions block need
 * distinct ids, so approve/undo buttons carry an index suffix; listeners match
 * by prefix. The button value holds only the plan id (or the re-run target).
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
