/**
 * Unschedulable: a pod of this Deployment is Pending and would not fit even with
 * the old pods gone, so no strategy change helps. The finding says what would
 * have to change instead (selector, toleration, capacity, replicas, the claim).
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Analyzer } from '../analyzer.js';
import { categorize } from '../scheduling/scheduling-category.js';
import { blockerResource, capacityRows, describeBlocker, holderNames } from '../placement/capacity-rows.js';
import type { Evidence, Finding } from '../finding.js';
import { placementContext, type Blocker, type PlacementContext } from '../placement/placement.js';
import type { DeviceBlocker } from '../dra/device-blocker.js';
import { formatAmount } from '../base/quantity.js';
import {
  assessRollout,
  cordonedNote,
  schedulingEvidence,
  type PendingAssessment,
} from '../rollout/rollout-assessment.js';
import { heldBackPhrase } from '../scheduling/held-back.js';
import { selectorErrorChange } from '../scheduling/selector-error.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import type { Pod } from '../k8s.js';
import { eventTime, eventsOfPod } from '../base/pod-events.js';
import { isStuckTerminating } from '../base/pods.js';
import { workloadKind, workloadObject } from '../workloads/index.js';
import { daemonBudget, pinnedTo } from '../forward/daemon-budget.js';
import { replacementPlace, roomOnSomeNode } from '../placement/replacement.js';
import { nextPod } from '../rollout/surge-proof.js';
import { firstSentence } from '../../text/sentences.js';

type Draft = Omit<Finding, 'remediations'>;

export const unschedulable: Analyzer = {
  name: 'unschedulable',
  analyze(ctx) {
    const { snapshot } = ctx;
    const pending = holdingUp(ctx);
    const stuck = pending.filter(
      (p) => p.verdict === 'unschedulable' || (p.verdict === 'unexplained' && p.failure !== undefined),
    );
    const first = stuck.find((p) => p.verdict === 'unschedulable') ?? stuck[0];
    const gone = pending.find((p) => p.verdict === 'claim-missing');
    if (gone && first?.verdict !== 'unschedulable') return [claimGoneFinding(snapshot, gone)];
    const held = pending.filter((p) => p.verdict === 'held-back');
    if (!first) return held[0] ? [heldBackFinding(snapshot, held[0], held.length)] : [];
    if (first.eligible.length === 0 && !snapshot.nodesComplete && !first.parsed) return [];
    return [finding(ctx, first, stuck)];
  },
};

/**
 * The Pending pods that hold the rollout up. Not, for an Argo Rollout, a Pending pod of
 * an old revision while a newer one exists: the end state has none of them, and the
 * controller scales their ReplicaSet away without waiting for them (new pods of a higher
 * priority may have preempted one, and its ReplicaSet made it again; after a blue-green
 * switch it goes at the scale-down deadline). The forward model does not follow a
 * Rollout's steps, so nothing else would withdraw "can never finish" for it. (A
 * Deployment's old Pending pod is still explained: the model judges its rollout.)
 */
function holdingUp(ctx: AnalysisContext): PendingAssessment[] {
  const { pending, current } = assessRollout(ctx);
  // An Argo Rollout's controller (its strategy says argo) scales old revisions away unwaited.
  const kind = workloadKind(ctx.snapshot);
  const scaledAway = kind.strategy(kind.object(ctx.snapshot)).argo !== undefined && current !== undefined;
  return scaledAway ? pending.filter((p) => p.isNew) : pending;
}

