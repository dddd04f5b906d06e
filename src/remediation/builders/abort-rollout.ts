/**
 * abort-rollout: what `kubectl argo rollouts abort` does, a JSON merge patch
 * `{"status":{"abort":true}}` of the Rollout's status subresource
 * (argoproj/argo-rollouts pkg/kubectl-argo-rollouts/cmd/abort/abort.go). The controller
 * then sets the canary weight to 0 (or scales the blue-green preview away) and
 * returns every pod to the stable ReplicaSet; the Rollout turns Degraded
 * (RolloutAborted) while spec.template still holds the new version, until the
 * template is reverted or the update retried. Offered for a Rollout whose update
 * cannot finish: a surge deadlock (for blue-green and a traffic-routed canary the only
 * way the room comes back) or a passed progress deadline. Pure.
 */
import { codeSpan } from '../../text/code-span.js';
import { warningsFrom, withImpact, type PlanSaid } from '../plan-words.js';
import { isRolloutObjects } from '../../diagnosis/snapshot/types.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { ArgoRollout } from '../../diagnosis/k8s-argo.js';
import type { Pod } from '../../diagnosis/k8s.js';
import { isReady, isTerminating, isUnscheduled } from '../../diagnosis/base/pods.js';
import { latestSchedulingFailure } from '../../diagnosis/base/pod-events.js';
import { refusedRevisions } from '../../diagnosis/rollout/create-refusals.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { NotOffered, Patch, RemediationPlan } from '../plan.js';
import { planId } from '../plan-id.js';
import { roomOnSomeNode } from '../../diagnosis/placement/replacement.js';

const ABORT_PATCH: Patch = { type: 'merge', body: { status: { abort: true } } };

export function buildAbortRolloutPlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  notOffered?: NotOffered,
): RemediationPlan[] {
  const { snapshot } = ctx;
  if (!isRolloutObjects(snapshot)) return [];
  const { rollout } = snapshot;
  const status = rollout.status ?? {};
  if (status.abort) {
    notOffered?.('abort-rollout', 'the Rollout is already aborted');
    return [];
  }
  const revisions = workloadKind(snapshot).revisions(snapshot);
  const stableHash = status.stableRS;
  const current = revisions.current;
  // Nothing to abort before a stable revision exists, or once the update is the stable one.
  if (!stableHash || !current || current.hash === stableHash) {
    notOffered?.('abort-rollout', 'no update is under way: the current revision is the stable one');
    return [];
  }
  const stable = revisions.old.find((r) => r.hash === stableHash);
  const replicas = workloadKind(snapshot).desiredReplicas(rollout);
  const scaleDown = abortScaleDown(rollout);
  const stalls = !scaleDown.delayed && stable ? basicAbortStalls(ctx, stable, current, replicas) : undefined;
  if (stalls) {
    notOffered?.('abort-rollout', stalls);
    return [];
  }
  const short = scaleDown.delayed && stable ? stableCannotFill(ctx, stable, replicas) : undefined;
  if (short) {
    notOffered?.(
      'abort-rollout',
      `an abort scales ${current.label} away only once ${stable?.label ?? 'the stable ReplicaSet'} has all ${replicas} pod(s) available, and ${short}: the new pods would stay up, holding that room`,
    );
    return [];
  }
  return [
    {
      id: planId('abort-rollout', rollout.metadata.uid ?? '', rollout.metadata.generation ?? 0, ABORT_PATCH),
      kind: 'abort-rollout',
      target: snapshot.target,
      summary: `Abort the update: the controller scales ${current.label} ${scaleDown.scaled} and ${stable ? stable.label : 'the stable ReplicaSet'} serves all ${replicas} replica(s), as ${codeSpan('kubectl argo rollouts abort')} does.`,
      ...withImpact(scaleDown.said),
      ...warningsFrom([
        { key: 'abortRetry', params: { retry: codeSpan('kubectl argo rollouts retry') } },
        { key: 'abortNoUndo', params: {} },
      ]),
      patch: ABORT_PATCH,
      preconditions: {
        uid: rollout.metadata.uid ?? '',
        generation: rollout.metadata.generation ?? 0,
        fields: [
          { path: '/status/abort', value: status.abort },
          { path: '/status/currentPodHash', value: status.currentPodHash },
          { path: '/status/stableRS', value: stableHash },
        ],
      },
      inverse: null,
      addresses: finding.code,
    },
  ];
}

