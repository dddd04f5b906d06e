/**
 * Our side of a collection after round 2 (collector.ts): the workload's pods as
 * selectWorkload chooses them (as for scan and dumps), their spec as admitted, and what
 * that says the next rounds must read: other workloads' pods when something is scarce,
 * the nodes a node-local crash loop would stay on, the eligible nodes listed late, and
 * the node selections of older templates' Pending pods.
 */
import type { Pod, PodSpec } from '../../diagnosis/k8s.js';
import { crashNodesOf, type CrashNodes } from '../../diagnosis/base/crash-nodes.js';
import { isUnscheduled } from '../../diagnosis/base/pods.js';
import { neighboursMatter, outgrowsOwnPods, runsBesideOld } from '../../diagnosis/base/scarce.js';
import { fullCoverage, type WorkloadObject, type WorkloadRef } from '../../diagnosis/snapshot/types.js';
import { admittedSpec } from '../../diagnosis/workloads/admitted-spec.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import { olderPendingSelections } from './node-queries.js';
import type { OurObjects } from './our-objects-read.js';
import type { TemplatePlan } from './template-plan.js';

/** Our side of the snapshot, and what it says the next round must read. */
export interface OurSide {
  pods: Pod[];
  /** The pods' spec as admitted (admitted-spec.ts). */
  spec: PodSpec;
  /** Other workloads' pods matter: something scarce, or a pod waits for room. */
  scarce: boolean;
  /** A crash loop that may be node-local (its exclusion's room needs the staying nodes' pods). */
  crashNodes?: CrashNodes;
  /**
   * No node constraint in the template, and a Pending pod or a template that asks for
   * more than a pod of ours holds (outgrowsOwnPods): the eligible nodes are listed now.
   */
  lateEligible: boolean;
  /**
   * No node constraint in the template, and a crash loop that may be node-local: the
   * eligible nodes are listed in round 3 too, so the exclusion's impact counts the nodes
   * the template may use (their other pods are read only where our healthy pods run).
   */
  crashListing: boolean;
  /** Node selections of Pending pods of older templates the template's selector may not list. */
  older: (string | undefined)[];
}

export function ourSideOf(
  ref: WorkloadRef,
  object: WorkloadObject,
  plan: TemplatePlan,
  second: OurObjects,
  capturedAt: string,
): OurSide {
  // Ours, chosen by the same function the dump and scan paths use.
  const ourSide = selectWorkload(
    ref.kind,
    object,
    {
      revisions: second.revisionList?.items ?? [],
      pods: second.podList?.items ?? [],
      events: [],
      pvcs: second.pvcs,
      nodes: [],
      neighbours: [],
    },
    { capturedAt, coverage: fullCoverage() },
  );
  const pods = ourSide.pods;
  const { spec } = admittedSpec(ourSide);
  const strategy = workloadKind(ref.kind).strategy(object);
  const scarce = neighboursMatter(spec, pods, second.pvcs, strategy);
  // A crash loop that may be node-local: the exclude-node plan counts the room left on
  // the nodes that stay eligible, so their other pods are read too (not the crashing ones').
  const crashNodes = scarce ? undefined : crashNodesOf(pods, workloadKind(ref.kind).revisionLabel);
  return {
    pods,
    spec,
    scarce,
    ...(crashNodes ? { crashNodes } : {}),
    lateEligible:
      !plan.eligibleEarly &&
      (pods.some(isUnscheduled) || outgrowsOwnPods(spec, pods) || runsBesideOld(strategy)),
    crashListing: !plan.eligibleEarly && !pods.some(isUnscheduled) && crashNodes !== undefined,
    // A Pending pod of an older template may select nodes the template's selector does not list.
    older: olderPendingSelections(
      pods,
      new Set(workloadKind(ref.kind).revisions(ourSide).current?.pods ?? []),
      plan.nodeSelector,
    ),
  };
}
