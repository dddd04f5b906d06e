/**
 * A rolling update's strategy resolved to numbers, as the controller applies it, with
 * where each value came from: what the kind modules (src/diagnosis/workloads/) derive
 * and the 'strategy' evidence of a finding carries (JSON, DESIGN.md §3).
 */

/**
 * 'explicit': set by someone; 'default': filled in by the API server (not in the
 * manifest); 'unknown': equals the default, and which of the two is not recorded.
 */
export type ValueSource = 'explicit' | 'default' | 'unknown';

export interface ResolvedValue {
  /** As written (or defaulted) in the spec: 1, "25%". */
  raw: number | string;
  /** Resolved against spec.replicas exactly as the Deployment controller does. */
  value: number;
  source: ValueSource;
}

export interface ResolvedStrategy {
  /** Recreate: Deployments only; OnDelete: DaemonSets (and StatefulSets), a pod is replaced only when deleted. */
  type: 'RollingUpdate' | 'Recreate' | 'OnDelete';
  maxSurge: ResolvedValue | null; // null for Recreate and OnDelete
  maxUnavailable: ResolvedValue | null;
  /** What the percentages are of, when not replicas: a DaemonSet's nodes (desiredNumberScheduled). */
  per?: 'node';
  /**
   * An Argo Rollout's strategy, modelled as the surge it makes: 'canary' (the basic
   * canary, bounded by maxSurge and maxUnavailable like a rolling update),
   * 'trafficRouted' (a canary with trafficRouting: the stable ReplicaSet keeps every pod,
   * maxSurge the canary's count), 'blueGreen' (the preview ReplicaSet beside the active
   * one, which keeps every pod until promotion).
   */
  argo?: 'canary' | 'trafficRouted' | 'blueGreen';
  /**
   * The old (stable) pods all stay until the new revision is complete: blue-green's
   * active ReplicaSet, and a traffic-routed canary's stable without dynamicStableScale.
   * The end state then holds both revisions at once.
   */
  stableKept?: true;
  /** A StatefulSet's partition: pods below this ordinal keep the current revision. */
  partition?: number;
}
