/**
 * scale-old-replicaset: the surge deadlock's way out that no GitOps tool undoes.
 * Scaling the old ReplicaSet whose pods hold what the surge pod needs down to 0 lets
 * the surge pod schedule; the Deployment spec (and its generation) is untouched, and
 * ReplicaSets are in no manifest, so Argo CD, Flux and Helm leave it alone. The
 * Deployment controller leaves an old ReplicaSet at 0 where it is (DESIGN.md §4).
 *
 * A paused Deployment (spec.paused) runs only sync() upstream: scale() leaves a lone
 * active ReplicaSet at the Deployment's replicas and creates none, so scaling the old
 * one to 0 works while paused (the new ReplicaSet keeps, or is scaled to, the
 * replicas; the Deployment stays paused). Stepping down by one does not: sync()'s
 * proportional scaling puts the total back to replicas + maxSurge and hands the
 * leftover to the largest ReplicaSet, the old one, so it is not offered then.
 *
 * Offered when the deadlock is proved, there is a current
 * (new) ReplicaSet, and the pods on the nodes where the surge pod fits once they are
 * gone belong to one active old ReplicaSet (the target; other active old ones are named
 * in a warning). Pods of several old ReplicaSets there, or ReplicaSets not read
 * completely: not offered, and the diagnosis says why (`notOffered`). With one replica the outage is
 * the same as maxSurge 0 (the only replica goes before the new one is Ready); with
 * more, every old replica goes at once, which the impact states plainly.
 */
import {
  isDeploymentObjects,
  type DeploymentObjects,
  type WorkloadSnapshot,
} from '../../diagnosis/snapshot/types.js';
import { desiredReplicas } from '../../diagnosis/workloads/deployment/deployment-strategy.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { Pod } from '../../diagnosis/k8s.js';
import type { ReplicaSet } from '../../diagnosis/k8s-workloads.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { chooseRelease } from '../../diagnosis/rollout/deletion-order.js';
import { currentDeadlockProof, type ReleaseProof } from '../../diagnosis/rollout/surge-proof.js';
import { classifyReplicaSets, podsOfReplicaSet } from '../../diagnosis/workloads/deployment/replica-sets.js';
import { isTerminating } from '../../diagnosis/base/pods.js';
import { planId } from '../plan-id.js';
import type { NotOffered, Patch, RemediationPlan } from '../plan.js';
import { withImpact, type PlanSaid } from '../plan-words.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { REMEDIATION_SENTENCES as S } from '../sentences.js';

type FindingDraft = Omit<Finding, 'remediations'>;
const HASH_LABEL = 'pod-template-hash';
const KIND = 'scale-old-replicaset';

/** The JSON patch of the ReplicaSet's Scale: uid and replicas as seen, then the new count. */
export function scalePatch(rs: { uid: string; replicas: number; to: number }): Patch {
  return {
    type: 'json',
    body: [
      { op: 'test', path: '/metadata/uid', value: rs.uid },
      { op: 'test', path: '/spec/replicas', value: rs.replicas },
      { op: 'replace', path: '/spec/replicas', value: rs.to },
    ],
  };
}

function activeOld(old: ReplicaSet[]): ReplicaSet[] {
  return old.filter((rs) => (rs.spec.replicas ?? 0) > 0);
}

/** A ReplicaSet known to carry its uid and name. */
type Named = ReplicaSet & { metadata: { uid: string; name: string } };

/**
 * The one active old ReplicaSet whose pods hold what the new pod needs on the nodes
 * the proof frees, with its pod-template-hash, the Deployment's current ReplicaSet and
 * the other active old ones; undefined (said with `notOffered` where it matters) when
 * the ReplicaSets were not all read or pods of several hold it.
 */
