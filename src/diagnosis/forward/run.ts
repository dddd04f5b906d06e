/**
 * The forward model run (DESIGN.md §4c): from the snapshot, apply what the controllers,
 * quota admission, the scheduler's filters and preemption do next, tick by tick, until
 * the rollout completes or nothing changes any more. Pure: no clock, no I/O.
 *
 * Each tick: terminating pods are gone (their node and quota free), starting pods are
 * Ready (unless a ReadWriteOnce volume they need is attached elsewhere), the workload's
 * controller takes its next step (controllers.ts), and the scheduler binds what fits or
 * preempts lower-priority pods for it. The run says 'unknown' where the model cannot
 * stand behind an answer: pods or nodes not read, devices (DRA) the template claims,
 * a kind or strategy it does not model.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { MODEL_WHY } from './model-why.js';
import { isEligible } from '../base/node-match.js';
import { claimNames } from '../base/pod-constraints.js';
import { placementContext, usesClaim } from '../placement/placement.js';
import { nextPod } from '../rollout/surge-proof.js';
import { occupancyKnown } from '../snapshot/types.js';
import { podTemplateOf, workloadKind } from '../workloads/index.js';
import { autoscaled } from '../guards/autoscaler.js';
import { stepPerNode, stepReplicas } from './controllers.js';
import {
  countReady,
  countServing,
  live,
  type Intervention,
  type Model,
  type ModelPod,
  type Step,
} from './model.js';
import { currentTemplateCrash } from './crash-model.js';
import { ModelPods } from './model-pods.js';
import { applyChange, stepOld } from './intervention.js';
import { kubeletReports, podPhases } from './pod-phase.js';
import { pinnedNode } from './daemon-budget.js';
import { latestSchedulingFailure } from '../base/pod-events.js';
import { draBackedResources } from '../dra/needs.js';
import { isReady, isUnscheduled } from '../base/pods.js';
import { heldBeforeScheduling } from '../scheduling/held-back.js';
import { World, quotaRef } from './world.js';
import { quotasOf } from './quota-ledgers.js';
import { finalStateShortfall } from './final-state.js';
import { unbuilt, type Unbuilt } from './unbuilt.js';
import { proxyStrategy } from './proxy-strategy.js';
import { assessRollout } from '../rollout/rollout-assessment.js';
import { leavingNeighbours, rivalsOf, type QueueOrder, type Rival } from './rivals.js';
import { ordinalsOf, unreadVolumes } from './ordinal-claims.js';
import { perNodeShape, replicaShape, unbound } from './model-shapes.js';
import { withDaemonTolerations } from './daemon-tolerations.js';
import { preemptionFailed } from '../scheduling/preemption.js';

import type { Outcome, Variant } from './outcome.js';
export type { Outcome, Variant };

/** What a run saw of the workload's serving pods (a plan's proof reads it). */
export interface Trace {
  /** Serving (available) pods before the first tick, the fewest at the end of any tick, and when the run ends. */
  serving: { start: number; lowest: number; end: number };
  /** Nodes where a new pod of a template known to crash started and crash-looped. */
  crashedOn: string[];
  /** Nodes of the workload's pods that still fail when the run ends (crash-looping, not starting). */
  failingAtEnd: string[];
}

const UNMODELLED = MODEL_WHY.unmodelled;

/** Why the model was not built; `unread` when the gap is what was read (nodes, their pods, the namespace's pods). */
export function runForward(
  ctx: AnalysisContext,
  variant: Variant,
  order: QueueOrder = 'ours-first',
  /** Other workloads' pods gone at the first step (a Job's, once it ends: job-wait.ts). */
  othersGone?: readonly Pod[],
): Outcome {
  return run(ctx, variant, othersGone ? { othersGone } : undefined, order).outcome;
}

/**
 * A plan's run: the snapshot with the plan's write applied (`change`), then the
 * controllers and the scheduler forward, with what the serving pods went through.
 * The trace is absent where the model cannot follow the workload ('unknown', 'moving').
 */
export function runWithChange(
  ctx: AnalysisContext,
  change: Intervention,
  order: QueueOrder = 'ours-first',
): { outcome: Outcome; trace?: Trace } {
  return run(ctx, change.template ? 'next-rollout' : 'as-is', change, order);
}

