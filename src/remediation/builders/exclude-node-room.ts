/**
 * The exclusion's capacity check: how many pods of the template fit on the nodes
 * that stay eligible once the exclusion holds, in the steady state (every pod of
 * this Deployment replaced by the new rollout, so ours count as gone; other
 * workloads' pods keep what they request). A node whose pods were not all read is
 * unknown, never free.
 */
import type { Node, PodSpec } from '../../diagnosis/k8s.js';
import { placementContext } from '../../diagnosis/placement/placement.js';
import { hostPorts } from '../../diagnosis/base/pod-constraints.js';
import { nodeAllocatable, nonZero, podRequests } from '../../diagnosis/base/resources.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { occupancyKnown } from '../../diagnosis/snapshot/types.js';

export interface ExclusionRoom {
  /** Pods of the template that fit on the remaining nodes whose occupancy is known (capped at replicas). */
  fits: number;
  /** Remaining eligible nodes whose pods were not all read: their room is unknown. */
  unknownNodes: string[];
  /** Remaining eligible nodes whose pods were all read: `fits` counts these only. */
  readNodes: string[];
}

export function roomAfterExclusion(
  analysis: AnalysisContext,
  spec: PodSpec,
  remaining: readonly Node[],
  replicas: number,
): ExclusionRoom {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const need = Object.entries(nonZero(podRequests(spec)));
  const onePerNodePorts = hostPorts(spec).length > 0;
  let fits = 0;
  const unknownNodes: string[] = [];
  const readNodes: string[] = [];
  for (const node of remaining) {
    const name = node.metadata.name ?? '';
    if (!occupancyKnown(snapshot.coverage, name)) {
      unknownNodes.push(name);
      continue;
    }
    readNodes.push(name);
    const others = (ctx.occupantsByNode.get(name) ?? []).filter((p) => !ctx.ours.has(p));
    const allocatable = nodeAllocatable(node);
    let here = replicas;
    if (allocatable.pods !== undefined) here = Math.min(here, allocatable.pods - others.length);
    for (const [resource, amount] of need) {
      let used = 0;
      for (const pod of others) used += ctx.requests(pod)[resource] ?? 0;
      here = Math.min(here, Math.floor(((allocatable[resource] ?? 0) - used) / amount));
    }
    if (onePerNodePorts) here = Math.min(here, 1);
    fits += Math.max(0, here);
  }
  return { fits: Math.min(fits, replicas), unknownNodes, readNodes };
}
