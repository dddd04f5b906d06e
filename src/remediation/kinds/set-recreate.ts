/**
 * set-recreate: the Recreate strategy, every old pod stops before new ones start
 * (builders/strategy-plans.ts; the restart in the same patch for a stuck rollout). Pure.
 */
import { buildSetRecreatePlans } from '../builders/strategy-plans.js';
import { restarts, workloadPaths, workloadPatchKind } from './workload-patch.js';

export const setRecreate = workloadPatchKind({
  kind: 'set-recreate',
  answers: { RolloutSurgeDeadlock: buildSetRecreatePlans },
  // Recreate stops every old pod before a new one starts.
  spendsAvailability: true,
  turnsOnReplicas: true,
  goal: 'rollout-completes',
  // Never the strategy the workload already has.
  alreadySet: (_plan, current) => current.type === 'Recreate',
  paths: (workload) => [...workloadPaths(workload).strategy, workloadPaths(workload).restartedAt],
  change: (plan, target) =>
    `Set the strategy to Recreate (old pods stop before new ones start)${restarts(plan) ? ` and restart ${target} now` : ` of ${target}`}.`,
});