function finding(analysis: AnalysisContext, pending: PendingAssessment, all: PendingAssessment[]): Draft {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const podName = pending.pod.metadata.name ?? '';
  const count = all.length;
  const lead = `${count === 1 ? `Pod ${podName} is` : `${count} pods (${podName}, ...) are`} Pending`;
  const stuck = stuckHolders(snapshot.capturedAt, pending);
  const { cause, change } = pending.selectorError
    ? selectorFails(pending, pending.selectorError)
    : pending.verdict === 'unexplained'
      ? unexplained(pending)
      : pending.proof === 'message'
        ? fromMessageOnly(pending)
        : pending.eligible.length === 0
          ? noEligibleNode(snapshot, pending)
          : stuck.length > 0
            ? stuckTerminating(stuck)
            : noRoom(ctx, pending);
  const evidence: Evidence[] = schedulingEvidence(pending);
  if (pending.eligible.length > 0) {
    evidence.push({ type: 'node-capacity', rows: capacityRows(ctx, pending.pod, pending.eligible) });
  }
  evidence.push(
    {
      type: 'pods',
      title: 'Pending pods',
      pods: all.map((p) => ({
        name: p.pod.metadata.name ?? '',
        phase: 'Pending',
        detail: p.isNew ? 'new (current template)' : 'older template',
      })),
    },
    { type: 'note', text: `What would have to change: ${change}` },
    ...cordonedNote(analysis, pending),
  );
  // Where the controller may replace the pod by itself, and whether it does is not known:
  // if its replacement fits, the pod is stuck only on one side of that unknown, so the
  // finding is a warning that says so, not a claim that the rollout is stuck.
  const replaced = workloadKind(snapshot).replacedByUpdate?.(snapshot, pending.pod);
  if (replaced && !replaced.known) evidence.push({ type: 'note', text: replaced.why });
  const mayMove =
    replaced !== undefined &&
    !replaced.known &&
    replacementPlace(analysis, pending.pod, replaced.updateRevision).fits === true;
  const moving = mayMove
    ? ` Whether it stays Pending is not known: where the StatefulSet controller replaces it by itself (the note says when), its replacement at ${replaced.updateRevision} fits a node.`
    : '';
  const spent = spentBudget(analysis);
  if (spent) evidence.push({ type: 'note', text: spent });
  return {
    code: 'Unschedulable',
    severity: pending.verdict === 'unexplained' || mayMove ? 'warning' : 'critical',
    summary: `${lead}: ${cause}.${spent ? ` ${firstSentence(spent)}` : ''}${moving}`,
    explanation: `${cause[0]?.toUpperCase() ?? ''}${cause.slice(1)}. ${
      pending.verdict === 'unexplained'
        ? ''
        : 'This is not a rollout-strategy problem: the pod would not fit even if the old pods were gone, so maxSurge 0 or Recreate would only add downtime. '
    }What would have to change: ${change}`,
    evidence,
  };
}

/**
 * A DaemonSet without surge whose Pending new pods spend its maxUnavailable: its
 * controller replaces no old pod on the other nodes while they wait (daemon-budget.ts).
 * A wider maxUnavailable is offered as the way on only where the new template fits one
 * of those nodes once its old pod is gone: else it takes their pods down for a
 * replacement that waits Pending too.
 */
function spentBudget(ctx: AnalysisContext): string | undefined {
  const budget = daemonBudget(ctx);
  if (!budget || budget.surges || budget.oldNodes.length === 0) return undefined;
  const { waiting, maxUnavailable, oldNodes } = budget;
  if (waiting.length < maxUnavailable) return undefined;
  const one = waiting.length === 1;
  const names = waiting.map((w) => `${w.pod} (${w.node})`).join(', ');
  const listed =
    oldNodes.length <= 5
      ? oldNodes.join(', ')
      : `${oldNodes.slice(0, 5).join(', ')} and ${oldNodes.length - 5} more`;
  const wider = waiting.length + 1;
  // The new pod as the controller would make it for each of those nodes, its old pod gone.
  const removed = new Set(ctx.snapshot.pods.filter((p) => oldNodes.includes(p.spec.nodeName ?? '')));
  const pod = nextPod(ctx.snapshot);
  const rooms = oldNodes.map((node) =>
    roomOnSomeNode(ctx, pinnedTo(pod, node), {
      removed,
      where: (n) => n.metadata.name === node,
    }),
  );
  const room = rooms.includes(true) ? true : rooms.includes('unknown') ? 'unknown' : false;
  const meanwhile =
    room === true
      ? `meanwhile maxUnavailable ${wider} would let the other nodes update one at a time.`
      : room === false
        ? `a wider maxUnavailable would not help: the new template fits none of ${listed} either, even with its old pod gone, so each old pod it let go would leave a node with no pod of this DaemonSet.`
        : `whether the new template fits ${listed} once their old pods are gone is not known (not every node or its pods was read), so a wider maxUnavailable could leave those nodes with no pod of this DaemonSet.`;
  return (
    `While ${names} ${one ? 'is' : 'are'} Pending, ${one ? 'it spends' : 'they spend'} the DaemonSet's maxUnavailable of ${maxUnavailable}, so its controller replaces no old pod on ${listed} either: the rollout is stopped on every node. ` +
    `The DaemonSet controller counts each node whose new pod is not available against maxUnavailable (update.go, rollingUpdate), a Pending one included. ` +
    `Make room for ${one ? 'it' : 'them'} first; ${meanwhile}`
  );
}

