/**
 * The verdict for one pending pod, in named steps. A proof on one node stands: room
 * elsewhere that the model cannot explain, or occupancy that was not read, becomes a
 * caveat. The pod is Pending, so the scheduler found no room anywhere at its last
 * attempt. The steps, in order:
 *
 * 1. what the eligible nodes show (room now, room unread, room once old pods go);
 * 2. what was not read, as caveats and the reads that settle them;
 * 3. no eligible node: unschedulable from a complete node list, else the scheduler's
 *    counts (a release proof, or every node out for a reason no old pod frees), else
 *    incomplete;
 * 4. transient, a proved release (surge deadlock), room the model cannot explain;
 * 5. a release not proved from the nodes: the scheduler's counts, else likely;
 * 6. room on nodes whose occupancy was not read: the scheduler's device counts, else
 *    incomplete;
 * 7. no room anywhere: unschedulable, unless a device selector, an unevaluated
 *    selector or an unread DeviceClass leaves it open.
 *
 * The words are pending-words.ts'.
 */
import type { AnalysisContext } from '../analysis-context.js';
import { claimNames } from '../base/pod-constraints.js';
import type { Pod } from '../k8s.js';
import type { NodeAssessment } from '../placement/holder-release.js';
import { placementContext } from '../placement/placement.js';
import { occupancyKnown, pvcsRead, type WorkloadSnapshot } from '../snapshot/types.js';
import { deviceMessageProof, messageProof, messageProvesUnschedulable } from './message-proof.js';
import type { Judged, PendingAssessment, PendingVerdict } from './pending-types.js';
import { draMissing, pendingWords as words } from './pending-words.js';
import { outranksHolders, preemptionFailed } from '../scheduling/preemption.js';

type PendingBase = Pick<PendingAssessment, 'pod' | 'parsed' | 'eligible' | 'failure'>;

/** What the eligible nodes show for the pod. */
interface NodeView {
  /** No blocker, and every pod there was read. */
  roomNow: NodeAssessment[];
  /** No blocker seen, but occupancy (pods or devices) was not read whole. */
  roomUnread: NodeAssessment[];
  /** Room once some of our live old pods go. */
  freeing: NodeAssessment[];
  /** …and that release is proved from the node's objects. */
  proved: NodeAssessment[];
  /** Room once already-terminating old pods are gone. */
  transient: boolean;
  deviceGaps: string[];
}

/** What the verdict stands despite and what would settle it, filled as the steps go. */
interface Reading {
  caveats: string[];
  missing: string[];
  claimsUnread: string[];
}

/** What every step is handed: the pod, what the nodes show and what is read so far. */
interface Step {
  ctx: AnalysisContext;
  base: PendingBase;
  oldPods: readonly Pod[];
  view: NodeView;
  reading: Reading;
  say: Say;
}

/** The verdicts a step can return, all carrying the same caveats and reads. */
interface Say {
  judged(verdict: PendingVerdict): Judged;
  deadlock(proof: 'nodes' | 'message' | 'likely', provedOn: string[]): Judged;
  fromMessage(provedOn: string[], basis: 'nodes-unread' | 'claims-unread'): Judged;
}

export function pendingVerdict(
  ctx: AnalysisContext,
  base: PendingBase,
  oldPods: readonly Pod[],
  surges: boolean,
): Judged {
  const view = nodeView(base.eligible);
  const reading = readingGaps(ctx.snapshot, base.pod, view);
  const say = sayer(reading, surges);
  const step: Step = { ctx, base, oldPods, view, reading, say };
  const judged = judge(step);
  return judged.verdict === 'surge-deadlock' ? outranked(step, judged) : judged;
}

/**
 * A surge deadlock where the new pod outranks the old pods that hold its room (a
 * template that raised the priority): the scheduler preempts them, so it is none. A
 * release proved from the nodes or the scheduler's counts is a preemption to come; one
 * only likely (other pods on the node unread) is not known; where the scheduler's latest
 * attempt found no victim, whatever keeps it from preempting stands.
 */
function outranked({ base, oldPods, view, reading }: Step, judged: Judged): Judged {
  const onProved = oldPods.filter((p) => judged.provedOn.includes(p.spec.nodeName ?? ''));
  const holders = onProved.length > 0 ? onProved : view.freeing.flatMap((a) => a.release ?? []);
  const preemption = outranksHolders(base.pod, holders);
  // The scheduler's own latest word that preemption finds no victim stands (forward/run.ts too).
  if (!preemption || preemptionFailed(base.failure?.message ?? '')) return judged;
  if (judged.proof !== 'likely')
    return { verdict: 'preempting', preemption, provedOn: [], caveats: judged.caveats, missing: [] };
  reading.caveats.push(words.outranksCaveat(preemption.victims.map((p) => p.metadata.name ?? '')));
  return { ...judged, verdict: 'incomplete', provedOn: [] };
}

