/**
 * What one pod charges against a ResourceQuota entry, the way kube-apiserver's pod
 * evaluator measures it (pkg/quota/v1/evaluator/core/pods.go, PodUsageFunc): `count/pods`
 * counts every pod object in storage, whatever its state; `pods` and every compute
 * entry only while QuotaV1Pod holds (podQuotaCharge below); `cpu`/`requests.cpu`,
 * `memory`/`requests.memory`, `ephemeral-storage`/`requests.ephemeral-storage`,
 * `hugepages-*`/`requests.hugepages-*` and `requests.<extended resource>` are the
 * pod's requests (resources.ts: containers summed, each init step a floor, overhead
 * added); `limits.*` its limits, the same way. Amounts in scheduler units (cpu in
 * millicores), so quantities from a quota message compare with them exactly.
 * Undefined: a quota entry a pod does not charge (services, storage, …).
 */
import type { Container, Pod, PodSpec, Quantity } from '../k8s.js';
import { podLevelResource, podRequests } from './resources.js';
import { isTerminal } from './pods.js';
import { formatAmount, schedulerAmount } from './quantity.js';

/** The resource a quota entry measures, and whether as requests, limits or a count. */
export function quotaMeasure(
  entry: string,
): { of: 'count' } | { of: 'requests' | 'limits'; resource: string } | undefined {
  if (entry === 'pods' || entry === 'count/pods') return { of: 'count' };
  if (entry.startsWith('limits.')) return { of: 'limits', resource: entry.slice('limits.'.length) };
  if (entry.startsWith('requests.')) return { of: 'requests', resource: entry.slice('requests.'.length) };
  if (
    entry === 'cpu' ||
    entry === 'memory' ||
    entry === 'ephemeral-storage' ||
    entry.startsWith('hugepages-')
  )
    return { of: 'requests', resource: entry };
  return undefined;
}

function limitOf(container: Container, resource: string): number {
  const q = container.resources?.limits?.[resource];
  return q === undefined ? 0 : amount(resource, q);
}

function podLimit(spec: PodSpec, resource: string): number {
  const overhead = spec.overhead?.[resource];
  const extra = overhead === undefined ? 0 : amount(resource, overhead);
  // A pod-level limit is the pod's (PodLimits, PodLevelResources).
  const level = podLevelResource(resource) ? spec.resources?.limits?.[resource] : undefined;
  if (level !== undefined) return amount(resource, level) + extra;
  let total = spec.containers.reduce((sum, c) => sum + limitOf(c, resource), 0);
  let sidecars = 0;
  let initMax = 0;
  for (const init of spec.initContainers ?? []) {
    const own = limitOf(init, resource);
    if (init.restartPolicy === 'Always') {
      total += own;
      sidecars += own;
      initMax = Math.max(initMax, sidecars);
    } else initMax = Math.max(initMax, own + sidecars);
  }
  return Math.max(total, initMax) + extra;
}

function amount(resource: string, quantity: Quantity): number {
  try {
    return schedulerAmount(resource, quantity);
  } catch {
    return 0;
  }
}

/** What a pod with this spec charges against the quota entry (scheduler units), or undefined. */
export function quotaCharge(spec: PodSpec, entry: string): number | undefined {
  const measure = quotaMeasure(entry);
  if (!measure) return undefined;
  if (measure.of === 'count') return 1;
  if (measure.of === 'limits') return podLimit(spec, measure.resource);
  return podRequests(spec)[measure.resource] ?? 0;
}

/**
 * When a terminating pod stops being charged for its compute (ms): its deletion timestamp
 * plus its grace period (QuotaV1Pod). A pod stuck terminating (its node lost) is not
 * charged after it, "because it could prevent them from scaling up new pods"; the
 * quota's status says so once the quota controller recounts (its full resync, every 5
 * minutes by default). Undefined: not terminating, or its grace period not read.
 */
export function quotaReleaseAt(pod: Pod): number | undefined {
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (deletion === undefined || typeof grace !== 'number') return undefined;
  const ends = Date.parse(deletion) + grace * 1000;
  return Number.isFinite(ends) ? ends : undefined;
}

/** "Eventually", for `podQuotaCharge`: what the quota controller converges to. */
export const EVENTUALLY = Number.POSITIVE_INFINITY;

/** Whether the pod's compute is charged at `at` (ms), as QuotaV1Pod decides: not terminal, and not past quotaReleaseAt. */
function quotaV1Pod(pod: Pod, at: number): boolean {
  if (isTerminal(pod)) return false;
  const ends = quotaReleaseAt(pod);
  return ends === undefined || !(at > ends);
}

/**
 * What a pod as it is charges against the entry at `at` (ms; EVENTUALLY: once every
 * terminating pod's grace period is over): `count/pods` 1 for every pod object, terminal
 * or terminating; the rest as quotaCharge, while quotaV1Pod holds.
 */
export function podQuotaCharge(pod: Pod, entry: string, at: number): number | undefined {
  if (entry === 'count/pods') return 1;
  const charge = quotaCharge(pod.spec, entry);
  return charge === undefined || quotaV1Pod(pod, at) ? charge : 0;
}

/** A quantity of a quota message in the entry's scheduler units, or undefined when malformed. */
export function quotaAmount(entry: string, quantity: string): number | undefined {
  const measure = quotaMeasure(entry);
  const resource = measure && measure.of !== 'count' ? measure.resource : entry;
  try {
    return schedulerAmount(resource, quantity);
  } catch {
    return undefined;
  }
}

/** An amount in a quota entry's scheduler units, as a person reads it ("2Gi", "500m", a pod count as is). */
export function formatQuotaAmount(entry: string, amount: number): string {
  const measure = quotaMeasure(entry);
  return measure && measure.of !== 'count' ? formatAmount(measure.resource, amount) : String(amount);
}
