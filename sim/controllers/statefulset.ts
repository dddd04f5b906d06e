/**
 * StatefulSet controller, written from k8s.io/kubernetes
 * pkg/controller/statefulset/stateful_set_control.go (UpdateStatefulSet,
 * getStatefulSetRevisions, truncateHistory; the round itself, updateStatefulSet, is in
 * statefulset-control.ts), stateful_pod_control.go (the events) and stateful_set_utils.go:
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
import { updateStatefulSet, type PodControl } from './statefulset-control.js';
import {
  createMissingClaims,
  isRunningAndAvailable,
  isRunningAndReady,
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

/** truncateHistory: revisions no pod, current or update uses, oldest first, beyond revisionHistoryLimit. */
function truncateHistory(
  store: Store,
  set: StatefulSet,
  pods: readonly Pod[],
  revisions: ControllerRevision[],
  r: Revisions,
): void {
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
}

/** newVersionedStatefulSetPod's choice: below the partition (or, without rollingUpdate, the current count) the current revision. */
function revisionFor(set: StatefulSet, r: Revisions, ordinal: number): ControllerRevision {
  const start = set.spec.ordinals?.start ?? 0;
  const strategy = set.spec.updateStrategy;
  const useCurrent =
    (strategy?.type === 'RollingUpdate' &&
      !strategy.rollingUpdate &&
      ordinal < start + (set.status?.currentReplicas ?? 0)) ||
    (strategy?.rollingUpdate !== undefined && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
  return useCurrent ? r.current : r.update;
}

/** StatefulPodControl: the pod and claim writes, each with the controller's event on the set. */
function podControl(store: Store, setObj: SimObject, r: Revisions): PodControl {
  const set = setObj as unknown as StatefulSet;
  const name = setObj.metadata.name;
  const note = (reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): void =>
    recordEvent(store, { involved: setObj, type, reason, message, component: 'statefulset-controller' });
  const claims = (ordinal: number): void => {
    for (const claim of createMissingClaims(store, setObj, ordinal))
      note('SuccessfulCreate', `create Claim ${claim} Pod ${name}-${ordinal} in StatefulSet ${name} success`);
  };
  return {
    create(ordinal) {
      if (!POD_RT) return undefined;
      const revision = revisionFor(set, r, ordinal);
      const template = templateOf(revision) ?? set.spec.template;
      claims(ordinal);
      try {
        const pod = newStatefulSetPod(setObj, template, ordinal, revision.metadata.name);
        const created = createObject(store, POD_RT, pod, setObj.metadata.namespace);
        note('SuccessfulCreate', `create Pod ${name}-${ordinal} in StatefulSet ${name} successful`);
        return asPod(created);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const message = `create Pod ${name}-${ordinal} in StatefulSet ${name} failed error: ${err.message}`;
        note('FailedCreate', message, 'Warning');
        return undefined;
      }
    },
    remove(pod) {
      if (!POD_RT) return;
      deleteObject(store, POD_RT, pod.metadata.namespace, pod.metadata.name ?? '');
      note('SuccessfulDelete', `delete Pod ${pod.metadata.name ?? ''} in StatefulSet ${name} successful`);
    },
    ensureClaims: claims,
    fixIdentity(pod, ordinal) {
      const labels = pod.metadata.labels ?? {};
      const podName = pod.metadata.name ?? '';
      if (labels[POD_NAME_LABEL] === podName && labels[POD_INDEX_LABEL] === String(ordinal)) return;
      const stored = store.get('Pod', pod.metadata.namespace, podName);
      if (!stored) return;
      const copy = structuredClone(stored);
      copy.metadata.labels = { ...labels, [POD_NAME_LABEL]: podName, [POD_INDEX_LABEL]: String(ordinal) };
      store.put(copy);
      note('SuccessfulUpdate', `update Pod ${podName} in StatefulSet ${name} successful`);
    },
  };
}

/** Creates the StatefulSet controller. */
export function statefulSetController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const dirty = new Set<string>();
  const mark = (ns: string | undefined, name: string): void => {
    dirty.add(`${ns ?? ''}/${name}`);
  };

  const syncOne = (key: string): void => {
    const setObj = store.getByKey('StatefulSet', key);
    if (!setObj) return;
    const set = setObj as unknown as StatefulSet;
    const pods = memberPods(store, setObj);
    const revisions = controlledRevisions(store, setObj);
    const r = statefulSetRevisions(store, setObj, revisions);
    updateStatefulSet(set, pods, r.update.metadata.name, podControl(store, setObj, r), ctx.timeScale);
    const current = store.getByKey('StatefulSet', key);
    if (!current) return;
    const after = memberPods(store, current);
    const generation = current.metadata.generation ?? 1;
    const status = completeRollingUpdate(set, replicaStatus(set, after, r, generation, ctx.timeScale));
    const minReady = set.spec.minReadySeconds ?? 0;
    if (minReady > 0 && status.availableReplicas !== (status.readyReplicas ?? 0))
      ctx.after(minReady, () => mark(current.metadata.namespace, current.metadata.name), { settles: true });
    if (JSON.stringify(current['status']) !== JSON.stringify(status))
      store.put({ ...structuredClone(current), status });
    truncateHistory(store, set, pods, revisions, r);
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
