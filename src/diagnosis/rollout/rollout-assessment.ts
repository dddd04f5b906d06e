/**
 * One shared judgement of a Deployment's pending pods, used by the surge-deadlock,
 * unschedulable and at-risk analyzers and by the strategy plan builders, so they
 * never disagree and the work is done once per analysis context.
 *
 * For each unscheduled pod of ours:
 * - no eligible node (selector, node affinity, taints, cordons) → unschedulable;
 * - some eligible node has room now → unexplained (stale message, or a constraint
 *   this model does not know; the scheduler's own words are all we have);
 * - no eligible node has room even with our old pods gone → unschedulable;
 * - room appears once already-terminating old pods are gone → transient;
 * - room appears once live old pods go: a surge deadlock when the strategy surges
 *   (maxSurge ≥ 1, maxUnavailable 0), else the controller is already letting them go.
 */
import type { Evidence } from '../finding.js';
import type { KubeEvent, Node, Pod } from '../k8s.js';
import { isEligible, selectsNode, untoleratedTaints } from '../base/node-match.js';
import type { ResolvedStrategy } from '../strategy.js';
import { workloadKind, workloadObject, type Revision } from '../workloads/index.js';
import { claimNames } from '../base/pod-constraints.js';
import { blockersOn, placementContext, usesClaim } from '../placement/placement.js';
import { assessNode, type NodeAssessment } from '../placement/holder-release.js';
import { heldBeforeScheduling, type HeldBack } from '../scheduling/held-back.js';
import { deviceMessageProof, messageProof, messageProvesUnschedulable } from './message-proof.js';
import { needsOf } from '../dra/blockers.js';
import type { MissingClaim } from '../dra/needs.js';
import { safeParse, type ParsedSchedulingMessage } from '../scheduling/scheduling-message.js';
import type { AnalysisContext } from '../analysis-context.js';
import { occupancyKnown, pvcsRead, type WorkloadSnapshot } from '../snapshot.js';
import { eventsOfPod, latestSchedulingFailure, type SchedulingFailure } from '../base/pod-events.js';
import { isReady, isTerminating, isUnscheduled } from '../base/pods.js';

export type PendingVerdict =
  | 'surge-deadlock'
  | 'unschedulable'
  | 'transient'
  | 'waiting-for-old-pods'
  | 'unexplained'
  /** What the verdict needs was not read, and no other proof holds. */
  | 'incomplete'
  /** Held before scheduling (gates, a claim not yet created): the scheduler has not tried it. */
  | 'held-back'
  /**
   * A per-pod claim named in the pod's status no longer exists: the DynamicResources
   * plugin rejects the pod in PreFilter, before any node, until the claim is back.
   */
  | 'claim-missing';

export interface IneligibleNode {
  node: Node;
  /** "nodeSelector/affinity", "taint gpu=true:NoSchedule", "cordoned". */
  reasons: string[];
}

export interface PendingAssessment {
  pod: Pod;
  /** The pod belongs to the ReplicaSet the rollout is creating. */
  isNew: boolean;
  failure?: SchedulingFailure;
  parsed: ParsedSchedulingMessage | null;
  eligible: NodeAssessment[];
  ineligible: IneligibleNode[];
  verdict: PendingVerdict;
  /**
   * For a surge deadlock: 'nodes' when node objects and occupancy prove it, 'message'
   * when the scheduler's counts do (nodes unread), 'likely' when neither does. For
   * Unschedulable: 'message' when the nodes were unread and the scheduler's counts put
   * every node out for taints, selection or cordons.
   */
  proof?: 'nodes' | 'message' | 'likely';
  /**
   * What the message proof stands in for: the nodes not read, or device occupancy not
   * known (claims of other namespaces not read) while the nodes were.
   */
  messageBasis?: 'nodes-unread' | 'claims-unread';
  /** Nodes where the release is proved (from nodes or from the message). */
  provedOn: string[];
  /** What the verdict stands despite: room the model cannot explain, unread occupancy. */
  caveats: string[];
  /** What was not read that would settle it (for IncompleteEvidence and the caveat). */
  missing: string[];
  /** Why the pod is held before scheduling, for the 'held-back' verdict. */
  heldBack?: HeldBack;
  /** DRA facts worth saying whatever the verdict (a shared claim cannot deadlock a surge). */
  deviceNotes?: string[];
  /** For 'claim-missing': the claims named in the pod's status that no longer exist. */
  claimsGone?: MissingClaim[];
  /**
   * For 'unschedulable': the pod's latest scheduling failure is DynamicResources' CEL
   * runtime error in a device selector (the reason as the scheduler printed it): the
   * scheduler stops there at every attempt, whatever the devices hold.
   */
  selectorError?: string;
}

