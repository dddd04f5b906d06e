/**
 * A pod the rollout must still replace whose volume ties it to nodes that take no pods
 * (a local PersistentVolume, or any volume with node affinity, on a cordoned, drained or
 * tainted node): its replacement keeps the same claims (a StatefulSet's per-pod claims,
 * or the template's), so no node takes it ("volume node affinity conflict", DESIGN.md
 * §4d). From what was read only: a volume not read, or nodes not all read, make no claim.
 */
import { remadePods, type RemadeBy } from '../workloads/remade-words.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding } from '../finding.js';
import { typeOfKind } from '../workload-ref.js';
import { codeSpan } from '../../text/code-span.js';
import type { Node, Pod } from '../k8s.js';
import type { PersistentVolume } from '../k8s-storage.js';
import { isEligible, matchesTerms } from '../base/node-match.js';
import { isTerminating } from '../base/pods.js';
import { claimNames } from '../base/pod-constraints.js';
import { claimVolume } from '../base/volume-node-affinity.js';
import { nextPod } from './surge-proof.js';
import { workloadKind } from '../workloads/index.js';

interface PinnedPod {
  pod: Pod;
  volume: PersistentVolume;
  claim: string;
  /** The nodes the volume allows, none of which takes the replacement. */
  nodes: Node[];
  /** Where the replacement order is known (a StatefulSet's): the old pods replaced before it. */
  before?: Pod[];
}

/** The first pod still to be replaced whose replacement no node takes for its volume, or undefined. */
export function pinnedReplacement(ctx: AnalysisContext): PinnedPod | undefined {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  if (kind.underWay(snapshot) === undefined) return undefined;
  if (snapshot.coverage.nodes !== 'complete' || snapshot.guards?.persistentVolumes === undefined)
    return undefined;
  const incoming = nextPod(snapshot);
  const { pods: toReplace, byOrdinal } = podsToReplace(snapshot);
  for (const [at, pod] of toReplace.entries()) {
    const pinned = pinnedNowhere(ctx, pod, incoming);
    if (pinned) return { pod, ...pinned, ...(byOrdinal ? { before: toReplace.slice(0, at) } : {}) };
  }
  return undefined;
}

/**
 * The workload's placed pods still on an old revision (above a partition), in the order
 * its controller replaces them where it has one: a StatefulSet's rolling update goes
 * from the highest ordinal down (stateful_set_control.go, updateStatefulSet). A pod the
 * controller deletes for good is not replaced: a StatefulSet's ordinals at or above
 * spec.replicas are condemned (removed, never updated), and a Deployment or Rollout
 * scaled to 0 keeps no pod at all.
 */
export function podsToReplace(snapshot: AnalysisContext['snapshot']): { pods: Pod[]; byOrdinal: boolean } {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const fresh = new Set(kind.revisions(snapshot).current?.pods ?? []);
  const partition = kind.strategy(object).partition ?? 0;
  const byOrdinal = ordinalOrder(kind.remadeBy(object));
  // A DaemonSet's desired count is its status (pods per node), not a spec to scale to.
  const replicas = kind.surgeFix === 'per-node' ? Infinity : kind.desiredReplicas(object);
  // The controller counts ordinals from spec.ordinals.start (StatefulSetStartOrdinal, GA 1.31).
  const start = kind.firstOrdinal(object);
  const index = (pod: Pod): number => ordinal(pod) - start;
  const kept = (pod: Pod): boolean => (byOrdinal ? index(pod) < replicas : replicas > 0);
  // Below the partition the StatefulSet controller keeps the old revision (stateful_set_control.go).
  const heldByPartition = (pod: Pod): boolean => byOrdinal && ordinal(pod) >= 0 && index(pod) < partition;
  const pods = snapshot.pods.filter(
    (pod) =>
      !fresh.has(pod) && !isTerminating(pod) && pod.spec.nodeName && !heldByPartition(pod) && kept(pod),
  );
  if (byOrdinal) pods.sort((a, b) => ordinal(b) - ordinal(a));
  return { pods, byOrdinal };
}

/** Pods named by ordinal, made again under the same name: a StatefulSet's. */
const ordinalOrder = (by: RemadeBy): boolean => by === 'orderedReady' || by === 'parallel';

const ordinal = (pod: Pod): number => Number(/-(\d+)$/.exec(pod.metadata.name ?? '')?.[1] ?? -1);

/**
 * Whether a pod of the workload may be tied to nodes by a volume: one of its claims is
 * not read, its volume is not read, or the volume has node affinity. A bound on room
 * (forward/final-state.ts) places pods anywhere they fit, so it cannot say such a pod
 * finds room once other pods go.
 */
