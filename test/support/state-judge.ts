/**
 * One generated mid-rollout state (sim/generated-states.ts), judged against the
 * simulator run forward (issue 40): build the cluster on the stepped simulator, let it
 * settle, change the template, let the rollout run a random while, take the snapshot as
 * a dump would hold it, diagnose it, then run the simulator on and see whether the
 * rollout completes.
 * - false deadlock: the engine said it can never finish and it finished;
 * - harmful plan: it finished, and a plan that takes serving pods down was offered;
 * - missed deadlock: it never finished and the engine found no problem;
 * - fix failed: it never finished, the engine's first such plan was applied, and it
 *   still did not finish.
 * Argo Rollouts are judged in Argo's terms (rollout-judge.ts): rolled out is phase
 * Healthy with the update the stable revision; an indefinite pause waits for a promote,
 * which the forward runs give; an abort is a plan that takes the canary pods down, and
 * is judged as a fix by the stable pods serving again.
 */
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import type { OldReplicaSetTarget } from '../../src/remediation/plan.js';
import { chooseStep } from '../../src/remediation/step-release.js';
import { generateState, type GeneratedKind, type GeneratedState } from '../../sim/generated-states.js';
import { withPlacementRules } from '../../sim/generated-rules.js';
import { withMotion } from '../../sim/generated-motion.js';
import { startStepped, type SteppedSim } from '../../sim/stepped.js';
import { abortSettled, rolloutRolledOut, runPromoting } from './rollout-judge.js';
import { guardState, type GuardFamily } from '../../sim/generated-guards.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import {
  judgePlan,
  plansNow,
  sampling,
  servingSelected,
  sharedBudgets,
  type PlanVerdict,
} from './plan-judge.js';

export type Judgement =
  | 'agree'
  | 'false-deadlock'
  | 'harmful-plan'
  | 'missed-deadlock'
  | 'fix-failed'
  /**
   * The fix failed only because its new template crashes, and no pod of it had shown that
   * at the snapshot (plan-judge.ts `unforeseen`): no reading of the cluster could know.
   */
  | 'unforeseeable'
  /** The cluster did not reach its steady state before the change (nothing to judge). */
  | 'skipped';

export interface JudgedState {
  seed: number;
  judgement: Judgement;
  completes: boolean;
  codes: string[];
  plans: string[];
  description: string;
  /** The `--guards` family, when drawn for one. */
  family?: string;
  /** Every plan that changes pods now, each applied on a replay of the state and run forward (plan-judge.ts). */
  planVerdicts: PlanVerdict[];
  /** Plans whose replay did not come out as the judged state did (not judged). */
  diverged: number;
}

/** Verdicts that say the rollout cannot get where it is going. */
export const STUCK_CODES = ['RolloutSurgeDeadlock', 'RolloutStuck', 'Unschedulable', 'QuotaExceeded'];
/** Plans that take serving pods down. */
export const SPENDING_PLANS = [
  'set-rolling-update',
  'set-recreate',
  'scale-old-replicaset',
  'delete-pods',
  'rollout-restart',
];
/** A Rollout's plans the judge applies when no plan above is offered: the abort, a node left out. */
const ROLLOUT_FIXES = ['abort-rollout', 'exclude-node'];

/** Plans that take serving pods down, for this kind (a Rollout's abort scales its serving canary pods away). */
function spendingPlans(kind: GeneratedKind): string[] {
  return kind === 'Rollout' ? [...SPENDING_PLANS, 'abort-rollout'] : SPENDING_PLANS;
}

const STEADY_SECONDS = 600;
const FORWARD_SECONDS = 900;

/**
 * Judges the state of `seed`; `rules` adds its placement rules (sim/generated-rules.ts),
 * `motion` its rollout in motion (sim/generated-motion.ts: slow stops and starts,
 * preemption, a tight quota, an early snapshot), `guards` draws it from the guard
 * families instead (sim/generated-guards.ts). Then every plan that changes pods now is
 * judged on a replay of the state (plan-judge.ts); one found harmful makes the state's
 * judgement harmful-plan.
 */