/** Holders of what the pod needs on its eligible nodes that are stuck terminating. */
function stuckHolders(now: string, pending: PendingAssessment): Pod[] {
  const holders = pending.eligible.flatMap((a) => a.blockers.flatMap((b) => b.holders.map((h) => h.pod)));
  return [...new Set(holders)].filter((pod) => isStuckTerminating(pod, now));
}

/** A pod past its deletion deadline still holds the room: its finalizers or its node keep it. */
function stuckTerminating(pods: Pod[]): { cause: string; change: string } {
  const first = pods[0];
  const names = pods.map((p) => p.metadata.name ?? '').join(', ');
  const finalizers = [...new Set(pods.flatMap((p) => p.metadata.finalizers ?? []))];
  const node = first?.spec.nodeName ?? 'its node';
  return {
    cause: `what it needs on ${node} is held by ${pods.length === 1 ? 'pod' : 'pods'} ${names}, deleted but stuck terminating since ${first?.metadata.deletionTimestamp ?? '?'}${
      finalizers.length > 0 ? ` (finalizers ${finalizers.join(', ')})` : ''
    }`,
    change:
      finalizers.length > 0
        ? `find why the controller that owns ${finalizers.join(', ')} does not remove it (or remove it by hand once that is safe: kubectl patch pod ${first?.metadata.name ?? ''} --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]'); no strategy change frees it`
        : `check the kubelet on ${node} (a pod is removed only when its kubelet confirms); if the node is gone, kubectl delete pod ${first?.metadata.name ?? ''} --force --grace-period=0; no strategy change frees it`,
  };
}

function heldBackFinding(snapshot: WorkloadSnapshot, pending: PendingAssessment, count: number): Draft {
  const podName = pending.pod.metadata.name ?? '';
  const lead = count === 1 ? `Pod ${podName} is` : `${count} pods (${podName}, ...) are`;
  const held = pending.heldBack ?? { gates: [], claims: [] };
  const why = heldBackPhrase(held);
  const advice: string[] = [];
  const found: string[] = [];
  if (held.gates.length > 0) {
    advice.push(
      `find the controller that owns ${held.gates.length === 1 ? 'the gate' : 'the gates'} (a queue such as Kueue, a quota or capacity controller) and why it holds the pod; removing a gate by hand bypasses that controller`,
    );
  }
  for (const claim of held.claims) {
    const said = claimCreation(snapshot, pending.pod, claim);
    if (said.found) found.push(said.found);
    advice.push(said.change);
  }
  const cause = found.length > 0 ? `${why}: ${found.join('; ')}` : why;
  return {
    code: 'Unschedulable',
    severity: 'warning',
    summary: `${lead} waiting before scheduling: ${cause}.`,
    explanation:
      `The scheduler does not try a pod that is held before scheduling, so there is no FailedScheduling event and kubectl shows only Pending (PodScheduled False, SchedulingGated for gates). ` +
      `It is not a capacity or rollout-strategy problem yet: ${advice.join('; ')}.`,
    evidence: [
      {
        type: 'pods',
        title: 'Pods held before scheduling',
        pods: [{ name: podName, phase: 'Pending', detail: why }],
      },
      { type: 'note', text: `What would have to change: ${advice.join('; ')}` },
    ],
  };
}

