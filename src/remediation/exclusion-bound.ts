/**
 * How many nodes a workload may be kept off by name (issue 41): each exclude-node plan
 * adds a `kubernetes.io/hostname NotIn` value, and approving one after another could
 * pile them up until the workload runs almost nowhere. A plan that would take the count
 * past MAX_EXCLUDED_NODES in any required term is not offered
 * (builders/exclude-node.ts), and the admission policy denies such a write whatever the
 * worker is told (charts/rollout-doctor/templates/admission-policy.yaml); a count the
 * user set above it is left as it is, never grown. A workload that crashes on more nodes
 * than that has a cause the nodes share, which an exclusion only hides. Pure.
 */
import type { Affinity } from '../diagnosis/k8s.js';
import { HOSTNAME_LABEL } from './affinity-merge.js';

export const MAX_EXCLUDED_NODES = 3;

/** The most hostnames any required term of `affinity` excludes (NotIn). */
export function excludedByName(affinity: Affinity | undefined): number {
  const terms =
    affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const counts = terms.map((term) =>
    (term.matchExpressions ?? [])
      .filter((e) => e.key === HOSTNAME_LABEL && e.operator === 'NotIn')
      .reduce((n, e) => n + (e.values?.length ?? 0), 0),
  );
  return Math.max(0, ...counts);
}

/** Why going from `before` to `after` passes the bound, or undefined when it does not. */
export function beyondExclusionBound(
  before: Affinity | undefined,
  after: Affinity | undefined,
): string | undefined {
  const now = excludedByName(after);
  if (now <= MAX_EXCLUDED_NODES || now <= excludedByName(before)) return undefined;
  return `it would keep the workload off ${now} nodes by name, more than ${MAX_EXCLUDED_NODES}: a crash on that many nodes has a cause they share, which another exclusion only hides (undo an earlier exclusion, or fix the cause)`;
}
