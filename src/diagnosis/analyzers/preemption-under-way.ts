/**
 * PreemptionUnderWay: a pending pod of the workload is one the scheduler is already
 * making room for (scheduling/preemption.ts): lower-priority victims terminate on the
 * nominated node, and the pod schedules once they are gone. Not a deadlock and not
 * unschedulable: nothing to change, only what to watch (DESIGN.md §1 E). Info.
 */
import type { Analyzer } from '../analyzer.js';
import type { Finding } from '../finding.js';
import { assessRollout } from '../rollout/rollout-assessment.js';
import { codeSpan } from '../../text/code-span.js';

export const preemptionUnderWay: Analyzer = {
  name: 'preemption-under-way',
  analyze(ctx) {
    const { snapshot } = ctx;
    const preempting = assessRollout(ctx).pending.filter((p) => p.verdict === 'preempting');
    const first = preempting[0];
    const preemption = first?.preemption;
    if (!first || !preemption) return [];
    const podName = first.pod.metadata.name ?? '';
    const victims = preemption.victims.map(
      (v) => `${v.metadata.namespace ?? ''}/${v.metadata.name ?? ''} (priority ${v.spec.priority ?? 0})`,
    );
    const finding: Omit<Finding, 'remediations'> = {
      code: 'PreemptionUnderWay',
      severity: 'info',
      summary: `The scheduler is making room for ${podName} (priority ${first.pod.spec.priority ?? 0}) on ${preemption.node}: it preempted ${victims.join(', ')}, which ${victims.length === 1 ? 'is' : 'are'} terminating.`,
      explanation: [
        `The pod is Pending on purpose: it is nominated to ${preemption.node} and schedules there once the lower-priority ${victims.length === 1 ? 'pod is' : 'pods are'} gone (within ${victims.length === 1 ? 'its' : 'their'} termination grace period).`,
        preemption.basis === 'marked'
          ? 'The scheduler marked the victims DisruptionTarget (PreemptionByScheduler).'
          : "The scheduler's latest message says it waits for a terminating pod on the nominated node.",
        `Nothing to change: a strategy change or a restart would only take serving pods away. Watch ${codeSpan(`kubectl get pod ${podName} -n ${snapshot.target.namespace} -w`)}; if it is still Pending after the victims are gone, diagnose again.`,
      ].join(' '),
      evidence: [
        {
          type: 'pods',
          title: 'The preempting pod and its victims',
          pods: [
            { name: podName, phase: 'Pending', detail: `nominated to ${preemption.node}` },
            ...preemption.victims.map((v) => ({
              name: v.metadata.name ?? '',
              ...(v.spec.nodeName ? { node: v.spec.nodeName } : {}),
              phase: 'Terminating',
              detail: `preempted (priority ${v.spec.priority ?? 0})`,
            })),
          ],
        },
      ],
    };
    return [finding];
  },
};
