/**
 * Every plan that changes pods proves itself before it is shown: its write is
 * applied to the forward model exactly as the executor would write it (the patch on the
 * workload, the old ReplicaSet's new scale, the pods deleted), the controllers and the
 * scheduler run forward, and the plan stands only where
 * - the goal it states is reached: the rollout completes on the new template (a node
 *   exclusion's too, with no pod left where the template crashes); relief (delete-pods)
 *   promises no more than taking the crashing pods away;
 * - the workload's serving pods never fall below the floor its owners declared (a
 *   PodDisruptionBudget over them, guards/budgets.ts), unless no plan that reaches the
 *   goal keeps it: then the least of them is offered labelled as an outage (diagnose.ts);
 * - no serving pod is replaced by a pod of a template known to crash;
 * - a paused workload stays paused: nothing rolls its new template out before the
 *   resume (its strategy and restart are proved as they act once resumed).
 * Where the model cannot follow the workload (a StatefulSet's ordered pods, an Argo
 * Rollout's steps, devices, unread nodes), the plan's own counts are held to the floor
 * and the crash rule instead, and the proof says it was checked, not run.
 */
import type { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { Pod, PodTemplateSpec } from '../diagnosis/k8s.js';
import { isEligible } from '../diagnosis/base/node-match.js';
import { semanticEqual } from '../diagnosis/base/semantic-equal.js';
import { currentTemplateCrash } from '../diagnosis/forward/crash-model.js';
import type { Intervention } from '../diagnosis/forward/model.js';
import { podPhases } from '../diagnosis/forward/pod-phase.js';
import { runWithChange, type Outcome, type Trace } from '../diagnosis/forward/run.js';
import { rivalOwners, rivalsTiedWith } from '../diagnosis/forward/rivals.js';
import { workloadFloor, type Floor } from '../diagnosis/guards/budgets.js';
import { nextPod } from '../diagnosis/rollout/surge-proof.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { kindOf } from '../remediation/kinds/index.js';
import { applyPatch, PatchApplyError } from '../remediation/patch-apply.js';
import type { PlanProof, PodRef, ProofStep, RemediationPlan } from '../remediation/plan.js';
import { stepsSaid } from './proof-words.js';
import { stepInWords } from '../remediation/proof-text.js';

export type ProofVerdict =
  /** Reaches its goal and keeps every floor (or, checked only, nothing the counts show breaks one). */
  | {
      verdict: 'proved';
      proof: PlanProof;
      /**
       * Relief only: run forward, its replacements crash-loop again on these nodes and no
       * more pods serve (the scheduler put them back there); proved-offer.ts decides.
       */
      recurs?: string[];
    }
  /** Reaches its goal, below the owners' floor on the way (`proof.belowFloor`). */
  | { verdict: 'below-floor'; proof: PlanProof; floor: Floor }
  /** Must not be shown: why, in one sentence that names the plan. */
  | { verdict: 'refused'; reason: string };

/** The proof of one plan for the finding it addresses, or undefined: the plan changes no pod. */
export function provePlan(ctx: AnalysisContext, plan: RemediationPlan): ProofVerdict | undefined {
  const { changesPods, proof: rule } = kindOf(plan);
  if (!changesPods) return undefined;
  // How a kind that changes pods is proved is its module's to say (kind.ts ProofRule;
  // the kinds test holds that every such kind states one).
  if (!rule) throw new Error(`${plan.kind} changes pods but states no proof rule`);
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const label = planLabel(plan);
  const written = writtenObject(ctx, object, plan);
  if (written instanceof PatchApplyError)
    return {
      verdict: 'refused',
      reason: `${label}: its patch does not apply to the object as read (${written.message})`,
    };
  const paused = kind.paused(object);
  const resumes = paused && written !== undefined && !kind.paused(written);
  if (paused && !resumes && rule.bypassesPause)
    return {
      verdict: 'refused',
      reason: `${label} would roll the new template out while ${snapshot.target.kind.toLowerCase()}/${snapshot.target.name} is paused (its controller scales the new ReplicaSet up as soon as the old one goes down): resume it first, or leave it paused`,
    };
  const change = intervention(ctx, object, written, plan);
  const crash = currentTemplateCrash(ctx);
  const floor = workloadFloor(ctx);
  const replicas = kind.desiredReplicas(object);
  const now = servingNow(ctx);
  const atResume = paused && !resumes ? ({ atResume: true } as const) : {};
  const ran = change ? runWithChange(ctx, { ...change, ...(paused ? { resumed: true } : {}) }) : undefined;
  const trace = ran?.trace;
  if (ran && trace && ran.outcome.result !== 'unknown' && ran.outcome.result !== 'moving') {
    const refusal = goalRefusal(ctx, plan, ran.outcome, trace, label);
    if (refusal) return { verdict: 'refused', reason: refusal };
    const proof: PlanProof = {
      method: 'run',
      serving: { now: trace.serving.start, lowest: trace.serving.lowest, wanted: replicas },
      ...floorPart(floor),
      ...provedSteps(stepsSaid(ran.outcome)),
      ...atResume,
    };
    const order = orderDependence(ctx, plan, change, label);
    const verdict = judged(order ? { ...proof, dependsOnOrder: order } : proof, floor);
    const again = trace.failingAtEnd.filter((n) => n && crash?.crashesOn(n));
    return isRelief(plan) &&
      verdict.verdict === 'proved' &&
      again.length > 0 &&
      trace.serving.end <= trace.serving.start
      ? { ...verdict, recurs: again }
      : verdict;
  }
  const why = ran?.outcome.result === 'unknown' ? ran.outcome.why : modelGap(ctx);
  const lowest = Math.max(0, now - statedTakeDown(ctx, plan, written, now, replicas));
  if (crash?.everywhere && lowest < now && rule.replacesWithTemplate)
    return {
      verdict: 'refused',
      reason: `${label} would replace serving pods with pods of a template that crashes on every node it ran on (${crash.seen.join(', ')}): roll back instead`,
    };
  const reachable = lowest < now && rule.replacesWithTemplate ? crashingNodesOpenTo(ctx, crash, written) : [];
  if (reachable.length > 0)
    return {
      verdict: 'refused',
      reason: `${label} would replace serving pods with pods of a template that crashes on ${reachable.slice(0, 3).join(', ')}, where its replacements may land (the model does not follow this update to say where they go): keep the pods off ${reachable.length === 1 ? 'that node' : 'those nodes'} first, or roll back`,
    };
  const proof: PlanProof = {
    method: 'checked',
    serving: { now, lowest, wanted: replicas },
    ...floorPart(floor),
    steps: [],
    why,
    ...atResume,
  };
  const order = lowest < now ? orderUnrun(ctx) : undefined;
  return judged(order ? { ...proof, dependsOnOrder: order } : proof, floor);
}

/**
 * Checked, not run: a plan that takes serving pods down frees room that other
 * workloads' Pending pods of our priority may take first (rivals.ts), where they may
 * run on a node ours hold. The model cannot run the plan in both orders, so the plan
 * says it depends on the order rather than promise the room to ours.
 */
function orderUnrun(ctx: AnalysisContext): PlanProof['dependsOnOrder'] {
  const { snapshot } = ctx;
  const ours = new Set(snapshot.pods.map((p) => p.spec.nodeName).filter((n) => n !== undefined));
  const held = snapshot.nodes.filter((n) => ours.has(n.metadata.name ?? ''));
  const rivals = rivalsTiedWith(ctx, nextPod(snapshot)).filter((r) =>
    held.some((n) => isEligible(n, r.pod.spec)),
  );
  if (rivals.length === 0) return undefined;
  return {
    rivals: rivalOwners(rivals),
    otherwise: 'the room this plan frees may go to theirs, and the rollout stays short of what it needs',
  };
}

/**
 * Checked, not run: the nodes the current template was seen crashing on that the
 * written template still lets its pods onto (the suspects that share their attribute
 * are a suspicion, not a crash seen). A serving pod taken down there is
 * replaced from that template, and the model cannot say the replacement goes elsewhere
 * (the room it frees is on that node), so such a plan is not proved. A node exclusion's
 * template keeps them off and passes.
 */
function crashingNodesOpenTo(
  ctx: AnalysisContext,
  crash: ReturnType<typeof currentTemplateCrash>,
  written: WorkloadObject | undefined,
): string[] {
  if (!crash || crash.everywhere) return [];
  const kind = workloadKind(ctx.snapshot);
  const spec = kind.podTemplate(written ?? kind.object(ctx.snapshot)).spec;
  if (!spec) return [];
  return ctx.snapshot.nodes
    .filter((n) => crash.seen.includes(n.metadata.name ?? '') && isEligible(n, spec))
    .map((n) => n.metadata.name ?? '');
}

/**
 * Other workloads' Pending pods of our priority may be placed first (forward/rivals.ts):
 * the plan run again with theirs ahead of ours. Undefined where no such pod waits or the
 * plan reaches its goal either way; otherwise which workloads, and what happens then.
 */
function orderDependence(
  ctx: AnalysisContext,
  plan: RemediationPlan,
  change: Intervention | undefined,
  label: string,
): PlanProof['dependsOnOrder'] {
  if (!change) return undefined;
  const rivals = rivalsTiedWith(ctx, nextPod(ctx.snapshot));
  if (rivals.length === 0) return undefined;
  const paused = workloadKind(ctx.snapshot).paused(workloadKind(ctx.snapshot).object(ctx.snapshot));
  const theirs = runWithChange(ctx, { ...change, ...(paused ? { resumed: true } : {}) }, 'theirs-first');
  if (!theirs.trace || theirs.outcome.result === 'unknown' || theirs.outcome.result === 'moving')
    return undefined;
  const refusal = goalRefusal(ctx, plan, theirs.outcome, theirs.trace, label);
  if (!refusal) return undefined;
  const took = new Set(theirs.outcome.steps.flatMap((s) => (s.kind === 'rival-placed' ? [s.pod] : [])));
  const owners = rivalOwners(rivals.filter((r) => took.has(r.pod.metadata.name ?? '')));
  return {
    rivals: owners || rivalOwners(rivals),
    otherwise: refusal.replace(`${label}: `, '').replace(/^run forward, /, ''),
  };
}

function judged(proof: PlanProof, floor: Floor | 'unknown' | undefined): ProofVerdict {
  if (floor && floor !== 'unknown') {
    const { now, lowest } = proof.serving;
    if (lowest < floor.minServing && lowest < now)
      return { verdict: 'below-floor', proof: { ...proof, belowFloor: floor.minServing - lowest }, floor };
  }
  return { verdict: 'proved', proof };
}

function floorPart(floor: Floor | 'unknown' | undefined): Pick<PlanProof, 'floor'> {
  if (floor === undefined) return {};
  return {
    floor:
      floor === 'unknown'
        ? 'unknown'
        : { budget: floor.budget, minServing: floor.minServing, rule: floor.rule },
  };
}

/** The goal the plan states, held against the run; the refusal names what went wrong. */
function goalRefusal(
  ctx: AnalysisContext,
  plan: RemediationPlan,
  outcome: Outcome,
  trace: Trace,
  label: string,
): string | undefined {
  const crash = currentTemplateCrash(ctx);
  if (trace.crashedOn.length > 0 && trace.serving.lowest < trace.serving.start)
    return `${label} would replace serving pods with pods that crash-loop (${crash?.everywhere ? 'the new template crashes on every node it ran on' : `on ${trace.crashedOn.slice(0, 3).join(', ')}`}): ${crash?.everywhere ? 'roll back instead' : 'the crash follows the rollout there'}`;
  // Relief promises no more than taking the crashing pods away.
  if (isRelief(plan)) return undefined;
  // A node exclusion's goal is the crash off the nodes it excludes (kind.ts ProofRule).
  if (kindOf(plan).proof?.goal === 'crash-off-its-nodes' && outcome.result !== 'completes') {
    // Its rollout need not finish where it takes the crash off those nodes and more pods serve at the end.
    const still = trace.failingAtEnd.filter((n) => n && crash?.crashesOn(n));
    if (still.length === 0 && trace.serving.end > trace.serving.start) return undefined;
    return still.length > 0
      ? `${label}: run forward, pods still crash-loop on ${still.slice(0, 3).join(', ')} and no more serve, so it does not take the crash away`
      : `${label}: run forward, the rollout it starts never finishes (${outcome.result === 'blocked' ? `${outcome.pending.length} new pod(s) find no room` : 'its new pods never become Ready'}) and no more pods serve than now (${trace.serving.end} of ${trace.serving.start}), so it finishes nothing`;
  }
  if (outcome.result === 'completes') return undefined;
  if (outcome.result === 'failing')
    return outcome.nodesDown
      ? `${label}: run forward, the new pods on ${outcome.nodesDown.slice(0, 3).join(', ')} never become Ready (the kubelet there does not report: the node is NotReady or unreachable), so it finishes nothing`
      : `${label}: run forward, the new pods never become Ready (they fail on their own), so it finishes nothing`;
  if (outcome.result === 'blocked')
    return `${label}: run forward, the rollout still stops (${outcome.refused ? 'the quota refuses the next new pod' : `${outcome.pending.length} new pod(s) find no room`}), so it finishes nothing`;
  return undefined;
}

function isRelief(plan: RemediationPlan): boolean {
  return kindOf(plan).reliefOnly === true;
}

/** The workload as the plan's patch leaves it; undefined for plans that do not patch its spec. */
function writtenObject(
  ctx: AnalysisContext,
  object: WorkloadObject,
  plan: RemediationPlan,
): WorkloadObject | PatchApplyError | undefined {
  if (kindOf(plan).writes !== 'workload-patch' || !plan.patch) return undefined;
  try {
    return applyPatch(object, plan.patch, ctx.snapshot.capturedAt) as WorkloadObject;
  } catch (error) {
    if (error instanceof PatchApplyError) return error;
    throw error;
  }
}

/** The plan's write as the forward model applies it, or undefined when it has none the model follows. */
function intervention(
  ctx: AnalysisContext,
  object: WorkloadObject,
  written: WorkloadObject | undefined,
  plan: RemediationPlan,
): Intervention | undefined {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  // A write that is not a patch of the spec (an old ReplicaSet's scale, pods deleted), as its kind hands it to the model.
  const own = kindOf(plan).proof?.intervention;
  if (own) return own(ctx, plan);
  if (!written) return undefined;
  const strategy = kind.strategy(written);
  const change: Intervention = {
    strategy: {
      maxSurge: strategy.maxSurge?.value ?? 0,
      maxUnavailable: strategy.maxUnavailable?.value ?? 0,
      recreate: strategy.type === 'Recreate',
    },
  };
  const before = kind.podTemplate(object);
  const after = kind.podTemplate(written);
  if (!semanticEqual(before, after)) change.template = templatePod(ctx, before, after);
  else if (plan.addresses === 'RolloutAtRisk') change.template = nextPod(snapshot);
  return change;
}

/**
 * The new pod the changed template makes: the pod as the API server admitted the
 * current template (admission adds tolerations and affinity), with every spec field
 * the write changed taken from the new template, and its labels and annotations.
 */
function templatePod(ctx: AnalysisContext, before: PodTemplateSpec, after: PodTemplateSpec): Pod {
  const admitted = nextPod(ctx.snapshot);
  const spec = { ...admitted.spec } as Record<string, unknown>;
  const was = before.spec as unknown as Record<string, unknown>;
  const now = after.spec as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (semanticEqual(was[key], now[key])) continue;
    if (now[key] === undefined) delete spec[key];
    else spec[key] = now[key];
  }
  return {
    metadata: {
      ...admitted.metadata,
      labels: { ...after.metadata?.labels },
      ...(after.metadata?.annotations ? { annotations: { ...after.metadata.annotations } } : {}),
    },
    spec: spec as unknown as Pod['spec'],
  };
}

