/**
 * Every offered plan, judged by the simulator (issue 52 item 4): the state is replayed
 * to the moment of the snapshot (the stepped simulator is seeded: the same state comes
 * out with the same names), the plan applied as the executor writes it, and the
 * controllers run forward. A plan is harmful where
 * - below-floor: at some step the workload's serving pods (Ready, past minReadySeconds,
 *   not terminating) fall below the floor its PodDisruptionBudgets declare (minAvailable,
 *   or the replicas less maxUnavailable; percentages of the replicas, rounded up as the
 *   disruption controller does) and below where they stood; a plan whose proof says it
 *   goes that far below the budget (`proof.belowFloor`, issue 52 item 1: offered only as
 *   an outage) is counted apart, as labelled;
 * - crash-swap: it ends with fewer serving pods than it started with, and pods of an
 *   image known to crash in their place;
 * - finishes-nothing: the goal it exists for is not reached (the rollout rolled out;
 *   for an abort, the stable pods serving again; for a node exclusion, no pod
 *   crash-looping at the end and more serving than at the start, rolled out or not;
 *   for relief, pods deleted, no fewer serving at the end);
 * - unpaused: the workload was paused, the plan's write left it resumed, and the plan
 *   does not say it resumes it.
 * - order-dependent (a state with a neighbour, sim/generated-neighbours.ts; state-judge.ts
 *   sets it): the goal is not reached as replayed, where the neighbour's Pending pods are
 *   older and take the room the plan frees first, but is reached on a second replay where
 *   they get none of it; harmful unless the plan's warnings name the neighbour.
 * A budget whose selector covers the target's pods and another workload's (a shared one)
 * is held over all the pods it selects: the plan must not take them below its floor and
 * below both where they stood and the lowest the run without the plan went.
 * A paused Deployment is resumed by the judge after the write, as its person would.
 * The minimum of serving pods over the run is tracked at every controller pass.
 */
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { GeneratedState } from '../../sim/generated-states.js';
import type { SteppedSim } from '../../sim/stepped.js';
import { scaledValue } from '../../sim/controllers/disruption.js';

export type PlanHarm = 'below-floor' | 'crash-swap' | 'finishes-nothing' | 'unpaused' | 'order-dependent';

export interface PlanVerdict {
  id: string;
  kind: string;
  harm?: PlanHarm;
  /** Went below the floor, and says it is an outage. */
  labelledOutage?: boolean;
  startServing: number;
  minServing: number;
  floor?: number;
  /**
   * A crash-swap the snapshot gave no sign of: no pod of the crashing image had restarted,
   * terminated or been waiting in CrashLoopBackOff when it was taken, so no reading of
   * the cluster could have known the new template crashes. Counted apart from harm.
   */
  unforeseen?: 'crash-swap';
  /**
   * Reached its goal only on the replay where the neighbour lost the race for the room it
   * frees (harm 'order-dependent' unless its warnings name the neighbour).
   */
  orderDependent?: boolean;
  /** A shared budget it took below its floor: name, its pods serving at the start and at the fewest. */
  sharedBudget?: string;
}

interface PodView {
  metadata: { labels?: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: { image?: string }[] };
  status?: {
    conditions?: { type: string; status: string; lastTransitionTime?: string }[];
    containerStatuses?: {
      image?: string;
      restartCount?: number;
      state?: { waiting?: { reason?: string }; terminated?: object };
      lastState?: { terminated?: object };
    }[];
  };
}

/** Whether a pod of the workload (not terminating) is crash-looping now: waiting in CrashLoopBackOff, or its container terminated. */
function crashingNow(sim: SteppedSim, state: GeneratedState): boolean {
  return podsOf(sim, state).some(
    (p) =>
      !p.metadata.deletionTimestamp &&
      (p.status?.containerStatuses ?? []).some(
        (c) => c.state?.waiting?.reason === 'CrashLoopBackOff' || c.state?.terminated !== undefined,
      ),
  );
}

/** Whether a pod of a crashing image shows it now: restarted, terminated, or in CrashLoopBackOff. */
function crashSeen(sim: SteppedSim, state: GeneratedState, crash: readonly string[]): boolean {
  const ofCrash = (p: PodView): boolean =>
    p.spec.containers.some((c) => crash.some((i) => c.image?.startsWith(i)));
  return podsOf(sim, state)
    .filter(ofCrash)
    .some((p) =>
      (p.status?.containerStatuses ?? []).some(
        (c) =>
          (c.restartCount ?? 0) > 0 ||
          c.state?.terminated !== undefined ||
          c.lastState?.terminated !== undefined ||
          c.state?.waiting?.reason === 'CrashLoopBackOff',
      ),
    );
}

