/**
 * The bounds every strategy fix stays inside, which the admission policy holds the
 * worker to as well (charts/rollout-doctor/templates/admission-policy.yaml, variables
 * fixMax): a maxUnavailable of at most replicas − 1 (1 for a single replica), so a fix
 * never lets every replica of a workload that has several go at once. Where the proof
 * needs more, no RollingUpdate plan is offered (Recreate, or the Rollout's abort, says
 * "all of them" in words an approver cannot miss). Pure.
 */

/** The highest maxUnavailable a strategy fix writes for `replicas` (a DaemonSet: its nodes). */
export function maxFixUnavailable(replicas: number): number {
  return replicas <= 1 ? 1 : replicas - 1;
}
