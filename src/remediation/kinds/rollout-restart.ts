/**
 * rollout-restart: what `kubectl rollout restart` does (builders/rollout-restart.ts).
 * Offered for a surge deadlock only where the snapshot no longer shows the deadlock:
 * while it stands the restart recreates the same Pending pod (the strategy plans
 * restart in the same patch instead). Pure.
 */
import { buildRolloutRestartPlans } from '../builders/rollout-restart.js';
import { workloadPaths, workloadPatchKind } from './workload-patch.js';

export const rolloutRestart = workloadPatchKind({
  kind: 'rollout-restart',
  workloads: ['Deployment', 'DaemonSet', 'StatefulSet'],
  // A restart replaces every pod.
  spendsAvailability: true,
  turnsOnReplicas: true,
  goal: 'rollout-completes',
  answers: { RolloutSurgeDeadlock: buildRolloutRestartPlans },
  paths: (workload) => [workloadPaths(workload).restartedAt],
  change: (_plan, target) => `Restart ${target} now: its pods are replaced as its strategy allows.`,
});
