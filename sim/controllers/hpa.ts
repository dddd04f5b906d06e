/**
 * A simple model of the HorizontalPodAutoscaler controller (kubernetes
 * pkg/controller/podautoscaler), enough for a fix to be judged against an autoscaler
 * that moves `spec.replicas` under it. Every 15 s (--horizontal-pod-autoscaler-sync-period)
 * each HPA reads its target's `spec.replicas` and one metric the scenario sets: the
 * annotation `sim.rollout-doctor.io/utilization`, the pods' average CPU utilization in
 * percent of their requests, against the first Resource metric's
 * `target.averageUtilization` (80 when none). Then, as the controller does:
 * - within the 10% tolerance nothing changes; else desired = ceil(current × ratio);
 * - scale-up at most max(100%, 4 pods) per period (the default behavior's policies);
 * - scale-down to the highest recommendation of the last 300 s (the default
 *   stabilization window);
 * - clamped to minReplicas (default 1) and maxReplicas, ScalingLimited saying so;
 * - a target at 0 replicas is not scaled (ScalingActive False, ScalingDisabled).
 * Status: currentReplicas, desiredReplicas, lastScaleTime and the AbleToScale,
 * ScalingActive and ScalingLimited conditions.
 * Limits: one metric, set by hand; no ready-pod or missing-metric corrections
 * (GetResourceReplicas' unready pods, the 30 s CPU initialization period); no custom
 * behavior policies; the target's scale is written straight to its spec (a Deployment,
 * StatefulSet, ReplicaSet or Argo Rollout).
 */
import type { SimObject, Store } from '../store.js';
import { nowRfc3339 } from '../defaults.js';
import { simNow } from '../clock.js';
import type { Controller, ControllerContext } from './manager.js';
import { updateObject } from '../writes.js';
import { typeForKind } from '../stored-kinds.js';

export const UTILIZATION = 'sim.rollout-doctor.io/utilization';
const SYNC_SECONDS = 15;
const TOLERANCE = 0.1;
const DOWNSCALE_WINDOW_SECONDS = 300;
const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'Rollout']);

interface HpaSpec {
  scaleTargetRef?: { kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: { type?: string; resource?: { name?: string; target?: { averageUtilization?: number } } }[];
}
interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

/** The next replica count for `current` at `utilization` percent against `target`, before limits. */
export function proposedReplicas(current: number, utilization: number, target: number): number {
  const ratio = utilization / target;
  if (Math.abs(ratio - 1) <= TOLERANCE) return current;
  return Math.ceil(current * ratio);
}

/** Creates the HPA controller. */
export function hpaController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const due = new Set<string>();
  const ticking = new Set<string>();
  /** Per HPA, its recommendations with their time, for the scale-down window. */
  const recommendations = new Map<string, { at: number; replicas: number }[]>();
  const tick = (key: string): void => {
    if (!store.getByKey('HorizontalPodAutoscaler', key)) {
      ticking.delete(key);
      recommendations.delete(key);
      return;
    }
    due.add(key);
    ctx.after(SYNC_SECONDS, () => tick(key));
  };
  return {
    name: 'horizontal-pod-autoscaler',
    observe(event) {
      if (event.kind !== 'HorizontalPodAutoscaler' || event.type === 'DELETED') return;
      const key = `${event.object.metadata.namespace ?? ''}/${event.object.metadata.name}`;
      if (ticking.has(key)) return;
      ticking.add(key);
      tick(key);
    },
    sync() {
      const keys = [...due];
      due.clear();
      for (const key of keys) {
        const hpa = store.getByKey('HorizontalPodAutoscaler', key);
        if (hpa) reconcile(store, hpa, recommendations.get(key) ?? [], (r) => recommendations.set(key, r));
      }
      return false;
    },
  };
}

/** Sets one condition, keeping its transition time while its status holds. */
function set(list: Condition[], type: string, status: string, reason: string, message: string): Condition[] {
  const old = list.find((c) => c.type === type);
  const next = {
    type,
    status,
    reason,
    message,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : nowRfc3339(),
  };
  return [...list.filter((c) => c.type !== type), next];
}

