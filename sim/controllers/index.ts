/** Registers the simulator's controllers with a manager. */
import { deploymentController } from './deployment.js';
import { kubeletController } from './kubelet.js';
import type { ControllerManager } from './manager.js';
import { replicaSetController } from './replicaset.js';
import { schedulerController } from './scheduler.js';
import { resourceClaimController } from './dra.js';
import { daemonSetController } from './daemonset.js';
import { statefulSetController } from './statefulset.js';
import { resourceQuotaController } from './resource-quota.js';
import { rolloutController } from './argo/controller.js';
import { disruptionController } from './disruption.js';
import { hpaController } from './hpa.js';

/**
 * What each controller runs, by its name, in the words of `npm run sim -- --help`
 * (sim/main.ts): every controller startControllers adds has its line, which
 * test/unit/cli-sim-help.test.ts holds.
 */
export const CONTROLLER_WORDS: Readonly<Record<string, string>> = {
  resourcequota: "ResourceQuota status (what the namespace's pods use)",
  'horizontal-pod-autoscaler': 'HorizontalPodAutoscalers (the scale they ask for)',
  deployment: 'Deployments (RollingUpdate, Recreate, pause, progress deadline)',
  'argo-rollouts':
    'Argo Rollouts (argoproj.io/v1alpha1: canary steps, blue-green; a scenario holding one gets the CRD)',
  replicaset: 'ReplicaSets',
  statefulset: 'StatefulSets (ControllerRevisions, OrderedReady and Parallel, partitions)',
  daemonset: 'DaemonSets (ControllerRevisions, maxSurge, a pod a node)',
  resourceclaim: "DRA ResourceClaims (from a pod template's claims)",
  scheduler: 'the scheduler (pods onto nodes, preemption)',
  kubelet: 'the kubelet (containers start, crash by the crash rules, turn Ready)',
  disruption: 'PodDisruptionBudget status',
};

/**
 * Adds every controller to the manager: resourcequota, horizontal-pod-autoscaler, deployment, argo-rollouts,
 * replicaset, statefulset, daemonset, scheduler, kubelet, disruption.
 */
export function startControllers(manager: ControllerManager): void {
  // First: a scenario's quotas get their status before any pod is created, as if they
  // had been there all along (admission ignores a quota the controller has not synced).
  manager.add(resourceQuotaController(manager.context));
  // Before the workload controllers: a scale it writes is synced in the same pass.
  manager.add(hpaController(manager.context));
  manager.add(deploymentController(manager.context));
  manager.add(rolloutController(manager.context));
  manager.add(replicaSetController(manager.context));
  manager.add(statefulSetController(manager.context));
  manager.add(daemonSetController(manager.context));
  // Before the scheduler: a pod's template claims exist before it is tried.
  manager.add(resourceClaimController(manager.context));
  manager.add(schedulerController(manager.context));
  manager.add(kubeletController(manager.context));
  // Last: a budget's status follows the pods the others have just written.
  manager.add(disruptionController(manager.context));
}
