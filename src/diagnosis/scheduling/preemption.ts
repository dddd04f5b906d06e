/**
 * A pending pod the scheduler is already making room for (DESIGN.md §4b): it preempts
 * lower-priority pods on a node and nominates the pod there (`status.nominatedNodeName`);
 * each victim gets `DisruptionTarget=True, reason PreemptionByScheduler` and is deleted
 * with its grace period; while a victim terminates, later attempts end in
 * `preemption: not eligible due to a terminating pod on the nominated node.`
 * (pkg/scheduler/framework/preemption, pkg/scheduler/schedule_one.go).
 *
 * From 1.34 the nominated node alone proves nothing (the scheduler may nominate
 * without preempting), so a preemption counts as under way only with a victim: a
 * terminating pod of lower priority on the nominated node, marked by the scheduler, or
 * named by the scheduler's own "terminating pod on the nominated node" wording. A pod
 * never preempts pods of equal or higher priority (so its own old pods only when the new
 * template raised the priority), nor at all with `preemptionPolicy: Never`. A victim
 * stuck Terminating well past its deadline (a node that stopped reporting) will not
 * free anything by itself: then nothing is under way.
 */
import { isStuckTerminating, isTerminating } from '../base/pods.js';
import type { Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';

export interface Preemption {
  /** The nominated node. */
  node: string;
  /** Lower-priority pods terminating there. */
  victims: Pod[];
  /**
   * 'marked': a victim carries the scheduler's DisruptionTarget; 'message': the
   * scheduler's wording names one; 'outranks': not begun, but the pod outranks the old
   * pods of its own workload that hold its room, so the scheduler's next attempt
   * preempts them (outranksHolders); 'lower-priority': not begun, but pods of other
   * workloads at a lower priority alone hold its room on a node whose pods were all read,
   * and the scheduler's latest word names no failed preemption, so its next attempt
   * preempts them (holder-release.ts `preemptsNow`).
   */
  basis: 'marked' | 'message' | 'outranks' | 'lower-priority';
}

const TERMINATING_ON_NOMINATED = 'not eligible due to a terminating pod on the nominated node';

/**
 * The scheduler's FailedScheduling says its preemption failed for the pod at that
 * attempt: it appends "preemption: …" only where PostFilter (DefaultPreemption) did not
 * succeed (PostFilterMsg), "No preemption victims found" and "Preemption is not
 * helpful" among them. Its "terminating pod on the nominated node" is a preemption
 * under way (preemptionUnderWay), not a failure.
 */
export function preemptionFailed(message: string): boolean {
  return / ?preemption: /.test(message) && !message.includes(TERMINATING_ON_NOMINATED);
}

function markedByScheduler(pod: Pod): boolean {
  return (
    pod.status?.conditions?.some(
      (c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'PreemptionByScheduler',
    ) ?? false
  );
}

/** The preemption under way for `pod`, or undefined. `message`: its latest FailedScheduling. */
export function preemptionUnderWay(
  snapshot: Pick<WorkloadSnapshot, 'pods' | 'otherPods' | 'capturedAt'>,
  pod: Pod,
  message: string | undefined,
): Preemption | undefined {
  const node = pod.status?.nominatedNodeName;
  if (!node || pod.spec.preemptionPolicy === 'Never') return undefined;
  const priority = pod.spec.priority ?? 0;
  const terminating = [...snapshot.pods, ...snapshot.otherPods].filter(
    (p) =>
      p !== pod &&
      p.spec.nodeName === node &&
      isTerminating(p) &&
      !isStuckTerminating(p, snapshot.capturedAt) &&
      (p.spec.priority ?? 0) < priority,
  );
  const marked = terminating.filter(markedByScheduler);
  if (marked.length > 0) return { node, victims: marked, basis: 'marked' };
  if (message?.includes(TERMINATING_ON_NOMINATED) && terminating.length > 0)
    return { node, victims: terminating, basis: 'message' };
  return undefined;
}

/**
 * A new pod the rollout waits on whose priority is above that of the old pods holding
 * its room (a template that raised it): DefaultPreemption's SelectVictimsOnNode takes
 * pods of lower priority, our own old pods included, so a surge is no deadlock. The
 * victims are the holders on one node (the nominated one where the scheduler named it),
 * all below the pod's priority; undefined where any holder is not, or preemption is off.
 */
export function outranksHolders(pod: Pod, holders: readonly Pod[]): Preemption | undefined {
  if (pod.spec.preemptionPolicy === 'Never' || holders.length === 0) return undefined;
  const priority = pod.spec.priority ?? 0;
  if (!holders.every((h) => (h.spec.priority ?? 0) < priority)) return undefined;
  const nominated = pod.status?.nominatedNodeName;
  const node = holders.some((h) => h.spec.nodeName === nominated)
    ? (nominated ?? '')
    : (holders[0]?.spec.nodeName ?? '');
  return { node, victims: holders.filter((h) => h.spec.nodeName === node), basis: 'outranks' };
}
