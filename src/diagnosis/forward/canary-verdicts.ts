/**
 * What an Argo canary's steps make of the forward model's answer (reconcile.ts): a step
 * ahead that holds more pods at once than the nodes or the quota ever can (canary-steps.ts
 * found it), and whether the current step still moves because the controller scales the
 * stable ReplicaSet down once the canary pods starting now are available.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding } from '../finding.js';
import { workloadKind } from '../workloads/index.js';
import type { Pod } from '../k8s.js';
import { passesCordon, untoleratedTaints } from '../base/node-match.js';
import { nextPod } from '../rollout/surge-proof.js';
import { runningStable, type PodAt, type RemovalOrder, type StepShortfall } from './canary-steps.js';
import { podPhases } from './pod-phase.js';
import { podsAsTheyAre } from './pods-as-they-are.js';
import { quotaRefuses } from './quota-words.js';
import type { Outcome } from './run.js';

type Draft = Omit<Finding, 'remediations'>;

/** An Argo canary's step ahead holds more pods at once than the nodes or the quota ever can. */
export function stepNeverReached(
  ctx: AnalysisContext,
  asIs: Extract<Outcome, { result: 'blocked' }>,
  step: StepShortfall['step'],
): Draft {
  if (step.order) return orderNeverReached(ctx, step, step.order);
  if (step.transition) return entryNeverPassed(ctx, asIs, step);
  const { index, action, canary, stable, room, surgeOnly, withoutSurge } = step;
  const name = ctx.snapshot.target.name;
  const pods = (n: number, what: string): string => `${n} ${what} pod${n === 1 ? '' : 's'}`;
  const limit = asIs.quota
    ? `${quotaRefuses(asIs.quota)} that many`
    : `the nodes hold at most ${room} such pods, whatever is moved`;
  const canarySpec = workloadKind(ctx.snapshot).object(ctx.snapshot) as {
    spec?: { strategy?: { canary?: { dynamicStableScale?: boolean } } };
  };
  const dynamic = canarySpec.spec?.strategy?.canary?.dynamicStableScale === true;
  const routed =
    workloadKind(ctx.snapshot).strategy(workloadKind(ctx.snapshot).object(ctx.snapshot)).argo ===
    'trafficRouted';
  const ways = routed
    ? `A traffic-routed canary's counts are the controller's (CalculateReplicaCountsForTrafficRoutedCanary): no strategy field or deleted pod changes them. ${dynamic ? `Promote it in full (kubectl argo rollouts promote --full ${name}, which skips the remaining steps and their checks): with dynamicStableScale the router then shifts weight as each canary pod becomes available and the stable scales down behind it, so only the end state must fit. Or make` : 'Make'} room for ${canary + stable} such pods at once, change the steps so each holds fewer, or abort (kubectl argo rollouts abort ${name}: the stable pods serve).`
    : surgeOnly
      ? `With maxSurge 0 the step asks ${pods(withoutSurge.canary, 'canary')} beside ${pods(withoutSurge.stable, 'stable')}, which fit: set the canary's maxSurge to 0, promote it past the steps (kubectl argo rollouts promote --full ${name}, which skips the remaining steps and their checks), or make room.`
      : `Letting old pods go does not help: the stable ReplicaSet makes them again. Promote it past the steps (kubectl argo rollouts promote --full ${name}, which skips the remaining steps and their checks), change the steps, or make room.`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: step.promotion
      ? `The rollout can never finish: its promotion after the last step needs ${pods(canary, 'canary')} running beside ${pods(stable, 'stable')} (dynamicStableScale keeps the stable at the last weight's share until the canary is available), and ${limit}. The end state alone would fit.`
      : stable > runningStable(ctx).length
        ? `The rollout can never finish its canary steps: at step ${index + 1} (${action}) the controller first scales the stable ReplicaSet back up to ${pods(stable, 'stable')} (with dynamicStableScale a setCanaryScale replicas step asks for every stable pod), and only then the canary to ${canary}, so the stable pods take the room first; ${limit}. The end state alone would fit.`
        : `The rollout can never finish its canary steps: step ${index + 1} (${action}) needs ${pods(canary, 'canary')} running beside ${pods(stable, 'stable')} before the controller moves on, and ${limit}. The end state alone would fit.`,
    explanation: `Argo Rollouts passes a setWeight or setCanaryScale step only once the canary is available at the step's count with the stable ReplicaSet at its own, so both run at once. ${ways}`,
    evidence: [podsAsTheyAre(ctx)],
  };
}

/**
 * The step's counts fit, the way into it does not (canary-steps.ts surgeInto): a basic
 * canary adds its next canary pod before it scales the stable ReplicaSet down, and keeps
 * the stable pods maxUnavailable asks for until that pod is available. A surge deadlock
 * between the canary and its stable pods: letting a stable pod go first gets past it.
 */