function holderOf(
  ctx: AnalysisContext,
  proof: ReleaseProof,
  notOffered: NotOffered,
): { rs: Named; hash: string; current: Named; others: ReplicaSet[] } | undefined {
  const { snapshot } = ctx;
  if (!isDeploymentObjects(snapshot)) return undefined;
  // ReplicaSets not read completely: another active one may exist. Unknown is not none.
  if (snapshot.coverage && snapshot.coverage.replicaSets !== 'complete') {
    notOffered(
      KIND,
      "the Deployment's ReplicaSets were not all read, so which old ReplicaSet holds what the new pod needs (and whether another one is active) is not known",
    );
    return undefined;
  }
  const { current, old } = classifyReplicaSets(snapshot);
  if (!current?.metadata.uid || !current.metadata.name) return undefined;
  const active = activeOld(old);
  // The old ReplicaSets whose live pods sit on the nodes the proof frees: those hold it.
  const onProofNodes = (rs: ReplicaSet): Pod[] =>
    podsOfReplicaSet(snapshot, rs).filter(
      (p) => p.spec.nodeName && !isTerminating(p) && proof.nodes.includes(p.spec.nodeName),
    );
  const holders = active.filter((rs) => onProofNodes(rs).length > 0);
  if (holders.length > 1) {
    const names = holders.map((h) => `${h.metadata.name ?? ''} (${h.spec.replicas ?? 0})`).join(', ');
    notOffered(
      KIND,
      `pods of ${holders.length} old ReplicaSets, ${names}, hold what the new pod needs on ${proof.nodes.join(', ')}: scaling one of them lets in only as many new pods as it had, and the rollout deadlocks again on the other's pods; the strategy change (maxSurge 0) lets the Deployment controller release the old pods of every ReplicaSet in turn`,
    );
    return undefined;
  }
  const [rs] = holders;
  if (!rs?.metadata.uid || !rs.metadata.name) return undefined;
  const hash = rs.metadata.labels?.[HASH_LABEL] ?? rs.spec.selector?.matchLabels?.[HASH_LABEL];
  if (!hash) return undefined;
  const others = active.filter((r) => r !== rs);
  // Both were checked to carry a uid and a name just above.
  return { rs: rs as Named, hash, current: current as Named, others };
}

export function buildScaleOldReplicaSetPlans(
  ctx: AnalysisContext,
  finding: FindingDraft,
  notOffered: NotOffered = () => undefined,
): RemediationPlan[] {
  if (finding.code !== 'RolloutSurgeDeadlock') return [];
  const { snapshot } = ctx;
  // Only a Deployment keeps its old pods in a ReplicaSet that can be scaled on its own.
  if (!isDeploymentObjects(snapshot)) return [];
  const proof = currentDeadlockProof(ctx);
  if (!proof) return [];
  const holder = holderOf(ctx, proof, notOffered);
  if (!holder) return [];
  const scene: Scene = {
    snapshot,
    proof,
    holder,
    paused: workloadKind(snapshot).paused(snapshot.deployment),
    from: holder.rs.spec.replicas ?? 0,
    replicas: desiredReplicas(snapshot.deployment),
    nodes: proof.nodes.join(', '),
  };
  const allAtOnce = allAtOncePlan(scene, finding);
  if (scene.from <= 1) return [allAtOnce];
  const whyNot = whyNotStepped(scene);
  if (whyNot) {
    notOffered(KIND, `one replica at a time: ${whyNot}; scaling all at once is still offered`);
    return [allAtOnce];
  }
  return [
    steppedPlan(allAtOnce, scene.from, scene.replicas, holder.rs.metadata.name, scene.nodes),
    allAtOnce,
  ];
}

/** What the plans are built from: the deadlock's proof, the old ReplicaSet that holds it, the counts. */
interface Scene {
  snapshot: WorkloadSnapshot & DeploymentObjects;
  proof: ReleaseProof;
  holder: NonNullable<ReturnType<typeof holderOf>>;
  paused: boolean;
  /** The old ReplicaSet's replicas now. */
  from: number;
  /** The Deployment's desired replicas. */
  replicas: number;
  /** The nodes the proof frees, as words. */
  nodes: string;
}

/** Scale the holding ReplicaSet to 0 in one patch. */
function allAtOncePlan(scene: Scene, finding: FindingDraft): RemediationPlan {
  const { snapshot, proof, holder, from, nodes } = scene;
  const { deployment } = snapshot;
  const { rs, hash, current } = holder;
  const patch = scalePatch({ uid: rs.metadata.uid, replicas: from, to: 0 });
  const rsName = rs.metadata.name;
  return {
    id: planId('scale-old-replicaset', deployment.metadata.uid ?? '', deployment.metadata.generation ?? 0, {
      rs: rs.metadata.uid,
      newRs: current.metadata.uid,
      patch,
    }),
    kind: 'scale-old-replicaset',
    target: snapshot.target,
    summary: `Scale the old ReplicaSet ${rsName} from ${from} to 0 so ${proof.quota ? `ResourceQuota ${proof.quota} has room for the new pods` : `the new pod can take its place on ${nodes}`}; the Deployment spec is not changed, so no GitOps tool reverts it.`,
    ...withImpact(allAtOnceImpact(scene)),
    warnings: allAtOnceWarnings(scene),
    patch,
    replicaSet: {
      name: rsName,
      uid: rs.metadata.uid,
      podTemplateHash: hash,
      replicas: from,
      to: 0,
      newReplicaSet: { name: current.metadata.name, uid: current.metadata.uid },
    },
    preconditions: {
      uid: deployment.metadata.uid ?? '',
      generation: deployment.metadata.generation ?? 0,
      fields: [{ path: '/spec/replicas', value: deployment.spec.replicas }],
    },
    inverse: null,
    addresses: finding.code,
  };
}

