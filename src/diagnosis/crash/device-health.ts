/**
 * Device health behind a node-local crash loop (issue 14 item 4). The kubelet reports
 * the health of each device allocated to a container in `allocatedResourcesStatus`
 * (Healthy, Unhealthy, Unknown; on by default from 1.36 and only where the driver
 * reports health). A crash on the node whose device a crashing pod reports Unhealthy
 * is explained by that device. Absent or Unknown is unknown, never healthy: a device
 * reporting Unknown on every node blames nothing, and the finding says health is not
 * reported.
 */
import type { DeviceHealthRow, Evidence } from '../finding.js';
import type { Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { resolvedDevices, unreportedExtendedResources, type ResolvedDevice } from '../dra/health.js';
import type { TemplateCrashPicture } from './crash-distribution.js';

export interface CrashDeviceHealth {
  /**
   * unhealthy: every crashing pod on a crashing node reports a device Unhealthy;
   * healthy: every pod with devices reports each of them Healthy;
   * not-blamed: a device reports Unhealthy, but not as the cause: a running pod of the
   *   template reports one too (the template runs on an Unhealthy device), or a
   *   crashing pod on a crashing node reports none;
   * unknown: devices are in use but some report Unknown or nothing at all.
   */
  verdict: 'unhealthy' | 'not-blamed' | 'healthy' | 'unknown';
  /** With 'unknown': the kubelet reported Unknown, reported nothing, or some of each. */
  unknown?: 'reported' | 'absent' | 'both';
  /**
   * Extended resources backed by DRA whose health the kubelet does not report (one per
   * container and resource, crashing pods' first), and whether every device without a
   * report is one of them (then the finding names them alone).
   */
  extended?: { container: string; resource: string; claim: string }[];
  onlyExtendedAbsent?: boolean;
  /** The Unhealthy devices reported by crashing pods on the crashing nodes, one per device. */
  blamed: (ResolvedDevice & { node: string })[];
  rows: DeviceHealthRow[];
}

const ROWS = 20;

function usesDevices(pod: Pod): boolean {
  return (
    (pod.spec.resourceClaims ?? []).length > 0 ||
    [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].some(
      (s) => (s.allocatedResourcesStatus ?? []).length > 0,
    ) ||
    (pod.status?.extendedResourceClaimStatus?.requestMappings ?? []).length > 0
  );
}

/**
 * Undefined when no pod of the picture uses a device (nothing to say). `scope`
 * 'bad-nodes' (CrashLoopOnNode) blames a device reported Unhealthy by a crashing pod
 * on a crashing node; 'all' (CrashLoop: crashing and healthy pods share a node, as on
 * a multi-GPU node) blames devices only when every crashing pod reports one Unhealthy
 * and some pod of the template runs healthy: then the devices explain every crash.
 */
export function crashDeviceHealth(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  scope: 'bad-nodes' | 'all' = 'bad-nodes',
): CrashDeviceHealth | undefined {
  const pods = [...picture.crashingPods, ...picture.healthyPods].filter(usesDevices);
  if (pods.length === 0) return undefined;
  const claims = snapshot.dra?.claims ?? [];
  const bad = new Set(
    scope === 'all' ? picture.crashingPods.map((p) => p.spec.nodeName ?? '') : picture.badNodes,
  );
  const explained = new Set<Pod>();
  const crashing = new Set(picture.crashingPods);
  const blamed: CrashDeviceHealth['blamed'] = [];
  const rows: DeviceHealthRow[] = [];
  let allHealthy = true;
  let anyUnhealthy = false;
  // Unknown said by the kubelet (a device it lists as Unknown) apart from nothing said at all.
  let saidUnknown = false;
  let saidNothing = false;
  // Nothing said for a pod that holds no DRA-backed extended resource the kubelet leaves out.
  let saidNothingElse = false;
  const extended: NonNullable<CrashDeviceHealth['extended']> = [];
  // A pod of the template that runs (not crashing) on a device reported Unhealthy: the report explains no crash.
  let runsOnUnhealthy = false;
  for (const pod of pods) {
    const devices = resolvedDevices(pod, claims);
    const node = pod.spec.nodeName ?? '';
    // The kubelet writes no entry for a device reached through an extended resource
    // backed by DRA: not reported, whatever the driver knows (see unreportedExtendedResources).
    const unreported = unreportedExtendedResources(pod, claims);
    for (const e of unreported) {
      allHealthy = false;
      saidNothing = true;
      if (!extended.some((x) => x.container === e.container && x.resource === e.resource))
        extended.push({ container: e.container, resource: e.resource, claim: e.claim });
      rows.push({
        node,
        pod: e.pod,
        container: e.container,
        resource: e.resource,
        health: 'not reported',
        ...(e.ref ? { driver: e.ref.driver, pool: e.ref.pool, device: e.ref.device } : {}),
        claim: e.claim,
      });
    }
    if (devices.length === 0) {
      if (unreported.length === 0) {
        allHealthy = false;
        saidNothing = true;
        saidNothingElse = true;
        rows.push({ node, pod: pod.metadata.name ?? '', health: 'not reported' });
      }
      continue;
    }
    for (const d of devices) {
      if (d.health !== 'Healthy') allHealthy = false;
      if (d.health === 'Unknown') saidUnknown = true;
      if (d.health === 'Unhealthy') {
        anyUnhealthy = true;
        if (!crashing.has(pod)) runsOnUnhealthy = true;
      }
      const key = d.ref ? `${d.ref.driver}/${d.ref.pool}/${d.ref.device}` : d.device;
      if (
        d.health === 'Unhealthy' &&
        crashing.has(pod) &&
        bad.has(node) &&
        !blamed.some((b) => (b.ref ? `${b.ref.driver}/${b.ref.pool}/${b.ref.device}` : b.device) === key)
      ) {
        blamed.push({ ...d, node });
      }
      if (d.health === 'Unhealthy' && crashing.has(pod)) explained.add(pod);
      rows.push({
        node,
        pod: d.pod,
        container: d.container,
        resource: d.resource,
        resourceID: d.device,
        health: d.health,
        ...(d.ref ? { driver: d.ref.driver, pool: d.ref.pool, device: d.ref.device } : {}),
        ...(d.claim ? { claim: d.claim.name } : {}),
      });
    }
  }
  const order = (r: DeviceHealthRow): number =>
    r.health === 'Unhealthy' ? 0 : r.health === 'Unknown' || r.health === 'not reported' ? 1 : 2;
  rows.sort((a, b) => order(a) - order(b) || a.node.localeCompare(b.node) || a.pod.localeCompare(b.pod));
  // Blamed only when the Unhealthy devices account for every crash: a pod crashing on
  // another bad node whose devices report Healthy or Unknown leaves that crash unexplained.
  const blames =
    blamed.length > 0 &&
    !runsOnUnhealthy &&
    picture.crashingPods.filter((p) => bad.has(p.spec.nodeName ?? '')).every((p) => explained.has(p)) &&
    (scope === 'bad-nodes' || picture.healthyPods.length > 0);
  const verdict = blames ? 'unhealthy' : anyUnhealthy ? 'not-blamed' : allHealthy ? 'healthy' : 'unknown';
  return {
    verdict,
    ...(verdict === 'unknown'
      ? { unknown: saidUnknown && saidNothing ? 'both' : saidUnknown ? 'reported' : 'absent' }
      : {}),
    ...(extended.length > 0 ? { extended, onlyExtendedAbsent: !saidNothingElse } : {}),
    blamed: blames ? blamed : [],
    rows: rows.slice(0, ROWS),
  };
}

/** "gpu.nvidia.com/gpu-node-1/gpu-0 (claim tracker-…-gpu-m4zk7)" or the reported id. */
export function deviceWords(d: ResolvedDevice): string {
  const name = d.ref ? `${d.ref.driver}/${d.ref.pool}/${d.ref.device}` : d.device;
  return d.claim ? `${name} (claim ${d.claim.name})` : name;
}

/** The verdict line of device-health evidence; absent or Unknown is never called healthy. */
export const DEVICE_VERDICT: Record<Extract<Evidence, { type: 'device-health' }>['verdict'], string> = {
  unhealthy: 'a device of a crashing pod reports Unhealthy',
  'not-blamed': 'a device reports Unhealthy, but not as the cause of every crash: not blamed for the crash',
  healthy: 'every device reports Healthy',
  unknown: 'Unknown (reported by the kubelet) or not reported: unknown, not healthy',
};

const UNKNOWN_VERDICT: Record<'reported' | 'absent' | 'both', string> = {
  reported: 'Unknown (reported by the kubelet): unknown, not healthy',
  absent: 'not reported (unknown, not healthy)',
  both: 'Unknown (reported by the kubelet) for some devices, not reported for others: unknown, not healthy',
};

/** The verdict line, saying for 'unknown' whether the kubelet said Unknown or said nothing. */
export function deviceVerdictWords(
  evidence: Pick<Extract<Evidence, { type: 'device-health' }>, 'verdict' | 'unknown'>,
): string {
  return evidence.verdict === 'unknown' && evidence.unknown
    ? UNKNOWN_VERDICT[evidence.unknown]
    : DEVICE_VERDICT[evidence.verdict];
}

/** " The kubelet reports ... Unknown ..." for a finding's summary (verdict 'unknown'). */
export function unknownHealthSentence(
  how: 'reported' | 'absent' | 'both' | undefined,
  health?: Pick<CrashDeviceHealth, 'extended' | 'onlyExtendedAbsent'>,
): string {
  const ext = health?.extended ?? [];
  if (ext.length > 0 && how === 'absent' && health?.onlyExtendedAbsent) return extendedSentence(ext);
  const generic = genericUnknownSentence(how);
  return ext.length > 0 ? `${generic}.${extendedSentence(ext)}` : generic;
}

function genericUnknownSentence(how: 'reported' | 'absent' | 'both' | undefined): string {
  switch (how) {
    case 'reported':
      return " The kubelet reports the health of the pods' devices as Unknown (unknown, not healthy)";
    case 'both':
      return " The kubelet reports some of the pods' devices Unknown and reports no health for the others (unknown, not healthy)";
    default:
      return " Device health is not reported for the pods' devices (unknown, not healthy)";
  }
}

/** The extended-resource sentence alone (with a period), or '' when every device was reported. */
export function extendedHealthSentence(health: Pick<CrashDeviceHealth, 'extended'> | undefined): string {
  const ext = health?.extended ?? [];
  return ext.length > 0 ? `${extendedSentence(ext)}.` : '';
}

/**
 * " Device health is not reported for the extended resource nvidia.com/gpu of container
 * detector ...": the kubelet writes allocatedResourcesStatus for the claims a container
 * names in resources.claims (and device plugins' devices), never for an extended
 * resource backed by DRA (kubernetes/kubernetes#139939).
 */
function extendedSentence(ext: NonNullable<CrashDeviceHealth['extended']>): string {
  const what = ext.map((e) => `${e.resource} of container ${e.container}`);
  const first = ext[0];
  return (
    ` Device health is not reported for the extended resource${ext.length > 1 ? 's' : ''} ${what.join(', ')}, ` +
    `which a DeviceClass serves through DRA (the scheduler's claim${first ? ` ${first.claim}` : ''}): the kubelet ` +
    'writes allocatedResourcesStatus only for claims a container names in resources.claims, not for extended ' +
    'resources backed by DRA, so the device is unknown, not healthy'
  );
}

/** The device-health evidence of a crash picture, or nothing when no crashing pod holds a device. */
export function deviceHealthEvidence(health: CrashDeviceHealth | undefined): Evidence[] {
  if (!health) return [];
  return [
    {
      type: 'device-health',
      verdict: health.verdict,
      ...(health.unknown ? { unknown: health.unknown } : {}),
      rows: health.rows,
    },
  ];
}