/** The scheduler's own message about a pending pod, as evidence (none when it left no event). */
export function schedulingEvidence(pending: PendingAssessment): Evidence[] {
  if (!pending.failure) return [];
  return [
    {
      type: 'scheduling',
      pod: pending.pod.metadata.name ?? '',
      message: pending.failure.message,
      parsed: pending.parsed,
    },
    ...unnamedTaintNote(pending),
    ...(pending.deviceNotes ?? []).map((text) => ({ type: 'note' as const, text })),
  ];
}

/**
 * "node(s) had untolerated taint(s)" (1.35, 1.34.2+) names no taint: the node objects
 * do. Nodes not read are not taken for untainted.
 */
export function unnamedTaintNote(pending: Pick<PendingAssessment, 'parsed' | 'ineligible'>): Evidence[] {
  const parsed = pending.parsed;
  if (!parsed?.reasons.some((r) => r.category === 'taints' && !r.taint)) return [];
  const byTaint = new Map<string, string[]>();
  for (const { node, reasons } of pending.ineligible) {
    for (const reason of reasons.filter((r) => r.startsWith('taint '))) {
      const taint = reason.slice('taint '.length);
      byTaint.set(taint, [...(byTaint.get(taint) ?? []), node.metadata.name ?? '']);
    }
  }
  const lead = `The scheduler's "node(s) had untolerated taint(s)" names no taint (Kubernetes 1.35 and 1.34.2+ print it so)`;
  if (byTaint.size === 0) {
    return [
      {
        type: 'note',
        text: `${lead}, and no node read carries a NoSchedule or NoExecute taint this pod does not tolerate: the tainted nodes were not read, or their taints changed since (kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints).`,
      },
    ];
  }
  const found = [...byTaint.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([taint, nodes]) => `${taint} on ${list(nodes)}`);
  return [{ type: 'note', text: `${lead}; the node objects show ${found.join('; ')}.` }];
}

/** A new pod bound to a node but unable to attach a ReadWriteOnce volume held elsewhere. */
export interface AttachBlock {
  pod: Pod;
  node: string;
  claim: string;
  holders: Pod[];
  /** Every holder is a live old pod of this Deployment: letting it go first frees the volume. */
  releasable: boolean;
  events: KubeEvent[];
}

export interface RolloutAssessment {
  replicas: number;
  strategy: ResolvedStrategy;
  /** The controller replaces old pods surge first (kind.replacement): the deadlock shape. */
  surges: boolean;
  current?: Revision;
  old: Revision[];
  oldPods: ReadonlySet<Pod>;
  newPods: Pod[];
  pending: PendingAssessment[];
  attach: AttachBlock[];
}

/** The shared assessment of the context's snapshot (computed once per context). */
export function assessRollout(ctx: AnalysisContext): RolloutAssessment {
  return ctx.once('rollout-assessment', () => computeAssessment(ctx));
}

