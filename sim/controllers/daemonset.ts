/**
 * DaemonSet controller (k8s.io/kubernetes pkg/controller/daemon): one pod per node the
 * DaemonSet wants, each created with the controller's tolerations and pinned by a
 * required node affinity `matchFields metadata.name In [<node>]`, so the scheduler
 * places it (and writes FailedScheduling when it cannot); RollingUpdate with maxSurge
 * or maxUnavailable, OnDelete, ControllerRevisions named `<ds>-<hash>` whose hash labels
 * the pods (`controller-revision-hash`, with `pod-template-generation`), history pruned
 * to revisionHistoryLimit, and status. The decisions are in daemonset-plan.ts.
 *
 * Work per sync is one pass over the nodes and the DaemonSet's own pods, as upstream.
 */
import type { Node, Pod, Toleration } from '../../src/diagnosis/k8s.js';
import { resourceForKind } from '../resources.js';
import type { ChangeEvent, SimObject, Store } from '../store.js';
import { createObject, deleteObject } from '../writes.js';
import { ApiError } from '../errors.js';
import { TEMPLATE_GENERATION } from '../workload-defaults.js';
import {
  controlledRevisions,
  createRevision,
  renumberRevision,
  revisionRaw,
  templatePatch,
} from './controller-history.js';
import {
  nodeShouldRunDaemonPod,
  pinToNode,
  targetNodeName,
  withDaemonTolerations,
  type ShouldRun,
} from './daemonset-nodes.js';
import { daemonSetCounts, podsShouldBeOnNode, rollingUpdatePlan, type DaemonView } from './daemonset-plan.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, controllerUid, isPodAvailable, isPodReady } from './pods.js';
import { podTemplateHash } from './rollout-math.js';
import type { ControllerRevision, DaemonSet } from './workload-types.js';
import { simNow } from '../clock.js';

const POD_RT = resourceForKind('Pod');
const CR_RT = resourceForKind('ControllerRevision');
const HASH_LABEL = 'controller-revision-hash';
/** The controller's burstReplicas: at most this many creations (and deletions) per sync. */
const BURST = 250;

/** getNodesToDaemonPods: the DaemonSet's pods by the node they are for (bound or pinned). */
export function daemonPodsByNode(store: Store, dsObj: SimObject): Map<string, Pod[]> {
  const uid = dsObj.metadata.uid ?? '';
  const out = new Map<string, Pod[]>();
  for (const o of store.ownedBy(uid)) {
    if (o.kind !== 'Pod' || controllerUid(o) !== uid) continue;
    const pod = asPod(o);
    const phase = pod.status?.phase;
    if ((phase === 'Failed' || phase === 'Succeeded') && pod.metadata.deletionTimestamp) continue;
    const node = targetNodeName(pod);
    if (!node) continue;
    const list = out.get(node);
    if (list) list.push(pod);
    else out.set(node, [pod]);
  }
  return out;
}

/**
 * constructHistory: the revision matching the template (created when missing, under
 * `<ds>-<ComputeHash(template, collisionCount)>`, renumbered above the others when an
 * older one matches again) and the others. undefined on a name collision: the
 * collisionCount was bumped and the next sync retries with a new name.
 */
function constructHistory(
  store: Store,
  dsObj: SimObject,
): { cur: ControllerRevision; old: ControllerRevision[] } | undefined {
  const ds = dsObj as unknown as DaemonSet;
  const patch = templatePatch(ds.spec.template);
  const histories = controlledRevisions(store, dsObj);
  const current = histories.filter((h) => revisionRaw(h) === patch.raw);
  const old = histories.filter((h) => revisionRaw(h) !== patch.raw);
  const next = Math.max(0, ...old.map((h) => h.revision)) + 1;
  let cur = current.reduce<ControllerRevision | undefined>(
    (a, h) => (!a || h.revision >= a.revision ? h : a),
    undefined,
  );
  if (cur) {
    // dedupCurHistories: keep the newest equal revision and delete the rest (pods are
    // not relabelled: the simulator never writes two equal revisions itself).
    for (const dup of current) {
      if (dup !== cur && CR_RT) deleteObject(store, CR_RT, dup.metadata.namespace, dup.metadata.name);
    }
    if (cur.revision < next) cur = renumberRevision(store, cur, next);
    return { cur, old };
  }
  const collisionCount = ds.status?.collisionCount ?? 0;
  const hash = podTemplateHash(ds.spec.template, collisionCount);
  const name = `${dsObj.metadata.name}-${hash}`;
  const existing = store.get('ControllerRevision', dsObj.metadata.namespace, name);
  if (existing) {
    store.put({
      ...structuredClone(dsObj),
      status: { ...(ds.status ?? {}), collisionCount: collisionCount + 1 },
    } as SimObject);
    return undefined;
  }
  cur = createRevision(store, {
    owner: dsObj,
    name,
    labels: { ...(ds.spec.template.metadata?.labels ?? {}), [HASH_LABEL]: hash },
    annotations: { ...(dsObj.metadata.annotations ?? {}) },
    data: patch.data,
    revision: next,
  });
  return { cur, old };
}

