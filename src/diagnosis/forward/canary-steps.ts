/**
 * Whether an Argo Rollout's basic canary can pass the setWeight steps still ahead. The
 * controller moves past a step only once the canary runs at the step's count beside the
 * stable pods at theirs (basic-canary.ts, stepsAhead), so a step the nodes or the quota
 * cannot hold stops the rollout for good, even where the end state (every pod new)
 * would fit. Claimed only where a canary pod and a stable pod are alike for the
 * scheduler and the quota (requests, host ports, placement rules, priority): then the
 * count of such pods the eligible nodes hold, with every pod of ours gone, bounds what
 * any order can place. Anything else makes no claim.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod, PodSpec } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { hostPorts } from '../base/pod-constraints.js';
import { holdsResources, isTerminating } from '../base/pods.js';
import { isRolloutObjects } from '../snapshot/types.js';
import { stepsAhead, type StepCounts } from '../workloads/rollout/basic-canary.js';
import { workloadKind } from '../workloads/index.js';
import type { QuotaRef } from './world.js';

export interface StepShortfall {
  step: StepCounts & { room: number };
  pending: Pod[];
  refused: boolean;
  quota?: QuotaRef;
}

/** The first step ahead the nodes (or a quota, by `overQuota`) can never hold, or undefined. */
export function canaryStepShortfall(
  ctx: AnalysisContext,
  incoming: Pod,
  podsThatFit: (node: Parameters<typeof isEligible>[0]) => number,
  overQuota: (count: number) => QuotaRef | undefined,
): StepShortfall | undefined {
  const { snapshot } = ctx;
  if (!isRolloutObjects(snapshot)) return undefined;
  const kind = workloadKind(snapshot);
  if (kind.strategy(kind.object(snapshot)).argo !== 'canary') return undefined;
  const ahead = stepsAhead(snapshot.rollout);
  if (ahead.length === 0) return undefined;
  const stable = (kind.revisions(snapshot).stable?.pods ?? []).filter(
    (p) => holdsResources(p) && !isTerminating(p),
  );
  if (stable.some((p) => !alike(p.spec, incoming.spec))) return undefined;
  const room = snapshot.nodes
    .filter((node) => isEligible(node, incoming.spec))
    .reduce((sum, node) => sum + podsThatFit(node), 0);
  for (const step of ahead) {
    // A stable pod the controller keeps is one that runs now (the ReplicaSet removes
    // unscheduled pods first); one it creates again may wait unplaced.
    const need = step.canary + Math.min(step.stable, stable.length);
    const quota = overQuota(need);
    if (quota) return { step: { ...step, room }, pending: [], refused: true, quota };
    if (need > room)
      return {
        step: { ...step, room },
        pending: Array.from({ length: need - room }, () => incoming),
        refused: false,
      };
  }
  return undefined;
}

/** The same pod for the scheduler and the quota: resources, host ports, placement rules, priority. */
function alike(a: PodSpec, b: PodSpec): boolean {
  const shape = (spec: PodSpec): string =>
    JSON.stringify([
      [...spec.containers, ...(spec.initContainers ?? [])].map((c) => [
        c.resources ?? null,
        c.restartPolicy ?? null,
      ]),
      hostPorts(spec),
      spec.nodeSelector ?? null,
      spec.affinity ?? null,
      spec.tolerations ?? null,
      spec.topologySpreadConstraints ?? null,
      spec.priority ?? 0,
      spec.preemptionPolicy ?? null,
      spec.resourceClaims ?? null,
      spec.overhead ?? null,
    ]);
  return shape(a) === shape(b);
}