function computeAssessment(ctx: AnalysisContext): RolloutAssessment {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const strategy = kind.strategy(object);
  const { current, old } = kind.revisions(snapshot);
  const newPods = current?.pods ?? [];
  const oldPods = new Set(old.flatMap((revision) => revision.pods));
  const newSet = new Set(newPods);
  // New pods first, old ones only once a new one is Ready: a new pod waiting for what an old one holds deadlocks.
  const surges = kind.replacement(strategy) === 'surge-first';
  const pending = snapshot.pods
    .filter(isUnscheduled)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .map((pod) => assessPending(ctx, pod, newSet.has(pod), oldPods, surges));
  return {
    replicas: kind.desiredReplicas(object),
    strategy,
    surges,
    ...(current ? { current } : {}),
    old,
    oldPods,
    newPods,
    pending,
    attach: attachBlocks(ctx, newPods, oldPods),
  };
}

function assessPending(
  analysis: AnalysisContext,
  pod: Pod,
  isNew: boolean,
  oldPods: ReadonlySet<Pod>,
  surges: boolean,
): PendingAssessment {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const failure = latestSchedulingFailure(snapshot, pod);
  const parsed = failure ? safeParse(failure.message) : null;
  const eligibleNodes: Node[] = [];
  const ineligible: IneligibleNode[] = [];
  for (const node of snapshot.nodes) {
    if (isEligible(node, pod.spec)) eligibleNodes.push(node);
    else ineligible.push({ node, reasons: ineligibility(node, pod) });
  }
  const releasable = (holder: Pod): boolean => isNew && oldPods.has(holder);
  const eligible = eligibleNodes.map((node) => assessNode(ctx, pod, node, releasable));
  const base = { pod, isNew, parsed, eligible, ineligible, ...(failure ? { failure } : {}) };
  const held = heldBeforeScheduling(pod);
  if (held) return { ...base, verdict: 'held-back', heldBack: held, provedOn: [], caveats: [], missing: [] };
  const gone = needsOf(analysis, pod)?.missing ?? [];
  if (gone.length > 0) {
    // Whatever the template asks for, the scheduler does not get as far as the nodes.
    return { ...base, verdict: 'claim-missing', claimsGone: gone, provedOn: [], caveats: [], missing: [] };
  }
  const oldOnes = isNew ? [...oldPods] : [];
  const notes = sharedClaimNotes(analysis, pod);
  const withNotes = notes.length > 0 ? { ...base, deviceNotes: notes } : base;
  const celError = parsed?.reasons.find((r) => r.claims === 'selector-error');
  if (celError) {
    // The scheduler's own latest word: its DynamicResources filter aborts the pod at a
    // selector that errs, before free devices or old pods matter (no strategy helps).
    return {
      ...withNotes,
      verdict: 'unschedulable',
      selectorError: celError.reason,
      provedOn: [],
      caveats: [],
      missing: [],
    };
  }
  if (parsed?.reasons.some((r) => r.category === 'devices') && !snapshot.dra) {
    // The scheduler speaks of claims and devices, and none of them was read.
    return {
      ...withNotes,
      verdict: 'incomplete',
      provedOn: [],
      caveats: ['the scheduler reports resource claims it cannot allocate, and no DRA object was read'],
      missing: [DRA_READS],
    };
  }
  return {
    ...withNotes,
    ...unknownHolders(snapshot, eligible, pendingVerdict(analysis, base, oldOnes, surges)),
  };
}

/**
 * "No room even with the old pods gone" holds only when the pods in the way are known
 * not to be ours: with the ReplicaSets partly read (a capped list, a dump missing one a
 * pod names), a holder may be an old pod of this Deployment whose ReplicaSet was not
 * read, and letting it go first would free the room.
 */