/** The workload's pods (its label, its namespace). */
function podsOf(sim: SteppedSim, state: GeneratedState): PodView[] {
  return (sim.list('Pod', state.namespace) as unknown as PodView[]).filter(
    (p) => p.metadata.labels?.['app'] === state.name,
  );
}

function minReadySeconds(sim: SteppedSim, state: GeneratedState): number {
  const w = sim.get(state.kind, state.namespace, state.name) as
    { spec?: { minReadySeconds?: number } } | undefined;
  return w?.spec?.minReadySeconds ?? 0;
}

/** Serving: Ready for minReadySeconds, not terminating; optionally only pods not of a crashing image. */
export function serving(
  sim: SteppedSim,
  state: GeneratedState,
  exceptImages: readonly string[] = [],
): number {
  const now = Date.parse(sim.now());
  const minReady = minReadySeconds(sim, state) * 1000;
  return podsOf(sim, state).filter((p) => {
    if (p.metadata.deletionTimestamp) return false;
    if (p.spec.containers.some((c) => exceptImages.some((i) => c.image?.startsWith(i)))) return false;
    const ready = p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
    if (!ready) return false;
    return minReady === 0 || now - Date.parse(ready.lastTransitionTime ?? '1970-01-01T00:00:00Z') >= minReady;
  }).length;
}

/** The highest floor the namespace's budgets put on the workload's pods; undefined with none. */
export function floorOf(sim: SteppedSim, state: GeneratedState): number | undefined {
  const w = sim.get(state.kind, state.namespace, state.name) as
    { spec?: { replicas?: number }; status?: { desiredNumberScheduled?: number } } | undefined;
  const replicas = w?.spec?.replicas ?? w?.status?.desiredNumberScheduled ?? 1;
  const floors = (
    sim.list('PodDisruptionBudget', state.namespace) as unknown as {
      spec?: {
        minAvailable?: number | string;
        maxUnavailable?: number | string;
        selector?: { matchLabels?: Record<string, string> };
      };
    }[]
  )
    .filter((b) => {
      const labels = b.spec?.selector?.matchLabels ?? {};
      return Object.entries(labels).every(([k, v]) => k === 'app' && v === state.name);
    })
    .flatMap((b) => {
      if (b.spec?.maxUnavailable !== undefined)
        return [Math.max(0, replicas - scaledValue(b.spec.maxUnavailable, replicas))];
      if (b.spec?.minAvailable !== undefined) return [scaledValue(b.spec.minAvailable, replicas)];
      return [];
    });
  return floors.length > 0 ? Math.max(...floors) : undefined;
}

interface BudgetView {
  metadata: { name: string };
  spec?: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector?: { matchLabels?: Record<string, string> };
  };
}

const selects = (selector: Record<string, string>, labels: Record<string, string> | undefined): boolean =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/**
 * The budgets that select the target's pods and another workload's too (a selector other
 * than the target's own `app` label, that its template's labels match), each with its
 * floor over every pod it selects (the replicas of the Deployments whose templates it
 * selects, for a percentage).
 */
export function sharedBudgets(
  sim: SteppedSim,
  state: GeneratedState,
): { name: string; selector: Record<string, string>; floor: number }[] {
  const w = sim.get(state.kind, state.namespace, state.name) as
    { spec?: { template?: { metadata?: { labels?: Record<string, string> } } } } | undefined;
  const labels = w?.spec?.template?.metadata?.labels;
  const workloads = sim.list('Deployment', state.namespace) as unknown as {
    spec?: { replicas?: number; template?: { metadata?: { labels?: Record<string, string> } } };
  }[];
  return (sim.list('PodDisruptionBudget', state.namespace) as unknown as BudgetView[]).flatMap((b) => {
    const selector = b.spec?.selector?.matchLabels ?? {};
    const own = Object.entries(selector).every(([k, v]) => k === 'app' && v === state.name);
    if (own || !selects(selector, labels)) return [];
    const replicas = workloads
      .filter((d) => selects(selector, d.spec?.template?.metadata?.labels))
      .reduce((n, d) => n + (d.spec?.replicas ?? 1), 0);
    const floor =
      b.spec?.maxUnavailable !== undefined
        ? Math.max(0, replicas - scaledValue(b.spec.maxUnavailable, replicas))
        : b.spec?.minAvailable !== undefined
          ? scaledValue(b.spec.minAvailable, replicas)
          : undefined;
    return floor === undefined ? [] : [{ name: b.metadata.name, selector, floor }];
  });
}