/** The manifest's own run: no plan's write, at most other workloads' pods gone. */
function asManifest(variant: Variant, change: Intervention | undefined): boolean {
  return variant === 'candidate' && Object.keys(change ?? {}).every((k) => k === 'othersGone');
}

function run(
  ctx: AnalysisContext,
  variant: Variant,
  change?: Intervention,
  order: QueueOrder = 'ours-first',
): { outcome: Outcome; trace?: Trace } {
  // A manifest's StatefulSet or Argo Rollout: an end state or a canary step no node can
  // hold is proved first (final-state.ts); the stand-in run says the rest.
  const short = asManifest(variant, change) ? unheldEndState(ctx, change?.othersGone) : undefined;
  if (short) return { outcome: { result: 'blocked', ticks: 0, steps: [], ...short } };
  const built = buildModel(ctx, variant, change, order);
  if ('why' in built) {
    if (change) return { outcome: { result: 'unknown', why: built.why } };
    return { outcome: withNodesComing(ctx, variant, unbuilt(ctx, variant, built)) };
  }
  const outcome = change ? settle(built) : withNodesComing(ctx, variant, settle(built));
  const crashedOn = [...new Set(built.steps.flatMap((s) => (s.kind === 'crashed' ? [s.node] : [])))];
  const failingAtEnd = [...new Set(built.pods.inPhase('failing').map((p) => p.pod.spec.nodeName ?? ''))];
  const serving = { ...built.serving, end: countServing(built.pods) };
  return { outcome, trace: { serving, crashedOn, failingAtEnd } };
}

/**
 * The rollout as it is, where nothing the model knows moves it: still moving when the
 * cluster autoscaler is adding a node for one of its pending pods (scheduling/scale-up.ts).
 * The model does not add nodes; the autoscaler's own record says one is coming.
 */
function withNodesComing(ctx: AnalysisContext, variant: Variant, outcome: Outcome): Outcome {
  if (variant !== 'as-is' || (outcome.result !== 'blocked' && outcome.result !== 'unknown')) return outcome;
  // The pending pods' verdicts (rollout-assessment.ts, once per analysis): a pod held
  // back or preempting is judged that way first, as the analyzers see it.
  const steps: Step[] = assessRollout(ctx)
    .pending.filter((p) => p.verdict === 'scaling-up')
    .map((p) => ({ kind: 'node-added', pod: p.pod.metadata.name ?? '' }));
  return steps.length > 0 ? { result: 'moving', steps } : outcome;
}

/**
 * The end state (or a canary step) of a StatefulSet's or Argo Rollout's manifest that no
 * node can hold, with `othersGone` (other workloads' pods that end: job-wait.ts) left out.
 */
function unheldEndState(
  ctx: AnalysisContext,
  othersGone: readonly Pod[] = [],
): ReturnType<typeof finalStateShortfall> {
  const kind = workloadKind(ctx.snapshot);
  if (!kind.orderedBlock && !kind.strategy(kind.object(ctx.snapshot)).argo) return undefined;
  return finalStateShortfall(ctx, 'as-is', new Set(othersGone));
}

function settle(model: Model): Outcome {
  const size = model.shape.kind === 'replicas' ? model.shape.replicas : model.shape.nodes.length;
  const cap = 50 + 8 * size;
  for (let ticks = 1; ticks <= cap; ticks += 1) {
    model.changes = 0;
    tick(model);
    if (complete(model)) return { result: 'completes', ticks, steps: model.steps };
    if (model.changes === 0) {
      const failing = model.pods.count('new', 'failing') > 0;
      if (failing) return { result: 'failing', ticks, steps: model.steps, ...nodesDownUnder(model) };
      const pending = model.pods
        .inPhase('pending')
        .filter((p) => p.revision === 'new')
        .map((p) => p.pod);
      return {
        result: 'blocked',
        ticks,
        steps: model.steps,
        pending,
        refused: model.refused > 0,
        ...(model.refused > 0 && model.refusedBy ? { quota: quotaRef(model.refusedBy) } : {}),
      };
    }
  }
  return { result: 'unknown', why: `the model did not settle within ${cap} steps` };
}

