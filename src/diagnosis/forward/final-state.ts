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
 * scheduler take. Likewise a quota that has refused the workload's pods: the replaced
 * pods at the new template's charge (blue-green: beside its stable pods) must stay within
 * its hard limit. Anything
 * the bound cannot see (devices through DRA, a priority not resolved yet) makes no claim.
 */
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
import { workloadKind } from '../workloads/index.js';

export interface Shortfall {
  /** Pods of the new template that no node can hold even at the end. */
  pending: Pod[];
  /** The quota can never admit them all (pending is then empty). */
  refused: boolean;
}

/**
 * What keeps the end state from existing, or undefined: it may fit, or no claim is made.
 * 'without-old': as if the old pods were gone (blue-green's stable pods too), to tell a
 * rollout the old pods block from one no node could ever hold.
 */
export function finalStateShortfall(
  ctx: AnalysisContext,
  variant: 'as-is' | 'without-old' = 'as-is',
): Shortfall | undefined {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const strategy = kind.strategy(object);
  if (strategy.type !== 'RollingUpdate') return undefined;
  const incoming = nextPod(snapshot);
  const { spec } = incoming;
  if ((spec.resourceClaims ?? []).length > 0 || snapshot.dra) return undefined;
  if (spec.priorityClassName && spec.priority === undefined) return undefined;
  const revisions = kind.revisions(snapshot);
  const fresh = new Set(revisions.current?.pods ?? []);
  const final = snapshot.pods.filter((p) => fresh.has(p) && holdsResources(p) && !isTerminating(p));
  const replaced = kind.desiredReplicas(object) - (strategy.partition ?? 0);
  // Every other pod of ours is replaced, or may be (those below a partition stay: counting
  // them gone only raises the bound); but blue-green keeps every running stable pod until
  // the preview is complete and promoted, so the end state holds both revisions at once,
  // on the nodes and in the quota.
  const stable =
    strategy.argo === 'blueGreen' && variant === 'as-is'
      ? (revisions.stable?.pods ?? []).filter((p) => holdsResources(p) && !isTerminating(p) && !fresh.has(p))
      : [];
  if (overQuota(ctx, incoming, replaced, stable)) return { pending: [], refused: true };
  const needed = replaced - final.length;
  if (needed <= 0) return undefined;
  const staying = new Set<Pod>([...final, ...stable]);
  const placement = placementContext(ctx);
  const room = snapshot.nodes
    .filter((node) => isEligible(node, spec))
    .reduce((sum, node) => sum + podsThatFit(placement, incoming, node, staying), 0);
  return room >= needed
    ? undefined
    : { pending: Array.from({ length: needed - room }, () => incoming), refused: false };
}

/**
 * A quota that refused the workload's pods cannot hold `count` pods of the new template
 * beside the `staying` pods of ours (blue-green's stable pods, there until promotion).
 */
function overQuota(ctx: AnalysisContext, incoming: Pod, count: number, staying: readonly Pod[]): boolean {
  return refusedRevisions(ctx).some(
    ({ refusal }) =>
      refusal.kind === 'quota-exceeded' &&
      quotaEntries(refusal).some(
        (e) =>
          count * (quotaCharge(incoming.spec, e.resource) ?? 0) +
            staying.reduce((sum, p) => sum + (quotaCharge(p.spec, e.resource) ?? 0), 0) >
          e.hard,
      ),
  );
}

/** How many pods like `incoming` the node holds at most, with only `staying` of ours and no lower priority left. */
function podsThatFit(
  placement: PlacementContext,
  incoming: Pod,
  node: Node,
  staying: ReadonlySet<Pod>,
): number {
  const priority = incoming.spec.priority ?? 0;
  const preempts = incoming.spec.preemptionPolicy !== 'Never';
  const occupants = (placement.occupantsByNode.get(node.metadata.name ?? '') ?? []).filter(
    (p) =>
      (placement.ours.has(p) ? staying.has(p) : true) && !(preempts && (p.spec.priority ?? 0) < priority),
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