/**
 * Why the stable ReplicaSet cannot get all its pods available while the update's pods
 * stay, if it cannot: the quota refuses its creates, or a pod of it waits Pending with the
 * scheduler's refusal. Argo's delayed scale-down on abort (rollout/replicaset.go
 * reconcileNewReplicaSet) sets the new ReplicaSet's deadline only once
 * `stableRS.status.availableReplicas == spec.replicas`, and leaves it scaled up until then.
 */
function stableCannotFill(
  ctx: AnalysisContext,
  stable: { name: string; pods: Pod[] },
  replicas: number,
): string | undefined {
  const available = stable.pods.filter((p) => isReady(p) && !isTerminating(p)).length;
  if (available >= replicas) return undefined;
  const refused = refusedRevisions(ctx).find((r) => r.failure.revision === stable.name);
  if (refused) return 'the quota refuses its pods';
  const waiting = stable.pods.find(
    (p) => isUnscheduled(p) && latestSchedulingFailure(ctx.snapshot, p) !== undefined,
  );
  return waiting ? `its pod ${waiting.metadata.name ?? ''} waits for room` : undefined;
}

/**
 * A basic canary's abort stops half way, if it does (rollout/canary.go with weight 0,
 * CalculateReplicaCountsForBasicCanary): the canary is scaled down only while the
 * canary's replicas and the stable's available pods stay above replicas − maxUnavailable,
 * so with maxUnavailable 0 its available pods go only as new stable pods become
 * available. A stable pod that finds no room beside them (the canary's pods that are not
 * available are removed first) never comes: the canary keeps serving, the stable stays
 * short, for good. Not known where a node's pods were not read: offered, as before.
 */
function basicAbortStalls(
  ctx: AnalysisContext,
  stable: { label: string; pods: Pod[] },
  current: { label: string; pods: Pod[] },
  replicas: number,
): string | undefined {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  if ((kind.strategy(kind.object(snapshot)).maxUnavailable?.value ?? 1) > 0) return undefined;
  const available = stable.pods.filter((p) => isReady(p) && !isTerminating(p));
  const model = stable.pods.find((p) => !isTerminating(p));
  if (available.length >= replicas || !model) return undefined;
  const next: Pod = { ...model, metadata: { ...model.metadata, uid: `${model.metadata.uid ?? ''}/next` } };
  // The canary's pods that are not available, and the stable's waiting ones, go or move first.
  const removed = new Set([
    ...current.pods.filter((p) => !isReady(p)),
    ...stable.pods.filter((p) => !isReady(p)),
  ]);
  // Not known (nodes or their pods not all read): offered, as before.
  if (roomOnSomeNode(ctx, next, { removed }) !== false) return undefined;
  return `with maxUnavailable 0 an abort scales the available pods of ${current.label} down only as new pods of ${stable.label} become available, and no node has room for one beside them: the abort would stop half way, ${current.label} serving and ${stable.label} short for good`;
}

/**
 * When an abort removes the new pods (rollout/replicaset.go shouldDelayScaleDownOnAbort,
 * utils/defaults GetAbortScaleDownDelaySecondsOrDefault): a basic canary at once; blue-green
 * and a traffic-routed canary after abortScaleDownDelaySeconds (30 by default), and never
 * while it is 0; a traffic-routed canary with dynamicStableScale and no delay set, as the
 * stable scales back up. `scaled` finishes "the controller scales X …"; `pods` says what
 * happens to the new pods.
 */
function abortScaleDown(rollout: ArgoRollout): {
  scaled: string;
  said: PlanSaid;
  delayed?: true;
} {
  const { canary, blueGreen } = rollout.spec.strategy ?? {};
  const delayed =
    blueGreen && !canary ? blueGreen : canary?.trafficRouting !== undefined ? canary : undefined;
  if (!delayed) return { scaled: 'to 0', said: { key: 'abortNow', params: {} } };
  const seconds = delayed.abortScaleDownDelaySeconds;
  if (seconds === 0) {
    return {
      scaled: 'nowhere: abortScaleDownDelaySeconds is 0, so its pods stay up',
      said: { key: 'abortKept', params: {} },
    };
  }
  if (canary?.dynamicStableScale && seconds === undefined) {
    return {
      scaled: 'to 0 step by step as the stable scales back up (dynamicStableScale)',
      said: { key: 'abortDynamic', params: {} },
    };
  }
  const delay = `${seconds ?? 30} s${seconds === undefined ? ', the default' : ''}`;
  return {
    scaled: `to 0 after abortScaleDownDelaySeconds (${delay})`,
    said: { key: 'abortDelayed', params: seconds !== undefined ? { seconds } : {} },
    delayed: true,
  };
}
