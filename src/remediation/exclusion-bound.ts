/**
 * How many nodes a workload may be kept off: each exclude-node plan adds a
 * `kubernetes.io/hostname NotIn` value (or, for several crashing nodes that share a
 * node label, a `label NotIn` value), and approving one after another could pile them
 * up until the workload runs almost nowhere. A plan that would take the values of one
 * key past MAX_EXCLUDED_NODES in any required term is not offered
 * (builders/exclude-node.ts), and the admission policy denies such a write whatever the
 * worker is told (charts/rollout-doctor/templates/admission-policy.yaml); a count the
 * user set above it is left as it is, never grown. A workload that crashes on more nodes
 * than that by name has a cause the nodes share, which an exclusion only hides.
 *
 * Where a label exclusion is allowed at all (`mayExcludeByLabel`) is the policy's
 * `byLabel`: never on a DaemonSet (its controller deletes its pod at once from every node
 * the label matches, and a label can be on every node), nor on a Deployment that
 * replaces every pod at once (Recreate). Pure.
 */
import type { Affinity } from '../diagnosis/k8s.js';
import { HOSTNAME_LABEL } from './affinity-merge.js';

export const MAX_EXCLUDED_NODES = 3;

/** The most values of `key` any required term of `affinity` excludes (NotIn). */
function excludedBy(affinity: Affinity | undefined, key: string): number {
  const terms =
    affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const counts = terms.map((term) =>
    (term.matchExpressions ?? [])
      .filter((e) => e.key === key && e.operator === 'NotIn')
      .reduce((n, e) => n + (e.values?.length ?? 0), 0),
  );
  return Math.max(0, ...counts);
}

/** The most hostnames any required term of `affinity` excludes (NotIn). */
export function excludedByName(affinity: Affinity | undefined): number {
  return excludedBy(affinity, HOSTNAME_LABEL);
}

/**
 * Whether the policy admits an exclusion by a node label other than the hostname on this
 * workload: not on one whose pods are pinned to nodes (a DaemonSet: its controller deletes
 * them at once from every node the label matches), nor under Recreate (only Deployments have it).
 */
export function mayExcludeByLabel(pinnedToNodes: boolean, strategyType: string | undefined): boolean {
  return !pinnedToNodes && strategyType !== 'Recreate';
}

/** Why going from `before` to `after` passes the bound on `key`, or undefined when it does not. */
export function beyondExclusionBound(
  before: Affinity | undefined,
  after: Affinity | undefined,
  key = HOSTNAME_LABEL,
): string | undefined {
  const now = excludedBy(after, key);
  if (now <= MAX_EXCLUDED_NODES || now <= excludedBy(before, key)) return undefined;
  const what = key === HOSTNAME_LABEL ? `${now} nodes by name` : `${now} values of ${key}`;
  return `it would keep the workload off ${what}, more than ${MAX_EXCLUDED_NODES}: a crash on that many nodes has a cause they share, which another exclusion only hides (undo an earlier exclusion, or fix the cause)`;
}
