/**
 * Whether a rollout's end state can exist at all, for the kinds the model does not
 * follow step by step (a StatefulSet's ordered pods, an Argo Rollout's steps): at the
 * end every pod the update replaces runs the new template at once. Node by node, the
 * bound counts how many pods of the new template the node could ever hold with this
 * workload's replaced pods gone (blue-green: with its stable pods still there) and every
 * pod the new one may preempt gone too
 * (resources, the pod count, one pod per node with a host port). It never counts fewer
 * than the truth (anti-affinity, spread and volumes only lower it), so fewer than
 * needed proves the rollout can never finish, whatever order the controller and the
 * scheduler take. Likewise a quota (one that has refused the workload's pods, or one
 * read that charges every pod): the replaced pods at the new template's charge, with
 * blue-green's stable pods beside them, must stay within its hard limit. Anything
 * the bound cannot see (devices through DRA, a priority not resolved yet) makes no claim.
 */
import { quotaTakesIn, scopedQuota } from '../base/quota-scopes.js';
import type { ResourceQuota } from '../k8s-policy.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { Node, Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { hostPorts } from '../base/pod-constraints.js';
import { holdsResources, isTerminating } from '../base/pods.js';
import { quotaCharge } from '../base/quota-charge.js';
import { nonZero, podRequests } from '../base/resources.js';
import { quotaEntries, refusedRevisions } from '../rollout/create-refusals.js';
import { placementContext, portBlockers, type PlacementContext } from '../placement/placement.js';
import { nextPod } from '../rollout/surge-proof.js';
import { workloadKind, workloadObject } from '../workloads/index.js';
import { quotaLimits } from '../base/quota-limits.js';
import { isRolloutObjects } from '../snapshot/types.js';
import { rolloutAborted } from '../workloads/rollout/rollout-phase.js';
import type { QuotaRef } from './world.js';
import { canaryStepShortfall, type StepShortfall } from './canary-steps.js';

interface Shortfall {
  /** Pods of the new template that no node can hold even at the end. */
  pending: Pod[];
  /** The quota can never admit them all (pending is then empty). */
  refused: boolean;
  /** That quota. */
  quota?: QuotaRef;
  /** An Argo canary's step ahead that no order can reach (canary-steps.ts), the end state aside. */
  step?: StepShortfall['step'];
}

/**
 * What keeps the end state from existing, or undefined: it may fit, or no claim is made.
 * 'without-old': as if the old pods were gone (blue-green's stable pods too), to tell a
 * rollout the old pods block from one no node could ever hold. `othersGone`: other
 * workloads' pods left out of the room (a Job's once it ends: job-wait.ts).
 */
export function finalStateShortfall(
  ctx: AnalysisContext,
  variant: 'as-is' | 'without-old' = 'as-is',
  othersGone: ReadonlySet<Pod> = new Set(),
): Shortfall | undefined {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const strategy = kind.strategy(object);
  if (strategy.type !== 'RollingUpdate') return undefined;
  // An aborted Rollout's end state is its stable pods: the new revision is not rolled out.
  if (isRolloutObjects(snapshot) && rolloutAborted(snapshot.rollout)) return undefined;
  const incoming = nextPod(snapshot);
  const { spec } = incoming;
  if ((spec.resourceClaims ?? []).length > 0 || snapshot.dra) return undefined;
  if (spec.priorityClassName && spec.priority === undefined) return undefined;
  const revisions = kind.revisions(snapshot);
  const fresh = new Set(revisions.current?.pods ?? []);
  const final = snapshot.pods.filter((p) => fresh.has(p) && holdsResources(p) && !isTerminating(p));
  const replaced = kind.desiredReplicas(object) - (strategy.partition ?? 0);
  // Every other pod of ours is replaced, or may be (those below a partition stay: counting
  // them gone only raises the bound); but blue-green, and a traffic-routed canary without
  // dynamicStableScale, keep every running stable pod until the new revision is complete
  // (and promoted), so the end state holds both revisions at once.
  const staying = new Set<Pod>(final);
  if (strategy.stableKept && variant === 'as-is')
    for (const p of revisions.stable?.pods ?? []) if (holdsResources(p) && !isTerminating(p)) staying.add(p);
  const quotaShort = (source: QuotaRef['source']): Shortfall | undefined => {
    const kept = [...staying].filter((p) => !fresh.has(p));
    const quota = quotaShortfall(ctx, incoming, replaced, kept, source);
    return quota && { pending: [], refused: true, quota };
  };
  // A quota that has refused our pods speaks first, as it always has; one only read
  // speaks where the nodes could hold the end state (else that is the verdict).
  const refused = quotaShort('refusal');
  if (refused) return refused;
  const needed = replaced - final.length;
  if (needed <= 0) return undefined;
  const placement = placementContext(ctx);
  const room = snapshot.nodes
    .filter((node) => isEligible(node, spec))
    .reduce((sum, node) => sum + podsThatFit(placement, incoming, node, staying, othersGone), 0);
  if (room < needed)
    return { pending: Array.from({ length: needed - room }, () => incoming), refused: false };
  return (
    quotaShort('status') ??
    canaryStepShortfall(
      ctx,
      incoming,
      (node) => podsThatFit(placement, incoming, node, new Set(), othersGone),
      (count) =>
        quotaShortfall(ctx, incoming, count, [], 'refusal') ??
        quotaShortfall(ctx, incoming, count, [], 'status'),
      variant,
    )
  );
}