/** The nodes of the new pods that do not become Ready, when every one is down (Outcome's nodesDown). */
function nodesDownUnder(model: Model): { nodesDown?: string[] } {
  const on = new Set(
    model.pods
      .inPhase('failing')
      .filter((p) => p.revision === 'new')
      .map((p) => p.pod.spec.nodeName ?? ''),
  );
  const down = new Set(model.nodes.filter((n) => !kubeletReports(n)).map((n) => n.metadata.name ?? ''));
  return on.size > 0 && [...on].every((n) => n !== '' && down.has(n)) ? { nodesDown: [...on].sort() } : {};
}

function buildModel(
  ctx: AnalysisContext,
  variant: Variant,
  change?: Intervention,
  order: QueueOrder = 'ours-first',
): Model | Unbuilt {
  const { snapshot } = ctx;
  if (snapshot.coverage.nodes !== 'complete') return { why: MODEL_WHY.nodesUnread, unread: true };
  const known = new Set(snapshot.nodes.map((n) => n.metadata.name ?? ''));
  // Every node the pods may use, with every pod on it (a live read lists those nodes' pods).
  if ([...known].some((node) => !occupancyKnown(snapshot.coverage, node)))
    return { why: MODEL_WHY.podsUnread, unread: true };
  if (
    known.size === 0 ||
    [...snapshot.pods, ...snapshot.otherPods].some((p) => p.spec.nodeName && !known.has(p.spec.nodeName))
  )
    return { why: MODEL_WHY.podsOnUnreadNodes, unread: true };
  if (snapshot.pods.some((p) => isUnscheduled(p) && heldBeforeScheduling(p)))
    return { why: MODEL_WHY.heldBeforeScheduling };
  const kind = workloadKind(snapshot);
  const object = autoscaled(ctx, kind.object(snapshot));
  let strategy = kind.strategy(object);
  if (strategy.type === 'OnDelete') return { why: MODEL_WHY.onDelete };
  if (kind.orderedBlock || strategy.argo) {
    const proxied = asManifest(variant, change) || change?.promoted === true;
    const proxy = proxied ? proxyStrategy(ctx, object, strategy) : undefined;
    if (!proxy) return { why: UNMODELLED };
    strategy = proxy;
  }
  const promoted = change?.promoted === true;
  if ((kind.halt?.(snapshot) && !promoted) || (kind.paused(object) && !change?.resumed && !promoted))
    return { why: MODEL_WHY.paused };
  const { current, old } = kind.revisions(snapshot);
  const phases = podPhases(ctx);
  const oldPods = new Set(old.flatMap((r) => r.pods));
  const newPods = new Set(current?.pods ?? []);
  if (snapshot.pods.some((p) => !oldPods.has(p) && !newPods.has(p)))
    return { why: MODEL_WHY.noKnownRevision };
  const perNode = strategy.per === 'node';
  const template = change?.template ?? nextPod(snapshot);
  const newTemplate = perNode ? withDaemonTolerations(template) : template;
  // Bound by the template itself: the kubelet's admission, not the scheduler, decides.
  if (newTemplate.spec.nodeName) return { why: MODEL_WHY.nodeNamed };
  if ((newTemplate.spec.resourceClaims ?? []).length > 0) return { why: MODEL_WHY.claimsDevices };
  // The scheduler made claims for the pods' extended resources: a DeviceClass backs them.
  if (snapshot.pods.some((p) => p.status?.extendedResourceClaimStatus))
    return { why: MODEL_WHY.extendedDevices };
  if (snapshot.dra && draBacked(ctx, newTemplate)) return { why: MODEL_WHY.mayBeDevices };
  // A manifest's new pods go where their claims' volumes allow (ordinal-claims.ts).
  const ordinals = asManifest(variant, change) ? ordinalsOf(snapshot) : undefined;
  if (asManifest(variant, change)) {
    const unread = unreadVolumes(snapshot, newTemplate, ordinals);
    if (unread) return { why: unread };
  }
  const quotas = quotasOf(ctx);
  if (quotas === 'unknown') return { why: MODEL_WHY.quotaUnread, unread: true };
  const world = new World(placementContext(ctx), quotas);
  const next = variant === 'next-rollout' || variant === 'candidate';
  const gone = change?.deleted ?? new Set<string>();
  const pods = new ModelPods(
    snapshot.pods.map((pod): ModelPod => {
      const target = perNode ? pinnedNode(pod) : undefined;
      return {
        pod,
        revision: newPods.has(pod) && !next ? 'new' : 'old',
        phase: phases.get(pod) ?? 'failing',
        ...(target ? { target } : {}),
      };
    }),
  );
  const oldTemplate = [...(next ? snapshot.pods : oldPods)].find((p) => p.spec.nodeName);
  const daemonTemplate = change?.template ?? unbound({ metadata: {}, spec: podTemplateOf(snapshot).spec });
  const model: Model = {
    world,
    nodes: snapshot.nodes,
    shape: perNode
      ? perNodeShape(snapshot.nodes, withDaemonTolerations(daemonTemplate), strategy)
      : replicaShape(kind.desiredReplicas(object), strategy, { ...(current ? { current } : {}), old }, next),
    pods,
    newTemplate,
    ...(oldTemplate ? { oldTemplate: unbound(oldTemplate) } : {}),
    steps: [],
    refused: 0,
    victims: [],
    // Other workloads' pods on their way out are gone at the first step (rivals.ts).
    leaving: [...leavingNeighbours(ctx), ...(change?.othersGone ?? [])],
    changes: 0,
    rivals: [...(change?.rivalsOnly ?? rivalsOf(ctx))],
    deletionRanks: new WeakMap(),
    deletionQueues: {},
    order,
    preemptionHeld: heldPriority(
      pods.filter((p) => p.phase === 'pending' && schedulerFoundNoVictim(ctx, p.pod)),
    ),
    serving: { start: countServing(pods), lowest: countServing(pods) },
    ...(ordinals ? { ordinals } : {}),
  };
  for (const pod of model.leaving) model.steps.push({ kind: 'gone', pod: pod.metadata.name ?? '' });
  const crash = currentTemplateCrash(ctx);
  if (crash) model.crashesOn = crash.crashesOn;
  if (change) applyChange(model, change, gone);
  if (order === 'theirs-first') admitRivalsFirst(model);
  // The DaemonSet controller's own count of the nodes that should run a pod: a snapshot
  // that holds fewer of them (a node with no pod of ours left, not read) cannot say when
  // the rollout is done.
  if (model.shape.kind === 'per-node' && model.shape.nodes.length < kind.desiredReplicas(object))
    return { why: `the ${snapshot.target.kind} wants pods on nodes the snapshot does not hold` };
  if (variant === 'without-old') removeOld(model);
  else if (roomTheSchedulerDidNotFind(ctx, model)) return { why: MODEL_WHY.roomNotFound };
  return model;
}