/** Steps 3 to 7, in order. */
function judge(step: Step): Judged {
  const { base, view, reading, say } = step;
  if (base.eligible.length === 0) return noEligibleNode(step);
  if (view.transient) return say.judged('transient');
  const preempting = lowerPriorityRoom(step);
  if (preempting) return preempting;
  if (view.proved.length > 0) return say.deadlock('nodes', names(view.proved));
  // Room the model sees may be what an unread claim takes away (missing, unbound, in use).
  if (view.roomNow.length > 0)
    return say.judged(reading.claimsUnread.length > 0 ? 'incomplete' : 'unexplained');
  if (view.freeing.length > 0) return releaseUnproved(step);
  if (view.roomUnread.length > 0) return roomUnread(step);
  return noRoomAnywhere(step);
}

/**
 * Where pods on the nodes were not read (so the forward model does not run): a node where
 * pods of lower priority alone hold the room, proved (holder-release.ts `preemptsNow`).
 * The scheduler's next attempt preempts them there, so the pod is not stuck, unless its
 * latest attempt says preemption found no victim (that word stands) or the pod never
 * preempts.
 */
function lowerPriorityRoom({ base, view, reading }: Step): Judged | undefined {
  if (base.pod.spec.preemptionPolicy === 'Never' || preemptionFailed(base.failure?.message ?? ''))
    return undefined;
  // Where every pod on the nodes was read the forward model runs the scheduler, preemption
  // included (forward/world.ts), and says the rollout goes on with the pods it preempts.
  if (base.eligible.every((a) => a.occupancyKnown)) return undefined;
  const nominated = base.pod.status?.nominatedNodeName;
  const nodes = base.eligible.filter((a) => (a.preemptsNow?.length ?? 0) > 0);
  const at = nodes.find((a) => a.node.metadata.name === nominated) ?? nodes[0];
  if (!at?.preemptsNow || view.roomNow.length > 0) return undefined;
  return {
    verdict: 'preempting',
    preemption: { node: at.node.metadata.name ?? '', victims: at.preemptsNow, basis: 'lower-priority' },
    provedOn: [],
    caveats: reading.caveats,
    missing: [],
  };
}

function names(list: readonly NodeAssessment[]): string[] {
  return list.map((a) => a.node.metadata.name ?? '');
}

function nodeView(eligible: readonly NodeAssessment[]): NodeView {
  const freeing = eligible.filter((a) => a.release !== undefined && a.release.length > 0);
  return {
    roomNow: eligible.filter((a) => a.blockers.length === 0 && a.occupancyKnown),
    roomUnread: eligible.filter((a) => a.blockers.length === 0 && !a.occupancyKnown),
    freeing,
    proved: freeing.filter((a) => a.releaseProved),
    transient: eligible.some((a) => a.blockers.length > 0 && a.release?.length === 0),
    deviceGaps: [...new Set(eligible.map((a) => a.deviceGap).filter((g): g is string => Boolean(g)))],
  };
}

/** Step 2: room that looks free but was not taken, and every read that was not made. */
function readingGaps(snapshot: WorkloadSnapshot, pod: Pod, view: NodeView): Reading {
  const reading: Reading = { caveats: [], missing: [], claimsUnread: unreadClaims(snapshot, pod) };
  if (view.roomNow.length > 0) reading.caveats.push(words.roomNowCaveat(names(view.roomNow)));
  const podsUnread = view.roomUnread.filter(
    (a) => !occupancyKnown(snapshot.coverage, a.node.metadata.name ?? ''),
  );
  if (podsUnread.length > 0) {
    reading.caveats.push(words.occupancyUnreadCaveat(names(podsUnread)));
    reading.missing.push(words.podsOnNodesRead(names(podsUnread)));
  }
  if (view.deviceGaps.length > 0) {
    reading.caveats.push(words.deviceOccupancyCaveat(view.deviceGaps));
    reading.missing.push(draMissing(snapshot));
  }
  if (reading.claimsUnread.length > 0) {
    reading.caveats.push(words.claimsUnreadCaveat(reading.claimsUnread));
    reading.missing.push(words.claimsRead(reading.claimsUnread, pod.metadata.namespace ?? ''));
  }
  return reading;
}