/**
 * Why the resourceclaim controller has not created a pod's claim from its template. On
 * failure it records a Warning `FailedResourceClaimCreation` on the pod, "PodResourceClaim
 * <claim>: <error>", the error for a missing template being `resource claim template
 * "<t>": resourceclaimtemplate.resource.k8s.io "<t>" not found`
 * (pkg/controller/resourceclaim, syncPod and handleClaim), and retries the pod.
 */
function claimCreation(
  snapshot: WorkloadSnapshot,
  pod: Pod,
  claim: { name: string; template: string },
): { found?: string; change: string } {
  const ns = pod.metadata.namespace ?? workloadObject(snapshot).metadata.namespace ?? '';
  const podName = pod.metadata.name ?? '';
  const templatesRead = snapshot.coverage.dra?.templates === 'complete' && snapshot.dra !== undefined;
  const templateExists = templatesRead
    ? snapshot.dra?.templates.some((t) => t.metadata.name === claim.template && t.metadata.namespace === ns)
    : undefined;
  const event = eventsOfPod(snapshot.events, pod)
    .filter(
      (e) =>
        e.reason === 'FailedResourceClaimCreation' &&
        (e.message ?? '').startsWith(`PodResourceClaim ${claim.name}:`),
    )
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)))[0];
  const create = `create ResourceClaimTemplate ${claim.template} in namespace ${ns} (or roll out a pod template that names one that exists); the resourceclaim controller retries the pod and creates its claim once the template is there`;
  if (event) {
    const message = event.message ?? '';
    const at = eventTime(event);
    const quoted = `the resourceclaim controller says "${message}" (FailedResourceClaimCreation${at ? `, last at ${at}` : ''}${event.count && event.count > 1 ? `, ${event.count} times` : ''})`;
    const missing =
      message.includes(`resource claim template "${claim.template}"`) && / not found\s*$/.test(message);
    if (missing && templateExists)
      return {
        found: `${quoted}, but ResourceClaimTemplate ${claim.template} exists now`,
        change: `ResourceClaimTemplate ${claim.template} was created after that event: the resourceclaim controller creates the claim at its next retry of the pod; if it does not, read its newer events (kubectl describe pod -n ${ns} ${podName})`,
      };
    if (missing)
      return { found: `ResourceClaimTemplate ${claim.template} does not exist: ${quoted}`, change: create };
    return {
      found: quoted,
      change: `fix what that error names (a quota, an admission webhook, the template's contents); the controller retries the pod`,
    };
  }
  if (templateExists === false)
    return {
      found: `ResourceClaimTemplate ${claim.template} does not exist in namespace ${ns} (the templates were read)`,
      change: create,
    };
  if (snapshot.coverage.events !== 'complete') {
    const exists =
      templateExists === true
        ? `ResourceClaimTemplate ${claim.template} exists (read)`
        : `whether ResourceClaimTemplate ${claim.template} exists was not read (kubectl get resourceclaimtemplate ${claim.template} -n ${ns})`;
    return {
      change: `${exists}; the pod's events were not read: a Warning FailedResourceClaimCreation there says why the resourceclaim controller did not create the claim, for example "resource claim template ... not found" (kubectl describe pod -n ${ns} ${podName}, or kubectl get events -n ${ns} --field-selector involvedObject.name=${podName},reason=FailedResourceClaimCreation)`,
    };
  }
  return {
    change:
      templateExists === true
        ? `ResourceClaimTemplate ${claim.template} exists and the resourceclaim controller reported no failure for the pod (no FailedResourceClaimCreation event): it may not have reached the pod yet; check that kube-controller-manager runs its resourceclaim-controller and is healthy`
        : `check that ResourceClaimTemplate ${claim.template} exists in namespace ${ns} (kubectl get resourceclaimtemplate ${claim.template} -n ${ns}); the resourceclaim controller reported no failure for the pod (no FailedResourceClaimCreation event)`,
  };
}

