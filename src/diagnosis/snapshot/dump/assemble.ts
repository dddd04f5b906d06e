/**
 * Builds a WorkloadSnapshot from the objects of a dump, selected the way every path
 * selects them (workloads/select-workload.ts). A kind the dump does not hold is recorded as not
 * read, never as empty: a dump of one namespace says nothing about other namespaces'
 * pods on the nodes.
 */
import type { Deployment } from '../../k8s-workloads.js';
import type { DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice } from '../../k8s-dra.js';
import type { KubeObject, Node, Pod, PodSpec, KubeEvent } from '../../k8s.js';
import type { PersistentVolumeClaim } from '../../k8s-storage.js';
import type { PriorityClass, ResourceQuota } from '../../k8s-policy.js';
import { claimNames } from '../../base/pod-constraints.js';
import { claimsNamedBy } from '../../dra/pod-claims.js';
import { isTerminal } from '../../base/pods.js';
import { neighbourAutoscalers, neighbourEntry } from '../../workloads/deployment/neighbours.js';
import { neighbourRolloutEntry } from '../../workloads/rollout/neighbours.js';
import type { ArgoRollout } from '../../k8s-argo.js';
import { selectWorkload } from '../../workloads/select-workload.js';
import { asCoreEvent } from '../../base/event-shape.js';
import type {
  Coverage,
  CoverageGap,
  ReadState,
  RevisionObject,
  WorkloadObject,
  WorkloadRef,
  WorkloadSnapshot,
} from '../types.js';
import { typeOfKind, WORKLOAD_NAMES } from '../../workload-ref.js';
import { workloadKind } from '../../workloads/index.js';
import { WorkloadNotFoundError } from '../../errors.js';
import { closestNames } from '../../../text/closest-names.js';
import { detectOwner } from '../../ownership.js';
import { ownerGap, ownerRead, ownerTarget } from '../../owner-target.js';
import type { OwnerSettingsRead } from '../types.js';
import type { Unparsed } from './dump-relevance.js';
import { guardsInDump } from './guards-in-dump.js';
import { pvcsRead } from '../types.js';
import { DumpError } from './dump.js';
import type { WorkloadKindModule } from '../../workload-kind.js';
import { quoted } from '../../../text/clean.js';

export interface AssembleOptions {
  /** "Now" for the analyzers; defaults to the newest timestamp in the dump. */
  capturedAt?: string;
  /** Previous-container log tails keyed `pod/container`. */
  logs?: Record<string, string>;
  /** Where Argo CD Applications live when the tracking id names no namespace (default argocd). */
  argocdNamespace?: string;
  /**
   * Other namespaces' pods the reading left unparsed (dump-relevance.ts dumpReading):
   * they were dumped, so other workloads count as read, and their newest time counts
   * towards when the dump was taken.
   */
  unparsed?: Unparsed;
}

/**
 * Selects the objects about `ref` from a dump.
 *
 * @throws WorkloadNotFoundError naming the namespace when the workload is not in the dump.
 * @example assembleSnapshot({ kind: 'Deployment', namespace: 'vision', name: 'tracker' }, loadObjects(text))
 */
