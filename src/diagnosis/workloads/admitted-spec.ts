/**
 * The scheduling constraints of a workload's pods as the API server admitted them.
 * Admission plugins and webhooks mutate pods, not templates: GKE's
 * ExtendedResourceToleration adds a toleration for every requested extended
 * resource, and OpenShift, Kyverno and Gatekeeper add tolerations and affinity
 * (DESIGN.md §4). So node eligibility is read from a pod of the current template,
 * and from the template only when no such pod exists.
 */
import type { PodSpec } from '../k8s.js';
import type { WorkloadObjects, WorkloadSnapshot } from '../snapshot/types.js';
import { podTemplateOf, workloadKind } from './index.js';
import { isTerminating, isUnscheduled } from '../base/pods.js';
import { admitPriority } from '../scheduling/priority-class.js';
import { admitRuntimeClass } from '../scheduling/runtime-class.js';

interface AdmittedSpec {
  spec: PodSpec;
  /** The pod it was read from; absent when it is the template's. */
  from?: string;
}

/**
 * A Pending pod of the current revision first (it is what the scheduler is judging),
 * then a live one, else the template. The spec is returned without `nodeName`, as a
 * new pod of the template would be created.
 */
export function admittedSpec(
  workload: WorkloadObjects &
    Pick<WorkloadSnapshot, 'target' | 'pods'> &
    Partial<Pick<WorkloadSnapshot, 'priorityClasses' | 'otherPods'>>,
): AdmittedSpec {
  const ours = workloadKind(workload).revisions(workload).current?.pods ?? [];
  const pod = ours.find(isUnscheduled) ?? ours.find((p) => !isTerminating(p));
  if (!pod) return { spec: withOverhead(withPriority(podTemplateOf(workload).spec, workload), workload) };
  const { nodeName: _bound, ...spec } = pod.spec;
  return { spec, from: pod.metadata.name ?? '' };
}

/**
 * A template carries its runtimeClassName, not the overhead RuntimeClass admission sets
 * from it (scheduling/runtime-class.ts): a pod admitted under the same class gives it.
 * Not known, the template stays without one (check says "not known" before it gets here).
 */
function withOverhead(
  spec: PodSpec,
  workload: Pick<WorkloadSnapshot, 'pods'> & Partial<Pick<WorkloadSnapshot, 'otherPods'>>,
): PodSpec {
  const admitted = admitRuntimeClass(spec, [...workload.pods, ...(workload.otherPods ?? [])]);
  return admitted.result === 'admitted' ? admitted.spec : spec;
}

/**
 * A template carries its priorityClassName, not the priority the Priority admission
 * plugin resolves it to on each pod (scheduling/priority-class.ts): the classes where
 * read, else a pod of the workload (any revision) admitted under the same class. Not
 * resolved, the template stays without a priority.
 */
function withPriority(
  spec: PodSpec,
  workload: Pick<WorkloadSnapshot, 'pods'> & Partial<Pick<WorkloadSnapshot, 'priorityClasses'>>,
): PodSpec {
  const admitted = admitPriority(spec, { read: workload.priorityClasses }, workload.pods);
  return admitted.result === 'admitted' ? admitted.spec : spec;
}
