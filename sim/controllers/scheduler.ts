/**
 * A kube-scheduler stand-in: filters nodes with the default plugins' rules, scores
 * the feasible ones (spread replicas, honour preferred anti-affinity, least
 * allocated), binds, or records FailedScheduling with the FitError wording and a
 * PodScheduled=False condition. Preemption is tried by priority only: pods of
 * equal or higher priority are never victims.
 */
import type { Node, Pod, Taint } from '../../src/diagnosis/k8s.js';
import { resourceForKind } from '../resources.js';
import { matchesLabels, requirementsOf } from '../selectors.js';
import type { SimObject, Store as SimStore } from '../store.js';
import { deleteObject } from '../writes.js';
import { nowRfc3339 } from '../defaults.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { bindVolumes, volumeFilter } from './volume-binding.js';
import { draBackedResources, draFilter, heldForClaims, reserveClaims, type NodeAllocation } from './dra.js';
import { asPod, controllerUid, isPodActive } from './pods.js';
import {
  filterNode,
  fitErrorMessage,
  matchesNodeAffinity,
  nodeNamesFromAffinity,
  podRequests,
  tolerates,
  type FilterResult,
  type NodeView,
} from './scheduler-filters.js';
import { spreadState, type Counted } from './topology-spread.js';

const POD_RT = resourceForKind('Pod');

/**
 * With inter-pod affinity terms or topology spread constraints the filters need every
 * node's pods; otherwise the nodes NodeAffinity's PreFilter left out are only counted,
 * never read.
 */
