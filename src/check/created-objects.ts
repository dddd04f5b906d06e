/**
 * What the same change applies beside a workload, which admission judges its new pods
 * with (manifests.ts): the PriorityClasses it creates, and the ResourceQuotas and
 * LimitRanges of the workload's namespace. kubectl applies every document of the change,
 * so a quota or a limit range it creates or changes holds for the pods the rollout makes:
 * a quota that requires requests.cpu refuses a template without it, a limit range's max
 * refuses a bigger container. A quota's usage is what the resourcequota controller will
 * count: the namespace's pods as read (a quota it replaces keeps the usage its status
 * has).
 */
import { isTerminal } from '../diagnosis/base/pods.js';
import { formatQuotaAmount, quotaCharge, quotaMeasure } from '../diagnosis/base/quota-charge.js';
import type { LimitRange, PriorityClass, ResourceQuota } from '../diagnosis/k8s-policy.js';
import type { ObjectMeta, Pod } from '../diagnosis/k8s.js';
import type { NamedObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { isScoped, quotaTakesIn } from '../diagnosis/base/quota-scopes.js';
import { storedClasses } from './stored-classes.js';

interface CreatedObjects {
  createdClasses?: readonly PriorityClass[];
  createdQuotas?: readonly ResourceQuota[];
  createdLimitRanges?: readonly LimitRange[];
  createdNames?: readonly (NamedObject & { namespace?: string })[];
  /** The pods the other workloads of the change create (check.ts `changePods`), in any namespace. */
  changePods?: readonly { pod: Pod; owner: string }[];
}

/** `defaultNamespace`: where kubectl applies an object that names none (`-n`, the context's). */
export function withCreated(
  snapshot: WorkloadSnapshot,
  item: CreatedObjects,
  defaultNamespace: string,
): WorkloadSnapshot {
  const namespace = snapshot.target.namespace;
  const here = <T extends { metadata: ObjectMeta }>(objects: readonly T[] | undefined): T[] =>
    (objects ?? []).filter((o) => (o.metadata.namespace ?? defaultNamespace) === namespace);
  const quotas = here(item.createdQuotas);
  const ranges = here(item.createdLimitRanges);
  const names = (item.createdNames ?? []).filter((o) => (o.namespace ?? defaultNamespace) === namespace);
  // A class the API server refuses leaves the live one of its name, or none.
  const classes = storedClasses(item.createdClasses ?? [], snapshot.priorityClasses);
  return {
    ...snapshot,
    ...(classes.stored.length > 0 ? { createdPriorityClasses: classes.stored } : {}),
    ...(classes.refused.length > 0 ? { refusedPriorityClasses: classes.refused } : {}),
    ...(quotas.length > 0 ? { resourceQuotas: withQuotas(snapshot, quotas) } : {}),
    ...(ranges.length > 0 ? { createdLimitRanges: ranges.map((r) => inNamespace(r, namespace)) } : {}),
    ...(names.length > 0 ? { createdNames: names.map(({ kind, name }) => ({ kind, name })) } : {}),
    ...(item.changePods?.length ? { changePods: [...item.changePods] } : {}),
  };
}

const inNamespace = <T extends { metadata: ObjectMeta }>(o: T, namespace: string): T => ({
  ...o,
  metadata: { ...o.metadata, namespace },
});

/** The namespace's quotas with the applied ones in place of those of the same name. */
function withQuotas(snapshot: WorkloadSnapshot, applied: readonly ResourceQuota[]): ResourceQuota[] {
  const namespace = snapshot.target.namespace;
  const names = new Set(applied.map((q) => q.metadata.name));
  const live = snapshot.resourceQuotas ?? [];
  const charged = [...snapshot.pods, ...(snapshot.namespacePods ?? snapshot.otherPods)].filter(
    (p) => p.metadata.namespace === namespace && !isTerminal(p),
  );
  const stored = applied.map((quota): ResourceQuota => {
    const hard = quota.spec?.hard ?? {};
    const before = live.find((q) => q.metadata.name === quota.metadata.name)?.status?.used ?? {};
    // A scoped quota counts only the pods its scopes take in.
    const takenIn = isScoped(quota) ? charged.filter((p) => quotaTakesIn(quota, p.spec) === true) : charged;
    const used: Record<string, string> = {};
    for (const resource of Object.keys(hard)) {
      const known = before[resource];
      if (known !== undefined) used[resource] = String(known);
      else if (quotaMeasure(resource)) {
        const sum = takenIn.reduce((total, p) => total + (quotaCharge(p.spec, resource) ?? 0), 0);
        used[resource] = formatQuotaAmount(resource, sum);
      }
    }
    return { ...inNamespace(quota, namespace), status: { hard, used } };
  });
  return [...live.filter((q) => !names.has(q.metadata.name)), ...stored];
}
