/**
 * RolloutStuck: an ordered rollout (a StatefulSet's) waits at a pod that never becomes
 * Running and Ready, and its controller will neither move past it nor replace it
 * (workloads/statefulset/ordered-block.ts). Two shapes, told apart because their ways
 * out differ:
 * - the pod runs the update revision: the new template itself fails (or its node);
 *   the template must be fixed first (a revert), then the pod deleted;
 * - the pod runs another revision than the update revision (the template was reverted
 *   or changed after it): the controller waits for it forever; deleting exactly that
 *   pod lets it be recreated at the update revision ("forced rollback").
 * Why the pod fails comes from its containers (crash loop, image pull, config) or its
 * phase; the other analyzers say more about that cause.
 */
import { shownPhase } from '../base/pods.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { Analyzer } from '../analyzer.js';
import { classifyContainers } from '../crash/container-failures.js';
import type { Finding } from '../finding.js';
import type { Pod } from '../k8s.js';
import { typeOfKind } from '../workload-ref.js';
import { workloadKind } from '../workloads/index.js';
import type { OrderedBlock } from '../workload-kind.js';
import { imageWords } from '../rollout/image-words.js';

type Draft = Omit<Finding, 'remediations'>;

export const rolloutStuck: Analyzer = {
  name: 'rollout-stuck',
  analyze(ctx) {
    const kind = workloadKind(ctx.snapshot);
    const block = kind.orderedBlock?.(ctx.snapshot);
    return block ? [finding(ctx, block)] : [];
  },
};

/** Why the pod is not Running and Ready, in a few words. */
function whyNotReady(ctx: AnalysisContext, pod: Pod): string {
  const reports = classifyContainers(ctx).filter(
    (r) => r.pod === pod.metadata.name && r.podUid === (pod.metadata.uid ?? ''),
  );
  const failing = reports.find((r) => r.failures.length > 0) ?? reports.find((r) => !r.ready);
  if (pod.status?.phase === 'Pending' && !pod.spec.nodeName) return 'it is Pending, not scheduled';
  if (!failing) return `it is ${pod.status?.phase ?? 'in no phase'} and not Ready`;
  const exit = failing.lastTermination
    ? `, last exit ${failing.lastTermination.exitCode}${failing.lastTermination.reason ? ` (${failing.lastTermination.reason})` : ''}`
    : '';
  const state = failing.waitingReason ?? (failing.ready ? 'running' : 'not ready');
  return `container ${failing.container} is ${state}${exit}, ${failing.restartCount} restart${failing.restartCount === 1 ? '' : 's'}`;
}

function finding(ctx: AnalysisContext, block: OrderedBlock): Draft {
  const { snapshot } = ctx;
  const { name, namespace } = snapshot.target;
  const podName = block.pod.metadata.name ?? '';
  const ref = `${typeOfKind(snapshot.target.kind)}/${name}`;
  const why = whyNotReady(ctx, block.pod);
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const signals = kind.misleadingSignals(object, kind.strategy(object), kind.desiredReplicas(object));
  // Pending and not scheduled: it waits for room (or for a template some node can take), not for ever.
  const unscheduled = block.pod.status?.phase === 'Pending' && !block.pod.spec.nodeName;
  const waits =
    block.policy === 'OrderedReady'
      ? `The StatefulSet controller (OrderedReady) stops at the first pod that is not Running and Ready and replaces only Failed or Succeeded pods, so it waits for this one ${unscheduled ? 'until the scheduler places it and it becomes Ready' : 'forever'}.`
      : 'The StatefulSet controller (Parallel) updates one pod at a time from the highest ordinal and waits for each updated pod to be Running and Ready.';
  const held = block.heldAbovePartition;
  const partition = held
    ? ` ${podName} is below the partition (${block.partition}), where pods are made at the current revision ${block.recreatedAt ?? block.revision} on purpose; the walk still stops at it, before it updates any pod.`
    : block.partition > 0
      ? ` Pods below ordinal ${block.partition} keep the current revision on purpose (partition ${block.partition}); that is not what holds the rollout.`
      : '';
  const images = imageWords(block);
  if (held)
    return heldBelowPartition(ctx, block, held, {
      why,
      explanation: `${waits}${partition}${block.strategyNote ? ` ${block.strategyNote}` : ''} ${signals}`,
    });
  const summary = block.needsDeletion
    ? `Rollout of ${name} is stuck at pod ${podName}: it still runs revision ${block.revision}${images ? ` (image ${images.from})` : ''}, not the update revision ${block.updateRevision}${images ? ` (image ${images.to})` : ''} the template now asks for, and never becomes Ready (${why}); only deleting ${podName} lets it be recreated at ${block.updateRevision}.`
    : unscheduled
      ? `Rollout of ${name} is held at pod ${podName} of the update revision ${block.updateRevision}${images ? ` (image ${images.to}; the current revision runs ${images.from})` : ''}: ${why}, and the controller goes no further until it is Running and Ready.`
      : `Rollout of ${name} is stuck at pod ${podName} of the update revision ${block.updateRevision}${images ? ` (image ${images.to}; the current revision runs ${images.from})` : ''}: it never becomes Running and Ready (${why}).`;
  const wayOut = block.needsDeletion
    ? block.updateRevisionProven
      ? `The template was reverted or changed after ${podName} was created (a "forced rollback" in the StatefulSet documentation): ${block.updateRevision} is known to work (the current pods run it, or one of its pods is Ready), so deleting exactly ${podName} lets the controller recreate it there and carry on.`
      : `The template changed after ${podName} was created, but no pod of ${block.updateRevision} has been Ready yet: make sure that template works before deleting ${podName}, or the recreated pod fails the same way.`
    : unscheduled
      ? `It waits for room, not for its template to be fixed, unless no node can ever take what the template asks for: the scheduler places it once a node has it free (the scheduler's message says what is short), so make room or wait for it to be freed. Deleting it only makes the same pod again. Where the template asks for what no node has (a node selection, a resource), change it and then delete ${podName}: the controller does not replace a Pending pod on its own, even after the change.`
      : `Deleting the pod would only recreate it from the same template. Fix the template first (kubectl rollout undo ${ref} -n ${namespace}, or an image that starts), then delete ${podName}: the controller does not replace it on its own, even after the revert.`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary,
    explanation: `${waits}${partition}${block.strategyNote ? ` ${block.strategyNote}` : ''} ${wayOut} ${signals}`,
    evidence: [
      {
        type: 'pods',
        title: 'The pod the rollout waits for',
        pods: [
          {
            name: podName,
            ...(block.pod.spec.nodeName ? { node: block.pod.spec.nodeName } : {}),
            ...(shownPhase(block.pod) ? { phase: shownPhase(block.pod) } : {}),
            detail: `ordinal ${block.ordinal}, revision ${block.revision}${block.atUpdateRevision ? ' (the update revision)' : ` (the update revision is ${block.updateRevision})`}: ${why}`,
          },
        ],
      },
    ],
  };
}