function unknownHolders(
  snapshot: WorkloadSnapshot,
  eligible: readonly NodeAssessment[],
  judged: Judged,
): Judged {
  if (judged.verdict !== 'unschedulable' || snapshot.coverage.replicaSets === 'complete') return judged;
  const ours = new Set(snapshot.pods);
  const holders = eligible.flatMap((a) =>
    a.remaining.flatMap((b) => ('holders' in b ? b.holders.map((h) => h.pod) : [])),
  );
  const unsure = [...new Set(holders.filter((p) => !ours.has(p)).map((p) => p.metadata.name ?? ''))];
  if (unsure.length === 0) return judged;
  const ns = workloadObject(snapshot).metadata.namespace ?? '';
  return {
    ...judged,
    verdict: 'incomplete',
    caveats: [
      ...judged.caveats,
      `${list(unsure)} ${unsure.length === 1 ? 'holds' : 'hold'} what the pod needs, and the ReplicaSets were not all read: ${unsure.length === 1 ? 'it' : 'they'} may be old pods of this Deployment, which letting go first would free`,
    ],
    missing: [...judged.missing, `the ReplicaSets of ${ns} (kubectl get replicasets -n ${ns} -o yaml)`],
  };
}

const DRA_READS =
  'the set of DRA objects (kubectl get resourceclaims -A -o yaml; kubectl get resourceslices,deviceclasses -o yaml; a live diagnosis needs list on them)';

/** The DRA read that would settle device occupancy, as specific as the coverage allows. */
function draMissing(snapshot: WorkloadSnapshot): string {
  const dra = snapshot.coverage.dra;
  if (!snapshot.dra || !dra) return DRA_READS;
  if (dra.claims !== 'all')
    return 'the list of ResourceClaims in every namespace (kubectl get resourceclaims -A -o yaml; a live diagnosis needs list on resourceclaims cluster-wide)';
  if (dra.slices !== 'complete') return 'the list of ResourceSlices (kubectl get resourceslices -o yaml)';
  return DRA_READS;
}

/** A shared claim (resourceClaimName) is reused by the new pod: say that it cannot deadlock a surge. */
function sharedClaimNotes(ctx: AnalysisContext, pod: Pod): string[] {
  return (needsOf(ctx, pod)?.shared ?? []).map(
    (shared) =>
      `ResourceClaim ${shared.claim} is shared (resourceClaimName) by the old and the new pods: the new pod reuses its allocation, so letting old pods go first frees no device and a surge cannot deadlock on it. It stays allocated while any pod uses it${shared.users.length > 0 ? ` (now ${shared.users.slice(0, 3).join(', ')}${shared.users.length > 3 ? ` and ${shared.users.length - 3} more` : ''})` : ''}.`,
  );
}

type Judged = Pick<
  PendingAssessment,
  'verdict' | 'proof' | 'messageBasis' | 'provedOn' | 'caveats' | 'missing'
>;

/**
 * The verdict for one pending pod. A proof on one node stands: room elsewhere that
 * the model cannot explain, or occupancy that was not read, becomes a caveat. The
 * pod is Pending, so the scheduler found no room anywhere at its last attempt.
 */