/**
 * Theirs first: the rivals not admitted yet (a returning pod, a pod another object of
 * the same change creates) pass quota admission before ours are created, so their charge
 * comes first; one the quota refuses waits to be made again, as before.
 */
function admitRivalsFirst(model: Model): void {
  model.rivals = model.rivals.map((rival) => {
    if (!rival.remade || model.world.refusing(rival.pod)) return rival;
    model.world.charge(rival.pod, 1);
    return { pod: rival.pod, owner: rival.owner };
  });
}

/**
 * A Pending pod the scheduler turned down fits a node as the snapshot stands: the
 * scheduler knows a constraint the model does not (a volume's node affinity, a plugin),
 * or its message is older than the room. Either way the model cannot speak for it.
 */
function roomTheSchedulerDidNotFind(ctx: AnalysisContext, model: Model): boolean {
  return model.pods.some((p) => {
    if (p.phase !== 'pending' || !latestSchedulingFailure(ctx.snapshot, p.pod)) return false;
    const nodes = p.target ? model.nodes.filter((n) => n.metadata.name === p.target) : model.nodes;
    return model.world.placeOn(p.pod, nodes) !== undefined;
  });
}

/** The pod's latest FailedScheduling says the scheduler's preemption failed for it (preemption.ts). */
function schedulerFoundNoVictim(ctx: AnalysisContext, pod: Pod): boolean {
  const failure = latestSchedulingFailure(ctx.snapshot, pod);
  return failure !== undefined && preemptionFailed(failure.message);
}

/** The highest priority among `pods` (whose preemption the scheduler turned down), if any. */
function heldPriority(pods: readonly ModelPod[]): number | undefined {
  return pods.length === 0 ? undefined : Math.max(...pods.map((p) => p.pod.spec.priority ?? 0));
}

