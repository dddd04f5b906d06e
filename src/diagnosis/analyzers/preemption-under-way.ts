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
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { workloadKind } from '../workloads/index.js';

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
    const coming: Coming = {
      podName,
      priority: first.pod.spec.priority ?? 0,
      node: preemption.node,
      victims: preemption.victims,
      named: victims,
    };
    const finding: Omit<Finding, 'remediations'> =
      preemption.basis === 'outranks'
        ? outranking(ctx, coming)
        : preemption.basis === 'lower-priority'
          ? lowerPriority(ctx, coming)
          : {
              code: 'PreemptionUnderWay',
              severity: 'info',
              summary: `The scheduler is making room for ${podName} (priority ${first.pod.spec.priority ?? 0}) on ${preemption.node}: it preempted ${victims.join(', ')}, which ${victims.length === 1 ? 'is' : 'are'} terminating.`,
              explanation: [
                `The pod is Pending on purpose: it is nominated to ${preemption.node} and schedules there once the lower-priority ${victims.length === 1 ? 'pod is' : 'pods are'} gone (within ${victims.length === 1 ? 'its' : 'their'} termination grace period).`,
                preemption.basis === 'marked'
                  ? 'The scheduler marked the victims DisruptionTarget (PreemptionByScheduler).'
                  : "The scheduler's latest message says it waits for a terminating pod on the nominated node.",
                `Nothing to change: a strategy change or a restart would only take serving pods away. ${watch(podName, snapshot.target.namespace)}`,
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

const watch = (pod: string, namespace: string): string =>
  `Watch ${codeSpan(`kubectl get pod ${pod} -n ${namespace} -w`)}; if it is still Pending after the victims are gone, diagnose again.`;

/** A preemption not begun yet: the pod, the node, the victims as named in the summary. */
interface Coming {
  podName: string;
  priority: number;
  node: string;
  victims: readonly Pod[];
  named: readonly string[];
}

/**
 * "The scheduler will make room for …": the finding for a preemption the scheduler's next
 * attempt makes, with what it preempts and why (`whose` follows the victims' names).
 */
function comingPreemption(
  { podName, priority, node, victims, named }: Coming,
  words: { whose: string; explanation: string[]; title: string; victim: (v: Pod) => string },
): Omit<Finding, 'remediations'> {
  return {
    code: 'PreemptionUnderWay',
    severity: 'info',
    summary: `The scheduler will make room for ${podName} (priority ${priority}) on ${node} by preempting ${named.join(', ')}${words.whose}, which ${victims.length === 1 ? 'holds' : 'hold'} what it needs at a lower priority: the rollout goes on by itself.`,
    explanation: words.explanation.join(' '),
    evidence: [
      {
        type: 'pods',
        title: words.title,
        pods: [
          { name: podName, phase: 'Pending', detail: `new, priority ${priority}` },
          ...victims.map((v) => ({
            name: v.metadata.name ?? '',
            ...(v.spec.nodeName ? { node: v.spec.nodeName } : {}),
            phase: 'Running',
            detail: `${words.victim(v)}, priority ${v.spec.priority ?? 0}: preempted next`,
          })),
        ],
      },
    ],
  };
}

/**
 * A new pod whose template raised its priority above the old pods that hold its room:
 * the scheduler's next attempt preempts them (DefaultPreemption takes pods of lower
 * priority, the workload's own old ones included), so the surge is no deadlock; but
 * each preempted old pod stops serving before its replacement is Ready.
 */
function outranking(ctx: AnalysisContext, coming: Coming): Omit<Finding, 'remediations'> {
  const { snapshot } = ctx;
  const { podName, victims } = coming;
  const one = victims.length === 1;
  const kind = workloadKind(snapshot);
  const replicas = kind.desiredReplicas(kind.object(snapshot));
  return comingPreemption(coming, {
    whose: ` of this ${kind.kind}`,
    explanation: [
      `The new template raised the pods' priority above the old ones'. The scheduler's preemption takes pods of lower priority, this ${kind.kind}'s own old pods included, so the new pod does not wait for the old ${one ? 'pod' : 'pods'} to be scaled down: the next scheduling attempt deletes ${one ? 'it' : 'them'} (with ${one ? 'its' : 'their'} termination grace period) and the new pod takes the room.`,
      `${one ? 'That old pod stops' : 'Those old pods stop'} serving before ${one ? 'its' : 'their'} replacement is Ready: ${victims.length} of ${replicas} replica${replicas === 1 ? '' : 's'} down until the new ${one ? 'pod is' : 'pods are'} Ready${victims.length >= replicas ? ' (an outage)' : ''}.`,
      `Nothing to change: a strategy change or a restart would only take more serving pods away. ${watch(podName, snapshot.target.namespace)}`,
    ],
    title: 'The new pod and the old pods it preempts',
    victim: () => 'old',
  });
}

/**
 * Pods of other workloads at a lower priority alone hold the new pod's room on a node:
 * the scheduler's next attempt preempts them (its latest message names no failed
 * preemption), so the pod is not stuck; they stop serving, not this workload's pods.
 */
function lowerPriority(ctx: AnalysisContext, coming: Coming): Omit<Finding, 'remediations'> {
  const { podName, victims } = coming;
  const one = victims.length === 1;
  return comingPreemption(coming, {
    whose: '',
    explanation: [
      `The scheduler's preemption (DefaultPreemption) takes pods of lower priority from a node where that makes the pod fit. Its latest message for ${podName} names no failed preemption, so its next attempt preempts ${one ? 'that pod' : 'those pods'} (with ${one ? 'its' : 'their'} termination grace period; a disruption budget is honoured where it can be, not always) and the new pod takes the room.`,
      `Nothing to change in this ${workloadKind(ctx.snapshot).kind}: a strategy change or a restart would only take serving pods away. The preempted ${one ? 'pod stops' : 'pods stop'} serving: where ${one ? 'it matters' : 'they matter'}, make room for ${podName} elsewhere instead. ${watch(podName, ctx.snapshot.target.namespace)}`,
    ],
    title: 'The new pod and the lower-priority pods it preempts',
    victim: (v) => v.metadata.namespace ?? '',
  });
}