function pendingVerdict(
  ctx: AnalysisContext,
  base: Pick<PendingAssessment, 'pod' | 'parsed' | 'eligible' | 'failure'>,
  oldPods: readonly Pod[],
  surges: boolean,
): Judged {
  const { snapshot } = ctx;
  const { eligible } = base;
  const coverage = snapshot.coverage;
  const names = (list: NodeAssessment[]): string[] => list.map((a) => a.node.metadata.name ?? '');
  const roomNow = eligible.filter((a) => a.blockers.length === 0 && a.occupancyKnown);
  const roomUnread = eligible.filter((a) => a.blockers.length === 0 && !a.occupancyKnown);
  const freeing = eligible.filter((a) => a.release !== undefined && a.release.length > 0);
  const proved = freeing.filter((a) => a.releaseProved);
  const transient = eligible.some((a) => a.blockers.length > 0 && a.release?.length === 0);
  const caveats: string[] = [];
  const missing: string[] = [];
  const unreadPods = (nodes: string[]): string =>
    `pods of other workloads on ${list(nodes)} (kubectl get pods -A --field-selector spec.nodeName=${nodes[0] ?? ''})`;
  if (roomNow.length > 0) {
    caveats.push(
      `${list(names(roomNow))} ${roomNow.length === 1 ? 'looks' : 'look'} free for this pod, yet the scheduler did not use ${roomNow.length === 1 ? 'it' : 'them'}: something this analysis does not model keeps the pod off (topology spread, volume node affinity, resource claims, an extender)`,
    );
  }
  const deviceGaps = [...new Set(eligible.map((a) => a.deviceGap).filter((g): g is string => Boolean(g)))];
  const podsUnread = roomUnread.filter((a) => !occupancyKnown(coverage, a.node.metadata.name ?? ''));
  if (podsUnread.length > 0) {
    caveats.push(`who else holds room on ${list(names(podsUnread))} was not read`);
    missing.push(unreadPods(names(podsUnread)));
  }
  if (deviceGaps.length > 0) {
    caveats.push(`device occupancy is not known: ${deviceGaps.join('; ')}`);
    missing.push(draMissing(snapshot));
  }
  const claimsUnread = unreadClaims(snapshot, base.pod);
  if (claimsUnread.length > 0) {
    const ns = base.pod.metadata.namespace ?? '';
    caveats.push(
      `whether PersistentVolumeClaim ${claimsUnread.join(', ')} exists, is bound and how it may be attached was not read`,
    );
    missing.push(
      `PersistentVolumeClaim ${claimsUnread.join(', ')} (kubectl get persistentvolumeclaims -n ${ns} ${claimsUnread.join(' ')} -o yaml)`,
    );
  }
  const deadlock = (proof: 'nodes' | 'message' | 'likely', provedOn: string[]): Judged => ({
    verdict: surges ? 'surge-deadlock' : 'waiting-for-old-pods',
    proof,
    provedOn,
    caveats,
    missing,
  });
  const judged = (verdict: PendingVerdict): Judged => ({ verdict, provedOn: [], caveats, missing });

  if (eligible.length === 0) {
    if (coverage.nodes === 'complete') return judged('unschedulable');
    const fromMessage = messageProof(placementContext(ctx), base.pod, base.parsed, oldPods);
    if (fromMessage.nodes.length > 0)
      return { ...deadlock('message', fromMessage.nodes), messageBasis: 'nodes-unread' };
    // Every node counted out for a reason no old pod frees (taint, selection, cordon).
    const onlySelection = messageProvesUnschedulable(base.pod, base.failure, base.parsed);
    if (onlySelection.proved) return { ...judged('unschedulable'), proof: 'message' };
    missing.push(
      coverage.nodes === 'unread'
        ? 'the nodes (kubectl get nodes -o yaml; a live diagnosis needs list on nodes)'
        : 'the nodes this pod may use (the node list was capped or partly refused)',
    );
    if (fromMessage.missing)
      caveats.push(`the scheduler's message does not settle it: ${fromMessage.missing}`);
    return judged('incomplete');
  }
  if (transient) return judged('transient');
  if (proved.length > 0) return deadlock('nodes', names(proved));
  // Room the model sees may be what an unread claim takes away (missing, unbound, in use).
  if (roomNow.length > 0) return judged(claimsUnread.length > 0 ? 'incomplete' : 'unexplained');
  if (freeing.length > 0) {
    const fromMessage = messageProof(placementContext(ctx), base.pod, base.parsed, oldPods);
    if (fromMessage.nodes.length > 0)
      return { ...deadlock('message', fromMessage.nodes), messageBasis: 'nodes-unread' };
    const unproved = names(freeing.filter((a) => !a.releaseProved));
    caveats.push(
      `on ${list(unproved)} the new pod asks for more than the old pods there hold, and what other workloads hold there was not read`,
    );
    missing.push(unreadPods(unproved));
    return deadlock('likely', []);
  }
  if (roomUnread.length > 0) {
    // A device that looks free may be held by a claim of another namespace: the
    // scheduler's own recent counts can still prove that none is.
    if (deviceGaps.length > 0) {
      const fromMessage = deviceMessageProof(
        placementContext(ctx),
        base.pod,
        base.failure,
        base.parsed,
        eligible,
        oldPods,
      );
      if (fromMessage.nodes.length > 0)
        return { ...deadlock('message', fromMessage.nodes), messageBasis: 'claims-unread' };
      if (fromMessage.missing)
        caveats.push(`the scheduler's message does not settle it: ${fromMessage.missing}`);
    }
    return judged('incomplete');
  }
  const unsettled = eligible.flatMap((a) =>
    a.remaining.filter((b) => b.kind === 'devices' && b.unknownMatching > 0),
  );
  const failing = unsettled.find((b) => b.kind === 'devices' && b.selectorError);
  if (failing?.kind === 'devices' && failing.selectorError) {
    // The selector errs upstream too: the structured allocator returns the CEL runtime
    // error and the DynamicResources filter aborts scheduling of the pod with it, where
    // its search reaches such a device (the device order decides): not a capacity verdict.
    caveats.push(
      `${failing.request}: a selector fails on a device of the node with a CEL runtime error (${failing.selectorError}); the scheduler stops scheduling the pod with that error whenever it evaluates that device, so fix the selector (for example guard the attribute with has())`,
    );
    // A noun phrase: it is rendered as "… was not read", "To settle it, read …" and "Not read: …".
    const podName = base.pod.metadata.name ?? '';
    missing.push(
      `a FailedScheduling event of pod ${podName} that names the selector's error (kubectl describe pod -n ${base.pod.metadata.namespace ?? ''} ${podName}; "CEL runtime error" in its message shows the scheduler stopped at the selector)`,
    );
    return judged('incomplete');
  }
  const firstUnsettled = unsettled[0];
  if (firstUnsettled?.kind === 'devices') {
    // A selector that could not be evaluated may match a free device: unknown, not unschedulable.
    caveats.push(
      `${firstUnsettled.unknownMatching} device(s) may match ${firstUnsettled.request}, but ${firstUnsettled.unknownWhy ?? 'the selector could not be evaluated'}`,
    );
    missing.push(
      firstUnsettled.unknownRead ??
        'an evaluation of the device selectors (kubectl get resourceslices -o yaml, and the DeviceClass)',
    );
    return judged('incomplete');
  }
  const unservedHere = dependsOnUnreadClasses(snapshot, eligible);
  if (unservedHere.length > 0) {
    // DRA is in use and the DeviceClasses were not all read: one may back the resource
    // on nodes without a device plugin for it, and the device blockers would then decide.
    caveats.push(
      `no node it may use advertises ${list(unservedHere)}, and the DeviceClasses were not all read: a class with extendedResourceName may serve it through DRA there`,
    );
    missing.push(
      'the list of DeviceClasses (kubectl get deviceclasses -o yaml; a live diagnosis needs list on deviceclasses)',
    );
    return judged('incomplete');
  }
  return judged('unschedulable');
}