function sayer(reading: Reading, surges: boolean): Say {
  const { caveats, missing } = reading;
  const deadlock = (proof: 'nodes' | 'message' | 'likely', provedOn: string[]): Judged => ({
    verdict: surges ? 'surge-deadlock' : 'waiting-for-old-pods',
    proof,
    provedOn,
    caveats,
    missing,
  });
  return {
    judged: (verdict) => ({ verdict, provedOn: [], caveats, missing }),
    deadlock,
    fromMessage: (provedOn, basis) => ({ ...deadlock('message', provedOn), messageBasis: basis }),
  };
}

/** Step 3: no node read takes the pod. */
function noEligibleNode({ ctx, base, oldPods, reading, say }: Step): Judged {
  const nodes = ctx.snapshot.coverage.nodes;
  if (nodes === 'complete') return say.judged('unschedulable');
  const fromMessage = messageProof(placementContext(ctx), base.pod, base.parsed, oldPods);
  if (fromMessage.nodes.length > 0) return say.fromMessage(fromMessage.nodes, 'nodes-unread');
  // Every node counted out for a reason no old pod frees (taint, selection, cordon).
  const onlySelection = messageProvesUnschedulable(base.pod, base.failure, base.parsed);
  if (onlySelection.proved) return { ...say.judged('unschedulable'), proof: 'message' };
  reading.missing.push(words.nodesRead(nodes));
  if (fromMessage.missing) reading.caveats.push(words.messageUnsettledCaveat(fromMessage.missing));
  return say.judged('incomplete');
}

/** Step 5: room once old pods go, on nodes whose other pods were not all read. */
function releaseUnproved({ ctx, base, oldPods, view, reading, say }: Step): Judged {
  const fromMessage = messageProof(placementContext(ctx), base.pod, base.parsed, oldPods);
  if (fromMessage.nodes.length > 0) return say.fromMessage(fromMessage.nodes, 'nodes-unread');
  const unproved = names(view.freeing.filter((a) => !a.releaseProved));
  reading.caveats.push(words.releaseUnprovedCaveat(unproved));
  reading.missing.push(words.podsOnNodesRead(unproved));
  return say.deadlock('likely', []);
}

/**
 * Step 6: room on nodes whose occupancy was not read. A device that looks free may be
 * held by a claim of another namespace: the scheduler's own recent counts can still
 * prove that none is.
 */
function roomUnread({ ctx, base, oldPods, view, reading, say }: Step): Judged {
  if (view.deviceGaps.length > 0) {
    const fromMessage = deviceMessageProof(
      placementContext(ctx),
      base.pod,
      base.failure,
      base.parsed,
      base.eligible,
      oldPods,
    );
    if (fromMessage.nodes.length > 0) return say.fromMessage(fromMessage.nodes, 'claims-unread');
    if (fromMessage.missing) reading.caveats.push(words.messageUnsettledCaveat(fromMessage.missing));
  }
  return say.judged('incomplete');
}

/** Step 7: no eligible node has room, even with our old pods gone. */
function noRoomAnywhere({ ctx, base, reading, say }: Step): Judged {
  const { snapshot } = ctx;
  const unsettled = base.eligible.flatMap((a) =>
    a.remaining.filter((b) => b.kind === 'devices' && b.unknownMatching > 0),
  );
  const failing = unsettled.find((b) => b.kind === 'devices' && b.selectorError);
  if (failing?.kind === 'devices' && failing.selectorError) {
    // The selector errs upstream too: the structured allocator returns the CEL runtime
    // error and the DynamicResources filter aborts scheduling of the pod with it, where
    // its search reaches such a device (the device order decides): not a capacity verdict.
    reading.caveats.push(words.selectorErrorCaveat(failing.request, failing.selectorError));
    reading.missing.push(
      words.selectorErrorEventRead(base.pod.metadata.name ?? '', base.pod.metadata.namespace ?? ''),
    );
    return say.judged('incomplete');
  }
  const firstUnsettled = unsettled[0];
  if (firstUnsettled?.kind === 'devices') {
    // A selector that could not be evaluated may match a free device: unknown, not unschedulable.
    reading.caveats.push(
      words.unsettledDevicesCaveat(
        firstUnsettled.unknownMatching,
        firstUnsettled.request,
        firstUnsettled.unknownWhy,
      ),
    );
    reading.missing.push(firstUnsettled.unknownRead ?? words.selectorsRead);
    return say.judged('incomplete');
  }
  const unservedHere = dependsOnUnreadClasses(snapshot, base.eligible);
  if (unservedHere.length > 0) {
    // DRA is in use and the DeviceClasses were not all read: one may back the resource
    // on nodes without a device plugin for it, and the device blockers would then decide.
    reading.caveats.push(words.unreadClassesCaveat(unservedHere));
    reading.missing.push(words.classesRead);
    return say.judged('incomplete');
  }
  return say.judged('unschedulable');
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