export function judgeSeed(
  seed: number,
  kind?: GeneratedKind,
  rules = false,
  motion = false,
  guards: boolean | GuardFamily = false,
): JudgedState {
  const state = stateFor(seed, kind, rules, motion, guards);
  const first = withSim(state, (sim) => judge(sim, state));
  if (first.judgement === 'skipped') return first.result;
  const verdicts: PlanVerdict[] = [];
  let diverged = 0;
  for (const plan of first.plans) {
    const verdict = withSim(state, (sim) => {
      if (!toSnapshot(sim, state) || podNames(sim, state) !== first.pods) return undefined;
      return judgePlan(
        sim,
        state,
        plan,
        (s, written) => applyPlan(s, state, plan, written),
        first.sharedBaseline,
      );
    });
    if (verdict) verdicts.push(orderDependence(state, plan, verdict, first.pods, first.sharedBaseline));
    else diverged += 1;
  }
  const harmful = verdicts.some((v) => v.harm !== undefined);
  // A fix whose write the forward run made stale is judged as written at the snapshot.
  const refused = first.refusedFix;
  const stale = refused !== undefined && verdicts.find((v) => v.id === refused)?.harm === 'finishes-nothing';
  const failed = stale ? 'fix-failed' : first.result.judgement;
  const settled = failed === 'fix-failed' && verdicts.some((v) => v.unforeseen) ? 'unforeseeable' : failed;
  const judgement = settled === 'agree' && harmful ? 'harmful-plan' : settled;
  return { ...first.result, judgement, planVerdicts: verdicts, diverged };
}

/**
 * A plan that finished nothing beside a neighbour with Pending pods (sim/generated-neighbours.ts)
 * is replayed once more with the neighbour losing the race: as the plan is written, the
 * neighbour's HorizontalPodAutoscaler is removed and the neighbour scaled to the pods it
 * has on nodes (its Pending ones go first), so none of the room the plan frees goes to
 * it. Reached then, the plan depends on the order: harmful unless its warnings name the
 * neighbour (an approver then knows the room may go to it first).
 */
function orderDependence(
  state: GeneratedState,
  plan: RemediationPlan,
  verdict: PlanVerdict,
  pods: string,
  sharedBaseline: Record<string, number>,
): PlanVerdict {
  const neighbour = state.neighbour?.name;
  if (!neighbour || verdict.harm !== 'finishes-nothing') return verdict;
  const lost = withSim(state, (sim) => {
    if (!toSnapshot(sim, state) || podNames(sim, state) !== pods) return undefined;
    if (pendingOf(sim, state, neighbour).length === 0) return undefined;
    return judgePlan(
      sim,
      state,
      plan,
      (s, written) => applyPlan(s, state, plan, written, () => loseRace(sim, state, neighbour)),
      sharedBaseline,
    );
  });
  if (!lost || lost.harm !== undefined) return verdict;
  const named = new RegExp(`\\b${neighbour}\\b`).test(plan.warnings.join(' '));
  const { harm: _harm, ...rest } = verdict;
  return named
    ? { ...rest, orderDependent: true }
    : { ...rest, orderDependent: true, harm: 'order-dependent' };
}

interface NeighbourPod {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec?: { nodeName?: string };
}

function podsOfApp(sim: SteppedSim, state: GeneratedState, app: string): NeighbourPod[] {
  return (sim.list('Pod', state.namespace) as unknown as NeighbourPod[]).filter(
    (p) => p.metadata.labels?.['app'] === app && !p.metadata.deletionTimestamp,
  );
}

function pendingOf(sim: SteppedSim, state: GeneratedState, app: string): NeighbourPod[] {
  return podsOfApp(sim, state, app).filter((p) => !p.spec?.nodeName);
}