function readsEveryNode(pod: Pod): boolean {
  const affinity = pod.spec.affinity;
  return (
    (affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length +
      (affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length +
      (pod.spec.topologySpreadConstraints ?? []).length >
    0
  );
}

/** PodTopologySpread's node inclusion policies, on the filters' own node affinity and taint checks. */
const SPREAD_INCLUSION = {
  affinity: matchesNodeAffinity,
  tolerated: (pod: Pod, taint: Taint) => tolerates(pod.spec.tolerations ?? [], taint),
};
const DRA_KINDS = new Set(['ResourceSlice', 'DeviceClass', 'DeviceTaintRule']);
const VOLUME_KINDS = new Set(['PersistentVolume', 'PersistentVolumeClaim', 'StorageClass']);
const RETRY_SECONDS = 60;
/**
 * The status of a node NodeAffinity's PreFilter left out (schedule_one.go
 * findNodesThatFitPod: SetAbsentNodesStatus, UnschedulableAndUnresolvable, with the
 * plugins that narrowed the nodes), hence `N node(s) didn't satisfy plugin(s)
 * [NodeAffinity]` beside the one node a DaemonSet pod is pinned to.
 */
const NOT_HELPFUL: FilterResult = {
  reasons: ['Preemption is not helpful for scheduling'],
  unresolvable: true,
};
const NOT_NAMED: FilterResult = {
  reasons: ["node(s) didn't satisfy plugin(s) [NodeAffinity]"],
  unresolvable: true,
};

function keyOf(o: SimObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

function needsScheduling(o: SimObject): boolean {
  const pod = asPod(o);
  return (
    !pod.spec.nodeName &&
    (pod.spec.schedulerName ?? 'default-scheduler') === 'default-scheduler' &&
    isPodActive(pod)
  );
}

/** Creates the scheduler controller. */
/**
 * The failure handler's record of a pod that did not fit (schedule_one.go,
 * handleSchedulingFailure): a FailedScheduling event, the PodScheduled=False condition
 * with the same message (written again only when it changed), and the node preemption
 * nominated, when it did (`nominated`: that write always happens).
 */
function recordUnschedulable(
  store: SimStore,
  podObj: SimObject,
  current: SimObject | undefined,
  message: string,
  nominated?: string,
): void {
  recordEvent(store, {
    involved: podObj,
    type: 'Warning',
    reason: 'FailedScheduling',
    message,
    component: 'default-scheduler',
  });
  if (!current) return;
  const copy = structuredClone(current);
  const status = (asPod(copy).status ??= {});
  const existing = status.conditions?.find((c) => c.type === 'PodScheduled');
  if (nominated === undefined && existing?.status === 'False' && existing.message === message) return;
  if (nominated !== undefined) status.nominatedNodeName = nominated;
  status.conditions = [
    ...(status.conditions ?? []).filter((c) => c.type !== 'PodScheduled'),
    {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message,
      lastProbeTime: null,
      lastTransitionTime: existing?.status === 'False' ? existing.lastTransitionTime : nowRfc3339(),
    } as never,
  ];
  status.phase = 'Pending';
  store.put(copy);
}

/**
 * Pods nominated to a node and not bound yet (status.nominatedNodeName), by node: the
 * scheduling framework adds those of equal or higher priority to the node when it
 * filters another pod (RunFilterPluginsWithNominatedPods, addNominatedPods in
 * pkg/scheduler/framework/runtime/framework.go), so the room preemption made is kept
 * for the preemptor and a pod of lower priority, say the ReplicaSet's replacement of
 * the victim, cannot take it. `note` follows each pod event.
 */
function nominationIndex(store: ControllerContext['store']) {
  const nominatedTo = new Map<string, Set<string>>();
  const nominationOf = new Map<string, string>();
  return {
    note(o: SimObject, deleted: boolean): void {
      const key = keyOf(o);
      const pod = asPod(o);
      const node =
        !deleted && !pod.spec.nodeName && pod.metadata.deletionTimestamp === undefined
          ? pod.status?.nominatedNodeName
          : undefined;
      const was = nominationOf.get(key);
      if (was === node) return;
      if (was !== undefined) {
        nominatedTo.get(was)?.delete(key);
        nominationOf.delete(key);
      }
      if (node) {
        const keys = nominatedTo.get(node) ?? new Set<string>();
        keys.add(key);
        nominatedTo.set(node, keys);
        nominationOf.set(key, node);
      }
    },
    /** The pods nominated to `node` that `pod` (`key`) must leave room for: equal or higher priority, not itself. */
    podsFor(pod: Pod, key: string, node: string): Pod[] {
      const priority = pod.spec.priority ?? 0;
      return [...(nominatedTo.get(node) ?? [])]
        .filter((k) => k !== key)
        .map((k) => store.getByKey('Pod', k))
        .filter((o): o is SimObject => o !== undefined)
        .map(asPod)
        .filter((p) => (p.spec.priority ?? 0) >= priority)
        .map((p) => ({ ...p, spec: { ...p.spec, nodeName: node } }));
    },
  };
}

export function schedulerController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const queue = new Set<string>();
  const unschedulable = new Set<string>();

  const requeueAll = (): void => {
    for (const k of unschedulable) queue.add(k);
    unschedulable.clear();
  };

  const nominations = nominationIndex(store);

  // A node's pods are read when a filter needs them: a pod pinned to one node (a
  // DaemonSet pod) does not read every node's pods.
  const views = (): NodeView[] =>
    store.list('Node').map((n) => {
      let pods: Pod[] | undefined;
      return {
        node: n as unknown as Node,
        get pods(): Pod[] {
          return (pods ??= store.podsOnNode(n.metadata.name).map(asPod));
        },
      };
    });

  /** The views of the nodes a PreFilter named (those that exist). */
  const namedViews = (names: ReadonlySet<string>): NodeView[] =>
    [...names]
      .map((name) => store.get('Node', undefined, name))
      .filter((n): n is SimObject => n !== undefined)
      .map((n) => ({ node: n as unknown as Node, pods: store.podsOnNode(n.metadata.name).map(asPod) }));

  const domainPods = (all: NodeView[]) => {
    const cache = new Map<string, Pod[]>();
    return (key: string, node: Node): Pod[] => {
      const value = node.metadata.labels?.[key];
      if (key === 'kubernetes.io/hostname' || value === undefined) {
        return value === undefined ? [] : (all.find((v) => v.node === node)?.pods.filter(isPodActive) ?? []);
      }
      const k = `${key}=${value}`;
      let pods = cache.get(k);
      if (!pods) {
        pods = all
          .filter((v) => v.node.metadata.labels?.[key] === value)
          .flatMap((v) => v.pods.filter(isPodActive));
        cache.set(k, pods);
      }
      return pods;
    };
  };

  const score = (pod: Pod, view: NodeView): number => {
    const owner = controllerUid(pod as unknown as SimObject);
    const active = view.pods.filter(isPodActive);
    let s = 0;
    if (owner) s += 100 * active.filter((p) => controllerUid(p as unknown as SimObject) === owner).length;
    for (const term of pod.spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ??
      []) {
      const t = term as {
        weight?: number;
        podAffinityTerm?: { labelSelector?: Parameters<typeof requirementsOf>[0]; topologyKey?: string };
      };
      const reqs = requirementsOf(t.podAffinityTerm?.labelSelector);
      if (t.podAffinityTerm?.topologyKey !== 'kubernetes.io/hostname') continue;
      s += (t.weight ?? 1) * 1000 * active.filter((p) => matchesLabels(reqs, p.metadata.labels)).length;
    }
    const cpuCap = Number.parseFloat(String(view.node.status?.allocatable?.['cpu'] ?? '1')) * 1000 || 1000;
    const cpuUsed = active.reduce((n, p) => n + (podRequests(p).get('cpu') ?? 0), 0);
    return s + cpuUsed / cpuCap;
  };

  const bind = (podObj: SimObject, node: Node): void => {
    // PreBind may have written the pod's status (extendedResourceClaimStatus): bind the current object.
    const copy = structuredClone(store.getByKey('Pod', keyOf(podObj)) ?? podObj);
    const pod = asPod(copy);
    pod.spec.nodeName = node.metadata.name ?? '';
    const status = (pod.status ??= {});
    status.conditions = [
      ...(status.conditions ?? []).filter((c) => c.type !== 'PodScheduled'),
      { type: 'PodScheduled', status: 'True', lastTransitionTime: nowRfc3339() },
    ];
    delete status.nominatedNodeName;
    const stored = store.put(copy);
    recordEvent(store, {
      involved: stored,
      type: 'Normal',
      reason: 'Scheduled',
      message: `Successfully assigned ${podObj.metadata.namespace ?? ''}/${podObj.metadata.name} to ${node.metadata.name ?? ''}`,
      component: 'default-scheduler',
    });
  };

  /**
   * prepareCandidate (framework/preemption): each victim first gets the condition
   * DisruptionTarget=True, reason PreemptionByScheduler, then is deleted with its own
   * grace period (it stays Terminating meanwhile).
   */
  const markDisruption = (victim: SimObject): void => {
    const copy = structuredClone(victim);
    const status = (asPod(copy).status ??= {});
    status.conditions = [
      ...(status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'PreemptionByScheduler',
        message: 'default-scheduler: preempting to accommodate a higher priority pod',
        lastTransitionTime: nowRfc3339(),
      } as never,
    ];
    store.put(copy);
  };

  const preempt = (
    pod: Pod,
    all: NodeView[],
    results: FilterResult[],
    domain: ReturnType<typeof domainPods>,
    backed: ReadonlySet<string>,
    claims: boolean,
    absent: number,
    spread: readonly Counted[] | undefined,
  ): { message: string; victims?: { node: Node; pods: Pod[] } } => {
    if ((pod.spec as { preemptionPolicy?: string }).preemptionPolicy === 'Never') {
      return { message: 'preemption: not eligible due to preemptionPolicy=Never.' };
    }
    const priority = pod.spec.priority ?? 0;
    // PodEligibleToPreemptOthers (framework/plugins/defaultpreemption): a pod that already
    // nominated a node waits while a lower-priority pod there is still terminating.
    const nominated = pod.status?.nominatedNodeName;
    if (
      nominated &&
      store
        .podsOnNode(nominated)
        .map(asPod)
        .some((p) => p.metadata.deletionTimestamp !== undefined && (p.spec.priority ?? 0) < priority)
    ) {
      return { message: 'preemption: not eligible due to a terminating pod on the nominated node.' };
    }
    const perNode: FilterResult[] = [];
    let best: { node: Node; pods: Pod[] } | undefined;
    all.forEach((view, i) => {
      const r = results[i];
      if (!r || r.unresolvable) {
        perNode.push(NOT_HELPFUL);
        return;
      }
      const lower = view.pods.filter((p) => isPodActive(p) && (p.spec.priority ?? 0) < priority);
      if (lower.length === 0) {
        perNode.push({ reasons: ['No preemption victims found for incoming pod'], unresolvable: true });
        return;
      }
      const remaining = view.pods.filter((p) => !lower.includes(p));
      // PodTopologySpread's RemovePod: the victims leave their domain's count.
      const without = (gone: Pod[]) => spread && { state: spread, removed: gone };
      const retry = filterNode(pod, { node: view.node, pods: remaining }, domain, backed, without(lower));
      if (retry.reasons.length > 0) {
        perNode.push(retry);
        return;
      }
      // DynamicResources filters the preemption too, on the claims as they are: it has no
      // PreFilterExtensions, so a victim's devices do not count as freed.
      const dra = claims ? draFilter(store, pod, view.node, backed) : undefined;
      if (dra && 'reason' in dra) {
        perNode.push({ reasons: [dra.reason], unresolvable: true });
        return;
      }
      // Reprieve as many victims as possible, highest priority first.
      const victims = [...lower].sort((a, b) => (b.spec.priority ?? 0) - (a.spec.priority ?? 0));
      const kept = [...remaining];
      const chosen: Pod[] = [];
      for (const v of victims) {
        const gone = lower.filter((p) => p !== v && !kept.includes(p));
        const fits = filterNode(pod, { node: view.node, pods: [...kept, v] }, domain, backed, without(gone));
        if (fits.reasons.length === 0) kept.push(v);
        else chosen.push(v);
      }
      perNode.push({ reasons: [], unresolvable: false });
      if (!best || chosen.length < best.pods.length) best = { node: view.node, pods: chosen };
    });
    if (best) return { message: '', victims: best };
    for (let i = 0; i < absent; i += 1) perNode.push(NOT_HELPFUL);
    return { message: `preemption: ${fitErrorMessage(all.length + absent, perNode)}` };
  };

  const scheduleOne = (key: string): void => {
    const podObj = store.getByKey('Pod', key);
    if (!podObj || !needsScheduling(podObj) || !POD_RT) return;
    const pod = asPod(podObj);
    const userClaims = (pod.spec.resourceClaims ?? []).length > 0;
    // Held before scheduling until its template claims exist: no event (PreEnqueue).
    if (userClaims && heldForClaims(store, pod)) return;
    // Extended resources a DeviceClass maps bring in DynamicResources as claims do.
    const backed = draBackedResources(store, pod);
    const claims = userClaims || backed.size > 0;
    const named = nodeNamesFromAffinity(pod);
    const interPod = readsEveryNode(pod);
    const all = named && !interPod ? namedViews(named) : views();
    const absent = named && !interPod ? store.sortedKeys('Node').length - all.length : 0;
    const domain = domainPods(all);
    const spread = spreadState(pod, all, SPREAD_INCLUSION);
    const allocations = new Map<Node, NodeAllocation>();
    const results = all.map((v): FilterResult => {
      if (named && !named.has(v.node.metadata.name ?? '')) return NOT_NAMED;
      // With the pods nominated there first, then without: both must pass.
      const nominated = nominations.podsFor(pod, key, v.node.metadata.name ?? '');
      if (nominated.length > 0) {
        const withNominated = { node: v.node, pods: [...v.pods, ...nominated] };
        const reserved = filterNode(pod, withNominated, domain, backed, spread && { state: spread });
        if (reserved.reasons.length > 0) return reserved;
      }
      const result = filterNode(pod, v, domain, backed, spread && { state: spread });
      if (result.reasons.length > 0) return result;
      const volumes = volumeFilter(store, pod, v.node);
      if (volumes) return volumes;
      if (!claims) return result;
      const dra = draFilter(store, pod, v.node, backed);
      if ('reason' in dra) return { reasons: [dra.reason], unresolvable: true };
      allocations.set(v.node, dra);
      return result;
    });
    const feasible = all.filter((_, i) => (results[i]?.reasons.length ?? 1) === 0);
    if (feasible.length > 0) {
      const ranked = feasible
        .map((v) => ({ v, s: score(pod, v) }))
        .sort(
          (a, b) => a.s - b.s || (a.v.node.metadata.name ?? '').localeCompare(b.v.node.metadata.name ?? ''),
        );
      const chosen = ranked[0];
      if (chosen) {
        const allocation = allocations.get(chosen.v.node);
        if (allocation) reserveClaims(store, pod, chosen.v.node, allocation);
        bindVolumes(store, pod, chosen.v.node);
        bind(podObj, chosen.v.node);
      }
      return;
    }
    const preempted = preempt(pod, all, results, domain, backed, claims, absent, spread);
    // The PostFilter plugins in order, as RunPostFilterPlugins joins their rejections
    // (", "): DynamicResources first, enabled by default from 1.34 ("still not
    // schedulable" for a pod with claims, "no new claims to deallocate" for one without;
    // 1.37 drops the no-op text), then DefaultPreemption. None when preemption found
    // victims: that success ends the PostFilter run.
    const draText = claims ? 'still not schedulable' : 'no new claims to deallocate';
    const post = preempted.victims
      ? preempted
      : { ...preempted, message: [draText, preempted.message].filter((m) => m !== '').join(', ') };
    if (post.victims) {
      for (const victim of post.victims.pods) {
        const victimObj = store.get('Pod', victim.metadata.namespace, victim.metadata.name ?? '');
        if (!victimObj) continue;
        recordEvent(store, {
          involved: victimObj,
          type: 'Normal',
          reason: 'Preempted',
          message: `Preempted by pod ${podObj.metadata.uid ?? ''} on node ${post.victims.node.metadata.name ?? ''}`,
          component: 'default-scheduler',
        });
        markDisruption(victimObj);
        deleteObject(store, POD_RT, victim.metadata.namespace, victim.metadata.name ?? '');
      }
      // schedulingCycle (pkg/scheduler/schedule_one.go) returns the FitError as Unschedulable
      // whether or not PostFilter nominated a node, so the failure handler records
      // FailedScheduling here too; a successful PostFilter has no message, so the event
      // has no preemption part. The nomination is written with it.
      const message = fitErrorMessage(
        all.length + absent,
        absent > 0 ? [...results, ...new Array<FilterResult>(absent).fill(NOT_NAMED)] : results,
      );
      const nominated = post.victims.node.metadata.name ?? '';
      recordUnschedulable(store, podObj, store.getByKey('Pod', key) ?? podObj, message, nominated);
      queue.add(key);
      return;
    }
    const message = fitErrorMessage(
      all.length + absent,
      absent > 0 ? [...results, ...new Array<FilterResult>(absent).fill(NOT_NAMED)] : results,
      post.message || undefined,
    );
    recordUnschedulable(store, podObj, store.getByKey('Pod', key), message);
    unschedulable.add(key);
    ctx.after(RETRY_SECONDS, () => {
      if (unschedulable.delete(key)) queue.add(key);
    });
  };

  return {
    name: 'scheduler',
    observe(event) {
      const o = event.object;
      // VolumeBinding's cluster events: a volume or class added or changed, a claim bound.
      if (event.kind === 'Node' || VOLUME_KINDS.has(event.kind)) requeueAll();
      // DynamicResources' cluster events: a slice or class added or changed (a
      // DeviceTaintRule changes what the slices offer), a claim created or gone, or one
      // deallocated (its queueing hint skips other claim updates) may make a pod schedulable.
      if (DRA_KINDS.has(event.kind)) requeueAll();
      if (event.kind === 'ResourceClaim') {
        const allocated = (x: SimObject | undefined): boolean =>
          !!(x?.['status'] as { allocation?: unknown } | undefined)?.allocation;
        if (event.type !== 'MODIFIED' || (allocated(event.old) && !allocated(o))) requeueAll();
      }
      if (event.kind !== 'Pod') return;
      const key = keyOf(o);
      nominations.note(o, event.type === 'DELETED');
      if (event.type === 'DELETED') {
        queue.delete(key);
        unschedulable.delete(key);
        if (asPod(o).spec.nodeName) requeueAll();
        return;
      }
      const specChanged = !event.old || JSON.stringify(event.old['spec']) !== JSON.stringify(o['spec']);
      // UpdatePodGeneratedResourceClaim: the resourceclaim controller recorded the pod's claims.
      const claimsRecorded =
        !!event.old &&
        JSON.stringify(asPod(event.old).status?.resourceClaimStatuses ?? []) !==
          JSON.stringify(asPod(o).status?.resourceClaimStatuses ?? []);
      const finished = event.old && isPodActive(asPod(event.old)) && !isPodActive(asPod(o));
      if (finished) requeueAll();
      if (needsScheduling(o)) {
        if (specChanged || claimsRecorded) {
          unschedulable.delete(key);
          queue.add(key);
        }
      } else {
        queue.delete(key);
        unschedulable.delete(key);
      }
    },
    sync() {
      if (queue.size === 0) return false;
      const pods = [...queue]
        .map((k) => store.getByKey('Pod', k))
        .filter((p): p is SimObject => p !== undefined)
        .sort(
          (a, b) =>
            (asPod(b).spec.priority ?? 0) - (asPod(a).spec.priority ?? 0) ||
            (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
        );
      queue.clear();
      for (const p of pods) scheduleOne(keyOf(p));
      return queue.size > 0;
    },
  };
}
