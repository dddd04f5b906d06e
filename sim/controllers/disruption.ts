/**
 * The disruption controller (kubernetes pkg/controller/disruption, trySync): a
 * PodDisruptionBudget's status as kube-controller-manager writes it.
 * - its pods: the namespace's pods its selector matches (policy/v1: an empty selector
 *   matches every pod, a missing one none);
 * - expectedPods and desiredHealthy (getExpectedPodCount): with maxUnavailable, or a
 *   percentage minAvailable, expectedPods is the sum of the pods' controllers' scale
 *   (getExpectedScale: a ReplicaSet's own replicas, or its Deployment's when a Deployment
 *   owns it, so an Argo Rollout's ReplicaSets count each their own; a StatefulSet's; each
 *   controller once) and the percentage rounds up (GetScaledValueFromIntOrPercent, roundUp true);
 *   desiredHealthy is expectedPods − maxUnavailable (not below 0) or the minAvailable.
 *   An integer minAvailable takes the pods' count as expectedPods and needs no controller;
 * - currentHealthy (countHealthyPods): pods not being deleted whose Ready condition is
 *   True (Ready, not available: minReadySeconds plays no part);
 * - disruptionsAllowed: currentHealthy − desiredHealthy, 0 when that is negative or no
 *   pod is expected (updatePdbStatus);
 * - condition DisruptionAllowed (pdbhelper.UpdateDisruptionAllowedCondition): True,
 *   SufficientPods when a disruption is allowed, else False, InsufficientPods; a pod of
 *   a controller with no scale (a DaemonSet) under maxUnavailable or a percentage fails
 *   the sync: disruptionsAllowed 0, False, SyncFailed with the error (failSafe).
 * Not simulated: the eviction API and so disruptedPods (nothing evicts in the simulator).
 */
import type { SimObject, Store } from '../store.js';
import { matchesLabels, requirementsOf } from '../selectors.js';
import type { LabelSelector } from '../../src/diagnosis/k8s.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, isPodReady } from './pods.js';
import { nowRfc3339 } from '../defaults.js';

type Json = Record<string, unknown>;
type IntOrString = number | string;

interface PdbSpec {
  minAvailable?: IntOrString;
  maxUnavailable?: IntOrString;
  selector?: LabelSelector;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration: number;
  lastTransitionTime: string;
}

/** Kinds whose changes move a budget's count: pods, and the controllers whose scale it reads. */
const WATCHED = new Set(['Pod', 'PodDisruptionBudget', 'ReplicaSet', 'Deployment', 'StatefulSet', 'Rollout']);

/** intstr.GetScaledValueFromIntOrPercent with roundUp. */
export function scaledValue(value: IntOrString, total: number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value);
  if (!match) throw new Error(`invalid value for IntOrString: invalid value "${value}"`);
  return Math.ceil((Number(match[1]) * total) / 100);
}

function selected(store: Store, pdb: SimObject, spec: PdbSpec): SimObject[] {
  if (spec.selector === undefined) return [];
  const reqs = requirementsOf(spec.selector);
  return store.list('Pod', pdb.metadata.namespace).filter((p) => matchesLabels(reqs, p.metadata.labels));
}

/** getExpectedScale: each pod's controller's scale, once per controller. */
function expectedScale(store: Store, pods: readonly SimObject[]): number {
  const scales = new Map<string, number>();
  for (const pod of pods) {
    const ref = pod.metadata.ownerReferences?.find((r) => r.controller);
    // An unmanaged pod is skipped (the controller records it and syncs again later).
    if (!ref || scales.has(ref.uid)) continue;
    const found = controllerScale(store, pod.metadata.namespace, ref);
    if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name}"`);
    scales.set(found.uid, found.scale);
  }
  return [...scales.values()].reduce((a, b) => a + b, 0);
}

