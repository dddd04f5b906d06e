/**
 * Builds a WorkloadSnapshot from objects read out of a dump, choosing the same
 * objects the live collector reads: the Deployment, what it owns, their events, the
 * nodes and PVCs that matter, and other workloads' pods on the nodes the template may
 * use.
 */
import type {
  Deployment,
  KubeEvent,
  KubeObject,
  Node,
  PersistentVolumeClaim,
  Pod,
  PodSpec,
  ReplicaSet,
} from './k8s.js';
import { isEligible, selectsNode } from './node-match.js';
import type { WorkloadRef, WorkloadSnapshot } from './snapshot.js';
import { WorkloadNotFoundError } from './errors.js';
import { asCoreEvent } from './event-shape.js';

export interface AssembleOptions {
  /** "Now" for the analyzers; defaults to the newest timestamp in the dump. */
  capturedAt?: string;
  /** Previous-container log tails keyed `pod/container`. */
  logs?: Record<string, string>;
}

const BASIC_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods']);

/**
 * Selects the objects about `ref` from a dump.
 *
 * @throws WorkloadNotFoundError naming the namespace when the Deployment is not in the dump.
 * @example assembleSnapshot({ kind: 'Deployment', namespace: 'vision', name: 'tracker' }, loadObjects(text))
 */
export function assembleSnapshot(
  ref: WorkloadRef,
  objects: KubeObject[],
  options: AssembleOptions = {},
): WorkloadSnapshot {
  // A hand-written dump may omit namespaces: such objects count as the requested one.
  const inNamespace = (o: { metadata?: { namespace?: string } }): boolean =>
    (o.metadata?.namespace ?? ref.namespace) === ref.namespace;
  const ofKind = <T>(kind: string): T[] => objects.filter((o) => o.kind === kind) as unknown as T[];

  const deployments = ofKind<Deployment>('Deployment');
  const deployment = deployments.find((d) => d.metadata.name === ref.name && inNamespace(d));
  if (!deployment) throw notFound(ref, deployments);

  const replicaSets = ofKind<ReplicaSet>('ReplicaSet')
    .filter((rs) => inNamespace(rs) && isOwnedBy(rs, 'Deployment', deployment))
    .sort(byRevisionDesc);
  const pods = ofKind<Pod>('Pod').filter(
    (p) => inNamespace(p) && replicaSets.some((rs) => isOwnedBy(p, 'ReplicaSet', rs)),
  );

  const involved = [
    { kind: 'Deployment', meta: deployment.metadata },
    ...replicaSets.map((rs) => ({ kind: 'ReplicaSet', meta: rs.metadata })),
    ...pods.map((p) => ({ kind: 'Pod', meta: p.metadata })),
  ];
  const events = ofKind<KubeEvent>('Event')
    .map(asCoreEvent)
    .filter((e) => (e.involvedObject.namespace ?? e.metadata.namespace ?? ref.namespace) === ref.namespace)
    .filter((e) =>
      involved.some((o) =>
        e.involvedObject.uid && o.meta.uid
          ? e.involvedObject.uid === o.meta.uid
          : e.involvedObject.kind === o.kind && e.involvedObject.name === o.meta.name,
      ),
    );

  const template = deployment.spec.template.spec;
  const allNodes = ofKind<Node>('Node');
  const usedNodes = new Set(pods.map((p) => p.spec.nodeName).filter((n): n is string => Boolean(n)));
  const nodes = allNodes.filter((n) => usedNodes.has(n.metadata.name ?? '') || selectsNode(n, template));

  const ours = new Set(pods.map((p) => p.metadata.uid ?? p.metadata.name));
  const eligible = new Set(allNodes.filter((n) => isEligible(n, template)).map((n) => n.metadata.name));
  const otherPods = otherPodsMatter(template, pods)
    ? ofKind<Pod>('Pod').filter(
        (p) =>
          !ours.has(p.metadata.uid ?? p.metadata.name) &&
          p.spec.nodeName !== undefined &&
          eligible.has(p.spec.nodeName) &&
          p.status?.phase !== 'Succeeded' &&
          p.status?.phase !== 'Failed',
      )
    : [];

  const claimNames = new Set(
    [template, ...pods.map((p) => p.spec)].flatMap((spec) =>
      (spec.volumes ?? []).flatMap((v) =>
        v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
      ),
    ),
  );
  const pvcs = ofKind<PersistentVolumeClaim>('PersistentVolumeClaim').filter(
    (pvc) => inNamespace(pvc) && claimNames.has(pvc.metadata.name ?? ''),
  );

  return {
    target: ref,
    capturedAt: options.capturedAt ?? newestTimestamp(objects),
    deployment,
    replicaSets,
    pods,
    events,
    nodes,
    nodesComplete: allNodes.length > 0,
    pvcs,
    otherPods,
    logs: { ...options.logs },
    accessProblems: [],
  };
}

