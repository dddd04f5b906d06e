/**
 * The Argo Rollout side of the generated-state judge (state-judge.ts), in Argo's own
 * terms:
 * - rolled out: what ends `kubectl argo rollouts status` with success
 *   (pkg/kubectl-argo-rollouts/cmd/status/status.go waits for GetRolloutPhase to say
 *   Healthy): the controller has observed the spec (status.observedGeneration), is not
 *   unpausing, wrote phase Healthy, and the update is the stable revision (stableRS ==
 *   currentPodHash). An aborted update reads Degraded: never rolled out.
 * - an indefinite pause (a canary `pause: {}` step, or blue-green with
 *   autoPromotionEnabled false) is not stuck: the Rollout waits for a person by design.
 *   The judge plays that person: in its forward runs, each time the Rollout stands at
 *   such a pause it promotes it, as `kubectl argo rollouts promote` does (a merge patch
 *   `{"status":{"pauseConditions":null}}` on the status subresource:
 *   pkg/kubectl-argo-rollouts/cmd/promote/promote.go getPatches), and the rollout
 *   finishes if it then reaches Healthy. So a verdict that the update can never finish
 *   is held against the steps after every pause, and a Rollout found paused at such a
 *   step must not be called stuck. Before the snapshot nobody promotes: snapshots often
 *   stand at a pause.
 * - abort-rollout, the executor's status patch (builders/abort-rollout.ts), does not
 *   finish the update (reliefOnly): it is judged by what it promises, the update's
 *   ReplicaSet scaled away and the stable one serving every replica again.
 */
import type { SteppedSim } from '../../sim/stepped.js';
import type { GeneratedState } from '../../sim/generated-states.js';

interface RolloutView {
  metadata?: { generation?: number };
  spec?: {
    replicas?: number;
    paused?: boolean;
    strategy?: {
      canary?: { steps?: { pause?: { duration?: unknown } }[] };
      blueGreen?: { autoPromotionEnabled?: boolean };
    };
  };
  status?: {
    observedGeneration?: string;
    phase?: string;
    stableRS?: string;
    currentPodHash?: string;
    controllerPause?: boolean;
    abort?: boolean;
    currentStepIndex?: number;
    pauseConditions?: { reason?: string }[];
  };
}

function read(sim: SteppedSim, state: GeneratedState): RolloutView | undefined {
  return sim.get('Rollout', state.namespace, state.name) as RolloutView | undefined;
}

function observed(o: RolloutView): boolean {
  return o.status?.observedGeneration === String(o.metadata?.generation ?? 0);
}

/** `kubectl argo rollouts status` would end with Healthy, the update the stable revision. */
export function rolloutRolledOut(sim: SteppedSim, state: GeneratedState): boolean {
  const o = read(sim, state);
  const s = o?.status;
  if (!o || !s || !observed(o)) return false;
  const unpausing = s.controllerPause === true && (s.pauseConditions ?? []).length === 0;
  return !unpausing && s.phase === 'Healthy' && !!s.stableRS && s.stableRS === s.currentPodHash;
}

/** The Rollout stands at a pause only a person ends: a canary step without duration, blue-green without auto-promotion. */
export function awaitsPromote(sim: SteppedSim, state: GeneratedState): boolean {
  const o = read(sim, state);
  const s = o?.status;
  if (!o || !s || !observed(o) || s.abort || o.spec?.paused) return false;
  const reasons = (s.pauseConditions ?? []).map((c) => c.reason);
  if (reasons.includes('BlueGreenPause')) return o.spec?.strategy?.blueGreen?.autoPromotionEnabled === false;
  if (!reasons.includes('CanaryPauseStep')) return false;
  const step = o.spec?.strategy?.canary?.steps?.[s.currentStepIndex ?? 0];
  return step?.pause !== undefined && step.pause.duration === undefined;
}

/** `kubectl argo rollouts promote` of a Rollout with pause conditions. */
export function promote(sim: SteppedSim, state: GeneratedState): void {
  sim.patch('Rollout', state.namespace, state.name, 'merge', { status: { pauseConditions: null } }, 'status');
}

/**
 * Runs the simulator on for `seconds`, promoting each indefinite pause as it comes;
 * whether the Rollout rolled out. `done` is the judge's rolled-out test.
 */
export function runPromoting(
  sim: SteppedSim,
  state: GeneratedState,
  seconds: number,
  done: () => boolean,
): boolean {
  const end = Date.parse(sim.now()) + seconds * 1000;
  // Each promote moves at least one step on; a bound keeps a controller that ignores it from looping.
  for (let promotes = 0; promotes < 20; promotes += 1) {
    const left = (end - Date.parse(sim.now())) / 1000;
    if (left <= 0) return done();
    if (sim.advance(left, () => done() || awaitsPromote(sim, state)) && done()) return true;
    if (!awaitsPromote(sim, state)) return done();
    promote(sim, state);
  }
  return done();
}

/**
 * After an abort, what abort-rollout promises: the Rollout aborted, the update's
 * ReplicaSet scaled away (a basic canary at once, blue-green after
 * abortScaleDownDelaySeconds), and the stable ReplicaSet serving every replica again.
 */
export function abortSettled(sim: SteppedSim, state: GeneratedState): boolean {
  const o = read(sim, state);
  const s = o?.status;
  if (!o || !s?.abort || !s.stableRS || s.stableRS === s.currentPodHash) return false;
  const byHash = (hash: string | undefined) =>
    sim
      .list('ReplicaSet', state.namespace)
      .find(
        (r) =>
          (r.metadata.labels as Record<string, string> | undefined)?.['rollouts-pod-template-hash'] === hash,
      ) as
      | { spec?: { replicas?: number }; status?: { replicas?: number; availableReplicas?: number } }
      | undefined;
  const update = byHash(s.currentPodHash);
  const stable = byHash(s.stableRS);
  return (
    (update?.spec?.replicas ?? 0) === 0 &&
    (update?.status?.replicas ?? 0) === 0 &&
    (stable?.status?.availableReplicas ?? 0) >= (o.spec?.replicas ?? 1)
  );
}