/** The neighbour gets none of the room: its autoscaler gone, its scale the pods it has on nodes. */
function loseRace(sim: SteppedSim, state: GeneratedState, app: string): void {
  if (sim.get('HorizontalPodAutoscaler', state.namespace, app))
    sim.delete('HorizontalPodAutoscaler', state.namespace, app);
  const placed = podsOfApp(sim, state, app).filter((p) => p.spec?.nodeName).length;
  sim.patch('Deployment', state.namespace, app, 'merge', { spec: { replicas: placed } });
}

/**
 * One plan judged on a replay of `state` as judgeSeed judges each offered plan (a plan
 * written by hand, for tests of the judge itself): undefined when there is no steady state.
 */
export function judgeOnePlan(state: GeneratedState, plan: RemediationPlan): PlanVerdict | undefined {
  const pods = withSim(state, (sim) => (toSnapshot(sim, state) ? podNames(sim, state) : undefined));
  if (pods === undefined) return undefined;
  const verdict = withSim(state, (sim) =>
    toSnapshot(sim, state)
      ? judgePlan(sim, state, plan, (s, written) => applyPlan(s, state, plan, written))
      : undefined,
  );
  return verdict && orderDependence(state, plan, verdict, pods, {});
}

function stateFor(
  seed: number,
  kind: GeneratedKind | undefined,
  rules: boolean,
  motion: boolean,
  guards: boolean | GuardFamily,
): GeneratedState {
  // A family named: its state from this seed (an opt-in family is in no seed's rotation).
  if (guards) return guardState(seed, guards === true ? undefined : guards);
  const drawn = generateState(seed, kind);
  const placed = rules ? withPlacementRules(drawn) : drawn;
  return motion ? withMotion(placed) : placed;
}

/** One stepped simulation of the state at a time (the clock is the process's), stopped after `f`. */
function withSim<T>(state: GeneratedState, f: (sim: SteppedSim) => T): T {
  const sim = startStepped(state.objects);
  try {
    return f(sim);
  } finally {
    sim.stop();
  }
}

/** The workload's pods at the snapshot, by name: a replay that names them otherwise has diverged. */
function podNames(sim: SteppedSim, state: GeneratedState): string {
  return sim
    .list('Pod', state.namespace)
    .map((p) => p.metadata.name)
    .sort()
    .join(',');
}

/**
 * Steady state, then the change (and what comes with it), then `after` seconds with the
 * scenario's scripted steps at their times. False when no steady state came first.
 */
export function toSnapshot(sim: SteppedSim, state: GeneratedState): boolean {
  if (!sim.advance(STEADY_SECONDS, () => rolledOut(sim, state))) return false;
  sim.apply(state.changed);
  for (const o of state.also ?? []) sim.apply(o);
  let elapsed = 0;
  for (const step of [...(state.later ?? [])].sort((a, b) => a.at - b.at)) {
    sim.advance(Math.max(0, step.at - elapsed));
    elapsed = Math.max(elapsed, step.at);
    runStep(sim, state, step);
  }
  // Even at 0 s: the pass that follows the change runs before the snapshot, as before.
  sim.advance(Math.max(0, state.after - elapsed));
  return true;
}

function runStep(
  sim: SteppedSim,
  state: GeneratedState,
  step: NonNullable<GeneratedState['later']>[number],
): void {
  if ('apply' in step) sim.apply(step.apply);
  else if ('patch' in step)
    sim.patch(step.patch.kind, state.namespace, step.patch.name, 'merge', step.patch.body);
  else {
    const pod = sim.get('Pod', state.namespace, step.drain.pod) as
      { spec?: { nodeName?: string } } | undefined;
    const node = pod?.spec?.nodeName;
    if (!node) return;
    sim.patch('Node', undefined, node, 'merge', { spec: { unschedulable: true } });
    if (!step.drain.evict) return;
    for (const p of sim.list('Pod', state.namespace)) {
      if ((p as { spec?: { nodeName?: string } }).spec?.nodeName === node)
        sim.delete('Pod', state.namespace, p.metadata.name);
    }
  }
}