export function assembleSnapshot(
  ref: WorkloadRef,
  objects: KubeObject[],
  options: AssembleOptions = {},
): WorkloadSnapshot {
  const byKind = new Map<string, KubeObject[]>();
  for (const o of objects) {
    const kind = o.kind ?? '';
    const list = byKind.get(kind);
    if (list) list.push(o);
    else byKind.set(kind, [o]);
  }
  const ofKind = <T>(kind: string): T[] => (byKind.get(kind) ?? []) as unknown as T[];
  const kind = workloadKind(ref.kind);
  const candidates = ofKind<WorkloadObject>(ref.kind);
  const found = candidates.find(
    (d) => d.metadata.name === ref.name && (d.metadata.namespace ?? ref.namespace) === ref.namespace,
  );
  if (!found) throw notFound(ref, candidates);
  const others = <T>(k: string): T[] => ofKind<T>(k).filter((o) => o !== found);
  // A hand-written dump may omit the namespace: the workload is the requested one.
  const named = found.metadata.namespace
    ? found
    : { ...found, metadata: { ...found.metadata, namespace: ref.namespace } };
  const object = asResolved(kind, named, ofKind<Deployment>('Deployment'));
  const template = kind.podTemplate(object).spec;
  const pods = ofKind<Pod>('Pod');
  const revisions = ofKind<RevisionObject>(kind.revisionObjects.kind);
  const dra = DRA_KINDS.some((k) => byKind.has(k)) || usesClaims(template, pods);
  const snapshot = selectWorkload(
    ref.kind,
    object,
    {
      revisions,
      pods,
      events: ofKind<KubeEvent>('Event'),
      pvcs: ofKind<PersistentVolumeClaim>('PersistentVolumeClaim'),
      nodes: ofKind<Node>('Node'),
      neighbours: pods,
      ...(dra
        ? {
            dra: {
              claims: ofKind<ResourceClaim>('ResourceClaim'),
              templates: ofKind<ResourceClaimTemplate>('ResourceClaimTemplate'),
              slices: ofKind<ResourceSlice>('ResourceSlice'),
              classes: ofKind<DeviceClass>('DeviceClass'),
            },
          }
        : {}),
    },
    {
      capturedAt: options.capturedAt ?? newer(newestTimestamp(objects), options.unparsed?.newest),
      coverage: dumpCoverage(ref, template, byKind, dra, (options.unparsed?.pods ?? 0) > 0),
      ...(options.logs ? { logs: options.logs } : {}),
    },
  );
  const withPods = withMissingPods(snapshot, ofKind<KubeEvent>('Event'));
  const missing = kind.missingRevisions(object, pods, revisions);
  const coverage: Coverage =
    missing.length === 0
      ? withPods
      : { ...withPods, replicaSets: 'partial', gaps: [...withPods.gaps, ...missing] };
  const owner = ownerSettingsInDump(ref, object, objects, options.argocdNamespace);
  const gap = owner ? ownerGap(owner) : undefined;
  // ResourceQuotas count as read when the dump holds any (`kubectl get resourcequotas`);
  // a dump without one says nothing of the namespace's quotas.
  const quotas = byKind.has('ResourceQuota')
    ? ofKind<ResourceQuota>('ResourceQuota').filter(
        (q) => (q.metadata.namespace ?? ref.namespace) === ref.namespace,
      )
    : undefined;
  const guarded = guardsInDump(
    ref,
    object,
    template,
    { read: snapshot.pvcs, whole: pvcsRead({ accessProblems: [], coverage }) },
    <T>(k: string) => (byKind.has(k) ? ofKind<T>(k) : undefined),
  );
  return {
    ...snapshot,
    target: ref,
    coverage: { ...coverage, gaps: [...coverage.gaps, ...(gap ? [gap] : []), ...guarded.gaps] },
    ...(owner ? { ownerSettings: owner } : {}),
    ...(quotas ? { resourceQuotas: quotas } : {}),
    // Read when the dump holds any (a cluster always has the system classes).
    ...(byKind.has('PriorityClass') ? { priorityClasses: ofKind<PriorityClass>('PriorityClass') } : {}),
    // The dump's other Deployments and Rollouts (the object found, when it is one, is not a neighbour).
    ...(byKind.has('Deployment')
      ? {
          neighbourDeployments: others<Deployment>('Deployment').map((d) => neighbourEntry(d, ref.namespace)),
        }
      : {}),
    ...(byKind.has('HorizontalPodAutoscaler')
      ? { neighbourAutoscalers: neighbourAutoscalers(ofKind('HorizontalPodAutoscaler'), ref.namespace) }
      : {}),
    ...(byKind.has('Rollout')
      ? {
          neighbourRollouts: others<ArgoRollout>('Rollout').map((r) =>
            neighbourRolloutEntry(r, ref.namespace),
          ),
        }
      : {}),
    guards: guarded.guards,
  };
}

/** The owner's settings object when the dump holds it (kind, API group, namespace and name), else not in the dump. */
function ownerSettingsInDump(
  ref: WorkloadRef,
  object: WorkloadObject,
  objects: readonly KubeObject[],
  argocdNamespace: string | undefined,
): OwnerSettingsRead | undefined {
  const target = ownerTarget(
    detectOwner({ group: WORKLOAD_NAMES[ref.kind].group, kind: ref.kind, metadata: object.metadata }),
    argocdNamespace,
  );
  if (!target) return undefined;
  const found = objects.find(
    (o) =>
      o.kind === target.kind &&
      (o.apiVersion ?? '').split('/')[0] === target.group &&
      o.metadata?.namespace === target.namespace &&
      o.metadata.name === target.name,
  );
  return found ? ownerRead(target, 'read', found) : ownerRead(target, 'not-in-dump');
}