/** Pods a selector covers that serve: Ready, not terminating. */
export function servingSelected(
  sim: SteppedSim,
  state: GeneratedState,
  selector: Record<string, string>,
): number {
  return (sim.list('Pod', state.namespace) as unknown as PodView[]).filter(
    (p) =>
      !p.metadata.deletionTimestamp &&
      selects(selector, p.metadata.labels) &&
      p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
}

/** The simulator with every `advance` sampling the serving pods first (each pass, each timer). */
export function sampling(sim: SteppedSim, sample: () => void): SteppedSim {
  return {
    ...sim,
    advance: (seconds, done) =>
      sim.advance(seconds, () => {
        sample();
        return done ? done() : false;
      }),
  };
}

/**
 * Judges one plan on a simulator standing at the snapshot: `apply` writes it and runs
 * the controllers on (returning whether its goal was reached).
 */
export function judgePlan(
  sim: SteppedSim,
  state: GeneratedState,
  plan: RemediationPlan,
  apply: (sim: SteppedSim, written: () => void) => boolean,
  /** Per shared budget (by name), the fewest pods it selects served over the run without the plan. */
  sharedBaseline: Record<string, number> = {},
): PlanVerdict {
  const crash = state.crashImages ?? [];
  const pausedBefore = paused(sim, state);
  const foreseeable = crash.length > 0 && crashSeen(sim, state, crash);
  let unpaused = false;
  const startServing = serving(sim, state);
  const floor = floorOf(sim, state);
  let minServing = startServing;
  const shared = sharedBudgets(sim, state).map((b) => {
    const start = servingSelected(sim, state, b.selector);
    return { ...b, start, min: start };
  });
  const sampleShared = (): void => {
    for (const b of shared) b.min = Math.min(b.min, servingSelected(sim, state, b.selector));
  };
  const watched = sampling(sim, () => {
    minServing = Math.min(minServing, serving(sim, state));
    sampleShared();
  });
  const reached = apply(watched, () => {
    unpaused = pausedBefore && !paused(sim, state) && !/resum/i.test(`${plan.summary} ${plan.impact}`);
  });
  minServing = Math.min(minServing, serving(sim, state));
  sampleShared();
  const endServing = serving(sim, state);
  const crashing =
    crash.length > 0 &&
    podsOf(sim, state).some((p) => p.spec.containers.some((c) => crash.some((i) => c.image?.startsWith(i))));
  const base = {
    id: plan.id,
    kind: plan.kind,
    startServing,
    minServing,
    ...(floor !== undefined ? { floor } : {}),
  };
  if (floor !== undefined && minServing < floor && minServing < startServing) {
    // Labelled: the plan says it goes below the budget (its proof's belowFloor, plan-proof.ts)
    // by at least as much as it does here.
    const says = (plan as { proof?: { belowFloor?: number } }).proof?.belowFloor ?? 0;
    const labelled = says > 0 && says >= floor - minServing;
    return labelled ? { ...base, labelledOutage: true } : { ...base, harm: 'below-floor' };
  }
  const broken = shared.find(
    (b) => b.min < b.floor && b.min < Math.min(b.start, sharedBaseline[b.name] ?? b.start),
  );
  if (broken) {
    const sharedBudget = `${broken.name}: serving ${broken.start}→min ${broken.min}, floor ${broken.floor}`;
    const says = (plan as { proof?: { belowFloor?: number } }).proof?.belowFloor ?? 0;
    const labelled = says > 0 && says >= broken.floor - broken.min;
    return labelled
      ? { ...base, floor: broken.floor, sharedBudget, labelledOutage: true }
      : { ...base, floor: broken.floor, sharedBudget, harm: 'below-floor' };
  }
  if (unpaused) return { ...base, harm: 'unpaused' };
  if (crashing && endServing < startServing)
    return foreseeable ? { ...base, harm: 'crash-swap' } : { ...base, unforeseen: 'crash-swap' };
  // An exclusion states its own goal (DESIGN §4d, issue 52.1): the crash off the nodes it
  // excludes; a rollout that then waits for room has still reached it where more pods serve.
  const crashGone = plan.kind === 'exclude-node' && !crashingNow(sim, state) && endServing > startServing;
  // Relief (delete-pods) promises no more than the crashing pods gone, taking nothing down
  // (plan-proof.ts): it reached that where no fewer pods serve at the end.
  const relieved = plan.kind === 'delete-pods' && endServing >= startServing;
  if (!reached && !crashGone && !relieved) return { ...base, harm: 'finishes-nothing' };
  return base;
}

function paused(sim: SteppedSim, state: GeneratedState): boolean {
  const w = sim.get(state.kind, state.namespace, state.name) as { spec?: { paused?: boolean } } | undefined;
  return w?.spec?.paused === true;
}

/** The plans that change pods now (not RolloutAtRisk's, which change the next rollout). */
export function plansNow(diagnosis: Diagnosis): RemediationPlan[] {
  return diagnosis.remediations.filter((p) => p.addresses !== 'RolloutAtRisk');
}
