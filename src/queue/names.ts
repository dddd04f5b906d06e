/** Queue names (DESIGN.md §2). Cluster names are DNS-1123 labels, so no ':' sneaks in. */
export const NOTIFY_QUEUE = 'notify';

/**
 * Slack posts nobody at a keyboard is waiting for (alert threads, alert and
 * early-warning diagnosis results): a lane of their own, so a flood of them, or a
 * Slack 429 pausing them, never delays a person's command result.
 */
export const ALERT_NOTIFY_QUEUE = 'notify-alerts';

/** Both notify lanes; the app consumes each with its own worker. */
export const NOTIFY_QUEUES = [NOTIFY_QUEUE, ALERT_NOTIFY_QUEUE] as const;

/** Diagnosis jobs for one cluster: consumed only by that cluster's workers. */
export function diagnoseQueueName(cluster: string): string {
  return `diagnose.${cluster}`;
}

/** Remediation jobs for one cluster. */
export function remediateQueueName(cluster: string): string {
  return `remediate.${cluster}`;
}

/**
 * "Propose in Git" jobs for one cluster (docs/propose-in-git.md): consumed by that
 * cluster's workers, the only processes that hold the Git token.
 */
export function proposeQueueName(cluster: string): string {
  return `propose.${cluster}`;
}

/** BullMQ key prefix shared by the app and the workers. */
export const QUEUE_PREFIX = 'rd';
