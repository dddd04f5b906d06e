/**
 * taint-device: where a crash loop on one node is explained by a device the kubelet
 * reports Unhealthy (crash/device-health.ts) and the cluster serves DeviceTaintRule,
 * taint just that device NoSchedule and replace the pods of this Deployment that
 * hold it. The taint keeps new claims off the device while the node's other devices
 * stay in use; a NoSchedule taint moves no pod that already holds the device (its
 * claim stays allocated), so the plan also deletes those pods by name and uid, and
 * their ReplicaSet's replacements get new claims allocated elsewhere.
 *
 * No plan when: the cluster's answer is unknown or it does not serve DeviceTaintRule;
 * the report cannot be tied to one driver/pool/device; no claim read has the device
 * allocated and reserved for a pod of ours (the pod status alone names nothing for sure); the device comes through a
 * shared claim (`resourceClaimName`: it stays allocated while any user remains, so
 * replacing our pods does not free it); or no pod of ours holds it.
 *
 * DeviceTaintRule is cluster-scoped: it affects every tenant's new claims on that
 * device and needs cluster-level create permission. The plan says so.
 */
import { withImpact } from '../plan-words.js';
import { crashPictures } from '../../diagnosis/crash/crash-distribution.js';
import { crashDeviceHealth } from '../../diagnosis/crash/device-health.js';
import { deviceKey, resolvedDevices } from '../../diagnosis/dra/health.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { DEVICE_TAINT_KEY, DEVICE_TAINT_VALUE, deviceName, deviceTaintRuleName } from '../device-taint.js';
import { planId } from '../plan-id.js';
import type { DeviceTaintTarget, RemediationPlan } from '../plan.js';
import { pictureOf } from './exclude-node.js';
import { workloadObject } from '../../diagnosis/workloads/index.js';

export function buildTaintDevicePlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  picture = pictureOf(ctx, finding),
  scope: 'bad-nodes' | 'all' = 'bad-nodes',
): RemediationPlan[] {
  if (!picture) return [];
  const { snapshot } = ctx;
  const api = snapshot.deviceTaintRules;
  if (api !== 'resource.k8s.io/v1' && api !== 'resource.k8s.io/v1beta2') return [];
  const blamed = crashDeviceHealth(snapshot, picture, scope)?.blamed.find((b) => b.ref && !b.shared);
  if (!blamed?.ref) return [];
  const ref = blamed.ref;
  const holders = holdersOf(snapshot, deviceKey(ref));
  if (!holders) return [];
  const { pods, others } = holders;
  const deviceTaint: DeviceTaintTarget = {
    apiVersion: api,
    name: deviceTaintRuleName(ref),
    driver: ref.driver,
    pool: ref.pool,
    device: ref.device,
    node: blamed.node,
    resourceID: blamed.device,
    taint: { key: DEVICE_TAINT_KEY, value: DEVICE_TAINT_VALUE, effect: 'NoSchedule' },
  };
  const object = workloadObject(snapshot);
  const uid = object.metadata.uid ?? '';
  const generation = object.metadata.generation ?? 0;
  const device = deviceName(ref);
  return [
    {
      id: planId('taint-device', uid, generation, { deviceTaint, pods }),
      kind: 'taint-device',
      target: snapshot.target,
      summary:
        `Taint device ${device} on ${blamed.node} NoSchedule (DeviceTaintRule ${deviceTaint.name}, key ${DEVICE_TAINT_KEY}) ` +
        `and replace the ${pods.length} pod(s) holding it: ${pods.map((p) => p.name).join(', ')}.`,
      ...withImpact({ key: 'taintDevice', params: { pods: pods.length, device, node: blamed.node } }),
      warnings: taintWarnings(snapshot, api, device, others),
      patch: null,
      pods,
      deviceTaint,
      preconditions: { uid, generation, fields: [] },
      inverse: null,
      addresses: finding.code,
    },
  ];
}

