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

export type Judgement =
  | 'agree'
  | 'false-deadlock'
  | 'harmful-plan'
  | 'missed-deadlock'
  | 'fix-failed'
  /** The cluster did not reach its steady state before the change (nothing to judge). */
  | 'skipped';

export interface JudgedState {
  seed: number;
  judgement: Judgement;
  completes: boolean;
  codes: string[];
  plans: string[];
  description: string;
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
 * preemption, a tight quota, an early snapshot).
 */
export function judgeSeed(seed: number, kind?: GeneratedKind, rules = false, motion = false): JudgedState {
  const drawn = generateState(seed, kind);
  const placed = rules ? withPlacementRules(drawn) : drawn;
  const state = motion ? withMotion(placed) : placed;
  const sim = startStepped(state.objects);
  try {
    return judge(sim, state);
  } finally {
    sim.stop();
  }
}

function judge(sim: SteppedSim, state: GeneratedState): JudgedState {
  const base = { seed: state.seed, description: state.description };
  if (!sim.advance(STEADY_SECONDS, () => rolledOut(sim, state))) {
    return { ...base, judgement: 'skipped', completes: false, codes: [], plans: [] };
  }
  sim.apply(state.changed);
  sim.advance(state.after);
  const diagnosis = diagnoseNow(sim, state);
  const codes = diagnosis.findings.map((f) => f.code);
  const plans = diagnosis.remediations.map((p) => p.kind);
  // RolloutAtRisk's plans change the next rollout's strategy; they take nothing down now.
  const now = diagnosis.remediations.filter((p) => p.addresses !== 'RolloutAtRisk').map((p) => p.kind);
  const completes = runForward(sim, state);
  const saysStuck = codes.some((c) => STUCK_CODES.includes(c));
  const spends = now.some((k) => spendingPlans(state.kind).includes(k));
  const problems = diagnosis.findings.some((f) => f.severity !== 'info');
  let judgement: Judgement = 'agree';
  if (completes && saysStuck) judgement = 'false-deadlock';
  else if (completes && spends) judgement = 'harmful-plan';
  else if (!completes && !problems) judgement = 'missed-deadlock';
  else if (!completes && spends && !fixCompletes(sim, state, diagnosis)) judgement = 'fix-failed';
  return { ...base, judgement, completes, codes, plans };
}

function snapshotNow(sim: SteppedSim, state: GeneratedState): WorkloadSnapshot {
  const objects = sim.objects() as unknown as KubeObject[];
  return assembleSnapshot({ kind: state.kind, namespace: state.namespace, name: state.name }, objects, {
    capturedAt: sim.now(),
  });
}

function diagnoseNow(sim: SteppedSim, state: GeneratedState): Diagnosis {
  return diagnose(snapshotNow(sim, state));
}

/** FORWARD_SECONDS on; a Rollout's indefinite pauses promoted as they come. Whether it rolled out. */
function runForward(sim: SteppedSim, state: GeneratedState): boolean {
  const done = (): boolean => rolledOut(sim, state);
  const seconds = state.forwardSeconds ?? FORWARD_SECONDS;
  return state.kind === 'Rollout' ? runPromoting(sim, state, seconds, done) : sim.advance(seconds, done);
}

/**
 * Applies the first plan that takes serving pods down (a Rollout: else its abort or a
 * node exclusion), as the executor would, and runs on.
 */
function fixCompletes(sim: SteppedSim, state: GeneratedState, diagnosis: Diagnosis): boolean {
  const plan =
    diagnosis.remediations.find((p) => SPENDING_PLANS.includes(p.kind)) ??
    (state.kind === 'Rollout'
      ? diagnosis.remediations.find((p) => ROLLOUT_FIXES.includes(p.kind))
      : undefined);
  if (!plan) return true;
  if (plan.kind === 'abort-rollout') {
    // kinds/abort-rollout.ts writes the status subresource; it promises the stable pods, not the update.
    sim.patch(state.kind, state.namespace, state.name, plan.patch.type, plan.patch.body, 'status');
    return sim.advance(state.forwardSeconds ?? FORWARD_SECONDS, () => abortSettled(sim, state));
  }
  if (plan.kind === 'scale-old-replicaset') {
    sim.patch('ReplicaSet', state.namespace, plan.replicaSet.name, plan.patch.type, plan.patch.body);
    if (plan.replicaSet.stepped) walkSteps(sim, state, plan.replicaSet);
  } else if (plan.kind === 'delete-pods') {
    for (const pod of plan.pods) sim.delete('Pod', state.namespace, pod.name);
  } else if (plan.patch) {
    sim.patch(state.kind, state.namespace, state.name, plan.patch.type, plan.patch.body);
  } else return true;
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
  judged: number;
  skipped: number;
  agree: number;
  falseDeadlocks: number;
  harmfulPlans: number;
  missedDeadlocks: number;
  fixFailed: number;
  completed: number;
}

export function tally(results: readonly JudgedState[]): Tally {
  const count = (j: Judgement): number => results.filter((r) => r.judgement === j).length;
  const skipped = count('skipped');
  return {
    judged: results.length - skipped,
    skipped,
    agree: count('agree'),
    falseDeadlocks: count('false-deadlock'),
    harmfulPlans: count('harmful-plan'),
    missedDeadlocks: count('missed-deadlock'),
    fixFailed: count('fix-failed'),
    completed: results.filter((r) => r.judgement !== 'skipped' && r.completes).length,
  };
}