function controllerScale(
  store: Store,
  namespace: string | undefined,
  ref: { kind: string; name: string; uid: string },
): { uid: string; scale: number } | undefined {
  const replicas = (o: SimObject): number => (obj(o['spec'])['replicas'] as number | undefined) ?? 1;
  if (ref.kind === 'ReplicaSet') {
    const rs = store.get('ReplicaSet', namespace, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const owner = rs.metadata.ownerReferences?.find((r) => r.controller);
    if (owner?.kind === 'Deployment') {
      // getPodDeployment: the Deployment's replicas, not the ReplicaSet's.
      const d = store.get('Deployment', namespace, owner.name);
      return d && d.metadata.uid === owner.uid ? { uid: owner.uid, scale: replicas(d) } : undefined;
    }
    return { uid: ref.uid, scale: replicas(rs) };
  }
  if (ref.kind === 'StatefulSet') {
    const sts = store.get('StatefulSet', namespace, ref.name);
    return sts && sts.metadata.uid === ref.uid ? { uid: ref.uid, scale: replicas(sts) } : undefined;
  }
  // DaemonSets serve no scale subresource: the finders find nothing.
  return undefined;
}

const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** The status trySync (or failSafe) writes for `pdb` now. */
export function budgetStatus(store: Store, pdb: SimObject): Json {
  const spec = obj(pdb['spec']) as PdbSpec;
  const previous = obj(pdb['status']);
  const generation = pdb.metadata.generation ?? 1;
  const pods = selected(store, pdb, spec);
  const conditions = (previous['conditions'] as Condition[] | undefined) ?? [];
  const condition = (status: string, reason: string, message = ''): Condition[] => {
    const old = conditions.find((c) => c.type === 'DisruptionAllowed');
    const next: Condition = {
      type: 'DisruptionAllowed',
      status,
      reason,
      message,
      observedGeneration: generation,
      // SetStatusCondition keeps the transition time while the status holds.
      lastTransitionTime: old && old.status === status ? old.lastTransitionTime : nowRfc3339(),
    };
    return [...conditions.filter((c) => c.type !== 'DisruptionAllowed'), next];
  };
  let expected: number;
  let desired: number;
  try {
    if (spec.maxUnavailable !== undefined) {
      expected = expectedScale(store, pods);
      desired = Math.max(0, expected - scaledValue(spec.maxUnavailable, expected));
    } else if (typeof spec.minAvailable === 'number') {
      desired = spec.minAvailable;
      expected = pods.length;
    } else if (typeof spec.minAvailable === 'string') {
      expected = expectedScale(store, pods);
      desired = scaledValue(spec.minAvailable, expected);
    } else {
      expected = 0;
      desired = 0;
    }
  } catch (error) {
    return {
      ...previous,
      disruptionsAllowed: 0,
      conditions: condition('False', 'SyncFailed', error instanceof Error ? error.message : String(error)),
    };
  }
  const healthy = pods.filter((p) => !p.metadata.deletionTimestamp && isPodReady(asPod(p))).length;
  const allowed = expected <= 0 || healthy - desired <= 0 ? 0 : healthy - desired;
  return {
    observedGeneration: generation,
    disruptionsAllowed: allowed,
    currentHealthy: healthy,
    desiredHealthy: desired,
    expectedPods: expected,
    conditions: allowed > 0 ? condition('True', 'SufficientPods') : condition('False', 'InsufficientPods'),
  };
}

/** Creates the disruption controller. */
export function disruptionController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const dirty = new Set<string>();
  return {
    name: 'disruption',
    observe(event) {
      if (!WATCHED.has(event.kind)) return;
      const ns = event.object.metadata.namespace;
      if (event.kind === 'PodDisruptionBudget') {
        if (event.type !== 'DELETED') dirty.add(`${ns ?? ''}/${event.object.metadata.name}`);
        return;
      }
      for (const pdb of store.list('PodDisruptionBudget', ns)) dirty.add(`${ns ?? ''}/${pdb.metadata.name}`);
    },
    sync() {
      const keys = [...dirty];
      dirty.clear();
      for (const key of keys) {
        const pdb = store.getByKey('PodDisruptionBudget', key);
        if (!pdb) continue;
        const status = budgetStatus(store, pdb);
        const { conditions: was, ...before } = obj(pdb['status']);
        const { conditions: now, ...after } = status;
        // Rewritten only when a count or the condition's status or reason changed.
        const same =
          JSON.stringify(before) === JSON.stringify(after) &&
          JSON.stringify(reasons(was)) === JSON.stringify(reasons(now));
        if (!same) store.put({ ...structuredClone(pdb), status });
      }
      return dirty.size > 0;
    },
  };
}

function reasons(conditions: unknown): string[] {
  return ((conditions as Condition[] | undefined) ?? []).map(
    (c) => `${c.type}=${c.status}/${c.reason}/${c.message}`,
  );
}
