/**
 * The coverage of a collection (collector.ts): which lists were read completely, which
 * nodes' pods were read, and every gap once, in the order the reads found them, with
 * the node list's state when the bound nodes, the eligible list or older templates'
 * node lists were capped, refused or failed.
 */
import type { Node } from '../../diagnosis/k8s.js';
import type { Coverage, CoverageGap, ReadState, WorkloadRef } from '../../diagnosis/snapshot/types.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { ListResult } from '../list.js';
import type { Around } from './around-read.js';
import type { Reads } from './collect-reads.js';
import { boundNodeNames } from './node-queries.js';
import { MAX_BOUND_NODES } from './node-reads.js';
import type { OurObjects } from './our-objects-read.js';
import type { OurSide } from './our-side.js';
import { namespacedListState, nodeListState } from './read-coverage.js';
import type { TemplatePlan } from './template-plan.js';

/** What was read completely and what was not, each gap once, in the order the reads found them. */
export function coverageOf(
  reads: Reads,
  ref: WorkloadRef,
  plan: TemplatePlan,
  second: OurObjects,
  ours: OurSide,
  around: Around,
): Coverage {
  const { namespace, gaps } = reads;
  const eligibleRead = plan.eligibleEarly || ours.lateEligible || ours.crashListing;
  return {
    replicaSets: namespacedListState(
      second.revisionList,
      workloadKind(ref.kind).revisionObjects.resource,
      namespace,
      gaps,
    ),
    pods: namespacedListState(second.podList, 'pods', namespace, gaps),
    events: namespacedListState(second.eventList, 'events', namespace, gaps),
    nodes: olderNodesState(
      nodesState(eligibleRead, around.eligibleList, around.boundNodes, boundNodeNames(ours.pods), gaps),
      ours.older,
      around.olderLists,
      gaps,
    ),
    podsReadOn: around.neighbours.readOn,
    ...(around.namespacePods ? { namespacePods: 'complete' as const } : {}),
    gaps,
    ...(around.dra?.coverage ? { dra: around.dra.coverage } : {}),
  };
}

function nodesState(
  eligibleRead: boolean,
  eligible: ListResult<Node> | undefined,
  bound: readonly Node[],
  boundNames: readonly string[],
  gaps: CoverageGap[],
): ReadState {
  const gotBound = new Set([...(eligible?.items ?? []), ...bound].map((n) => n.metadata.name ?? ''));
  const early = new Set((eligible?.items ?? []).map((n) => n.metadata.name ?? ''));
  // Past MAX_BOUND_NODES (readBoundNodes): not asked for, not failed.
  const asked = new Set(boundNames.filter((n) => !early.has(n)).slice(0, MAX_BOUND_NODES));
  const capped = boundNames.filter((n) => !gotBound.has(n) && !early.has(n) && !asked.has(n));
  const missingBound = boundNames.filter((n) => !gotBound.has(n) && !capped.includes(n));
  if (capped.length > 0) {
    gaps.push({
      about: 'nodes',
      what: `${capped.length} node(s) our pods run on past the first ${MAX_BOUND_NODES} read (${capped.slice(0, 3).join(', ')}${capped.length > 3 ? ', …' : ''}; their pods are Running and Ready)`,
      reason: 'capped',
      settle: 'kubectl get nodes -o yaml and the workload, and diagnose from the dump',
    });
  }
  if (eligibleRead && !eligible) {
    const state = nodeListState(eligible, gaps);
    return gotBound.size > 0 ? 'partial' : state;
  }
  if (eligible?.truncated) return nodeListState(eligible, gaps);
  if (capped.length > 0 && missingBound.length === 0) return 'partial';
  if (missingBound.length > 0) {
    gaps.push({
      about: 'nodes',
      what: `nodes ${missingBound.slice(0, 3).join(', ')}`,
      reason: 'failed',
      settle: `kubectl get node ${missingBound[0]} -o yaml`,
    });
    return 'partial';
  }
  return eligible ? 'complete' : 'partial';
}

/**
 * The node lists of older templates' Pending pods (olderPendingSelections): a refused or
 * capped one, or selections past MAX_OLDER_SELECTIONS, leave those pods' nodes partly
 * unread, never "no node matches".
 */
function olderNodesState(
  state: ReadState,
  selections: readonly (string | undefined)[],
  lists: readonly (ListResult<Node> | undefined)[],
  gaps: CoverageGap[],
): ReadState {
  const unread = selections.flatMap((selection, i) => {
    const list = lists[i];
    if (list && !list.truncated) return [];
    const reason: CoverageGap['reason'] = i >= lists.length || list ? 'capped' : 'forbidden';
    return [{ selection, reason }];
  });
  const [first] = unread;
  if (!first) return state;
  const named = unread.map((u) => (u.selection === undefined ? 'every node' : `nodes ${u.selection}`));
  gaps.push({
    about: 'nodes',
    what: `${named.slice(0, 3).join('; ')} (selected by Pending pods of an older template)`,
    reason: first.reason,
    settle: `kubectl get nodes${first.selection !== undefined ? ` -l '${first.selection}'` : ''} -o yaml`,
  });
  return state === 'unread' ? state : 'partial';
}
