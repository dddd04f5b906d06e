/**
 * The ResourceQuotas of a namespace as the snapshot read them, in the units quota
 * admission compares (quota-charge.ts): per quota, each entry a pod charges, with its
 * hard limit and what the quota's status counts as used. The quotas that charge every
 * pod of the namespace, and a scoped one (`scopes`, `scopeSelector`) where it takes in
 * `pod`, the pod to be admitted (quota-scopes.ts): its status counts only the pods its
 * scopes take in (`scoped`). A quota whose status
 * the resourcequota controller has not written yet makes none either (admission then
 * refuses every pod, and the refusal's event says so: create-refused.ts).
 */
import type { PodSpec, Quantity } from '../k8s.js';
import { isScoped, quotaTakesIn } from './quota-scopes.js';
import type { ResourceQuota } from '../k8s-policy.js';
import { quotaAmount, quotaMeasure } from './quota-charge.js';

interface QuotaLimit {
  name: string;
  namespace: string;
  entries: { resource: string; hard: number; used: number }[];
  /** A scoped quota: it charges only the pods its scopes take in. */
  scoped?: ResourceQuota;
}

/**
 * The namespace's quotas that charge every pod, and the scoped ones that take in `pod`;
 * undefined when the quotas were not read.
 */
export function quotaLimits(
  quotas: readonly ResourceQuota[] | undefined,
  namespace: string,
  pod?: PodSpec,
): QuotaLimit[] | undefined {
  if (quotas === undefined) return undefined;
  const limits: QuotaLimit[] = [];
  for (const quota of quotas) {
    if ((quota.metadata.namespace ?? namespace) !== namespace) continue;
    const scoped = isScoped(quota);
    if (scoped && (pod === undefined || quotaTakesIn(quota, pod) !== true)) continue;
    const hard = quota.status?.hard;
    const used = quota.status?.used;
    if (!hard || !used) continue;
    const entries = Object.entries(hard).flatMap(([resource, limit]) => {
      if (!quotaMeasure(resource)) return [];
      const hardAmount = amount(resource, limit);
      const usedAmount = amount(resource, used[resource]);
      return hardAmount === undefined || usedAmount === undefined
        ? []
        : [{ resource, hard: hardAmount, used: usedAmount }];
    });
    if (entries.length > 0)
      limits.push({
        name: quota.metadata.name ?? '',
        namespace,
        entries,
        ...(scoped ? { scoped: quota } : {}),
      });
  }
  return limits;
}

function amount(resource: string, quantity: Quantity | undefined): number | undefined {
  return quantity === undefined ? undefined : quotaAmount(resource, String(quantity));
}
