/**
 * The facts a strategy change rests on, derived from the analysis context (the same
 * rollout assessment and placement index the findings came from) so plan builders
 * never trust a finding's text: where letting our old pods go first makes
 * room for the new pod, and how many must go.
 */
import { admittedSpec } from '../workloads/admitted-spec.js';
import type { Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { claimNames } from '../base/pod-constraints.js';
import { placementContext, usesClaim } from '../placement/placement.js';
import { assessNode, type NodeAssessment } from '../placement/holder-release.js';
import { assessRollout } from './rollout-assessment.js';
import { podTemplateOf, workloadKind, workloadObject } from '../workloads/index.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { isTerminating } from '../base/pods.js';
import { refusedRevisions } from './create-refusals.js';

export interface ReleaseProof {
  /** Nodes where the new pod fits once some of our pods are gone. */
  nodes: string[];
  /** The fewest of our pods that must go (on the best node) before a new pod fits. */
  release: number;
  /** The Pending (or attach-blocked) pods a restart would replace. */
  stuckPods: Pod[];
  /** Live pods a strategy change would let go first, and how many sit on those nodes. */
  releasablePods: number;
  releasableOnNodes: number;
  /**
   * The ResourceQuota that refuses the new pods, when the proof rests on it
   * (create-refusals.ts): room is namespace-wide, `nodes` are where the old pods run.
   */
  quota?: string;
}

/**
 * A pod as the next rollout would create it (not bound, in no index), with the
 * constraints admission gave this template's pods (admitted-spec.ts).
 */
export function nextPod(snapshot: WorkloadSnapshot): Pod {
  const { metadata } = workloadObject(snapshot);
  const template = podTemplateOf(snapshot);
  return {
    metadata: {
      name: `${metadata.name ?? ''}-<next>`,
      ...(metadata.namespace ? { namespace: metadata.namespace } : {}),
      // A pod of a revision not made yet: its revision label (pod-template-hash, or the
      // controller revision's) differs from every pod's now, as the controller's hash
      // would, so a spread or affinity term keyed on it (matchLabelKeys) counts no old pod.
      labels: { ...template.metadata?.labels, [workloadKind(snapshot).revisionLabel]: '<next>' },
    },
    spec: admittedSpec(snapshot).spec,
  };
}

/** Every eligible node assessed for the next rollout's first pod, with all our pods releasable. */
export function nextRolloutAssessments(analysis: AnalysisContext): { pod: Pod; eligible: NodeAssessment[] } {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const pod = nextPod(snapshot);
  const eligible = snapshot.nodes
    .filter((node) => isEligible(node, pod.spec))
    .map((node) => assessNode(ctx, pod, node, (holder) => ctx.ours.has(holder)));
  return { pod, eligible };
}

function proofFrom(
  assessments: NodeAssessment[],
  stuckPods: Pod[],
  releasable: Pod[],
): ReleaseProof | undefined {
  const freeing = assessments.filter((a) => a.release !== undefined && a.release.length > 0);
  if (freeing.length === 0) return undefined;
  const nodes = freeing.map((a) => a.node.metadata.name ?? '');
  const live = releasable.filter((p) => p.spec.nodeName && !isTerminating(p));
  return {
    nodes,
    release: Math.min(...freeing.map((a) => a.release?.length ?? 0)),
    stuckPods,
    releasablePods: live.length,
    releasableOnNodes: live.filter((p) => nodes.includes(p.spec.nodeName ?? '')).length,
  };
}

/**
 * A surge deadlock stands, proved or likely: a restart alone would recreate the same
 * Pending pod, so it is not offered.
 */
export function surgeDeadlockStands(ctx: AnalysisContext): boolean {
  return (
    currentDeadlockProof(ctx) !== undefined ||
    assessRollout(ctx).pending.some((p) => p.verdict === 'surge-deadlock')
  );
}

/** Proof for the rollout in progress: a surge-deadlocked Pending pod or an attach-blocked one. */
export function currentDeadlockProof(ctx: AnalysisContext): ReleaseProof | undefined {
  const assessment = assessRollout(ctx);
  const oldPods = [...assessment.oldPods];
  const stuck = assessment.pending.filter((p) => p.verdict === 'surge-deadlock');
  // A strategy change is offered on a proof only, never on a likely deadlock.
  const first = stuck.find((p) => p.proof === 'nodes' || p.proof === 'message');
  if (first?.proof === 'nodes') {
    return proofFrom(
      first.eligible.filter((a) => a.releaseProved),
      stuck.map((p) => p.pod),
      oldPods,
    );
  }
  if (first) {
    // Proved from the scheduler's counts: every live old pod on those nodes must go.
    const live = oldPods.filter((p) => p.spec.nodeName && !isTerminating(p));
    const onNodes = live.filter((p) => first.provedOn.includes(p.spec.nodeName ?? ''));
    const perNode = first.provedOn.map((n) => onNodes.filter((p) => p.spec.nodeName === n).length);
    return {
      nodes: first.provedOn,
      release: Math.min(...perNode),
      stuckPods: stuck.map((p) => p.pod),
      releasablePods: live.length,
      releasableOnNodes: onNodes.length,
    };
  }
  if (stuck.length > 0) return undefined;
  const attach = assessment.attach.filter((a) => a.releasable);
  const block = attach[0];
  if (!block) return quotaDeadlockProof(ctx);
  const live = block.holders.filter((h) => !isTerminating(h));
  return {
    nodes: [block.node],
    release: live.length,
    stuckPods: attach.map((a) => a.pod),
    releasablePods: oldPods.filter((p) => p.spec.nodeName && !isTerminating(p)).length,
    releasableOnNodes: live.length,
  };
}

/**
 * The new revision's pods are refused by a quota that the old pods fill, and the
 * controller keeps the old pods until a new one is available (create-refusals.ts).
 */
function quotaDeadlockProof(ctx: AnalysisContext): ReleaseProof | undefined {
  const refused = refusedRevisions(ctx).find(
    (r) => 'verdict' in r && r.verdict === 'order' && r.keepsOld && r.failure.current,
  );
  if (!refused || !('verdict' in refused)) return undefined;
  const live = refused.oldPods.filter((p) => !isTerminating(p));
  if (live.length === 0) return undefined;
  const nodes = [...new Set(live.map((p) => p.spec.nodeName).filter((n): n is string => Boolean(n)))];
  return {
    nodes,
    release: refused.release,
    stuckPods: [],
    releasablePods: live.length,
    releasableOnNodes: live.filter((p) => p.spec.nodeName).length,
    quota: refused.refusal.quota,
  };
}

/**
 * Proof for the next rollout (RolloutAtRisk): no room now but room once our pods go,
 * or room only on nodes where a ReadWriteOnce volume our pods hold cannot attach.
 */
export function nextRolloutProof(ctx: AnalysisContext): ReleaseProof | undefined {
  const { snapshot } = ctx;
  // The steady state only: while pods come and go, what they hold is no prediction.
  if (workloadKind(snapshot).underWay(snapshot) !== undefined) return undefined;
  const { pod, eligible } = nextRolloutAssessments(ctx);
  if (eligible.length === 0) return undefined;
  // Room on a node whose other pods were not read is unknown, not room: predict nothing.
  if (eligible.some((a) => a.blockers.length === 0 && !a.occupancyKnown)) return undefined;
  const roomNow = eligible.filter((a) => a.blockers.length === 0).map((a) => a.node.metadata.name ?? '');
  if (roomNow.length === 0)
    return proofFrom(
      eligible.filter((a) => a.releaseProved),
      [],
      snapshot.pods,
    );
  const risk = rwoRisk(ctx, pod, roomNow);
  if (!risk) return undefined;
  const holders = snapshot.pods.filter((p) => p.spec.nodeName && risk.on.includes(p.spec.nodeName));
  return {
    nodes: risk.on,
    release: 1,
    stuckPods: [],
    releasablePods: snapshot.pods.filter((p) => p.spec.nodeName && !isTerminating(p)).length,
    releasableOnNodes: holders.length,
  };
}

interface RwoRisk {
  claim: string;
  /** Nodes where our pods hold the volume now. */
  on: string[];
  /** Nodes with room for a surge pod, where the volume cannot attach. */
  elsewhere: string[];
}

/** A ReadWriteOnce claim our pods hold on some nodes while a surge pod could land on others. */
export function rwoRisk(analysis: AnalysisContext, pod: Pod, roomOn: string[]): RwoRisk | undefined {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  for (const claim of claimNames(pod.spec)) {
    const pvc = snapshot.pvcs.find((p) => p.metadata.name === claim);
    const modes = pvc?.spec.accessModes ?? [];
    if (!modes.includes('ReadWriteOnce') || modes.includes('ReadWriteMany')) continue;
    const on = [...ctx.occupantsByNode.entries()]
      .filter(([, pods]) => pods.some((p) => ctx.ours.has(p) && usesClaim(p, pod.metadata.namespace, claim)))
      .map(([node]) => node);
    const elsewhere = roomOn.filter((node) => !on.includes(node));
    if (on.length > 0 && elsewhere.length > 0) return { claim, on, elsewhere };
  }
  return undefined;
}
