/**
 * StatefulSet controller, written from k8s.io/kubernetes
 * pkg/controller/statefulset/stateful_set_control.go (UpdateStatefulSet,
 * getStatefulSetRevisions, updateStatefulSet, processReplica, processCondemned,
 * truncateHistory) and stateful_set_utils.go:
 *
 * - revisions are ControllerRevisions `<set>-<hash>` (HashControllerRevision of the
 *   template patch and the collision count); a template equal to an older revision
 *   renumbers that revision instead of creating one (a rollback);
 * - OrderedReady (monotonic): pods are created in ordinal order and the controller stops
 *   at the first pod that is not Running, Ready and available; it deletes only Failed or
 *   Succeeded pods, so a crash-looping pod (Running, not Ready) of a bad revision blocks
 *   the set even after the template is reverted, until someone deletes it (the
 *   documented "forced rollback"); Parallel creates and deletes without waiting;
 * - RollingUpdate deletes the highest-ordinal pod not at the update revision, one at a
 *   time and only once every pod is healthy, never below `partition`; the recreated pod
 *   gets the update revision. maxUnavailable is ignored: MaxUnavailableStatefulSet is off
 *   at v1.34 (see workload-defaults.ts). OnDelete replaces nothing.
 */
import type { Pod } from '../../src/diagnosis/k8s.js';
import { ApiError } from '../errors.js';
import { resourceForKind } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { createObject, deleteObject } from '../writes.js';
import {
  controlledRevisions,
  createRevision,
  hashRevisionData,
  nextRevision,
  renumberRevision,
  revisionRaw,
  templateOf,
  templatePatch,
} from './controller-history.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, controllerUid } from './pods.js';
import {
  createMissingClaims,
  isRunningAndAvailable,
  isRunningAndReady,
  isUnavailable,
  newStatefulSetPod,
  ordinalOf,
  POD_INDEX_LABEL,
  POD_NAME_LABEL,
  REVISION_LABEL,
} from './statefulset-pods.js';
import type { ControllerRevision, StatefulSet, StatefulSetStatus } from './workload-types.js';

const POD_RT = resourceForKind('Pod');
const CR_RT = resourceForKind('ControllerRevision');

interface Revisions {
  current: ControllerRevision;
  update: ControllerRevision;
  collisionCount: number;
}

/** The set's member pods: controlled by it and named `<set>-<ordinal>`. */
function memberPods(store: Store, setObj: SimObject): Pod[] {
  const uid = setObj.metadata.uid ?? '';
  return store
    .ownedBy(uid)
    .filter(
      (o) =>
        o.kind === 'Pod' && controllerUid(o) === uid && ordinalOf(o.metadata.name, setObj.metadata.name) >= 0,
    )
    .map(asPod);
}

/** getStatefulSetRevisions: the current and update revisions (the update one created or renumbered as needed). */
function statefulSetRevisions(store: Store, setObj: SimObject, revisions: ControllerRevision[]): Revisions {
  const set = setObj as unknown as StatefulSet;
  let collisionCount = set.status?.collisionCount ?? 0;
  const patch = templatePatch(set.spec.template);
  const equal = revisions.filter((r) => revisionRaw(r) === patch.raw);
  const last = revisions.at(-1);
  let update: ControllerRevision | undefined;
  if (last && revisionRaw(last) === patch.raw) update = last;
  else if (equal.length > 0)
    update = renumberRevision(store, equal.at(-1) as ControllerRevision, nextRevision(revisions));
  while (!update) {
    // CreateControllerRevision: a name taken by other data bumps the collision count.
    const hash = hashRevisionData(patch.raw, collisionCount);
    const name = `${setObj.metadata.name.slice(0, 223)}-${hash}`;
    const taken = store.get('ControllerRevision', setObj.metadata.namespace, name) as unknown as
      ControllerRevision | undefined;
    if (taken && revisionRaw(taken) === patch.raw) update = taken;
    else if (taken) collisionCount += 1;
    else
      update = createRevision(store, {
        owner: setObj,
        name,
        labels: { ...(set.spec.template.metadata?.labels ?? {}), 'controller.kubernetes.io/hash': hash },
        annotations: { ...(setObj.metadata.annotations ?? {}) },
        data: patch.data,
        revision: nextRevision(revisions),
      });
  }
  const current = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update, collisionCount };
}

/** computeReplicaStatus over the pods, into a status in the API's field order (omitempty fields left out at 0). */
function replicaStatus(
  set: StatefulSet,
  pods: readonly Pod[],
  r: Revisions,
  generation: number,
  timeScale: number,
): StatefulSetStatus {
  const minReady = set.spec.minReadySeconds ?? 0;
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let current = 0;
  let updated = 0;
  for (const pod of pods) {
    replicas += 1;
    if (isRunningAndReady(pod)) {
      ready += 1;
      if (isRunningAndAvailable(pod, minReady, timeScale)) available += 1;
    }
    if (pod.metadata.deletionTimestamp) continue;
    const revision = pod.metadata.labels?.[REVISION_LABEL];
    if (revision === r.current.metadata.name) current += 1;
    if (revision === r.update.metadata.name) updated += 1;
  }
  return {
    observedGeneration: generation,
    replicas,
    ...(ready ? { readyReplicas: ready } : {}),
    ...(current ? { currentReplicas: current } : {}),
    ...(updated ? { updatedReplicas: updated } : {}),
    currentRevision: r.current.metadata.name,
    updateRevision: r.update.metadata.name,
    collisionCount: r.collisionCount,
    availableReplicas: available,
  };
}