export function mayBePinned(ctx: AnalysisContext): boolean {
  const { snapshot } = ctx;
  return snapshot.pods.some((pod) =>
    claimNames(pod.spec).some((claim) => {
      const { pvc, volume } = claimVolume(pod, claim, snapshot.pvcs, snapshot.guards?.persistentVolumes);
      if (!pvc) return true;
      // Not bound yet: a WaitForFirstConsumer claim follows the pod, wherever it is placed.
      if (!pvc.spec.volumeName) return false;
      return !volume || (volume.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []).length > 0;
    }),
  );
}

/** The replacement's claims are the pod's own: one bound to a volume no node it allows takes. */
function pinnedNowhere(ctx: AnalysisContext, pod: Pod, incoming: Pod): Omit<PinnedPod, 'pod'> | undefined {
  const { snapshot } = ctx;
  const spec = { ...incoming.spec, volumes: pod.spec.volumes ?? [] };
  for (const claim of claimNames(pod.spec)) {
    const { volume } = claimVolume(pod, claim, snapshot.pvcs, snapshot.guards?.persistentVolumes);
    const terms = volume?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
    if (!volume || !terms || terms.length === 0) continue;
    const allowed = snapshot.nodes.filter((n) => matchesTerms(n, terms));
    if (allowed.some((n) => isEligible(n, spec) && nodeReady(n))) continue;
    return { volume, claim, nodes: allowed };
  }
  return undefined;
}

/** Whether the node is Ready (not known otherwise: taken as Ready). */
function nodeReady(node: Node): boolean {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'False';
}

function why(node: Node): string {
  if (node.spec?.unschedulable) return 'cordoned';
  if (!nodeReady(node)) return 'not Ready';
  return 'tainted against it';
}

/** The verdict on a pinned pod: the rollout can never finish, and the ways out before it gets there. */
export function pinnedFinding(ctx: AnalysisContext, pinned: PinnedPod): Omit<Finding, 'remediations'> {
  const { pod } = pinned;
  const { snapshot } = ctx;
  const { name, namespace } = snapshot.target;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const ref = `${typeOfKind(snapshot.target.kind)}/${name}`;
  const podName = pod.metadata.name ?? '';
  const volume = pinned.volume.metadata.name ?? '';
  const nodes =
    pinned.nodes.length === 0
      ? 'no node the cluster has'
      : pinned.nodes
          .slice(0, 3)
          .map((n) => `${n.metadata.name ?? ''} (${why(n)})`)
          .join(', ');
  const first = pinned.nodes[0]?.metadata.name ?? '';
  const held = `its claim ${pinned.claim} is bound to volume ${volume}, usable only on ${nodes}`;
  const ways = `${first ? `${codeSpan(`kubectl uncordon ${first}`)} if the node is meant to serve again, or ` : ''}move the data and delete the claim so a new volume binds elsewhere (${codeSpan(`kubectl delete pvc ${pinned.claim} -n ${namespace}`)} loses the data on it). ${ref} itself needs no change.`;
  const evidence: Finding['evidence'] = [
    {
      type: 'note',
      text: `Volume ${volume} (claim ${pinned.claim}): spec.nodeAffinity allows ${pinned.nodes.map((n) => n.metadata.name ?? '').join(', ') || 'no node'}.`,
    },
  ];
  // OnDelete: the controller replaces no pod by itself (stateful_set_control.go and the
  // DaemonSet controller return before any update): nothing is stuck until someone deletes it.
  if (kind.strategy(object).type === 'OnDelete')
    return {
      code: 'RolloutAtRisk',
      severity: 'warning',
      summary: `Pod ${podName} still runs the old revision, and ${held}. Its update waits for someone to delete it (OnDelete); once deleted, the new ${podName} keeps that claim and no node takes it (volume node affinity conflict): it stays Pending for good.`,
      explanation: `With updateStrategy OnDelete the controller replaces a pod only after someone deletes it, so nothing is stuck yet. Do not delete ${podName} for the update before its volume has a node again: ${ways}`,
      evidence,
    };
  const before = pinned.before;
  const order =
    before === undefined
      ? `The rollout moves until the controller replaces ${podName}. ${remadePods(kind.remadeBy(object), 1)}`
      : before.length === 0
        ? `The controller replaces pods from the highest ordinal down, and ${podName} is next: it deletes ${podName} and creates it again under the same name at the update revision`
        : `The controller replaces pods from the highest ordinal down: ${before.map((p) => p.metadata.name ?? '').join(', ')} first, then ${podName}, which it deletes and creates again under the same name at the update revision`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `The rollout can never finish: pod ${podName} still runs the old revision, and ${held}. When the controller replaces ${podName}, the new pod keeps that claim and no node takes it (volume node affinity conflict): it waits for good.`,
    explanation: `${order}, mounting the same claim, and the volume's node affinity leaves only ${nodes}. Before it gets there: ${ways}`,
    evidence,
  };
}