type Holder = { namespace: string; name: string; uid: string };

/**
 * Who holds the device: our pods (sorted by name) and other pods its claims are
 * reserved for; undefined when none of ours holds it through a claim the scheduler
 * allocated (the pod status alone, writable by anyone with pods/status, may name any
 * device, another tenant's too).
 */
function holdersOf(
  snapshot: AnalysisContext['snapshot'],
  key: string,
): { pods: { name: string; uid: string }[]; others: Holder[] } | undefined {
  const claims = snapshot.dra?.claims ?? [];
  // Holders: claims whose allocation has the device, the pods they are reserved for,
  // and our pods that report the device themselves (claims of a dump may be missing).
  const reserved: Holder[] = claims
    .filter((c) => (c.status?.allocation?.devices?.results ?? []).some((r) => deviceKey(r) === key))
    .flatMap((c) =>
      (c.status?.reservedFor ?? [])
        .filter((r) => r.resource === 'pods')
        .map((r) => ({ namespace: c.metadata.namespace ?? '', name: r.name, uid: r.uid })),
    );
  const ourUids = new Set(snapshot.pods.map((p) => p.metadata.uid).filter(Boolean));
  if (!reserved.some((r) => ourUids.has(r.uid))) return undefined;
  const pods = snapshot.pods
    .filter(
      (p) =>
        !p.metadata.deletionTimestamp &&
        (reserved.some((r) => r.uid === p.metadata.uid) ||
          resolvedDevices(p, claims).some((d) => d.ref && deviceKey(d.ref) === key)),
    )
    .map((p) => ({ name: p.metadata.name ?? '', uid: p.metadata.uid ?? '' }))
    .filter((p) => p.name !== '' && p.uid !== '')
    .sort((a, b) => a.name.localeCompare(b.name));
  if (pods.length === 0) return undefined;
  return { pods, others: reserved.filter((r) => !pods.some((p) => p.uid === r.uid)) };
}

function taintWarnings(
  snapshot: AnalysisContext['snapshot'],
  api: 'resource.k8s.io/v1' | 'resource.k8s.io/v1beta2',
  device: string,
  others: Holder[],
): string[] {
  return [
    `DeviceTaintRule is cluster-scoped: the taint keeps every tenant's new claims off ${device}, not only this Deployment's, until the rule is deleted (Undo). It needs cluster-level permission (create devicetaintrules.resource.k8s.io).`,
    ...(api === 'resource.k8s.io/v1beta2'
      ? [
          'DeviceTaintRule is served as beta (resource.k8s.io/v1beta2, off by default in 1.36): an administrator enabled it here.',
        ]
      : []),
    ...(others.length > 0
      ? [
          `Also held by ${others
            .slice(0, 5)
            .map((o) => `${o.namespace}/${o.name}`)
            .join(
              ', ',
            )}${others.length > 5 ? ` and ${others.length - 5} more` : ''}: a NoSchedule taint does not move them, and this plan does not delete them.`,
        ]
      : []),
    ...(snapshot.coverage.dra?.claims !== 'all'
      ? [
          "Claims of other namespaces were not read: other tenants' pods may hold this device too, and the taint does not move them.",
        ]
      : []),
  ];
}

/**
 * CrashLoop (crashing and healthy pods of the template share a node): taint-device for
 * the picture whose crashes its Unhealthy devices explain (one plan, for its first
 * device; a second bad device gets its plan on the next diagnosis).
 */
export function buildCrashLoopTaintDevicePlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
): RemediationPlan[] {
  const table = finding.evidence.find((e) => e.type === 'crash-table');
  const rows = table?.type === 'crash-table' ? JSON.stringify(table.rows) : undefined;
  const picture = crashPictures(ctx).find(
    (p) => !p.nodeLocal && (rows === undefined || JSON.stringify(p.rows) === rows),
  );
  return picture ? buildTaintDevicePlans(ctx, finding, picture, 'all') : [];
}