/**
 * The pod's status names a per-pod claim the API server no longer has (deleted by hand
 * or by a cleanup). The DynamicResources plugin looks each claim of the pod up in
 * PreFilter and rejects the pod on every node until it exists: its claim cache
 * (assumecache.NotFoundError, description "ResourceClaim") says `could not find
 * ResourceClaim "<ns>/<name>"`; older schedulers that read claims through a lister said
 * `resourceclaim.resource.k8s.io "<name>" not found`.
 * The resourceclaim controller creates a new claim from the template for a pod that is
 * not done and records it in the pod's status (pkg/controller/resourceclaim, handleClaim).
 */
function claimGoneFinding(snapshot: WorkloadSnapshot, pending: PendingAssessment): Draft {
  const podName = pending.pod.metadata.name ?? '';
  const ns = pending.pod.metadata.namespace ?? workloadObject(snapshot).metadata.namespace ?? '';
  const gone = pending.claimsGone ?? [];
  const named = gone
    .map((c) => `ResourceClaim ${c.claim} (for its claim ${c.name}, from template ${c.template})`)
    .join(', ');
  const templatesRead = snapshot.coverage.dra?.templates === 'complete';
  const absentTemplates = gone
    .map((c) => c.template)
    .filter((t) => templatesRead && !snapshot.dra?.templates.some((x) => x.metadata.name === t));
  const first = gone[0];
  const wording = first ? `could not find ResourceClaim "${ns}/${first.claim}"` : '';
  const older = first ? `resourceclaim.resource.k8s.io "${first.claim}" not found` : '';
  const change =
    absentTemplates.length > 0
      ? `ResourceClaimTemplate ${absentTemplates.join(', ')} no longer exists either, so the resourceclaim controller cannot create a new claim: restore the template (or roll out a template that names one that exists), then delete pod ${podName} so that its ReplicaSet replaces it`
      : `the resourceclaim controller creates a new claim from the template for a pod that is not done and records it in the pod's status; if that does not happen, read its events for the pod (kubectl describe pod -n ${ns} ${podName}) or delete the pod so that its ReplicaSet replaces it`;
  const cause = `its ${named} no longer exists, and the scheduler rejects the pod before it looks at any node (${wording})`;
  return {
    code: 'Unschedulable',
    severity: 'warning',
    summary: `Pod ${podName} is Pending: ${cause}.`,
    explanation:
      `The pod's status.resourceClaimStatuses names ${named}, which the API server no longer has (deleted by hand or by a cleanup). The scheduler's DynamicResources plugin looks every claim of the pod up first and rejects the pod on every node while one is missing (${wording}, from the scheduler's claim cache; older schedulers that read claims through a lister said ${older}), so what the template asks for and what the old pods hold decide nothing yet: this is neither a surge deadlock nor a capacity problem, and changing the rollout strategy would not help. ` +
      `What would have to change: ${change}.`,
    evidence: [
      ...schedulingEvidence(pending),
      {
        type: 'pods',
        title: 'Pending pods',
        pods: [{ name: podName, phase: 'Pending', detail: `ResourceClaim ${first?.claim ?? ''} not found` }],
      },
      { type: 'note', text: `What would have to change: ${change}` },
    ],
  };
}

/**
 * Nodes unread: the scheduler's message counted every node out for taints, selection
 * or cordons (messageProvesUnschedulable), so the proof is its message, not the nodes.
 */
function fromMessageOnly(pending: PendingAssessment): { cause: string; change: string } {
  const parsed = pending.parsed;
  const reasons = parsed?.reasons ?? [];
  const said = reasons.map((r) => `${r.count} ${r.reason}`).join(', ');
  const changes: string[] = [];
  const taints = reasons.filter((r) => r.category === 'taints');
  if (taints.length > 0) {
    const named = taints.map((r) => (r.taint ? `${r.taint.key}=${r.taint.value}` : undefined));
    changes.push(
      named.every(Boolean)
        ? `add a toleration for ${named.join(', ')} to the pod template, or remove the taint`
        : 'add a toleration for the taint (the message names none: read it with kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints) to the pod template, or remove it',
    );
  }
  if (reasons.some((r) => r.category === 'node-selection'))
    changes.push(`point the ${describeSelector(pending)} at a node that exists (or label one to match it)`);
  if (reasons.some((r) => r.category === 'node-unschedulable'))
    changes.push('uncordon a node it may use (kubectl uncordon)');
  return {
    cause: `the scheduler counted all ${parsed?.total ?? 0} node(s) out (${said}${pending.failure?.at ? `, at ${pending.failure.at}` : ''}) for reasons no old pod's leaving changes; the nodes were not read (no permission to list nodes, or a dump without them), so the proof is the scheduler's message`,
    change: changes.join('; '),
  };
}