function judge(
  sim: SteppedSim,
  state: GeneratedState,
): {
  judgement: Judgement;
  result: JudgedState;
  plans: RemediationPlan[];
  pods: string;
  /** Per shared budget, the fewest pods it selects served over the forward run without a plan. */
  sharedBaseline: Record<string, number>;
  /** A fix the executor would refuse once the forward run moved on: judged on its replay. */
  refusedFix?: string;
} {
  const base = {
    seed: state.seed,
    description: state.description,
    ...(state.family ? { family: state.family } : {}),
    planVerdicts: [],
    diverged: 0,
  };
  if (!toSnapshot(sim, state)) {
    const result = { ...base, judgement: 'skipped' as const, completes: false, codes: [], plans: [] };
    return { judgement: 'skipped', result, plans: [], pods: '', sharedBaseline: {} };
  }
  const pods = podNames(sim, state);
  const diagnosis = diagnoseNow(sim, state);
  const codes = diagnosis.findings.map((f) => f.code);
  const plans = diagnosis.remediations.map((p) => p.kind);
  // RolloutAtRisk's plans change the next rollout's strategy; they take nothing down now.
  const now = plansNow(diagnosis).map((p) => p.kind);
  const shared = sharedBudgets(sim, state);
  const sharedBaseline: Record<string, number> = Object.fromEntries(
    shared.map((b) => [b.name, servingSelected(sim, state, b.selector)]),
  );
  const sample = (): void => {
    for (const b of shared)
      sharedBaseline[b.name] = Math.min(
        sharedBaseline[b.name] ?? Infinity,
        servingSelected(sim, state, b.selector),
      );
  };
  const completes = runForward(shared.length > 0 ? sampling(sim, sample) : sim, state);
  const saysStuck = codes.some((c) => STUCK_CODES.includes(c));
  const spends = now.some((k) => spendingPlans(state.kind).includes(k));
  const problems = diagnosis.findings.some((f) => f.severity !== 'info');
  let judgement: Judgement = 'agree';
  if (completes && saysStuck) judgement = 'false-deadlock';
  else if (completes && spends) judgement = 'harmful-plan';
  else if (!completes && !problems) judgement = 'missed-deadlock';
  let refusedFix: string | undefined;
  if (judgement === 'agree' && !completes && spends) {
    const fix = fixCompletes(sim, state, diagnosis);
    if (fix === false) judgement = 'fix-failed';
    else if (typeof fix === 'string') refusedFix = fix;
  }
  return {
    judgement,
    result: { ...base, judgement, completes, codes, plans },
    plans: plansNow(diagnosis),
    pods,
    sharedBaseline,
    ...(refusedFix ? { refusedFix } : {}),
  };
}

export function snapshotNow(sim: SteppedSim, state: GeneratedState): WorkloadSnapshot {
  const objects = sim.objects() as unknown as KubeObject[];
  return assembleSnapshot({ kind: state.kind, namespace: state.namespace, name: state.name }, objects, {
    capturedAt: sim.now(),
  });
}

export function diagnoseNow(sim: SteppedSim, state: GeneratedState): Diagnosis {
  return diagnose(snapshotNow(sim, state));
}

/**
 * FORWARD_SECONDS on; a Rollout's indefinite pauses promoted as they come, a paused
 * Deployment resumed (`kubectl rollout resume`: the judge plays the person a pause waits
 * for, so a verdict is held against what happens once resumed). Whether it rolled out.
 */
function runForward(sim: SteppedSim, state: GeneratedState): boolean {
  if (isPaused(sim, state))
    sim.patch(state.kind, state.namespace, state.name, 'merge', { spec: { paused: false } });
  const done = (): boolean => rolledOut(sim, state);
  const seconds = state.forwardSeconds ?? FORWARD_SECONDS;
  return state.kind === 'Rollout' ? runPromoting(sim, state, seconds, done) : sim.advance(seconds, done);
}