/** Pods of the workload serving now (available to their controller). */
function servingNow(ctx: AnalysisContext): number {
  return [...podPhases(ctx).values()].filter((p) => p === 'ready').length;
}

/**
 * Where the model cannot run a plan: how many serving pods its own write takes down at
 * once, as the controller it hands the work to counts them.
 */
function statedTakeDown(
  ctx: AnalysisContext,
  plan: RemediationPlan,
  written: WorkloadObject | undefined,
  now: number,
  wanted: number,
): number {
  const phases = podPhases(ctx);
  const serving = (pods: readonly PodRef[]): number => {
    const names = new Set(pods.map((p) => p.uid || p.name));
    return ctx.snapshot.pods.filter(
      (p) => names.has(p.metadata.uid || p.metadata.name || '') && phases.get(p) === 'ready',
    ).length;
  };
  // What its own write takes down, as its kind counts it (kind.ts ProofRule); else as the strategy lets go.
  const own = kindOf(plan).proof?.takesDown;
  if (own) return own(plan, serving);
  const kind = workloadKind(ctx.snapshot);
  const strategy = kind.strategy(written ?? kind.object(ctx.snapshot));
  if (strategy.type === 'Recreate') return now;
  const maxUnavailable = Math.max(0, strategy.maxUnavailable?.value ?? 0);
  // The Deployment and DaemonSet controllers count pods already unavailable against
  // maxUnavailable (rolling.go: minAvailable = replicas - maxUnavailable, unhealthy old
  // pods scaled down first; the DaemonSet's update counts unavailable nodes): serving pods
  // go down only to wanted - maxUnavailable. A StatefulSet deletes the highest ordinal
  // not updated, serving or not; an Argo Rollout steps as its own controller decides.
  if (!kind.orderedBlock && !strategy.argo)
    return Math.min(now, Math.max(0, now - (wanted - maxUnavailable)));
  return Math.min(now, maxUnavailable);
}

/** The steps as data, and in English as `PlanProof.steps` stores them. */
function provedSteps(said: ProofStep[]): Pick<PlanProof, 'steps' | 'said'> {
  return { steps: said.map((s) => stepInWords(s)), said };
}

function modelGap(ctx: AnalysisContext): string {
  const kind = workloadKind(ctx.snapshot);
  return `the forward model does not follow a ${kind.words.kind}'s plan step by step`;
}

/** How a refusal names the plan: "maxUnavailable 1 (RollingUpdate)", "Recreate", "scaling ReplicaSet x to 0". */
export function planLabel(plan: RemediationPlan): string {
  const text = plan.summary.replace(/[.:]$/, '');
  const short = text.length > 90 ? `${text.slice(0, 89)}…` : text;
  return `"${short}"`;
}
