/**
 * Patch bodies for strategy changes and restarts, their exact inverses, and the
 * preconditions they assume. Strategic-merge patches merge maps, so any key of
 * spec.strategy.rollingUpdate we do not name stays as the user set it.
 */
import type { DeploymentStrategy } from '../../diagnosis/k8s-workloads.js';
import type { WorkloadObject } from '../../diagnosis/snapshot/types.js';
import type { Patch, Preconditions } from '../plan.js';
import { APPLY_TIME, RESTARTED_AT, RESTARTED_AT_POINTER } from '../restart-time.js';

export { RESTARTED_AT, RESTARTED_AT_POINTER } from '../restart-time.js';

export interface StrategyChange {
  strategy:
    | { type: 'RollingUpdate'; rollingUpdate: { maxSurge: number; maxUnavailable: number } }
    | { type: 'Recreate' };
  /**
   * Also set the restartedAt template annotation (replaces a stuck Pending pod), to
   * the time of the apply: the patch carries the APPLY_TIME marker (restart-time.ts).
   */
  restart?: boolean;
}

/** Where the kind keeps its strategy: a Deployment's spec.strategy, a DaemonSet's spec.updateStrategy. */
export type StrategyField = 'strategy' | 'updateStrategy';

/** The live strategy object of the workload at that field. */
export function liveStrategy(object: WorkloadObject, field: StrategyField): DeploymentStrategy | undefined {
  const spec = object.spec as { strategy?: DeploymentStrategy; updateStrategy?: DeploymentStrategy };
  return spec[field];
}

/** The strategic-merge patch for the change. */
export function strategyPatch(change: StrategyChange, field: StrategyField = 'strategy'): Patch {
  const strategy =
    change.strategy.type === 'Recreate'
      ? { type: 'Recreate', rollingUpdate: null }
      : { type: 'RollingUpdate', rollingUpdate: { ...change.strategy.rollingUpdate } };
  const spec: Record<string, unknown> = { [field]: strategy };
  if (change.restart) spec.template = { metadata: { annotations: { [RESTARTED_AT]: APPLY_TIME } } };
  return { type: 'strategic-merge', body: { spec } };
}

/**
 * The strategic-merge patch that puts the strategy back exactly as it was: every
 * field we changed gets its old value, or null where it was absent (the API server
 * then defaults it again). The restart is not undone: restoring an older
 * restartedAt would itself roll the pods back.
 */
export function inverseStrategyPatch(
  previous: DeploymentStrategy | undefined,
  field: StrategyField = 'strategy',
): Patch {
  if (!previous) return { type: 'strategic-merge', body: { spec: { [field]: null } } };
  const rolling = previous.rollingUpdate;
  const strategy = {
    type: previous.type ?? null,
    rollingUpdate: rolling
      ? { ...rolling, maxSurge: rolling.maxSurge ?? null, maxUnavailable: rolling.maxUnavailable ?? null }
      : null,
  };
  return { type: 'strategic-merge', body: { spec: { [field]: strategy } } };
}

/** uid, generation and the fields the plan assumed (strategy and replicas; the restart annotation). */
export function strategyPreconditions(
  deployment: WorkloadObject,
  withRestart: boolean,
  field: StrategyField = 'strategy',
): Preconditions {
  const fields: Preconditions['fields'] = [
    { path: `/spec/${field}`, value: clone(liveStrategy(deployment, field)) },
  ];
  // A Deployment's percentages resolve against its replicas; a DaemonSet has none (its nodes decide).
  if (field === 'strategy') {
    fields.push({ path: '/spec/replicas', value: (deployment.spec as { replicas?: number }).replicas });
  }
  if (withRestart) {
    fields.push({
      path: RESTARTED_AT_POINTER,
      value: deployment.spec.template?.metadata?.annotations?.[RESTARTED_AT],
    });
  }
  return { uid: deployment.metadata.uid ?? '', generation: deployment.metadata.generation ?? 0, fields };
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