/**
 * The pod waited for is below the partition: kept at the current revision on purpose, so
 * deleting it brings the same failing pod back, and it holds the pods at or above the
 * partition that are not updated yet. The way on is that pod Running and Ready at its own
 * revision; or the partition lowered to its ordinal and the pod deleted, so it comes back
 * at the update revision (the update then reaches it).
 */
function heldBelowPartition(
  ctx: AnalysisContext,
  block: OrderedBlock,
  held: readonly string[],
  words: { why: string; explanation: string },
): Draft {
  const { name } = ctx.snapshot.target;
  const podName = block.pod.metadata.name ?? '';
  const pods = held.join(', ');
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `Rollout of ${name} is held at pod ${podName}, below the partition (${block.partition}): it runs revision ${block.revision}${(block.recreatedAt ?? block.revision) === block.revision ? ' on purpose' : ` (the current revision is ${block.recreatedAt ?? ''})`} and never becomes Running and Ready (${words.why}), so ${pods} ${held.length === 1 ? 'is' : 'are'} never updated to ${block.updateRevision}.`,
    explanation: `${words.explanation} ${wayOut(block, podName)}`,
    evidence: [
      {
        type: 'pods',
        title: 'The pod the rollout waits for, and the pods it holds from their update',
        pods: [
          {
            name: podName,
            ...(block.pod.spec.nodeName ? { node: block.pod.spec.nodeName } : {}),
            ...(shownPhase(block.pod) ? { phase: shownPhase(block.pod) } : {}),
            detail: `ordinal ${block.ordinal}, below partition ${block.partition}, revision ${block.revision}: ${words.why}`,
          },
          ...held.map((pod) => ({ name: pod, detail: `waits for its update to ${block.updateRevision}` })),
        ],
      },
    ],
  };
}

/**
 * The way on from a pod below the partition: a deletion recreates it at the current
 * revision (newVersionedStatefulSetPod); where it runs another (the template was
 * reverted, the partition raised), that deletion is the way on.
 */
function wayOut(block: OrderedBlock, podName: string): string {
  const at = block.recreatedAt ?? block.revision;
  if (at !== block.revision)
    return `A deletion recreates ${podName} at the current revision ${at}, not at ${block.revision} it runs (pods below the partition are made at the current revision): where ${at} works, deleting ${podName} is the way on, and the update then carries on.`;
  return `Deleting ${podName} brings it back at ${at} (the partition keeps it there). Make it Running and Ready at that revision (what fails is in the other findings), or lower the partition to ${block.ordinal} and then delete ${podName} so it comes back at ${block.updateRevision}: only then does the update reach it.`;
}