/**
 * Applies the first plan that takes serving pods down (a Rollout: else its abort or a
 * node exclusion), as the executor would, and runs on.
 */
function fixCompletes(sim: SteppedSim, state: GeneratedState, diagnosis: Diagnosis): boolean | string {
  const plan =
    diagnosis.remediations.find((p) => SPENDING_PLANS.includes(p.kind)) ??
    (state.kind === 'Rollout'
      ? diagnosis.remediations.find((p) => ROLLOUT_FIXES.includes(p.kind))
      : undefined);
  if (!plan) return true;
  try {
    return applyPlan(sim, state, plan);
  } catch {
    // Its conditional write (a JSON patch's test) no longer holds after the run: the
    // executor would refuse it here; its id, to judge it as written at the snapshot.
    return plan.id;
  }
}

function isPaused(sim: SteppedSim, state: GeneratedState): boolean {
  return (
    state.kind === 'Deployment' &&
    (sim.get(state.kind, state.namespace, state.name) as { spec?: { paused?: boolean } } | undefined)?.spec
      ?.paused === true
  );
}

/**
 * Writes `plan` as the executor would (the workload's patch, an old ReplicaSet's scale and
 * its stepped walk, the pods deleted, a Rollout's abort on its status) and runs the
 * controllers on; whether the plan's goal was reached: the rollout rolled out, or after an
 * abort the stable pods serving again. A plan with nothing to write reaches nothing.
 */
function applyPlan(
  sim: SteppedSim,
  state: GeneratedState,
  plan: RemediationPlan,
  written: () => void = () => undefined,
  /** Run at once after the write, before any controller pass (the neighbour losing the race). */
  wrote: () => void = () => undefined,
): boolean {
  if (plan.kind === 'abort-rollout') {
    // kinds/abort-rollout.ts writes the status subresource; it promises the stable pods, not the update.
    sim.patch(state.kind, state.namespace, state.name, plan.patch.type, plan.patch.body, 'status');
    wrote();
    written();
    return sim.advance(state.forwardSeconds ?? FORWARD_SECONDS, () => abortSettled(sim, state));
  }
  if (plan.kind === 'scale-old-replicaset') {
    sim.patch('ReplicaSet', state.namespace, plan.replicaSet.name, plan.patch.type, plan.patch.body);
    wrote();
    if (plan.replicaSet.stepped) walkSteps(sim, state, plan.replicaSet);
  } else if (plan.kind === 'delete-pods') {
    for (const pod of plan.pods) sim.delete('Pod', state.namespace, pod.name);
    wrote();
  } else if (plan.patch) {
    sim.patch(state.kind, state.namespace, state.name, plan.patch.type, plan.patch.body);
    wrote();
  } else return false;
  written();
  return runForward(sim, state);
}

/**
 * The executor's stepped walk (src/kube/write/stepped-walk.ts): after each step, once
 * the new pod it made room for is Ready, the cluster is read afresh and the next old
 * pod is released only while the deadlock is still proven (step-release.ts).
 */
function walkSteps(sim: SteppedSim, state: GeneratedState, target: OldReplicaSetTarget): void {
  const spec = (): number =>
    (sim.get('ReplicaSet', state.namespace, target.name) as { spec?: { replicas?: number } } | undefined)
      ?.spec?.replicas ?? 0;
  while (spec() > target.to) {
    sim.advance(120, () => rolledOut(sim, state));
    if (rolledOut(sim, state)) return;
    const choice = chooseStep(snapshotNow(sim, state), target);
    if (!choice.ok) return;
    sim.patch('ReplicaSet', state.namespace, target.name, 'merge', { spec: { replicas: spec() - 1 } });
  }
}

