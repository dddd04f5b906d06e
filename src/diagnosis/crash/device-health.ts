/**
 * Device health behind a node-local crash loop. The kubelet reports
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

interface CrashDeviceHealth {
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
  const tally = newTally(new Set(picture.crashingPods), bad);
  for (const pod of pods) {
    const unreported = tallyUnreported(tally, pod, claims);
    const devices = resolvedDevices(pod, claims);
    if (devices.length === 0) {
      if (unreported === 0) tallySaidNothing(tally, pod);
      continue;
    }
    for (const d of devices) tallyDevice(tally, pod, d);
  }
  tally.rows.sort(
    (a, b) => rowOrder(a) - rowOrder(b) || a.node.localeCompare(b.node) || a.pod.localeCompare(b.pod),
  );
  // Blamed only when the Unhealthy devices account for every crash: a pod crashing on
  // another bad node whose devices report Healthy or Unknown leaves that crash unexplained.
  const blames =
    tally.blamed.length > 0 &&
    !tally.runsOnUnhealthy &&
    picture.crashingPods.filter((p) => bad.has(p.spec.nodeName ?? '')).every((p) => tally.explained.has(p)) &&
    (scope === 'bad-nodes' || picture.healthyPods.length > 0);
  const verdict = blames
    ? 'unhealthy'
    : tally.anyUnhealthy
      ? 'not-blamed'
      : tally.allHealthy
        ? 'healthy'
        : 'unknown';
  return {
    verdict,
    ...(verdict === 'unknown' ? { unknown: unknownWord(tally) } : {}),
    ...(tally.extended.length > 0
      ? { extended: tally.extended, onlyExtendedAbsent: !tally.saidNothingElse }
      : {}),
    blamed: blames ? tally.blamed : [],
    rows: tally.rows.slice(0, ROWS),
  };
}

/** What the pods' device reports add up to, as they are read one by one. */
interface Tally {
  readonly crashing: ReadonlySet<Pod>;
  readonly bad: ReadonlySet<string>;
  /** Crashing pods that report an Unhealthy device. */
  readonly explained: Set<Pod>;
  readonly blamed: CrashDeviceHealth['blamed'];
  readonly rows: DeviceHealthRow[];
  readonly extended: NonNullable<CrashDeviceHealth['extended']>;
  allHealthy: boolean;
  anyUnhealthy: boolean;
  /** Unknown said by the kubelet (a device it lists as Unknown)… */
  saidUnknown: boolean;
  /** …apart from nothing said at all. */
  saidNothing: boolean;
  /** Nothing said for a pod that holds no DRA-backed extended resource the kubelet leaves out. */
  saidNothingElse: boolean;
  /** A pod of the template that runs (not crashing) on a device reported Unhealthy: the report explains no crash. */
  runsOnUnhealthy: boolean;
}

function newTally(crashing: ReadonlySet<Pod>, bad: ReadonlySet<string>): Tally {
  return {
    crashing,
    bad,
    explained: new Set(),
    blamed: [],
    rows: [],
    extended: [],
    allHealthy: true,
    anyUnhealthy: false,
    saidUnknown: false,
    saidNothing: false,
    saidNothingElse: false,
    runsOnUnhealthy: false,
  };
}

/**
 * The kubelet writes no entry for a device reached through an extended resource backed
 * by DRA: not reported, whatever the driver knows (see unreportedExtendedResources).
 * Returns how many such devices the pod holds.
 */
function tallyUnreported(tally: Tally, pod: Pod, claims: Parameters<typeof resolvedDevices>[1]): number {
  const node = pod.spec.nodeName ?? '';
  const unreported = unreportedExtendedResources(pod, claims);
  for (const e of unreported) {
    tally.allHealthy = false;
    tally.saidNothing = true;
    if (!tally.extended.some((x) => x.container === e.container && x.resource === e.resource))
      tally.extended.push({ container: e.container, resource: e.resource, claim: e.claim });
    tally.rows.push({
      node,
      pod: e.pod,
      container: e.container,
      resource: e.resource,
      health: 'not reported',
      ...(e.ref ? { driver: e.ref.driver, pool: e.ref.pool, device: e.ref.device } : {}),
      claim: e.claim,
    });
  }
  return unreported.length;
}

/** A pod that uses devices and reports none of them. */
function tallySaidNothing(tally: Tally, pod: Pod): void {
  tally.allHealthy = false;
  tally.saidNothing = true;
  tally.saidNothingElse = true;
  tally.rows.push({ node: pod.spec.nodeName ?? '', pod: pod.metadata.name ?? '', health: 'not reported' });
}

const deviceKey = (d: ResolvedDevice): string =>
  d.ref ? `${d.ref.driver}/${d.ref.pool}/${d.ref.device}` : d.device;

/** One device a pod reports: its row, and whether it blames or explains a crash. */
function tallyDevice(tally: Tally, pod: Pod, d: ResolvedDevice): void {
  const node = pod.spec.nodeName ?? '';
  const crashing = tally.crashing.has(pod);
  if (d.health !== 'Healthy') tally.allHealthy = false;
  if (d.health === 'Unknown') tally.saidUnknown = true;
  if (d.health === 'Unhealthy') {
    tally.anyUnhealthy = true;
    if (!crashing) tally.runsOnUnhealthy = true;
    if (crashing) tally.explained.add(pod);
    if (crashing && tally.bad.has(node) && !tally.blamed.some((b) => deviceKey(b) === deviceKey(d)))
      tally.blamed.push({ ...d, node });
  }
  tally.rows.push({
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

function rowOrder(r: DeviceHealthRow): number {
  return r.health === 'Unhealthy' ? 0 : r.health === 'Unknown' || r.health === 'not reported' ? 1 : 2;
}

function unknownWord(tally: Tally): NonNullable<CrashDeviceHealth['unknown']> {
  return tally.saidUnknown && tally.saidNothing ? 'both' : tally.saidUnknown ? 'reported' : 'absent';
}

/** "gpu.nvidia.com/gpu-node-1/gpu-0 (claim tracker-…-gpu-m4zk7)" or the reported id. */
export function deviceWords(d: ResolvedDevice): string {
  const name = d.ref ? `${d.ref.driver}/${d.ref.pool}/${d.ref.device}` : d.device;
  return d.claim ? `${name} (claim ${d.claim.name})` : name;
}

/** The verdict line of device-health evidence; absent or Unknown is never called healthy. */
const DEVICE_VERDICT: Record<Extract<Evidence, { type: 'device-health' }>['verdict'], string> = {
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
