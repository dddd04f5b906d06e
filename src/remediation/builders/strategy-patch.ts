/**
 * Patch bodies for strategy changes and restarts, their exact inverses, and the
 * preconditions they assume. Strategic-merge patches merge maps, so any key of
 * spec.strategy.rollingUpdate we do not name stays as the user set it.
 */
import type { Deployment, DeploymentStrategy } from '../../diagnosis/k8s.js';
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

/** The strategic-merge patch for the change. */
export function strategyPatch(change: StrategyChange): Patch {
  const strategy =
    change.strategy.type === 'Recreate'
      ? { type: 'Recreate', rollingUpdate: null }
      : { type: 'RollingUpdate', rollingUpdate: { ...change.strategy.rollingUpdate } };
  const spec: Record<string, unknown> = { strategy };
  if (change.restart) spec.template = { metadata: { annotations: { [RESTARTED_AT]: APPLY_TIME } } };
  return { type: 'strategic-merge', body: { spec } };
}

/**
 * The strategic-merge patch that puts the strategy back exactly as it was: every
 * field we changed gets its old value, or null where it was absent (the API server
 * then defaults it again). The restart is not undone: restoring an older
 * restartedAt would itself roll the pods back.
 */
export function inverseStrategyPatch(previous: DeploymentStrategy | undefined): Patch {
  if (!previous) return { type: 'strategic-merge', body: { spec: { strategy: null } } };
  const rolling = previous.rollingUpdate;
  const strategy = {
    type: previous.type ?? null,
    rollingUpdate: rolling
      ? { ...rolling, maxSurge: rolling.maxSurge ?? null, maxUnavailable: rolling.maxUnavailable ?? null }
      : null,
  };
  return { type: 'strategic-merge', body: { spec: { strategy } } };
}

/** uid, generation and the fields the plan assumed (strategy and replicas; the restart annotation). */
export function strategyPreconditions(deployment: Deployment, withRestart: boolean): Preconditions {
  const fields: Preconditions['fields'] = [
    { path: '/spec/strategy', value: clone(deployment.spec.strategy) },
    { path: '/spec/replicas', value: deployment.spec.replicas },
  ];
  if (withRestart) {
    fields.push({
      path: RESTARTED_AT_POINTER,
      value: deployment.spec.template.metadata?.annotations?.[RESTARTED_AT],
    });
  }
  return { uid: deployment.metadata.uid ?? '', generation: deployment.metadata.generation ?? 0, fields };
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