interface Counts {
  metadata?: { generation?: number };
  spec?: { replicas?: number; updateStrategy?: { rollingUpdate?: { partition?: number } } };
  status?: {
    readyReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    desiredNumberScheduled?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
    currentNumberScheduled?: number;
  };
}

/** `kubectl rollout status` would say the rollout is complete. */
export function rolledOut(sim: SteppedSim, state: GeneratedState): boolean {
  if (state.kind === 'Rollout') return rolloutRolledOut(sim, state);
  const o = sim.get(state.kind, state.namespace, state.name) as Counts | undefined;
  const s = o?.status;
  if (!o || !s || (s.observedGeneration ?? 0) < (o.metadata?.generation ?? 0)) return false;
  if (state.kind === 'DaemonSet') {
    const desired = s.desiredNumberScheduled ?? 0;
    return (s.updatedNumberScheduled ?? 0) >= desired && (s.numberAvailable ?? 0) >= desired;
  }
  const want = o.spec?.replicas ?? 1;
  if (state.kind === 'StatefulSet') {
    // kubectl's StatefulSetStatusViewer: every pod Ready, then the partitioned part
    // updated, or (no partition) the update revision become the current one.
    const partition = o.spec?.updateStrategy?.rollingUpdate?.partition;
    if ((s.readyReplicas ?? 0) < want) return false;
    if (partition !== undefined) return (s.updatedReplicas ?? 0) >= want - partition;
    return s.updateRevision !== undefined && s.updateRevision === s.currentRevision;
  }
  return (
    (s.updatedReplicas ?? 0) >= want &&
    (s.replicas ?? 0) <= (s.updatedReplicas ?? 0) &&
    (s.availableReplicas ?? 0) >= want
  );
}

export interface Tally {
  /** Plans judged on a replay, those found harmful, and those that went below a floor labelled as an outage. */
  plansJudged: number;
  harmfulPlanCount: number;
  labelledOutages: number;
  /** Plans that swapped serving pods for a crashing template the snapshot showed no sign of (not counted as harm). */
  unforeseenPlans: number;
  /** Plans that reached their goal only where a neighbour lost the race for the room (harmful unless they name it). */
  orderDependentPlans: number;
  /** Harmful plans by what was wrong with them. */
  harms: Record<string, number>;
  /** Plans whose replay diverged (not judged). */
  diverged: number;
  judged: number;
  skipped: number;
  agree: number;
  falseDeadlocks: number;
  harmfulPlans: number;
  missedDeadlocks: number;
  fixFailed: number;
  /** Fixes that failed on a crash no pod had shown at the snapshot. */
  unforeseeable: number;
  completed: number;
}

export function tally(results: readonly JudgedState[]): Tally {
  const count = (j: Judgement): number => results.filter((r) => r.judgement === j).length;
  const skipped = count('skipped');
  const verdicts = results.flatMap((r) => r.planVerdicts);
  const harms: Record<string, number> = {};
  for (const v of verdicts) if (v.harm) harms[v.harm] = (harms[v.harm] ?? 0) + 1;
  return {
    plansJudged: verdicts.length,
    harmfulPlanCount: verdicts.filter((v) => v.harm !== undefined).length,
    labelledOutages: verdicts.filter((v) => v.labelledOutage).length,
    unforeseenPlans: verdicts.filter((v) => v.unforeseen !== undefined).length,
    orderDependentPlans: verdicts.filter((v) => v.orderDependent).length,
    harms,
    diverged: results.reduce((n, r) => n + r.diverged, 0),
    judged: results.length - skipped,
    skipped,
    agree: count('agree'),
    falseDeadlocks: count('false-deadlock'),
    harmfulPlans: count('harmful-plan'),
    missedDeadlocks: count('missed-deadlock'),
    fixFailed: count('fix-failed'),
    unforeseeable: count('unforeseeable'),
    completed: results.filter((r) => r.judgement !== 'skipped' && r.completes).length,
  };
}
