/** Queue names (DESIGN.md §2). Cluster names are DNS-1123 labels, so no ':' sneaks in. */
export const NOTIFY_QUEUE = 'notify';

/** Diagnosis jobs for one cluster: consumed only by that cluster's workers. */
export function diagnoseQueueName(cluster: string): string {
  return `diagnose.${cluster}`;
}

/** Remediation jobs for one cluster. */
export function remediateQueueName(cluster: string): string {
  return `remediate.${cluster}`;
}

/** BullMQ key prefix shared by the app and the workers. */
export const QUEUE_PREFIX = 'rd';