function entryNeverPassed(
  ctx: AnalysisContext,
  asIs: Extract<Outcome, { result: 'blocked' }>,
  step: StepShortfall['step'],
): Draft {
  const { name } = ctx.snapshot.target;
  const kind = workloadKind(ctx.snapshot);
  const unavailable = kind.strategy(kind.object(ctx.snapshot)).maxUnavailable?.value ?? 0;
  const pods = (n: number, what: string): string => `${n} ${what} pod${n === 1 ? '' : 's'}`;
  const at = step.promotion
    ? 'on its way to the promotion after the last step'
    : `on its way into step ${step.index + 1} (${step.action})`;
  const limit = asIs.quota
    ? `${quotaRefuses(asIs.quota)} that many`
    : `the nodes hold at most ${step.room} such pods, whatever is moved`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `The rollout can never finish: ${at} the controller adds canary pod number ${step.canary} before it scales the stable ReplicaSet down, and with maxUnavailable ${unavailable} it keeps ${pods(step.stable, 'stable')} until that pod is available, so ${step.canary + step.stable} pods must run at once; ${limit}. The end state alone would fit.`,
    explanation: `Argo Rollouts scales a basic canary as a rolling update (CalculateReplicaCountsForBasicCanary): the canary ReplicaSet grows up to spec.replicas + maxSurge, and the stable ReplicaSet shrinks only as far as the available pods allow (spec.replicas - maxUnavailable). Set the canary's maxSurge to 0 and maxUnavailable to 1: a stable pod then goes before each canary pod comes, and the end state fits. Or ${asIs.quota ? 'raise the quota by one pod' : 'make room for one more pod'}${unavailable > 0 ? `, or abort (kubectl argo rollouts abort ${name}: the stable pods serve)` : '. An abort does not help while there is no room: with maxUnavailable 0 it removes available canary pods only as stable pods come back beside them'}.`,
    evidence: [podsAsTheyAre(ctx)],
  };
}

/**
 * The counts of the step fit, the order the stable pods go in does not (canary-order.ts):
 * the stable pod removed first stood where no canary pod may go.
 */
function orderNeverReached(ctx: AnalysisContext, step: StepShortfall['step'], order: RemovalOrder): Draft {
  const { snapshot } = ctx;
  const { name, namespace } = snapshot.target;
  const kind = workloadKind(snapshot);
  const strategy = kind.strategy(kind.object(snapshot));
  const routed = strategy.argo === 'trafficRouted';
  const incoming = nextPod(snapshot);
  const pods = (list: readonly PodAt[], why?: boolean): string =>
    list
      .map(({ pod, node }) => `${pod} on ${node}${why ? ` (${whyNotUsable(snapshot, node, incoming)})` : ''}`)
      .join(', ');
  const at = step.promotion ? 'the promotion after the last step' : `step ${step.index + 1} (${step.action})`;
  const stays = order.kept.length === 1 ? 'stays' : 'stay';
  const holds = routed
    ? `the controller keeps ${step.stable} stable pod${step.stable === 1 ? '' : 's'} until the canary pods are available (the router moves its weight only then)`
    : `with maxUnavailable ${strategy.maxUnavailable?.value ?? 0} the controller removes no more stable pods while it waits`;
  const annotate = order.unusable
    .map(
      ({ pod }) =>
        `\`kubectl annotate pod ${pod} -n ${namespace} controller.kubernetes.io/pod-deletion-cost=100\``,
    )
    .join(', ');
  const strategyWay = routed
    ? ''
    : "; or set the canary's maxSurge 0 and maxUnavailable 1, so the controller removes stable pods until a canary pod fits (one serving pod fewer meanwhile)";
  const how = order.run
    ? 'Run forward from the pods as they are (the steps as the rolling update whose bounds they keep)'
    : "In the ReplicaSet controller's deletion order";
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `The rollout can never finish its canary steps, though their counts fit: going on, the ReplicaSet controller removes stable pods in its own order, and it removes ${pods(order.unusable, true)}, room no canary pod may use, while ${pods(order.kept)} ${stays}. ${capitalized(at)} then waits for a canary pod that fits only where a stable pod runs, and ${holds}.`,
    explanation: `Argo Rollouts scales the stable ReplicaSet down to each step's count, and the ReplicaSet controller picks which pods go (getPodsToDelete, ActivePodsWithRanks: deletion cost, pods of the workload on the node, how long Ready, then the pod's UID), not where the canary needs room. Before it goes on, raise the deletion cost of the stable pods that stand where no canary pod may go, so they are removed last (${annotate}); or make their nodes take pods again${strategyWay}. \`kubectl argo rollouts abort ${name}\` keeps the stable pods serving.`,
    evidence: [
      {
        type: 'note',
        text: `${how}: the stable pods removed, in order: ${order.removedInOrder.join(', ')}; then a canary pod stays Pending.`,
      },
      podsAsTheyAre(ctx),
    ],
  };
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Why no canary pod may use the node: cordoned, a taint it does not tolerate, or not selected. */
function whyNotUsable(snapshot: AnalysisContext['snapshot'], name: string, pod: Pod): string {
  const node = snapshot.nodes.find((n) => n.metadata.name === name);
  if (!node) return 'not read';
  if (!passesCordon(node, pod.spec)) return 'cordoned';
  const taints = untoleratedTaints(node, pod.spec);
  if (taints.length > 0) return `taint ${taints[0]?.key ?? ''} not tolerated`;
  return 'not selected by the template';
}

/** A basic canary whose stable ReplicaSet the controller scales down once the canary pods starting now are available. */
export function stableScalesDownOnceStarted(ctx: AnalysisContext): boolean {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  if (kind.strategy(kind.object(snapshot)).argo !== 'canary') return false;
  const fresh = new Set(kind.revisions(snapshot).current?.pods ?? []);
  const phases = podPhases(ctx);
  const starting = [...fresh].filter((p) => phases.get(p) === 'starting').length;
  return starting > 0 && kind.keepsOldPods(snapshot) && !kind.keepsOldPods(snapshot, starting);
}

/** status.currentStepIndex of an Argo Rollout (0 when unset or another kind). */
export function currentStepIndex(ctx: AnalysisContext): number {
  const object = workloadKind(ctx.snapshot).object(ctx.snapshot) as {
    status?: { currentStepIndex?: number };
  };
  return object.status?.currentStepIndex ?? 0;
}
