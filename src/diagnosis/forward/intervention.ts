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
 * The executor's stepped walk (src/kube/write/stepped-walk.ts), one step per tick at
 * most: the old ReplicaSets go down by one replica once no new pod is on its way (the
 * last step's replacement is Ready, or none was made).
 */
export function stepOld(model: Model): void {
  const { shape } = model;
  if (model.steppedTo === undefined || shape.kind !== 'replicas') return;
  if (shape.oldSpec <= model.steppedTo) return;
  const onItsWay = model.pods.some(
    (p) => p.revision === 'new' && (p.phase === 'pending' || p.phase === 'starting'),
  );
  if (onItsWay) return;
  shape.oldSpec -= 1;
  model.changes += 1;
}