/** Preemption for `pod` is held: the scheduler found no victim for a pod of its priority or higher. */
function held(model: Model, pod: Pod): boolean {
  return model.preemptionHeld !== undefined && (pod.spec.priority ?? 0) <= model.preemptionHeld;
}

/** The template asks for an extended resource a DeviceClass backs, or may (classes not all read). */
function draBacked(ctx: AnalysisContext, pod: Pod): boolean {
  const { snapshot } = ctx;
  const classes = snapshot.dra?.classes ?? [];
  if (draBackedResources(pod, classes).size > 0) return true;
  if (snapshot.coverage.dra?.classes === 'complete') return false;
  const requested = pod.spec.containers.flatMap((c) => Object.keys(c.resources?.requests ?? {}));
  return requested.some((r) => r.includes('/'));
}

/** Every old pod gone before the run (what a Recreate or maxSurge 0 would make room with). */
function removeOld(model: Model): void {
  for (const pod of model.pods.filter((p) => p.revision === 'old')) {
    model.world.remove(pod.pod);
    model.pods.delete(pod);
  }
  if (model.shape.kind === 'replicas') model.shape.oldSpec = 0;
  // The scheduler's "No preemption victims found" was said beside the old pods: with
  // them gone the room is not what it judged (as when a terminating pod leaves, tick).
  model.preemptionHeld = undefined;
}

function tick(model: Model): void {
  for (const victim of model.victims.splice(0)) {
    model.world.remove(victim);
    model.preemptionHeld = undefined;
  }
  for (const pod of model.leaving.splice(0)) {
    model.world.remove(pod);
    // The scheduler's "no victims" stands until room changes where our pods may go.
    const node = model.nodes.find((n) => n.metadata.name === pod.spec.nodeName);
    if (node && isEligible(node, model.newTemplate.spec)) model.preemptionHeld = undefined;
  }
  for (const pod of model.pods.inPhase('terminating')) {
    model.preemptionHeld = undefined;
    model.pods.delete(pod);
    model.world.remove(pod.pod);
    model.steps.push({ kind: 'gone', pod: pod.pod.metadata.name ?? '' });
    model.changes += 1;
  }
  for (const pod of model.pods.inPhase('starting')) {
    if (attachBlocked(model, pod.pod)) continue;
    const node = pod.pod.spec.nodeName ?? '';
    const crashes = pod.made && pod.revision === 'new' && model.crashesOn?.(node);
    model.pods.setPhase(pod, crashes ? 'failing' : 'ready');
    if (!crashes && pod.revision === 'new') model.stepAwaits = false;
    const name = pod.pod.metadata.name ?? '';
    // A pod Ready already (not available until minReadySeconds pass) is said as such.
    const waits = !crashes && isReady(pod.pod) ? { waitsMinReady: true as const } : {};
    model.steps.push(crashes ? { kind: 'crashed', pod: name, node } : { kind: 'ready', pod: name, ...waits });
    model.changes += 1;
  }
  const { shape } = model;
  model.refused = 0;
  if (shape.kind === 'replicas') {
    stepOld(model);
    const before = `${shape.newSpec}/${shape.oldSpec}`;
    stepReplicas(model, shape);
    if (`${shape.newSpec}/${shape.oldSpec}` !== before) model.changes += 1;
  } else stepPerNode(model, shape);
  schedule(model);
  model.serving.lowest = Math.min(model.serving.lowest, countServing(model.pods));
}