/** cleanupHistory: delete the oldest revisions past revisionHistoryLimit that no pod still runs. */
function cleanupHistory(
  store: Store,
  ds: DaemonSet,
  old: ControllerRevision[],
  pods: Map<string, Pod[]>,
): void {
  let toKill = old.length - (ds.spec.revisionHistoryLimit ?? 10);
  if (toKill <= 0 || !CR_RT) return;
  const liveHashes = new Set<string>();
  for (const list of pods.values())
    for (const p of list) liveHashes.add(p.metadata.labels?.[HASH_LABEL] ?? '');
  for (const h of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (liveHashes.has(h.metadata.labels?.[HASH_LABEL] ?? '')) continue;
    deleteObject(store, CR_RT, h.metadata.namespace, h.metadata.name);
    toKill -= 1;
  }
}

/** What one sync of a DaemonSet works with. */
interface DaemonSync {
  store: Store;
  dsObj: SimObject;
  view: DaemonView;
  tolerations: Toleration[];
  nodes: Node[];
}

function note(sync: DaemonSync, type: 'Normal' | 'Warning', reason: string, message: string): void {
  recordEvent(sync.store, { involved: sync.dsObj, type, reason, message, component: 'daemonset-controller' });
}

/** CreatePodTemplate (tolerations, template generation and hash labels), pinned to the node. */
function daemonPod(sync: DaemonSync, nodeName: string): object {
  const { dsObj, view } = sync;
  const template = view.ds.spec.template;
  const labels: Record<string, string> = { ...(template.metadata?.labels ?? {}) };
  if (view.templateGeneration !== undefined) labels['pod-template-generation'] = view.templateGeneration;
  labels[HASH_LABEL] = view.hash;
  const spec = structuredClone(template.spec);
  spec.tolerations = sync.tolerations;
  spec.affinity = pinToNode(spec.affinity, nodeName);
  const owner = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    name: dsObj.metadata.name,
    uid: dsObj.metadata.uid,
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${dsObj.metadata.name}-`,
      namespace: dsObj.metadata.namespace,
      labels,
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }],
    },
    spec,
  };
}

/**
 * syncNodes: delete the given pods, then create a pod on each given node, each capped
 * at burstReplicas; true when the cap left work for the next sync.
 */
function syncNodes(sync: DaemonSync, remove: Pod[], createOn: string[]): boolean {
  const { store, dsObj } = sync;
  if (!POD_RT) return false;
  for (const pod of remove.slice(0, BURST)) {
    if (!store.get('Pod', pod.metadata.namespace, pod.metadata.name ?? '')) continue;
    deleteObject(store, POD_RT, pod.metadata.namespace, pod.metadata.name ?? '');
    note(sync, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`);
  }
  for (const nodeName of createOn.slice(0, BURST)) {
    // A refused create (quota, admission) is reported and the rest of the batch waits
    // for the next sync, as syncNodes' slow start does (pkg/controller/daemon).
    let pod;
    try {
      pod = createObject(store, POD_RT, daemonPod(sync, nodeName), dsObj.metadata.namespace);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      note(sync, 'Warning', 'FailedCreate', `Error creating: ${err.message}`);
      break;
    }
    note(sync, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
  }
  return remove.length > BURST || createOn.length > BURST;
}

/** manage: a pod where one is missing, none where none belongs, and none pinned to a node that is gone. */
function manage(sync: DaemonSync): boolean {
  const byNode = daemonPodsByNode(sync.store, sync.dsObj);
  const remove: Pod[] = [];
  const createOn: string[] = [];
  for (const node of sync.nodes) {
    const d = podsShouldBeOnNode(sync.view, node, byNode.get(node.metadata.name ?? ''));
    for (const [type, reason, message] of d.events) note(sync, type, reason, message);
    remove.push(...d.remove);
    if (d.create) createOn.push(node.metadata.name ?? '');
  }
  const names = new Set(sync.nodes.map((n) => n.metadata.name ?? ''));
  for (const [name, pods] of byNode)
    if (!names.has(name)) remove.push(...pods.filter((p) => !p.spec.nodeName));
  return syncNodes(sync, remove, createOn);
}