function noEligibleNode(
  snapshot: WorkloadSnapshot,
  pending: PendingAssessment,
): { cause: string; change: string } {
  // The nodes read are those that matter (the template's selection, where its pods run), not
  // the cluster's: with all of them read, no node matches; else only the inspected ones are said.
  const noneOf = snapshot.nodesComplete
    ? 'no node matches'
    : `none of the ${pending.ineligible.length} inspected nodes matches`;
  const bySelector = pending.ineligible.filter((n) => n.reasons.includes('nodeSelector/affinity'));
  const selected = pending.ineligible.filter((n) => !n.reasons.includes('nodeSelector/affinity'));
  const selector = describeSelector(pending);
  if (selected.length === 0) {
    return {
      cause: `${noneOf} its ${selector}`,
      change: `point the ${selector} at an existing node (or label a node to match it)`,
    };
  }
  const taints = [...new Set(selected.flatMap((n) => n.reasons.filter((r) => r.startsWith('taint '))))];
  const cordoned = selected.filter((n) => n.reasons.includes('cordoned')).map((n) => n.node.metadata.name);
  const parts: string[] = [];
  const changes: string[] = [];
  if (taints.length > 0) {
    parts.push(
      `the nodes it may use carry ${taints.map((t) => t.slice(6)).join(', ')} without a matching toleration`,
    );
    changes.push(
      `add a toleration for ${taints.map((t) => t.slice(6)).join(', ')} to the pod template, or remove the taint`,
    );
  }
  if (cordoned.length > 0) {
    parts.push(`${cordoned.join(', ')} ${cordoned.length === 1 ? 'is' : 'are'} cordoned`);
    changes.push(`uncordon ${cordoned.join(', ')} (kubectl uncordon)`);
  }
  const rest =
    bySelector.length > 0 ? ` (${bySelector.length} other nodes do not match its ${selector})` : '';
  return { cause: `${parts.join('; ')}${rest}`, change: changes.join('; ') };
}

function describeSelector(pending: PendingAssessment): string {
  const selector = Object.entries(pending.pod.spec.nodeSelector ?? {}).map(([k, v]) => `${k}=${v}`);
  const affinity = pending.pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (selector.length > 0)
    return `nodeSelector ${selector.join(',')}${affinity ? ' and required node affinity' : ''}`;
  return affinity ? 'required node affinity' : 'node selection';
}

function noRoom(ctx: PlacementContext, pending: PendingAssessment): { cause: string; change: string } {
  const remaining = pending.eligible.flatMap((a) =>
    a.remaining.map((b) => ({ node: a.node.metadata.name ?? '', b })),
  );
  const nodes = pending.eligible.map((a) => a.node.metadata.name ?? '');
  const first = remaining[0];
  if (!first) return { cause: 'no eligible node has room', change: 'add capacity' };
  const b = first.b;
  const absent =
    b.kind === 'resource' &&
    remaining.every((r) => r.b.kind === 'resource' && r.b.resource === b.resource && r.b.allocatable === 0);
  const unhealthy = remaining.filter(
    (r) => r.b.kind === 'resource' && r.b.allocatable === 0 && r.b.capacity > 0,
  );
  if (b.kind === 'resource' && absent && unhealthy.length > 0) {
    // The device exists and the request is right: the node cannot hand it out.
    const sick = [...new Set(unhealthy.map((r) => r.node))];
    return {
      cause: `${sick.slice(0, 3).join(', ')}${sick.length > 3 ? ` and ${sick.length - 3} more` : ''} ${sick.length === 1 ? 'has' : 'have'} ${b.resource} but none allocatable (capacity above 0, allocatable 0: the device plugin reports the device unhealthy)`,
      change: `repair the ${b.resource} device or its device plugin on ${sick.slice(0, 3).join(', ')} (kubectl describe node shows Capacity against Allocatable); the request itself is right`,
    };
  }
  if (b.kind === 'resource' && absent) {
    const where =
      nodes.length === 1
        ? `${nodes[0]}, the only node it may use, has no`
        : `none of the ${nodes.length} nodes it may use has any`;
    return {
      cause: `${where} ${b.resource} (it asks for ${formatAmount(b.resource, b.need)})`,
      change: changeFor(ctx, b, pending),
    };
  }
  const where =
    nodes.length === 1
      ? `${nodes[0]}, the only node it may use, has no`
      : `none of the ${nodes.length} nodes it may use has`;
  return {
    cause: `it needs ${describeBlocker(b)} and ${where} room for it even with the old pods gone`,
    change: changeFor(ctx, b, pending),
  };
}

