/**
 * What the forward model says where it is not built (run.ts buildModel gave a reason):
 * an end state no node can hold, for the kinds it does not follow step by step
 * (final-state.ts), else what is seen to move without a model, else not known.
 */
import type { AnalysisContext } from '../analysis-context.js';
import { isReady } from '../base/pods.js';
import { workloadKind } from '../workloads/index.js';
import { finalStateShortfall } from './final-state.js';
import type { Step } from './model.js';
import { MODEL_WHY } from './model-why.js';
import { podPhases } from './pod-phase.js';
import type { Outcome, Variant } from './outcome.js';

const UNMODELLED = MODEL_WHY.unmodelled;

export interface Unbuilt {
  why: string;
  unread?: true;
}

export function unbuilt(ctx: AnalysisContext, variant: Variant, { why, unread }: Unbuilt): Outcome {
  // Moving or not, an end state that no nodes can hold is never reached (final-state.ts),
  // for the kinds the model does not follow. The bound counts the room the pods read leave:
  // pods not read on nodes that were read only take more of it, never give any, so it
  // stands without them (a dump of one namespace: a traffic-routed canary whose promotion
  // needs both revisions whole read "No problem found").
  const bound = why === UNMODELLED || (why === MODEL_WHY.podsUnread && unmodelledKind(ctx));
  const short =
    bound && variant !== 'next-rollout' && variant !== 'candidate'
      ? finalStateShortfall(ctx, variant)
      : undefined;
  if (short) return { result: 'blocked', ticks: 0, steps: [], ...short };
  // What was not read is not free, and it does not stop what the controllers do next:
  // a new pod of this workload starting (it becomes available, then the controller lets
  // an old one go) or an old one terminating moves the rollout whatever the unread pods
  // hold. A dump of one namespace called such a rollout "can never finish".
  if (unread) return movingOrUnknown(ctx, why);
  if (why !== UNMODELLED) return { result: 'unknown', why };
  return movingOrUnknown(ctx, why);
}

/** A kind whose update the model does not follow step by step (ordered pods, an Argo Rollout's steps). */
function unmodelledKind(ctx: AnalysisContext): boolean {
  const kind = workloadKind(ctx.snapshot);
  return Boolean(kind.orderedBlock) || kind.strategy(kind.object(ctx.snapshot)).argo !== undefined;
}

function movingOrUnknown(ctx: AnalysisContext, why: string): Outcome {
  const steps = visibleSteps(ctx);
  return steps.length > 0 ? { result: 'moving', steps } : { result: 'unknown', why };
}

/**
 * What the controllers do next that is seen without a model: a new pod of the workload
 * starting (it becomes Ready, or available after minReadySeconds), a pod terminating, or
 * an old pod its controller deletes now without waiting for it (a StatefulSet's Parallel
 * update: WorkloadKindModule `replacedByUpdate`). Each moves the rollout whatever was
 * not read.
 */
export function visibleSteps(ctx: AnalysisContext): Step[] {
  const kind = workloadKind(ctx.snapshot);
  const { current } = kind.revisions(ctx.snapshot);
  const fresh = new Set(current?.pods ?? []);
  const phases = podPhases(ctx);
  return ctx.snapshot.pods.flatMap((pod): Step[] => {
    const phase = phases.get(pod);
    const name = pod.metadata.name ?? '';
    if (phase === 'starting' && fresh.has(pod))
      return [{ kind: 'ready', pod: name, ...(isReady(pod) ? { waitsMinReady: true as const } : {}) }];
    if (phase === 'terminating') return [{ kind: 'gone', pod: name }];
    const replaced = kind.replacedByUpdate?.(ctx.snapshot, pod);
    if (replaced?.known && replaced.now) return [{ kind: 'old-removed', pod: name }];
    return [];
  });
}
