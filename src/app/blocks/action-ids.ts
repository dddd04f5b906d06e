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
} as const;

export const APPROVE_ACTION_PATTERN = /^approve_plan(\.\d+)?$/;
export const UNDO_ACTION_PATTERN = /^undo_plan(\.\d+)?$/;

/** Re-run button value: "cluster/namespace/name". */
export function rerunValue(cluster: string, namespace: string, name: string): string {
  return `${cluster}/${namespace}/${name}`;
}

export function parseRerunValue(value: string): { cluster: string; namespace: string; name: string } | null {
  const [cluster, namespace, name, ...rest] = value.split('/');
  return cluster && namespace && name && rest.length === 0 ? { cluster, namespace, name } : null;
}