/**
 * A dump can hold some pods of the namespace and still miss ours (a later `kubectl get
 * pods`, a filtered dump, a pod moved by hand): then the pods are not complete, and
 * nothing may be read from their absence. Two proofs that one is missing: an event
 * names a pod of one of this workload's revisions (a Deployment's ReplicaSets) that the
 * dump does not hold, or the workload's status counts more pods than the dump holds of it. A pod with
 * deletion evidence is gone, not missing (every rollout deletes old pods, and their
 * events outlive them by an hour): the ReplicaSet's SuccessfulDelete ("Deleted pod:
 * NAME") or the kubelet's Killing ("Stopping container …", not a probe's restart).
 */
function withMissingPods(snapshot: WorkloadSnapshot, rawEvents: readonly KubeEvent[]): Coverage {
  const { coverage } = snapshot;
  if (coverage.pods !== 'complete') return coverage;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const namespace = object.metadata.namespace ?? '';
  const events = rawEvents
    .map(asCoreEvent)
    .filter((e) => (e.involvedObject.namespace ?? e.metadata.namespace ?? namespace) === namespace);
  const held = new Set(snapshot.pods.map((p) => p.metadata.name ?? ''));
  const deleted = new Set<string>();
  for (const e of events) {
    const message = e.message?.trim() ?? '';
    const byReplicaSet = /^Deleted pod: (\S+)$/.exec(message)?.[1];
    if (e.reason === 'SuccessfulDelete' && e.involvedObject.kind === 'ReplicaSet' && byReplicaSet)
      deleted.add(byReplicaSet);
    if (e.reason === 'Killing' && e.involvedObject.kind === 'Pod' && /^Stopping container /.test(message))
      deleted.add(e.involvedObject.name ?? '');
  }
  const { current, old } = kind.revisions(snapshot);
  const revisions = [...(current ? [current] : []), ...old].filter((r) => r.name !== '');
  // A revision whose own status counts no more pods than the dump holds of it lacks
  // none: an event about one of its pods is older than the pod's end (a ReplicaSet
  // scaled to 0 after a rollback keeps its pods' events for an hour).
  const lacking = (name: string): boolean =>
    revisions.some(
      (r) =>
        name.startsWith(`${r.name}-`) &&
        (r.counted === undefined || r.counted > r.pods.filter((p) => !isTerminal(p)).length),
    );
  const named = events
    .map((e) => e.involvedObject)
    .filter(
      (o) =>
        o.kind === 'Pod' &&
        o.name !== undefined &&
        !held.has(o.name) &&
        !deleted.has(o.name) &&
        lacking(o.name),
    )
    .map((o) => o.name ?? '');
  // Terminating pods count: a status may still include them, and missing ones must be sure.
  const live = snapshot.pods.filter((p) => !isTerminal(p)).length;
  const counted = kind.countedPods(object);
  if (named.length === 0 && counted <= live) return coverage;
  const why = [
    ...(named.length > 0
      ? [`events name pod ${[...new Set(named)].slice(0, 3).join(', ')}, which it lacks`]
      : []),
    ...(counted > live ? [`the ${snapshot.target.kind} counts ${counted} pods, the dump holds ${live}`] : []),
  ].join('; ');
  const selector = Object.entries(kind.selector(object).matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return {
    ...coverage,
    pods: 'partial',
    gaps: [
      ...coverage.gaps,
      {
        about: 'pods',
        what: `some pods of ${object.metadata.name ?? ''} in ${namespace} (${why})`,
        reason: 'not-in-dump',
        settle: `kubectl get pods -n ${namespace}${selector ? ` -l ${selector}` : ''} -o yaml`,
      },
    ],
  };
}

/**
 * What a dump holds. A kind with no object in it was not dumped (a Deployment always
 * has ReplicaSets once created; a namespace with pods has events within the hour).
 * Other workloads' pods count as read everywhere only when the dump holds pods of
 * namespaces other than the target's, as `kubectl get pods -A` writes.
 */
const DRA_KINDS = ['ResourceClaim', 'ResourceClaimTemplate', 'ResourceSlice', 'DeviceClass'];

/**
 * The workload's template or a pod of the dump lists claims, or a pod holds the claim
 * the scheduler created for its extended resources: DRA is in use even when the dump
 * holds no DRA object (then every DRA kind is a gap).
 */
function usesClaims(template: PodSpec, pods: readonly Pod[]): boolean {
  return (
    [template, ...pods.map((p) => p.spec)].some((spec) => (spec.resourceClaims ?? []).length > 0) ||
    pods.some((p) => p.status?.extendedResourceClaimStatus?.resourceClaimName)
  );
}

/**
 * What a dump says about DRA. Claims count as read in every namespace when the dump
 * holds claims or pods of other namespaces (`kubectl get ... -A`); a kind with no
 * object is not read (an empty list and an absent one look the same in a dump).
 */
function draCoverage(
  ns: string,
  byKind: ReadonlyMap<string, KubeObject[]>,
  gaps: CoverageGap[],
  templatesNamed: boolean,
  podsElsewhereUnparsed = false,
): NonNullable<Coverage['dra']> {
  const has = (kind: string): boolean => (byKind.get(kind) ?? []).length > 0;
  const elsewhere = (kind: string): boolean =>
    (byKind.get(kind) ?? []).some((o) => o.metadata?.namespace !== undefined && o.metadata.namespace !== ns);
  const state = (kind: string, plural: string, settle: string, matters = true): ReadState => {
    if (has(kind)) return 'complete';
    if (matters) gaps.push({ about: 'dra', what: plural, reason: 'not-in-dump', settle });
    return 'unread';
  };
  let claims: 'all' | 'namespace' | 'unread' = 'unread';
  // A claim a pod of this namespace names and the dump lacks may be deleted, or the
  // dump was cut (a label selector, a namespace saved apart): its absence proves
  // nothing, so not even this namespace's claims count as read whole.
  const ownMissing = missingClaims(byKind).filter((c) => c.namespace === ns);
  if (has('ResourceClaim') && ownMissing.length === 0) {
    claims =
      (elsewhere('ResourceClaim') || elsewhere('Pod') || podsElsewhereUnparsed) && !claimMissing(byKind)
        ? 'all'
        : 'namespace';
  }
  for (const missing of ownMissing)
    gaps.push({
      about: 'dra',
      what: `ResourceClaim ${missing.name} (named by pod ${missing.pod})`,
      reason: 'not-in-dump',
      settle: `kubectl get resourceclaims -n ${ns} -o yaml (or, diagnosing live, whether it still exists)`,
    });
  if (claims !== 'all') {
    gaps.push({
      about: 'dra',
      what: claims === 'unread' ? 'ResourceClaims' : 'ResourceClaims of other namespaces',
      reason: 'not-in-dump',
      settle: 'kubectl get resourceclaims -A -o yaml',
    });
  }
  return {
    claims,
    slices: state('ResourceSlice', 'ResourceSlices', 'kubectl get resourceslices -o yaml'),
    classes: state('DeviceClass', 'DeviceClasses', 'kubectl get deviceclasses -o yaml'),
    // Unread either way; a gap only when a claim is made from a template (extended
    // resources backed by DRA and shared claims use none).
    templates: state(
      'ResourceClaimTemplate',
      'ResourceClaimTemplates',
      `kubectl get resourceclaimtemplates -n ${ns} -o yaml`,
      templatesNamed,
    ),
  };
}

function dumpCoverage(
  ref: WorkloadRef,
  template: PodSpec,
  byKind: ReadonlyMap<string, KubeObject[]>,
  dra = false,
  podsElsewhereUnparsed = false,
): Coverage {
  const gaps: CoverageGap[] = [];
  const ns = ref.namespace;
  const revisionObjects = workloadKind(ref.kind).revisionObjects;
  const state = (kind: string, about: CoverageGap['about'], what: string, settle: string): ReadState => {
    if ((byKind.get(kind) ?? []).length > 0) return 'complete';
    return unreadHere(about, what, settle);
  };
  function unreadHere(about: CoverageGap['about'], what: string, settle: string): ReadState {
    gaps.push({ about, what, reason: 'not-in-dump', settle });
    return 'unread';
  }
  // A list of two namespaces or more is a cluster-wide one (`kubectl get pods -A`); a list
  // of one namespace says nothing of another's objects (a dump taken in another namespace).
  const namespacesOf = (kind: string): Set<string> =>
    new Set((byKind.get(kind) ?? []).map((o) => o.metadata?.namespace ?? ns));
  const inNamespace = (
    kind: string,
    about: CoverageGap['about'],
    what: string,
    settle: string,
    clusterWide = false,
  ): ReadState => {
    const seen = namespacesOf(kind);
    if (clusterWide || seen.size !== 1 || seen.has(ns)) return state(kind, about, `${what} in ${ns}`, settle);
    return unreadHere(
      about,
      `${what} in ${ns} (the dump holds those of ${[...seen][0] ?? ''} alone)`,
      settle,
    );
  };
  const replicaSets = inNamespace(
    revisionObjects.kind,
    'replicaSets',
    `${revisionObjects.kind}s`,
    `kubectl get ${revisionObjects.resource} -n ${ns} -o yaml`,
  );
  const clusterWide = podsElsewhereUnparsed || namespacesOf('Pod').size >= 2;
  const pods = inNamespace('Pod', 'pods', 'pods', `kubectl get pods -n ${ns} -o yaml`, clusterWide);
  const events = inNamespace('Event', 'events', 'events', `kubectl get events -n ${ns} -o yaml`);
  const nodes = state('Node', 'nodes', 'nodes', 'kubectl get nodes -o yaml');
  if (!clusterWide && pods === 'complete') {
    gaps.push({
      about: 'neighbours',
      what: `pods of other namespaces`,
      reason: 'not-in-dump',
      settle: 'kubectl get pods -A -o yaml (or --field-selector spec.nodeName=NODE for the nodes named)',
    });
  }
  gaps.push(...pvcGaps(ns, template, byKind));
  return {
    replicaSets,
    pods,
    events,
    nodes,
    podsReadOn: clusterWide ? 'all' : [],
    // A dump of the namespace's pods holds every one of them (a dump is read whole).
    ...(pods === 'complete' ? { namespacePods: 'complete' as const } : {}),
    gaps,
    ...(dra
      ? { dra: draCoverage(ns, byKind, gaps, namesTemplate(ns, template, byKind), podsElsewhereUnparsed) }
      : {}),
  };
}

/** The workload's template or a pod of its namespace makes a claim from a ResourceClaimTemplate. */
function namesTemplate(ns: string, template: PodSpec, byKind: ReadonlyMap<string, KubeObject[]>): boolean {
  const pods = ((byKind.get('Pod') ?? []) as unknown as Pod[]).filter(
    (p) => (p.metadata.namespace ?? ns) === ns,
  );
  return [template, ...pods.map((p) => p.spec)].some((spec) =>
    (spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName),
  );
}

/**
 * PersistentVolumeClaims the workload mounts that the dump cannot speak for: none of
 * the namespace's claims was dumped (`kubectl get deploy,rs,pods` leaves them out), or
 * a pod bound to a node mounts one the dump lacks (pvc-protection keeps a claim in use
 * until its last pod is gone, so it exists: the dump was cut). A claim missing from such
 * a dump is unknown, not deleted; one missing from a dump that holds the namespace's
 * claims and that no running pod mounts is taken as absent, as the scheduler would.
 */
function pvcGaps(ns: string, template: PodSpec, byKind: ReadonlyMap<string, KubeObject[]>): CoverageGap[] {
  const here = (o: { metadata?: { namespace?: string } }): boolean => (o.metadata?.namespace ?? ns) === ns;
  const pods = ((byKind.get('Pod') ?? []) as unknown as Pod[]).filter(here);
  const mounted = new Set([template, ...pods.map((p) => p.spec)].flatMap(claimNames));
  if (mounted.size === 0) return [];
  const held = new Set((byKind.get('PersistentVolumeClaim') ?? []).filter(here).map((c) => c.metadata?.name));
  const settle = `kubectl get persistentvolumeclaims -n ${ns} -o yaml`;
  if (held.size === 0)
    return [{ about: 'pvcs', what: `PersistentVolumeClaims in ${ns}`, reason: 'not-in-dump', settle }];
  const inUse = new Map<string, string>();
  for (const pod of pods.filter((p) => p.spec.nodeName && !isTerminal(p)))
    for (const claim of claimNames(pod.spec)) if (!held.has(claim)) inUse.set(claim, pod.metadata.name ?? '');
  return [...inUse].map(([claim, pod]) => ({
    about: 'pvcs' as const,
    what: `PersistentVolumeClaim ${claim} (mounted by pod ${pod}, so it exists)`,
    reason: 'not-in-dump' as const,
    settle,
  }));
}

/**
 * A pod in the dump names a ResourceClaim the dump lacks (in its spec, or in its status
 * for claims made from a template): the claims were not all dumped, whatever else
 * the dump holds of other namespaces.
 */
function claimMissing(byKind: ReadonlyMap<string, KubeObject[]>): boolean {
  return missingClaims(byKind).length > 0;
}

/**
 * Claims pods of the dump name (by resourceClaimName, as created for them from a
 * template, or as the scheduler created for their extended resources) that the dump lacks.
 */
function missingClaims(
  byKind: ReadonlyMap<string, KubeObject[]>,
): { namespace: string; name: string; pod: string }[] {
  const held = new Set(
    (byKind.get('ResourceClaim') ?? []).map(
      (c) => `${c.metadata?.namespace ?? ''}/${c.metadata?.name ?? ''}`,
    ),
  );
  return ((byKind.get('Pod') ?? []) as unknown as Pod[]).flatMap((pod) => {
    const ns = pod.metadata.namespace ?? '';
    return claimsNamedBy(pod)
      .filter((name) => !held.has(`${ns}/${name}`))
      .map((name) => ({ namespace: ns, name, pod: pod.metadata.name ?? '' }));
  });
}

function notFound(ref: WorkloadRef, candidates: WorkloadObject[]): WorkloadNotFoundError {
  const here = candidates
    .filter((d) => (d.metadata.namespace ?? ref.namespace) === ref.namespace)
    .map((d) => d.metadata.name);
  const elsewhere = candidates
    .filter((d) => d.metadata.name === ref.name && d.metadata.namespace !== ref.namespace)
    .map((d) => d.metadata.namespace);
  const names = here.filter((n): n is string => n !== undefined);
  const suggestions = closestNames(ref.name, names);
  let hint =
    here.length > 0 && suggestions.length === 0
      ? ` It has ${here.length} there: ${names.slice(0, 5).join(', ')}.`
      : '';
  if (elsewhere.length > 0) hint += ` A ${ref.kind} of that name is in namespace ${elsewhere.join(', ')}.`;
  return new WorkloadNotFoundError(
    `${ref.kind} ${quoted(ref.name)} is not in the dump for namespace ${quoted(ref.namespace)}.${hint}`,
    [ref.namespace],
    suggestions,
    typeOfKind(ref.kind),
  );
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
 * Free-form maps whose keys and values anyone who can edit an object writes
 * (`example.com/lastSeenAt: 2099-…` in an annotation): never a clock.
 */
const USER_DATA = new Set(['annotations', 'labels', 'data', 'stringData', 'binaryData']);

/**
 * When the dump was taken, at the earliest: the newest RFC 3339 time in any
 * `*Timestamp`, `*Time` or `*At` field that records something that happened. A
 * deletion counts from its request (deletionTimestamp minus the grace period).
 * Annotations, labels and config data are skipped: they are text, not a clock.
 */
/** The later of two RFC 3339 times (the first when the second is absent). */
function newer(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) > Date.parse(a) ? b : a;
}

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
      for (const [k, v] of Object.entries(record)) if (!USER_DATA.has(k)) visit(v, k);
    }
  };
  objects.forEach((o) => visit(o, ''));
  return newest;
}

/**
 * A workload whose kind takes its template from a Deployment (a Rollout's workloadRef),
 * with that Deployment's template, as the controller reads it; the dump must hold the
 * Deployment. Any other workload comes back as it is.
 * @throws DumpError when it does not, or names what this tool cannot follow.
 */
function asResolved<O extends WorkloadObject>(
  kind: WorkloadKindModule<O>,
  object: O,
  deployments: readonly Deployment[],
): O {
  const templateRef = kind.templateRef;
  const ref = templateRef?.of(object);
  if (!templateRef || !ref) return object;
  if ('unfollowable' in ref) throw new DumpError(ref.unfollowable);
  const namespace = object.metadata.namespace;
  const deployment = deployments.find(
    (d) => d.metadata.name === ref.name && (d.metadata.namespace ?? namespace) === namespace,
  );
  if (!deployment) {
    throw new DumpError(
      `${kind.kind} ${namespace ?? ''}/${object.metadata.name ?? ''} takes its pod template from deployment ${ref.name} (workloadRef), which the dump does not hold: add \`kubectl get deployment ${ref.name} -n ${namespace ?? ''} -o yaml\``,
    );
  }
  return templateRef.resolved(object, deployment);
}