/**
 * Extended resources that block every eligible node only because the node does not
 * advertise them, while DRA is in use and the DeviceClasses were not read whole: the
 * scheduler leaves such a resource to DRA where a class backs it (placement skips it
 * then), so "the node has none" is unknown, not proved.
 */
function dependsOnUnreadClasses(snapshot: WorkloadSnapshot, eligible: readonly NodeAssessment[]): string[] {
  const dra = snapshot.coverage.dra;
  if (!dra || dra.classes === 'complete') return [];
  const absent = eligible.flatMap((a) =>
    a.remaining.flatMap((b) =>
      b.kind === 'resource' &&
      b.resource.includes('/') &&
      a.node.status?.allocatable?.[b.resource] === undefined
        ? [b.resource]
        : [],
    ),
  );
  return [...new Set(absent)];
}

/** Claims the pod mounts that the snapshot lacks while the claims were not read whole. */
function unreadClaims(snapshot: WorkloadSnapshot, pod: Pod): string[] {
  if (pvcsRead(snapshot)) return [];
  return claimNames(pod.spec).filter(
    (claim) =>
      !snapshot.pvcs.some(
        (p) =>
          p.metadata.name === claim &&
          (p.metadata.namespace ?? pod.metadata.namespace) === pod.metadata.namespace,
      ),
  );
}

