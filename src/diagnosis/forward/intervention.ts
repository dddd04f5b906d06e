/**
 * A plan's write applied to the forward model before its first tick (model.ts,
 * Intervention): the strategy it leaves, the old ReplicaSets' new scale, the pods it
 * deletes. A template change is applied when the model is built (every pod is then of
 * an old revision, the new pod is the changed template's). What the model then does
 * is what the controllers do with that write, tick by tick (run.ts).
 */
import { deletePod } from './controllers.js';
import { countServing, type Intervention, type Model } from './model.js';

export function applyChange(model: Model, change: Intervention, deleted: ReadonlySet<string>): void {
  const { shape } = model;
  if (change.strategy) {
    shape.maxSurge = change.strategy.maxSurge;
    shape.maxUnavailable = change.strategy.maxUnavailable;
    if (shape.kind === 'replicas') shape.recreate = change.strategy.recreate;
  }
  if (change.oldTo && shape.kind === 'replicas') {
    const { replicas, stepped } = change.oldTo;
    if (stepped && shape.oldSpec > replicas + 1) {
      model.steppedTo = replicas;
      model.stepAwaits = true;
      shape.oldSpec -= 1;
    } else shape.oldSpec = Math.min(shape.oldSpec, replicas);
  }
  for (const pod of [...model.pods]) {
    const key = pod.pod.metadata.uid || pod.pod.metadata.name || '';
    if (!deleted.has(key) || pod.phase === 'terminating' || pod.phase === 'stuck') continue;
    deletePod(model, pod);
    model.steps.push({ kind: 'deleted', pod: pod.pod.metadata.name ?? '' });
  }
  const serving = countServing(model.pods);
  model.serving.lowest = Math.min(model.serving.lowest, serving);
}

/**
 * The executor's stepped walk (src/kube/write/stepped-walk.ts): the old ReplicaSets go
 * down by one replica, then the walk waits until a new pod is Ready (the one the step
 * made room for) before the next step. A step whose room nothing takes waits for ever,
 * as the executor's walk stops at its deadline.
 */
export function stepOld(model: Model): void {
  const { shape } = model;
  if (model.steppedTo === undefined || shape.kind !== 'replicas') return;
  if (shape.oldSpec <= model.steppedTo || model.stepAwaits) return;
  shape.oldSpec -= 1;
  model.stepAwaits = true;
  model.changes += 1;
}
