/**
 * RolloutAtRisk (DESIGN.md §1 D): nothing is stuck yet, but the next rollout will
 * be. The template asks for something scarce (an extended resource, a hostPort, a
 * ReadWriteOnce volume, a required pod anti-affinity), no eligible node has room
 * for one more pod, room appears once this Deployment's own pods go, and the
 * strategy surges. Silent while a pod of ours is Pending: the deadlock and
 * unschedulable analyzers speak then. Silent while a rollout or scale is under way
 * (the kind module's `underWay`): the prediction is about the steady state,
 * spec.replicas pods of the current template, and a surge pod still pulling its image
 * is not a deadlock.
 * Needs a complete node list: "no room anywhere" cannot be shown from a capped one.
 */
import type { Analyzer } from '../analyzer.js';
import { capacityRows, describeBlocker } from '../placement/capacity-rows.js';
import type { Finding } from '../finding.js';
import type { Pod } from '../k8s.js';
import { claimNames, hostPorts, requiredAntiAffinity } from '../base/pod-constraints.js';
import { placementContext, type PlacementContext } from '../placement/placement.js';
import { isExtendedResource } from '../base/resources.js';
import { assessRollout } from '../rollout/rollout-assessment.js';
import { strategyPhrase } from '../rollout/strategy-words.js';
import { nextRolloutAssessments, rwoRisk } from '../rollout/surge-proof.js';
import { workloadKind, workloadObject } from '../workloads/index.js';

type Draft = Omit<Finding, 'remediations'>;

export const rolloutAtRisk: Analyzer = {
  name: 'rollout-at-risk',
  analyze(analysis) {
    const { snapshot } = analysis;
    const assessment = assessRollout(analysis);
    if (!assessment.surges || !snapshot.nodesComplete) return [];
    if (assessment.pending.length > 0 || assessment.attach.length > 0) return [];
    if (workloadKind(snapshot).underWay(snapshot) !== undefined) return [];
    const ctx = placementContext(analysis);
    const { pod: next, eligible } = nextRolloutAssessments(analysis);
    if (scarceNeeds(ctx, next).length === 0 || eligible.length === 0) return [];
    const strategy = strategyPhrase(assessment.strategy, assessment.replicas);
    const name = workloadObject(snapshot).metadata.name ?? '';
    const roomNow = eligible.filter((a) => a.blockers.length === 0);
    if (roomNow.length === 0) {
      const freeing = eligible.filter((a) => a.release !== undefined && a.release.length > 0);
      const first = freeing[0]?.blockers[0];
      if (!first) return [];
      const nodes = eligible.map((a) => a.node.metadata.name ?? '');
      const listed = `${nodes.slice(0, 3).join(', ')}${nodes.length > 3 ? ', ...' : ''}`;
      const where =
        nodes.length === 1
          ? `the only node it may use (${listed}) has`
          : `the ${nodes.length} nodes it may use (${listed}) have`;
      return [
        draft(
          `Next rollout of ${name} will deadlock: ${where} no room for one more pod (it needs ${describeBlocker(first)}), and ${strategy} creates the new pod before any old one goes.`,
          `This ${snapshot.target.kind}'s own pods hold what a new pod needs, so with maxSurge ${assessment.strategy.maxSurge?.value ?? 0} and maxUnavailable ${assessment.strategy.maxUnavailable?.value ?? 0} the next rollout's first new pod will stay Pending while the old pods wait for it to become Ready. Setting maxSurge 0 / maxUnavailable 1${workloadKind(snapshot).recreate ? ' (or Recreate)' : ''} now avoids that; it restarts nothing by itself.`,
          assessment,
          capacityRows(ctx, next, eligible),
        ),
      ];
    }
    const attach = rwoRisk(
      analysis,
      next,
      roomNow.map((a) => a.node.metadata.name ?? ''),
    );
    if (!attach) return [];
    return [
      draft(
        `Next rollout of ${name} may deadlock: its ReadWriteOnce volume ${attach.claim} is attached on ${attach.on.join(', ')}, a surge pod may be scheduled to ${attach.elsewhere.slice(0, 3).join(', ')} and wait there for the volume, and ${strategy} keeps the old pod until the new one is Ready.`,
        'A ReadWriteOnce volume attaches to one node at a time. With a surge strategy the new pod starts while the old pod still holds the volume; if the scheduler puts it on another node it stays in ContainerCreating with a Multi-Attach error. maxSurge 0 / maxUnavailable 1 (or Recreate) releases the volume first.',
        assessment,
        [],
      ),
    ];
  },
};

function draft(
  summary: string,
  explanation: string,
  assessment: ReturnType<typeof assessRollout>,
  rows: ReturnType<typeof capacityRows>,
): Draft {
  return {
    code: 'RolloutAtRisk',
    severity: 'warning',
    summary,
    explanation,
    evidence: [
      { type: 'strategy', replicas: assessment.replicas, strategy: assessment.strategy },
      ...(rows.length > 0 ? [{ type: 'node-capacity' as const, rows }] : []),
    ],
  };
}

/** The scarce things the template asks for (empty: a surge is harmless). */
function scarceNeeds(ctx: PlacementContext, pod: Pod): string[] {
  const needs = Object.keys(ctx.requests(pod)).filter(isExtendedResource);
  if (hostPorts(pod.spec).length > 0) needs.push('hostPort');
  if (requiredAntiAffinity(pod.spec).length > 0) needs.push('pod anti-affinity');
  // DRA: a claim per pod takes devices of its own; a shared claim is reused by the new pod.
  if ((pod.spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName)) needs.push('DRA devices');
  for (const claim of claimNames(pod.spec)) {
    const pvc = ctx.snapshot.pvcs.find((p) => p.metadata.name === claim);
    const modes = pvc?.spec.accessModes ?? [];
    if (
      modes.includes('ReadWriteOncePod') ||
      (modes.includes('ReadWriteOnce') && !modes.includes('ReadWriteMany'))
    ) {
      needs.push(`volume ${claim}`);
    }
  }
  return needs;
}
