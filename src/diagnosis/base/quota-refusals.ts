/**
 * Other controllers of the namespace that a ResourceQuota refuses now: their latest
 * FailedCreate says "exceeded quota" and no pod was made since (a SuccessfulCreate
 * newer than it). They have no Pending pod, yet when the quota frees they retry their
 * creates with backoff (ReplicaSet manageReplicas) and race ours for it
 * (forward/quota-race.ts). Pure.
 */
import type { KubeEvent } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { classifyRefusal } from './create-refusal.js';
import { eventTime } from './pod-events.js';

/** "ReplicaSet ml/gamma-g1" and the quota that refuses it. */
export type QuotaRefusal = NonNullable<WorkloadSnapshot['quotaRefusals']>[number];

/** From the namespace's core/v1 events; `ours` tells the workload's own (its objects, its pods). */
export function quotaRefusals(
  events: readonly KubeEvent[],
  namespace: string,
  ours: (event: KubeEvent) => boolean,
): QuotaRefusal[] {
  const latest = new Map<string, { failed?: string; quota?: string; created?: string }>();
  for (const event of events) {
    const { kind, name } = event.involvedObject;
    if (!kind || !name || ours(event)) continue;
    const key = `${kind} ${namespace}/${name}`;
    const seen = latest.get(key) ?? {};
    const when = eventTime(event);
    if (event.reason === 'SuccessfulCreate' && when > (seen.created ?? '')) seen.created = when;
    if (event.reason === 'FailedCreate' && when > (seen.failed ?? '')) {
      const refusal = classifyRefusal(event.message ?? '');
      if (refusal.kind === 'quota-exceeded') Object.assign(seen, { failed: when, quota: refusal.quota });
    }
    latest.set(key, seen);
  }
  return [...latest].flatMap(([object, s]) =>
    s.failed !== undefined && s.quota !== undefined && s.failed >= (s.created ?? '')
      ? [{ object, quota: s.quota }]
      : [],
  );
}