function allAtOnceImpact({ holder, from, replicas }: Scene): PlanSaid {
  return replicas <= 1 && from <= 1
    ? { key: 'scaleOldOnly', params: { replicaSet: holder.rs.metadata.name ?? '' } }
    : { key: 'scaleOldAll', params: { from, newReady: holder.current.status?.readyReplicas ?? 0 } };
}

function allAtOnceWarnings({ holder, from, replicas, nodes, paused }: Scene): string[] {
  const rsName = holder.rs.metadata.name;
  const { others, current } = holder;
  return [
    ...(replicas > 1 || from > 1
      ? [
          `Every old replica goes at once (${from} of ${replicas}): prefer the strategy change when the other replicas can keep serving.`,
        ]
      : []),
    ...(paused
      ? [
          `The Deployment is paused, and this works all the same: pausing stops rollouts, not scaling. With ${rsName} at 0 the new ReplicaSet ${current.metadata.name} is the only active one, and the Deployment controller keeps it at (or scales it to) ${replicas}; the Deployment stays paused.`,
        ]
      : []),
    ...(others.length > 0
      ? [
          `Other old ReplicaSet(s) stay as they are: ${others.map((o) => `${o.metadata.name ?? ''} (${o.spec.replicas ?? 0})`).join(', ')}; their pods hold nothing the new pod needs on ${nodes}, and the Deployment controller scales them down as new pods become available.`,
        ]
      : []),
    S.rsComesBack.en({ rs: rsName, undo: 'kubectl rollout undo' }),
    S.nextRolloutSame.en(),
    S.rsUndoRefused.en({ rs: rsName, from: String(from), undo: 'kubectl rollout undo' }),
  ];
}

/** Why the one-at-a-time walk is not offered (undefined: it is). */
function whyNotStepped({ snapshot, proof, holder, paused }: Scene): string | undefined {
  if (proof.quota)
    return `the steps mark the old pod that blocks the new one on a node, and a quota (${proof.quota}) is not held on a node; the strategy change (maxSurge 0) lets the Deployment controller release one old pod at a time`;
  if (paused)
    return `the Deployment is paused, and for a paused Deployment the controller's sync() scales proportionally back to replicas + maxSurge, handing the replica released by each step back to the largest ReplicaSet (${holder.rs.metadata.name}), so a step would be undone`;
  // A step releases the pod the ReplicaSet controller deletes first: a Pending or
  // not-Ready old pod goes before any marked one, and must free what the new pod needs.
  const release = chooseRelease(podsOfReplicaSet(snapshot, holder.rs), (p) =>
    proof.nodes.includes(p.spec.nodeName ?? ''),
  );
  return release && !release.ok ? release.reason : undefined;
}

/**
 * More than one old replica: step down one at a time, each time releasing the pod
 * that blocks the surge pod (pod-deletion-cost), so all but one replica keep serving:
 * the availability of maxSurge 0 without touching the spec.
 */
function steppedPlan(
  base: RemediationPlan,
  from: number,
  replicas: number,
  rsName: string,
  nodes: string,
): RemediationPlan {
  const rs = base.replicaSet;
  if (!rs) return base;
  const patch = scalePatch({ uid: rs.uid, replicas: from, to: from - 1 });
  return {
    ...base,
    id: planId('scale-old-replicaset', base.preconditions.uid, base.preconditions.generation, {
      rs: rs.uid,
      newRs: rs.newReplicaSet.uid,
      patch,
      stepped: true,
    }),
    summary: `Step the old ReplicaSet ${rsName} down from ${from} to 0 one replica at a time: before each step the worker marks the old pod that blocks the new one (on ${nodes}) with pod-deletion-cost so it is the one that goes, then waits for the new pod to be Ready; the Deployment spec is not changed.`,
    ...withImpact({ key: 'scaleOldStepped', params: { replicas } }),
    warnings: [
      'The worker keeps stepping after the approval until the old ReplicaSet is at 0, the rollout completes, or a step waits too long for its new pod; it stops and says so if the Deployment or the ReplicaSet change under it.',
      ...base.warnings.filter((w) => !w.startsWith('Every old replica goes at once')),
    ],
    patch,
    replicaSet: { ...rs, stepped: true },
  };
}