function changeFor(ctx: PlacementContext, blocker: Blocker, pending: PendingAssessment): string {
  switch (blocker.kind) {
    case 'resource': {
      if (blocker.allocatable === 0) {
        return `select nodes that have ${blocker.resource} (the ${describeSelector(pending)} names nodes without any), or drop the ${blocker.resource} request`;
      }
      const ours = blocker.holders.filter((h) => ctx.ours.has(h.pod)).length;
      const scale =
        ours > 0
          ? `lower replicas (${ours} replica${ours === 1 ? '' : 's'} of this ${ctx.snapshot.target.kind} already hold it there), `
          : '';
      return `${scale}add ${blocker.resource} capacity to the eligible nodes, widen the node selection, or free what other workloads hold (${holderNames(blocker) || 'none'})`;
    }
    case 'host-port':
      return `free ${blockerResource(blocker)} (held by ${holderNames(blocker)}), change the hostPort, or widen the node selection`;
    case 'anti-affinity':
      return `add nodes in new ${blocker.topologyKey} domains, lower replicas, or relax the required anti-affinity (held by ${holderNames(blocker)})`;
    case 'topology-spread':
      return blocker.missingLabel
        ? `label the eligible nodes with ${blocker.topologyKey}, or spread by a key they carry`
        : `${blocker.lastingFix === 'nodeTaintsPolicy' ? 'set nodeTaintsPolicy: Honor on the constraint (tainted nodes count as empty domains), ' : blocker.lastingFix === 'matchLabelKeys' ? 'add matchLabelKeys: [pod-template-hash] to the constraint (other revisions count against it), ' : ''}add room in other ${blocker.topologyKey} domains, raise maxSkew, or make the constraint ScheduleAnyway (counting ${holderNames(blocker)} in ${blocker.domain})`;
    case 'devices':
      return deviceChange(ctx, blocker);
    case 'volume':
      if (blocker.problem === 'node-affinity')
        return `make room on the node of volume ${blocker.volume ?? ''} (claim ${blocker.claim} is bound to it, and a local volume does not move), or uncordon that node`;
      return blocker.problem === 'in-use-rwop'
        ? `stop ${holderNames(blocker)}, which holds ReadWriteOncePod claim ${blocker.claim}`
        : `fix PersistentVolumeClaim ${blocker.claim} (${blocker.problem === 'unbound' ? 'check its StorageClass and provisioner events' : 'create it'})`;
  }
}