function list(nodes: readonly string[]): string {
  return nodes.slice(0, 3).join(', ') + (nodes.length > 3 ? ` and ${nodes.length - 3} more` : '');
}

/**
 * Cordoned nodes that would take the pod now: selected, no other untolerated taint
 * than the cordon's own, and room for it. Uncordoning one is the way out without
 * downtime, when the cordon is no longer needed.
 */
export function cordonedWithRoom(analysis: AnalysisContext, pending: PendingAssessment): string[] {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  return pending.ineligible
    .filter(
      ({ reasons }) =>
        reasons.includes('cordoned') &&
        reasons.every((r) => r === 'cordoned' || r.startsWith('taint node.kubernetes.io/unschedulable')),
    )
    .filter(({ node }) => occupancyKnown(snapshot.coverage, node.metadata.name ?? ''))
    .filter(({ node }) => blockersOn(ctx, pending.pod, node).length === 0)
    .map(({ node }) => node.metadata.name ?? '');
}

/** The note that says so, or nothing. */
export function cordonedNote(ctx: AnalysisContext, pending: PendingAssessment): Evidence[] {
  const nodes = cordonedWithRoom(ctx, pending);
  if (nodes.length === 0) return [];
  const named = nodes.slice(0, 3).join(', ') + (nodes.length > 3 ? ` and ${nodes.length - 3} more` : '');
  return [
    {
      type: 'note',
      text: `Cordoned ${nodes.length === 1 ? 'node' : 'nodes'} ${named} ${nodes.length === 1 ? 'matches' : 'match'} this pod and ${nodes.length === 1 ? 'has' : 'have'} room for it now: \`kubectl uncordon ${nodes[0]}\` lets it schedule without downtime, if the cordon is no longer needed.`,
    },
  ];
}

function ineligibility(node: Node, pod: Pod): string[] {
  const reasons: string[] = [];
  if (!selectsNode(node, pod.spec)) reasons.push('nodeSelector/affinity');
  if (node.spec?.unschedulable) reasons.push('cordoned');
  for (const taint of untoleratedTaints(node, pod.spec)) {
    reasons.push(`taint ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`);
  }
  return reasons;
}

function attachBlocks(analysis: AnalysisContext, newPods: Pod[], oldPods: ReadonlySet<Pod>): AttachBlock[] {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const blocks: AttachBlock[] = [];
  for (const pod of newPods) {
    const node = pod.spec.nodeName;
    if (!node || isReady(pod) || isTerminating(pod) || pod.status?.phase !== 'Pending') continue;
    for (const claim of claimNames(pod.spec)) {
      const pvc = snapshot.pvcs.find((p) => p.metadata.name === claim);
      const modes = pvc?.spec.accessModes ?? pvc?.status?.accessModes ?? [];
      if (!modes.includes('ReadWriteOnce') || modes.includes('ReadWriteMany')) continue;
      const holders = [...ctx.occupantsByNode.entries()]
        .filter(([name]) => name !== node)
        .flatMap(([, pods]) => pods)
        .filter((other) => usesClaim(other, pod.metadata.namespace, claim));
      if (holders.length === 0) continue;
      const events = eventsOfPod(snapshot.events, pod).filter((e) => e.reason === 'FailedAttachVolume');
      const releasable = holders.every((h) => oldPods.has(h)) && holders.some((h) => !isTerminating(h));
      blocks.push({ pod, node, claim, holders, releasable, events });
    }
  }
  return blocks;
}