/**
 * A quota that cannot hold `count` pods of the new template beside the pods that stay
 * (blue-green's stable ones): the one that refused the workload's pods ('refusal'), or
 * one read from the namespace that charges every pod ('status'). Only the hard limit counts (every other pod
 * of the namespace may go), so it never claims more than the truth.
 */
function quotaShortfall(
  ctx: AnalysisContext,
  incoming: Pod,
  count: number,
  staying: readonly Pod[],
  source: QuotaRef['source'],
): QuotaRef | undefined {
  const over = (resource: string, hard: number, scoped?: ResourceQuota): boolean => {
    const each = quotaCharge(incoming.spec, resource) ?? 0;
    const kept = staying
      .filter((p) => scoped === undefined || quotaTakesIn(scoped, p.spec) === true)
      .reduce((sum, p) => sum + (quotaCharge(p.spec, resource) ?? 0), 0);
    return each > 0 && kept + count * each > hard;
  };
  if (source === 'refusal') {
    // The refusing quota as read, for its scopes (a scoped one counts only the pods it takes in).
    const namespace = workloadObject(ctx.snapshot).metadata.namespace ?? '';
    const scopesOf = (name: string): ResourceQuota | undefined =>
      scopedQuota(ctx.snapshot.resourceQuotas, name, namespace);
    const refused = refusedRevisions(ctx).find(
      ({ refusal }) =>
        refusal.kind === 'quota-exceeded' &&
        quotaEntries(refusal, ctx.snapshot.resourceQuotas, namespace).some((e) =>
          over(e.resource, e.hard, scopesOf(refusal.quota)),
        ),
    )?.refusal;
    return refused?.kind === 'quota-exceeded' ? { name: refused.quota, source } : undefined;
  }
  const namespace = workloadObject(ctx.snapshot).metadata.namespace ?? '';
  const read = quotaLimits(ctx.snapshot.resourceQuotas, namespace, incoming.spec)?.find((q) =>
    q.entries.some((e) => over(e.resource, e.hard, q.scoped)),
  );
  return read && { name: read.name, source: 'status' };
}

/** How many pods like `incoming` the node holds at most, with only `staying` of ours and no lower priority left. */
function podsThatFit(
  placement: PlacementContext,
  incoming: Pod,
  node: Node,
  staying: ReadonlySet<Pod>,
  othersGone: ReadonlySet<Pod>,
): number {
  const priority = incoming.spec.priority ?? 0;
  const preempts = incoming.spec.preemptionPolicy !== 'Never';
  const occupants = (placement.occupantsByNode.get(node.metadata.name ?? '') ?? []).filter(
    (p) =>
      (placement.ours.has(p) ? staying.has(p) : !othersGone.has(p)) &&
      !(preempts && (p.spec.priority ?? 0) < priority),
  );
  const allocatable = placement.allocatable(node);
  const need: [string, number][] = Object.entries(nonZero(podRequests(incoming.spec)));
  if (allocatable.pods !== undefined) need.push(['pods', 1]);
  let fits = Number.POSITIVE_INFINITY;
  for (const [resource, amount] of need) {
    let used = 0;
    for (const pod of occupants) used += resource === 'pods' ? 1 : (placement.requests(pod)[resource] ?? 0);
    fits = Math.min(fits, Math.floor(((allocatable[resource] ?? 0) - used) / amount));
  }
  const ports = hostPorts(incoming.spec);
  if (ports.length > 0) fits = Math.min(fits, portBlockers(ports, occupants).length > 0 ? 0 : 1);
  return Math.max(0, Number.isFinite(fits) ? fits : Number.MAX_SAFE_INTEGER);
}