/** DRA: a claim allocated elsewhere, no matching device, or devices other workloads hold (contention). */
function deviceChange(ctx: PlacementContext, blocker: DeviceBlocker): string {
  if (blocker.allocatedElsewhere)
    return `run the pod where ResourceClaim ${blocker.allocatedElsewhere} is allocated, or release that claim (it stays allocated while any pod uses it)`;
  if (blocker.published?.matching === 0)
    return blocker.published.ofClass > 0 && blocker.published.selectors.length > 0
      ? `no device any ResourceSlice publishes satisfies the request's selectors: fix the selector, or add nodes whose driver publishes such a device`
      : `no device any ResourceSlice publishes satisfies DeviceClass ${blocker.deviceClassName}: fix the class's selectors, or install the driver that publishes such devices`;
  if (blocker.matching === 0 && blocker.unknownMatching === 0)
    return `no device on the eligible nodes satisfies DeviceClass ${blocker.deviceClassName} and the request's selectors${blocker.tainted > 0 ? ' (or its matching devices carry taints the request does not tolerate)' : ''}: fix the selector or class, or select nodes that have such devices`;
  if (blocker.need > blocker.matching)
    return `the request asks for ${blocker.need} devices and the node has ${blocker.matching} that match: lower the count, or select nodes with more devices`;
  const others = blocker.holders.filter((h) => !ctx.ours.has(h.pod));
  const names = others.map(
    (h) => `${h.pod.metadata.namespace ? `${h.pod.metadata.namespace}/` : ''}${h.pod.metadata.name ?? ''}`,
  );
  // Claims no pod uses: not another tenant's workload; say what keeps them allocated.
  const unused = [...new Set(blocker.held.flatMap((h) => (h.unused ? [h.unused] : [])))];
  const idle = unused.length > 0 ? `${unused.slice(0, 2).join('; ')}. ` : '';
  if (names.length === 0 && unused.length > 0)
    return `${idle}No strategy change frees ${unused.length === 1 ? 'that claim' : 'those claims'}; add devices or widen the node selection meanwhile`;
  return `${idle}the matching devices are held by claims of other workloads (${names.slice(0, 3).join(', ')}): this is contention for devices, not a rollout deadlock; free those claims, add devices, or widen the node selection`;
}

/** The scheduler's latest word is a CEL runtime error in a device selector (DynamicResources). */
function selectorFails(pending: PendingAssessment, reason: string): { cause: string; change: string } {
  const at = pending.failure?.at ? ` at ${pending.failure.at}` : '';
  return {
    cause: `the scheduler stops at a device selector that fails with a CEL runtime error ("${reason}"${at}): its DynamicResources filter aborts the pod's scheduling there at every attempt, before free devices or old pods matter`,
    change: selectorErrorChange(reason),
  };
}

function unexplained(pending: PendingAssessment): { cause: string; change: string } {
  const reasons = pending.parsed?.reasons.map((r) => `${r.count} ${r.reason}`).join(', ');
  const room = pending.eligible.filter((a) => a.blockers.length === 0).map((a) => a.node.metadata.name);
  const unmodelled = unmodelledFilters(pending.parsed?.reasons.map((r) => r.reason) ?? []);
  const said = `the scheduler reports ${reasons ? `"${reasons}"` : `"${pending.failure?.message ?? ''}"`}`;
  return {
    cause:
      unmodelled.length > 0
        ? `${said}: ${unmodelled.join('; ')} ${unmodelled.length === 1 ? 'is a filter' : 'are filters'} this analysis does not evaluate, so it cannot say whether ${room.slice(0, 3).join(', ')} would take the pod (what it does evaluate leaves room there)`
        : `${said}, yet what this analysis evaluates (resources, ports, taints, node selection, anti-affinity, topology spread, claims, devices) leaves room on ${room.slice(0, 3).join(', ')}`,
    change:
      unmodelled.length > 0
        ? `check ${unmodelled.join('; ')} for this pod`
        : "the message may be older than the pod's last attempt (it may schedule on the next), or a scheduler extender keeps it off",
  };
}

/** The reasons that name a scheduler filter the placement model does not evaluate, named. */
function unmodelledFilters(reasons: readonly string[]): string[] {
  const out = new Set<string>();
  for (const reason of reasons) {
    const lower = reason.toLowerCase();
    if (lower.includes("didn't match pod affinity rules") || lower.includes('pod affinity rules'))
      out.add('required pod affinity (InterPodAffinity)');
    else if (lower.includes('volume node affinity conflict')) out.add('volume node affinity (VolumeBinding)');
    else if (lower.includes('max volume count')) out.add('volume attach limits (NodeVolumeLimits)');
    else if (lower.includes('volume zone')) out.add('volume zone (VolumeZone)');
    else if (categorize(reason).category === 'other') out.add(`"${reason}"`);
  }
  return [...out];
}