function schedule(model: Model): void {
  // Pods on their way out: preemption does not count them as victims (made when first asked).
  let leavingSet: Set<Pod> | undefined;
  const leaving = (): Set<Pod> =>
    (leavingSet ??= new Set<Pod>([...model.victims, ...model.pods.inPhase('terminating').map((p) => p.pod)]));
  const pending = queue(model);
  // Pods of one template that found no node this tick: the next one of it finds none either.
  const unplaced = new Set<unknown>();
  for (const entry of pending) {
    if ('owner' in entry) {
      placeRival(model, entry);
      continue;
    }
    const pod = entry;
    const nodes = pod.target ? model.nodes.filter((n) => n.metadata.name === pod.target) : model.nodes;
    // A StatefulSet's pods differ by their ordinal's claims: one that found no node says nothing of the next.
    const shape = pod.target || model.ordinals ? undefined : pod.pod.spec.containers;
    if (shape && unplaced.has(shape) && held(model, pod.pod)) continue;
    const node = model.world.placeOn(pod.pod, nodes);
    if (!node && shape) unplaced.add(shape);
    if (node) {
      model.pods.bind(pod, model.world.bind(pod.pod, node.metadata.name ?? ''));
      model.pods.setPhase(pod, 'starting');
      model.changes += 1;
      continue;
    }
    if (held(model, pod.pod)) continue;
    // A nominated pod waits while its victims leave (PodEligibleToPreemptOthers: a pod of
    // lower priority still terminating on the nominated node); once they are gone and it
    // still found no room (another pod took it), it may preempt again.
    if (pod.nominated && [...leaving()].some((v) => v.spec.nodeName === pod.nominated)) continue;
    const nominated = model.pods
      .inPhase('pending')
      .filter((p) => p !== pod && p.nominated)
      .map((p) => ({ pod: p.pod, node: p.nominated ?? '' }));
    const preemption = model.world.preemption(pod.pod, nodes, leaving(), nominated);
    if (!preemption) continue;
    pod.nominated = preemption.node.metadata.name ?? '';
    for (const victim of preemption.victims) {
      leaving().add(victim);
      const ours = model.pods.find((p) => p.pod === victim);
      if (ours) model.pods.setPhase(ours, 'terminating');
      else model.victims.push(victim);
    }
    model.steps.push({
      kind: 'preempted',
      pod: pod.pod.metadata.name ?? '',
      node: pod.nominated,
      victims: preemption.victims.map((v) => v.metadata.name ?? ''),
    });
    model.changes += 1;
  }
}

/**
 * The scheduler's queue this tick: by priority, and at equal priority ours and the
 * rivals in the order the run takes (rivals.ts); each group keeps its own order.
 */
function queue(model: Model): (ModelPod | Rival)[] {
  const ours = model.pods.inPhase('pending');
  const entries: (ModelPod | Rival)[] =
    model.order === 'theirs-first' ? [...model.rivals, ...ours] : [...ours, ...model.rivals];
  return entries.sort((a, b) => (b.pod.spec.priority ?? 0) - (a.pod.spec.priority ?? 0));
}

/** A rival bound where it fits (it preempts nothing): the room is gone for ours. */
function placeRival(model: Model, rival: Rival): void {
  // A pod its controller makes again goes through quota admission first: refused, it holds nothing.
  if (rival.remade && model.world.refusing(rival.pod)) return;
  const node = model.world.placeOn(rival.pod, model.nodes);
  if (!node) return;
  const name = node.metadata.name ?? '';
  model.world.bind(rival.pod, name);
  if (rival.remade) model.world.charge(rival.pod, 1);
  model.rivals.splice(model.rivals.indexOf(rival), 1);
  model.steps.push({
    kind: 'rival-placed',
    pod: rival.pod.metadata.name ?? '',
    node: name,
    owner: rival.owner,
  });
  model.changes += 1;
}

/** A ReadWriteOnce volume the pod needs is held by a pod on another node (it cannot attach here). */
function attachBlocked(model: Model, pod: Pod): boolean {
  const snapshot = model.world.ctx.snapshot;
  for (const claim of claimNames(pod.spec)) {
    const pvc = snapshot.pvcs.find((p) => p.metadata.name === claim);
    const modes = pvc?.spec.accessModes ?? pvc?.status?.accessModes ?? [];
    if (!modes.includes('ReadWriteOnce') || modes.includes('ReadWriteMany')) continue;
    for (const [node, pods] of model.world.ctx.occupantsByNode) {
      if (
        node !== pod.spec.nodeName &&
        pods.some((o) => o !== pod && usesClaim(o, pod.metadata.namespace, claim))
      )
        return true;
    }
  }
  return false;
}

function complete(model: Model): boolean {
  const { shape, pods } = model;
  if (shape.kind === 'replicas')
    return countReady(pods, 'new') >= shape.replicas && live(pods, 'old').length === 0;
  return shape.nodes.every((node) => {
    const name = node.metadata.name ?? '';
    const here = live(pods, 'new').filter((p) => (p.target ?? p.pod.spec.nodeName) === name);
    return (
      here.some((p) => p.phase === 'ready') && !live(pods, 'old').some((p) => p.pod.spec.nodeName === name)
    );
  });
}