function notFound(ref: WorkloadRef, deployments: Deployment[]): WorkloadNotFoundError {
  const here = deployments
    .filter((d) => (d.metadata.namespace ?? ref.namespace) === ref.namespace)
    .map((d) => d.metadata.name);
  const elsewhere = deployments
    .filter((d) => d.metadata.name === ref.name && d.metadata.namespace !== ref.namespace)
    .map((d) => d.metadata.namespace);
  let hint = here.length > 0 ? ` It has ${here.length} there: ${here.slice(0, 5).join(', ')}.` : '';
  if (elsewhere.length > 0) hint += ` A Deployment of that name is in namespace ${elsewhere.join(', ')}.`;
  return new WorkloadNotFoundError(
    `Deployment "${ref.name}" is not in the dump for namespace "${ref.namespace}".${hint}`,
    [ref.namespace],
  );
}

/** Controller owner reference by uid; by kind and name when the dump has no uids (hand-written). */
function isOwnedBy(
  child: { metadata: { ownerReferences?: { kind: string; name: string; uid: string }[] } },
  kind: string,
  owner: { metadata: { name?: string; uid?: string } },
): boolean {
  return (child.metadata.ownerReferences ?? []).some((ref) =>
    owner.metadata.uid && ref.uid
      ? ref.uid === owner.metadata.uid
      : ref.kind === kind && ref.name === owner.metadata.name,
  );
}

function revision(rs: ReplicaSet): number {
  const value = Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision']);
  return Number.isFinite(value) ? value : -1;
}

function byRevisionDesc(a: ReplicaSet, b: ReplicaSet): number {
  return (
    revision(b) - revision(a) ||
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')
  );
}

/**
 * Other workloads' pods matter when one of ours is Pending or the template asks for
 * something scarce (extended resource, hostPort, ReadWriteOnce claim, required
 * anti-affinity), mirroring what the live collector fetches.
 */
function otherPodsMatter(template: PodSpec, pods: Pod[]): boolean {
  if (pods.some((p) => p.status?.phase === 'Pending' && !p.spec.nodeName)) return true;
  const containers = [...template.containers, ...(template.initContainers ?? [])];
  const extended = containers.some((c) =>
    Object.keys({ ...c.resources?.limits, ...c.resources?.requests }).some(
      (r) => !BASIC_RESOURCES.has(r) && !r.startsWith('hugepages-'),
    ),
  );
  const hostPort = containers.some((c) =>
    (c.ports ?? []).some((p) => p.hostPort !== undefined && p.hostPort > 0),
  );
  const claims = (template.volumes ?? []).some((v) => v.persistentVolumeClaim);
  const antiAffinity = (
    template.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []
  ).length;
  return extended || hostPort || claims || antiAffinity > 0;
}

const TIME_KEY = /(Timestamp|Time|At)$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Times that point into the future when written: a terminating pod's
 * `deletionTimestamp` is the deletion request plus its grace period, and expiry times
 * are deadlines. They say nothing about when the dump was taken.
 */
const FUTURE_KEY = /^deletionTimestamp$|[Ee]xpir/;

/**
 * When the dump was taken, at the earliest: the newest RFC 3339 time in any
 * `*Timestamp`, `*Time` or `*At` field that records something that happened. A
 * deletion counts from its request (deletionTimestamp minus the grace period).
 */
export function newestTimestamp(objects: KubeObject[]): string {
  let newest = '1970-01-01T00:00:00Z';
  let newestMs = 0;
  const consider = (ms: number, text: string): void => {
    if (ms > newestMs) {
      newestMs = ms;
      newest = text;
    }
  };
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (TIME_KEY.test(key) && !FUTURE_KEY.test(key) && RFC3339.test(value))
        consider(Date.parse(value), value);
      return;
    }
    if (Array.isArray(value)) value.forEach((v) => visit(v, key));
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const deletion = record['deletionTimestamp'];
      if (typeof deletion === 'string' && RFC3339.test(deletion)) {
        const grace =
          typeof record['deletionGracePeriodSeconds'] === 'number' ? record['deletionGracePeriodSeconds'] : 0;
        const requested = Date.parse(deletion) - grace * 1000;
        consider(requested, new Date(requested).toISOString().replace('.000Z', 'Z'));
      }
      for (const [k, v] of Object.entries(record)) visit(v, k);
    }
  };
  objects.forEach((o) => visit(o, ''));
  return newest;
}