/** completeRollingUpdate: every pod updated, ready and present makes the update revision current. */
function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): StatefulSetStatus {
  const want = set.spec.replicas ?? 1;
  const done =
    set.spec.updateStrategy?.type === 'RollingUpdate' &&
    (status.updatedReplicas ?? 0) === want &&
    (status.readyReplicas ?? 0) === want &&
    status.replicas === want;
  if (!done) return status;
  const out = { ...status, currentRevision: status.updateRevision };
  if (status.updatedReplicas) out.currentReplicas = status.updatedReplicas;
  else delete out.currentReplicas;
  return out;
}

/** Creates the StatefulSet controller. */
export function statefulSetController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const dirty = new Set<string>();
  const mark = (ns: string | undefined, name: string): void => {
    dirty.add(`${ns ?? ''}/${name}`);
  };
  const note = (
    setObj: SimObject,
    reason: string,
    message: string,
    type: 'Normal' | 'Warning' = 'Normal',
  ): void =>
    recordEvent(store, { involved: setObj, type, reason, message, component: 'statefulset-controller' });

  const deletePod = (setObj: SimObject, pod: Pod): void => {
    if (!POD_RT) return;
    deleteObject(store, POD_RT, pod.metadata.namespace, pod.metadata.name ?? '');
    note(
      setObj,
      'SuccessfulDelete',
      `delete Pod ${pod.metadata.name ?? ''} in StatefulSet ${setObj.metadata.name} successful`,
    );
  };

  /** CreateStatefulPod: the claims first, then the pod at the revision newVersionedStatefulSetPod picks. */
  const createPod = (setObj: SimObject, r: Revisions, ordinal: number): Pod | undefined => {
    if (!POD_RT) return undefined;
    const set = setObj as unknown as StatefulSet;
    const start = set.spec.ordinals?.start ?? 0;
    const strategy = set.spec.updateStrategy;
    const useCurrent =
      (strategy?.type === 'RollingUpdate' &&
        !strategy.rollingUpdate &&
        ordinal < start + (set.status?.currentReplicas ?? 0)) ||
      (strategy?.rollingUpdate !== undefined && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
    const revision = useCurrent ? r.current : r.update;
    const template = templateOf(revision) ?? set.spec.template;
    const podName = `${setObj.metadata.name}-${ordinal}`;
    for (const claim of createMissingClaims(store, setObj, ordinal))
      note(
        setObj,
        'SuccessfulCreate',
        `create Claim ${claim} Pod ${podName} in StatefulSet ${setObj.metadata.name} success`,
      );
    try {
      const pod = createObject(
        store,
        POD_RT,
        newStatefulSetPod(setObj, template, ordinal, revision.metadata.name),
        setObj.metadata.namespace,
      );
      note(
        setObj,
        'SuccessfulCreate',
        `create Pod ${podName} in StatefulSet ${setObj.metadata.name} successful`,
      );
      return asPod(pod);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      note(
        setObj,
        'FailedCreate',
        `create Pod ${podName} in StatefulSet ${setObj.metadata.name} failed error: ${err.message}`,
        'Warning',
      );
      return undefined;
    }
  };

  /** UpdateStatefulPod for identity: a member pod without its name and index labels gets them. */
  const fixIdentity = (setObj: SimObject, pod: Pod, ordinal: number): void => {
    const labels = pod.metadata.labels ?? {};
    if (labels[POD_NAME_LABEL] === pod.metadata.name && labels[POD_INDEX_LABEL] === String(ordinal)) return;
    const stored = store.get('Pod', pod.metadata.namespace, pod.metadata.name ?? '');
    if (!stored) return;
    const copy = structuredClone(stored);
    copy.metadata.labels = {
      ...labels,
      [POD_NAME_LABEL]: pod.metadata.name ?? '',
      [POD_INDEX_LABEL]: String(ordinal),
    };
    store.put(copy);
    note(
      setObj,
      'SuccessfulUpdate',
      `update Pod ${pod.metadata.name ?? ''} in StatefulSet ${setObj.metadata.name} successful`,
    );
  };

  /**
   * updateStatefulSet: brings the pods towards the target; true when it stopped early
   * (a monotonic wait or a change made this round). Pods are re-read from the store.
   */
  const reconcile = (setObj: SimObject, r: Revisions, pods: Pod[]): void => {
    const set = setObj as unknown as StatefulSet;
    const minReady = set.spec.minReadySeconds ?? 0;
    const start = set.spec.ordinals?.start ?? 0;
    const count = set.spec.replicas ?? 1;
    const replicas: (Pod | undefined)[] = new Array<Pod | undefined>(count).fill(undefined);
    const condemned: Pod[] = [];
    for (const pod of pods) {
      const ord = ordinalOf(pod.metadata.name ?? '', setObj.metadata.name);
      if (ord >= start && ord < start + count) replicas[ord - start] = pod;
      else if (ord >= 0) condemned.push(pod);
    }
    condemned.sort(
      (a, b) =>
        ordinalOf(b.metadata.name ?? '', setObj.metadata.name) -
        ordinalOf(a.metadata.name ?? '', setObj.metadata.name),
    );
    const firstUnhealthy =
      replicas.find((p) => isUnavailable(p, minReady, ctx.timeScale)) ??
      [...condemned].reverse().find((p) => isUnavailable(p, minReady, ctx.timeScale));
    if (setObj.metadata.deletionTimestamp) return;
    const monotonic = set.spec.podManagementPolicy !== 'Parallel';
    // processReplica, in ordinal order.
    for (let i = 0; i < count; i += 1) {
      let pod = replicas[i];
      if (pod && (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded')) {
        if (!pod.metadata.deletionTimestamp) deletePod(setObj, pod);
        if (monotonic) return;
        continue;
      }
      if (!pod) {
        pod = createPod(setObj, r, start + i);
        replicas[i] = pod;
        if (monotonic || !pod) {
          if (monotonic) return;
          continue;
        }
      }
      if (pod.status?.phase === 'Pending') createMissingClaims(store, setObj, start + i);
      if (
        monotonic &&
        (pod.metadata.deletionTimestamp || !isRunningAndAvailable(pod, minReady, ctx.timeScale))
      )
        return;
      fixIdentity(setObj, pod, start + i);
    }
    // processCondemned, highest ordinal first.
    for (const pod of condemned) {
      if (pod.metadata.deletionTimestamp) {
        if (monotonic) return;
        continue;
      }
      if (monotonic && pod !== firstUnhealthy && !isRunningAndAvailable(pod, minReady, ctx.timeScale)) return;
      deletePod(setObj, pod);
      if (monotonic) return;
    }
    if (set.spec.updateStrategy?.type === 'OnDelete') return;
    // The rolling update: the highest ordinal not at the update revision goes, one at a time.
    const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = count - 1; target >= partition; target -= 1) {
      const pod = replicas[target];
      if (
        pod &&
        pod.metadata.labels?.[REVISION_LABEL] !== r.update.metadata.name &&
        !pod.metadata.deletionTimestamp
      ) {
        deletePod(setObj, pod);
        return;
      }
      if (isUnavailable(pod, minReady, ctx.timeScale)) return;
    }
  };

  /** truncateHistory: revisions no pod, current or update uses, oldest first, beyond revisionHistoryLimit. */
  const truncateHistory = (
    set: StatefulSet,
    pods: readonly Pod[],
    revisions: ControllerRevision[],
    r: Revisions,
  ): void => {
    if (!CR_RT) return;
    const live = new Set([
      r.current.metadata.name,
      r.update.metadata.name,
      ...pods.map((p) => p.metadata.labels?.[REVISION_LABEL] ?? ''),
    ]);
    const history = revisions.filter((h) => !live.has(h.metadata.name));
    const limit = set.spec.revisionHistoryLimit ?? 10;
    if (limit < 0 || history.length <= limit) return;
    for (const h of history.slice(0, history.length - limit))
      deleteObject(store, CR_RT, h.metadata.namespace, h.metadata.name);
  };

  const syncOne = (key: string): void => {
    const setObj = store.getByKey('StatefulSet', key);
    if (!setObj) return;
    const set = setObj as unknown as StatefulSet;
    const pods = memberPods(store, setObj);
    const revisions = controlledRevisions(store, setObj);
    const r = statefulSetRevisions(store, setObj, revisions);
    reconcile(setObj, r, pods);
    const current = store.getByKey('StatefulSet', key);
    if (!current) return;
    const after = memberPods(store, current);
    const status = completeRollingUpdate(
      set,
      replicaStatus(set, after, r, current.metadata.generation ?? 1, ctx.timeScale),
    );
    const minReady = set.spec.minReadySeconds ?? 0;
    if (minReady > 0 && status.availableReplicas !== (status.readyReplicas ?? 0))
      ctx.after(minReady, () => mark(current.metadata.namespace, current.metadata.name), { settles: true });
    if (JSON.stringify(current['status']) !== JSON.stringify(status))
      store.put({ ...structuredClone(current), status });
    truncateHistory(set, pods, revisions, r);
  };

  return {
    name: 'statefulset',
    observe(event) {
      const o = event.object;
      if (event.kind === 'StatefulSet' && event.type !== 'DELETED')
        mark(o.metadata.namespace, o.metadata.name);
      if (event.kind === 'Pod') {
        const ref = o.metadata.ownerReferences?.find((x) => x.controller && x.kind === 'StatefulSet');
        if (ref) mark(o.metadata.namespace, ref.name);
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
