/**
 * The ResourceQuotas of a namespace as the snapshot read them, in the units quota
 * admission compares (quota-charge.ts): per quota, each entry a pod charges, with its
 * hard limit and what the quota's status counts as used. Only quotas that charge every
 * pod of the namespace: a scoped quota (`scopes`, `scopeSelector`) charges the pods its
 * scopes match, which is not judged here, so it makes no claim. A quota whose status
 * the resourcequota controller has not written yet makes none either (admission then
 * refuses every pod, and the refusal's event says so: create-refused.ts).
 */
import type { Quantity } from '../k8s.js';
import type { ResourceQuota } from '../k8s-policy.js';
import { quotaAmount, quotaMeasure } from './quota-charge.js';

interface QuotaLimit {
  name: string;
  namespace: string;
  entries: { resource: string; hard: number; used: number }[];
}

/** The namespace's quotas that charge every pod, or undefined when the quotas were not read. */
export function quotaLimits(
  quotas: readonly ResourceQuota[] | undefined,
  namespace: string,
): QuotaLimit[] | undefined {
  if (quotas === undefined) return undefined;
  const limits: QuotaLimit[] = [];
  for (const quota of quotas) {
    if ((quota.metadata.namespace ?? namespace) !== namespace) continue;
    if ((quota.spec?.scopes ?? []).length > 0 || quota.spec?.scopeSelector) continue;
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
    if (entries.length > 0) limits.push({ name: quota.metadata.name ?? '', namespace, entries });
  }
  return limits;
}

function amount(resource: string, quantity: Quantity | undefined): number | undefined {
  return quantity === undefined ? undefined : quotaAmount(resource, String(quantity));
}