/** updateDaemonSetStatus (written only when it changed); a resync once minReadySeconds can have passed. */
function writeStatus(ctx: ControllerContext, sync: DaemonSync, mark: () => void): void {
  const { store, dsObj, view } = sync;
  const current = store.get('DaemonSet', dsObj.metadata.namespace, dsObj.metadata.name);
  if (!current) return;
  const pods = daemonPodsByNode(store, current);
  const prev = (current['status'] ?? {}) as Record<string, unknown>;
  const status = {
    ...daemonSetCounts(view, sync.nodes, pods),
    observedGeneration: current.metadata.generation ?? 1,
    ...(prev['collisionCount'] !== undefined ? { collisionCount: prev['collisionCount'] } : {}),
  };
  const minReady = view.ds.spec.minReadySeconds ?? 0;
  const waiting = [...pods.values()]
    .flat()
    .some((p) => isPodReady(p) && !isPodAvailable(p, minReady, ctx.timeScale));
  if (minReady > 0 && waiting) ctx.after(minReady, mark, { settles: true });
  if (JSON.stringify(prev) !== JSON.stringify(status)) store.put({ ...structuredClone(current), status });
}

/** The view of a DaemonSet for this sync: its hash, template generation, and which nodes it wants (memoised). */
function daemonView(
  ctx: ControllerContext,
  dsObj: SimObject,
  hash: string,
  tolerations: Toleration[],
): DaemonView {
  const ds = dsObj as unknown as DaemonSet;
  const shouldRun = new Map<Node, ShouldRun>();
  return {
    ds,
    hash,
    templateGeneration: dsObj.metadata.annotations?.[TEMPLATE_GENERATION],
    timeScale: ctx.timeScale,
    now: simNow(),
    shouldRun: (node) => {
      let r = shouldRun.get(node);
      if (!r) shouldRun.set(node, (r = nodeShouldRunDaemonPod(node, ds, tolerations)));
      return r;
    },
  };
}

/** addNode / updateNode: only a node added or gone, or a label or taint change, matters (shouldIgnoreNodeUpdate). */
function nodeChangeMatters(event: ChangeEvent): boolean {
  const { old, object } = event;
  if (!old || event.type === 'DELETED') return true;
  const taints = (o: SimObject): string => JSON.stringify((o['spec'] as Node['spec'])?.taints ?? []);
  return (
    JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(object.metadata.labels ?? {}) ||
    taints(old) !== taints(object)
  );
}

/** Creates the DaemonSet controller. */
export function daemonSetController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const dirty = new Set<string>();
  const mark = (ns: string | undefined, name: string): void => {
    dirty.add(`${ns ?? ''}/${name}`);
  };

  const syncOne = (key: string): void => {
    const dsObj = store.getByKey('DaemonSet', key);
    if (!dsObj) return;
    const ds = dsObj as unknown as DaemonSet;
    const history = constructHistory(store, dsObj);
    if (!history) {
      dirty.add(key);
      return;
    }
    const tolerations = withDaemonTolerations(ds.spec.template.spec);
    const hash = history.cur.metadata.labels?.[HASH_LABEL] ?? '';
    const view = daemonView(ctx, dsObj, hash, tolerations);
    const sync: DaemonSync = {
      store,
      dsObj,
      view,
      tolerations,
      nodes: store.list('Node') as unknown as Node[],
    };
    if (!dsObj.metadata.deletionTimestamp) {
      let more = manage(sync);
      if (ds.spec.updateStrategy?.type === 'RollingUpdate') {
        const plan = rollingUpdatePlan(view, sync.nodes, daemonPodsByNode(store, dsObj));
        more = syncNodes(sync, plan.remove, plan.createOn) || more;
      }
      if (more) dirty.add(key);
      cleanupHistory(store, ds, history.old, daemonPodsByNode(store, dsObj));
    }
    writeStatus(ctx, sync, () => dirty.add(key));
  };

  return {
    name: 'daemonset',
    observe(event) {
      const o = event.object;
      if (event.kind === 'DaemonSet' && event.type !== 'DELETED') mark(o.metadata.namespace, o.metadata.name);
      if (event.kind === 'Pod') {
        const ref = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'DaemonSet');
        if (ref) mark(o.metadata.namespace, ref.name);
      }
      if (event.kind === 'Node' && nodeChangeMatters(event)) {
        for (const d of store.list('DaemonSet')) mark(d.metadata.namespace, d.metadata.name);
      }
    },
    sync() {
      if (dirty.size === 0) return false;
      const keys = [...dirty];
      dirty.clear();
      for (const k of keys) syncOne(k);
      return dirty.size > 0;
    },
  };
}
