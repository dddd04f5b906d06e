import { namespacePodsKnown } from '../snapshot/types.js';
import type { AnalysisContext } from '../analysis-context.js';
import { EVENTUALLY, podQuotaCharge, quotaReleaseAt } from '../base/quota-charge.js';
import { messageTime } from '../../text/time.js';
import { isStuckTerminating, isTerminal } from '../base/pods.js';
import type { Evidence } from '../finding.js';
import { quotaLimits } from '../base/quota-limits.js';
import { quotaEntries, refusedRevisions } from '../rollout/create-refusals.js';
import { workloadObject } from '../workloads/index.js';
import { admittedSpec } from '../workloads/admitted-spec.js';
import { quotaTakesIn, scopedQuota } from '../base/quota-scopes.js';
import type { ResourceQuota } from '../k8s-policy.js';
import type { QuotaLedger } from './world.js';

/**
 * The quotas the model admits new pods through. The one that refused the workload's
 * pods, with its usage recounted from the pods as they are (every pod was read, else
 * 'unknown'): what the quota controller converges to, counting each pod as PodUsageFunc
 * does once every terminating pod's grace period is over (QuotaV1Pod: such a pod is
 * gone, or stuck terminating and no longer charged; `count/pods` counts every pod
 * object); the refusal's own `used` may be older than the pods. And each
 * other quota of the namespace that was read and charges every pod (quota-limits.ts),
 * at the lower of its status' usage and the pods' count: a status not yet replenished
 * after a pod left counts too much, pods not read count too little, and the lower of
 * the two only ever admits more than admission would, never less.
 */
export function quotasOf(ctx: AnalysisContext): QuotaLedger[] | 'unknown' {
  const { snapshot } = ctx;
  const namespace = workloadObject(snapshot).metadata.namespace ?? '';
  const charged = [...snapshot.pods, ...(snapshot.namespacePods ?? snapshot.otherPods)].filter(
    (p) => p.metadata.namespace === namespace,
  );
  const counted = (resource: string, scoped?: ResourceQuota): number =>
    charged
      .filter((p) => scoped === undefined || quotaTakesIn(scoped, p.spec) === true)
      .reduce((sum, p) => sum + (podQuotaCharge(p, resource, EVENTUALLY) ?? 0), 0);
  const ledgers: QuotaLedger[] = [];
  for (const refused of refusedRevisions(ctx)) {
    if (refused.refusal.kind !== 'quota-exceeded') continue;
    // A pod of the namespace on a node not read (or not yet bound) is charged too.
    if (!namespacePodsKnown(snapshot.coverage)) return 'unknown';
    // The quota as read, for its scopes: a scoped one counts only the pods it takes in.
    const name = refused.refusal.quota;
    const scoped = scopedQuota(snapshot.resourceQuotas, name, namespace);
    const entries = quotaEntries(refused.refusal, snapshot.resourceQuotas, namespace).map((e) => ({
      ...e,
      used: counted(e.resource, scoped),
    }));
    ledgers.push({
      name,
      namespace,
      source: 'refusal',
      entries,
      ...(scoped ? { scoped } : {}),
    });
    break;
  }
  // The new pods as admitted: a template with no priorityClassName gets the global default
  // class (the Priority plugin runs before quota admission), which a PriorityClass scope sees.
  for (const quota of quotaLimits(snapshot.resourceQuotas, namespace, admittedSpec(snapshot).spec) ?? []) {
    if (ledgers.some((l) => l.name === quota.name)) continue;
    const entries = quota.entries.map((e) => ({
      ...e,
      used: Math.min(e.used, counted(e.resource, quota.scoped)),
    }));
    ledgers.push({ ...quota, source: 'status', entries });
  }
  return ledgers;
}

/**
 * Where a quota refused the workload's pods and pods of its namespace are stuck
 * terminating (their node lost, a finalizer): the note that the quota stops charging
 * them once their grace period is over (QuotaV1Pod), which the recount above assumes,
 * and when the refused create goes through. Undefined otherwise.
 */
export function quotaRecountNote(ctx: AnalysisContext): Evidence | undefined {
  const { snapshot } = ctx;
  if (!refusedRevisions(ctx).some((r) => r.refusal.kind === 'quota-exceeded')) return undefined;
  const namespace = workloadObject(snapshot).metadata.namespace ?? '';
  const at = Date.parse(snapshot.capturedAt);
  const stuck = [...snapshot.pods, ...(snapshot.namespacePods ?? snapshot.otherPods)].filter(
    (p) => p.metadata.namespace === namespace && !isTerminal(p) && isStuckTerminating(p, snapshot.capturedAt),
  );
  const released = stuck.flatMap((p) => {
    const ends = quotaReleaseAt(p);
    if (ends === undefined) return [];
    const name = p.metadata.name ?? '';
    return [ends < at ? name : `${name} (from ${messageTime(ends)})`];
  });
  if (released.length === 0) return undefined;
  return {
    type: 'note',
    text: `The quota stops charging ${released.join(', ')}: stuck terminating, a pod is no longer counted once its deletion's grace period is over (QuotaV1Pod; count/pods still counts it). The quota's usage says so once the quota controller recounts (its resync, every 5 minutes by default), and the controller's next try to create the refused pod is admitted.`,
  };
}