/** The replica count the metric recommends (ScalingActive), before min and max. */
function recommend(
  hpa: SimObject,
  spec: HpaSpec,
  current: number,
  conditions: Condition[],
  history: readonly { at: number; replicas: number }[],
  remember: (r: { at: number; replicas: number }[]) => void,
): { desired: number; active: Condition[] } {
  const cpu = (spec.metrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  const goal = cpu?.resource?.target?.averageUtilization ?? 80;
  const utilization = Number(hpa.metadata.annotations?.[UTILIZATION] ?? Number.NaN);
  if (!Number.isFinite(utilization)) {
    return {
      desired: current,
      active: set(
        conditions,
        'ScalingActive',
        'False',
        'FailedGetResourceMetric',
        'the HPA was unable to compute the replica count: unable to get metrics for resource cpu',
      ),
    };
  }
  const now = simNow();
  const proposal = proposedReplicas(current, utilization, goal);
  const recent = [
    ...history.filter((h) => now - h.at < DOWNSCALE_WINDOW_SECONDS * 1000),
    { at: now, replicas: proposal },
  ];
  remember(recent);
  // Scale-down: the highest recommendation in the window; scale-up: at most max(2×, +4).
  const desired =
    proposal < current
      ? Math.min(current, Math.max(...recent.map((r) => r.replicas)))
      : Math.min(proposal, Math.max(current * 2, current + 4));
  return {
    desired,
    active: set(
      conditions,
      'ScalingActive',
      'True',
      'ValidMetricFound',
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    ),
  };
}

/** min and max applied (ScalingLimited). */
function limit(
  desired: number,
  min: number,
  max: number,
  active: Condition[],
): { desired: number; limited: Condition[] } {
  if (desired > max) {
    return {
      desired: max,
      limited: set(
        active,
        'ScalingLimited',
        'True',
        'TooManyReplicas',
        'the desired replica count is more than the maximum replica count',
      ),
    };
  }
  if (desired < min) {
    return {
      desired: min,
      limited: set(
        active,
        'ScalingLimited',
        'True',
        'TooFewReplicas',
        'the desired replica count is less than the minimum replica count',
      ),
    };
  }
  return {
    desired,
    limited: set(
      active,
      'ScalingLimited',
      'False',
      'DesiredWithinRange',
      'the desired count is within the acceptable range',
    ),
  };
}

function reconcile(
  store: Store,
  hpa: SimObject,
  history: readonly { at: number; replicas: number }[],
  remember: (r: { at: number; replicas: number }[]) => void,
): void {
  const spec = (hpa['spec'] ?? {}) as HpaSpec;
  const ref = spec.scaleTargetRef;
  const target =
    ref?.kind && ref.name && SCALABLE.has(ref.kind)
      ? store.get(ref.kind, hpa.metadata.namespace, ref.name)
      : undefined;
  const previous = (hpa['status'] ?? {}) as { conditions?: Condition[]; lastScaleTime?: string };
  const conditions = previous.conditions ?? [];
  if (!target) {
    write(store, hpa, {
      ...previous,
      conditions: set(
        conditions,
        'AbleToScale',
        'False',
        'FailedGetScale',
        `the HPA controller was unable to get the target's current scale`,
      ),
    });
    return;
  }
  const current = ((target['spec'] as { replicas?: number } | undefined)?.replicas ?? 1) as number;
  if (current === 0) {
    write(store, hpa, {
      ...previous,
      currentReplicas: 0,
      desiredReplicas: 0,
      conditions: set(
        conditions,
        'ScalingActive',
        'False',
        'ScalingDisabled',
        'scaling is disabled since the replica count of the target is zero',
      ),
    });
    return;
  }
  const min = spec.minReplicas ?? 1;
  const max = spec.maxReplicas ?? current;
  const recommended = recommend(hpa, spec, current, conditions, history, remember);
  const { desired, limited } = limit(recommended.desired, min, max, recommended.active);
  const rescale = desired !== current;
  const rt = typeForKind(store, target.kind ?? '');
  if (rescale && rt) {
    // Through the API's write path, as the scale subresource would: the generation moves.
    const copy = structuredClone(target);
    copy['spec'] = { ...(copy['spec'] as object), replicas: desired };
    updateObject(store, rt, copy, target.metadata.namespace, target.metadata.name);
  }
  write(store, hpa, {
    currentReplicas: current,
    desiredReplicas: desired,
    ...(rescale
      ? { lastScaleTime: nowRfc3339() }
      : previous.lastScaleTime
        ? { lastScaleTime: previous.lastScaleTime }
        : {}),
    conditions: set(
      limited,
      'AbleToScale',
      'True',
      rescale ? 'SucceededRescale' : 'ReadyForNewScale',
      rescale
        ? `the HPA controller was able to update the target scale to ${desired}`
        : 'recommended size matches current size',
    ),
  });
}

function write(store: Store, hpa: SimObject, status: object): void {
  if (JSON.stringify(hpa['status']) !== JSON.stringify(status))
    store.put({ ...structuredClone(hpa), status });
}
