/**
 * The worker's Kubernetes rights on the workload kinds, derived from their registry
 * (diagnosis/workloads/kinds.ts): each kind's resource with its verbs (read, follow the
 * rollout, patch approved plans), its subresources (an Argo Rollout's status), and a
 * list of its revision objects. The chart's RBAC is written by hand with a comment per
 * rule; `npm run render-deploy` (scripts/workload-grants.ts) and
 * test/unit/workload-kind-unit.test.ts fail when the rendered ClusterRole grants less
 * than these rules, or when a kind's patch right is not bounded by an admission policy.
 */
import type { WorkloadApiList } from '../diagnosis/workload-api.js';

/** An RBAC PolicyRule, as a ClusterRole lists it. */
interface PolicyRule {
  apiGroups: readonly string[];
  resources: readonly string[];
  verbs: readonly string[];
}

/** The rules the worker needs on every kind of a registry. */
export function workloadRbacRules(apis: WorkloadApiList): PolicyRule[] {
  return apis.flatMap((api) => [
    { apiGroups: [api.group], resources: [api.resource], verbs: [...api.verbs] },
    ...Object.entries(api.subresources ?? {}).map(([sub, verbs]) => ({
      apiGroups: [api.group],
      resources: [`${api.resource}/${sub}`],
      verbs: [...verbs],
    })),
    { apiGroups: ['apps'], resources: [api.revisions.resource], verbs: ['list'] },
  ]);
}

/** "patch statefulsets.apps": one (verb, resource, group) a rule grants. */
function grants(rules: readonly PolicyRule[]): Set<string> {
  const out = new Set<string>();
  for (const rule of rules)
    for (const group of rule.apiGroups)
      for (const resource of rule.resources)
        for (const verb of rule.verbs) out.add(`${verb} ${resource}${group ? `.${group}` : ''}`);
  return out;
}

/** What `needed` asks that `granted` does not grant, as "patch clonesets.apps.kruise.io". */
export function missingGrants(needed: readonly PolicyRule[], granted: readonly PolicyRule[]): string[] {
  const have = grants(granted);
  return [...grants(needed)].filter((g) => !have.has(g));
}

/**
 * The kinds' patch rights that no admission policy's resource rules match, as
 * "clonesets.apps.kruise.io": a write the worker may make unbounded (docs/security.md).
 */
export function unboundedPatches(
  needed: readonly PolicyRule[],
  policies: readonly { apiGroups: readonly string[]; resources: readonly string[] }[],
): string[] {
  const bounded = grants(policies.map((p) => ({ ...p, verbs: ['patch'] })));
  return [...grants(needed.filter((r) => r.verbs.includes('patch')).map((r) => ({ ...r, verbs: ['patch'] })))]
    .filter((g) => !bounded.has(g))
    .map((g) => g.slice('patch '.length));
}
