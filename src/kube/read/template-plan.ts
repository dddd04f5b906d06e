/**
 * What the pod template alone says a collection needs (collector.ts): the pods' label
 * selector, the eligible nodes' selector, and whether the eligible nodes are read in
 * round 2, beside the pods, or only when a Pending pod makes them worth reading.
 */
import type { PodSpec } from '../../diagnosis/k8s.js';
import { claimNames } from '../../diagnosis/base/pod-constraints.js';
import { asksForScarce } from '../../diagnosis/base/scarce.js';
import type { WorkloadObject, WorkloadRef } from '../../diagnosis/snapshot/types.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { labelSelectorString } from '../label-selector.js';
import { eligibleNodeSelector } from './node-queries.js';

/** What the pod template alone says the collection needs. */
export interface TemplatePlan {
  template: PodSpec;
  /** The pods' label selector, as a query string. */
  selector: string;
  /** The eligible nodes' label selector, when the template narrows them. */
  nodeSelector: string | undefined;
  /**
   * Known from the template alone: read the eligible nodes alongside the pods. Otherwise
   * only a Pending pod makes them worth reading (a later round). Webhooks only add
   * constraints, so the template's selector lists a superset of the eligible nodes.
   */
  eligibleEarly: boolean;
}

export function templatePlan(ref: WorkloadRef, object: WorkloadObject): TemplatePlan {
  const kind = workloadKind(ref.kind);
  const template = kind.podTemplate(object).spec;
  const nodeSelector = eligibleNodeSelector(template);
  return {
    template,
    selector: labelSelectorString(kind.selector(object)),
    nodeSelector,
    // A DaemonSet should run on every node its template selects: those with no pod of
    // ours (deleted, refused, never scheduled) are part of its rollout too.
    eligibleEarly:
      nodeSelector !== undefined ||
      asksForScarce(template, claimNames(template)) ||
      kind.strategy(object).per === 'node',
  };
}
