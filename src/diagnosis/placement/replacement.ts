/**
 * The pod a StatefulSet's controller makes in place of one it deletes (a forced
 * rollback's pod, or a Parallel update's pod of an older revision), and where it can go.
 * The replacement is the update revision's spec as admitted (admitted-spec.ts: a pod of
 * that revision, else the template), with the deleted pod's own volumes (a StatefulSet's
 * claims are per ordinal and outlive the pod) and its labels at the update revision.
 * Not the pod itself: it runs another revision, whose requests may be what kept it
 * Pending.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Node, Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { occupancyKnown } from '../snapshot/types.js';
import { admittedSpec } from '../workloads/admitted-spec.js';
import { REVISION_LABEL } from '../workloads/controller-revisions.js';
import { blockersOn, fitsOn, placementContext } from './placement.js';

export function replacementOf(ctx: AnalysisContext, pod: Pod, updateRevision: string): Pod {
  const { nodeName: _bound, ...spec } = admittedSpec(ctx.snapshot).spec;
  return {
    metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, [REVISION_LABEL]: updateRevision } },
    spec: { ...spec, volumes: pod.spec.volumes ?? [] },
  };
}

/** Where the replacement of `pod` stands: a node takes it, none does (and why), or not known (a node not read). */
type ReplacementPlace = { fits: true } | { fits: false; why: string } | { fits: 'unknown' };

/**
 * Whether a node takes the replacement of the unbound `pod` now: a volume whose node
 * affinity leaves only a cordoned or full node, or no node with room, is said. A pod
 * already bound, or nodes not all read, is unknown (unknown, not empty).
 */
export function replacementPlace(ctx: AnalysisContext, pod: Pod, updateRevision: string): ReplacementPlace {
  const { snapshot } = ctx;
  if (pod.spec.nodeName) return { fits: 'unknown' };
  const replacement = replacementOf(ctx, pod, updateRevision);
  const room = roomOnSomeNode(ctx, replacement);
  if (room !== false) return { fits: room };
  const placement = placementContext(ctx);
  const eligible = snapshot.nodes.filter((n) => isEligible(n, replacement.spec));
  const volume = eligible
    .flatMap((n) => blockersOn(placement, replacement, n))
    .find((b) => b.kind === 'volume' && b.problem === 'node-affinity');
  if (volume?.kind === 'volume')
    return {
      fits: false,
      why: `would need the node of volume ${volume.volume ?? ''} (claim ${volume.claim} keeps it there), which cannot take it (cordoned, drained or full): stuck for good until that node takes pods again or the volume is moved`,
    };
  return {
    fits: false,
    why:
      eligible.length === 0
        ? 'would fit no node: none it may use takes pods (cordoned or not selected)'
        : `would fit none of the ${eligible.length} node(s) it may use either`,
  };
}

/**
 * Whether a node that takes `pod` (selected, taints tolerated, and passing `where`) has
 * room for it now, with `removed` gone; 'unknown' where the nodes, or the pods on any of
 * them, were not all read (unknown, not empty). `pod` is judged unbound.
 */
export function roomOnSomeNode(
  ctx: AnalysisContext,
  pod: Pod,
  options: { removed?: ReadonlySet<Pod>; where?: (node: Node) => boolean } = {},
): boolean | 'unknown' {
  const { snapshot } = ctx;
  if (snapshot.coverage.nodes !== 'complete') return 'unknown';
  if (snapshot.nodes.some((n) => !occupancyKnown(snapshot.coverage, n.metadata.name ?? ''))) return 'unknown';
  const { nodeName: _bound, ...spec } = pod.spec;
  const unbound: Pod = { ...pod, spec };
  const placement = placementContext(ctx);
  return snapshot.nodes.some(
    (n) =>
      (options.where?.(n) ?? true) && isEligible(n, spec) && fitsOn(placement, unbound, n, options.removed),
  );
}
