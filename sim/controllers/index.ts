/** Registers the simulator's controllers with a manager. */
import { deploymentController } from './deployment.js';
import { kubeletController } from './kubelet.js';
import type { ControllerManager } from './manager.js';
import { replicaSetController } from './replicaset.js';
import { schedulerController } from './scheduler.js';
import { resourceClaimController } from './dra.js';
import { daemonSetController } from './daemonset.js';
import { statefulSetController } from './statefulset.js';

/** Adds every controller to the manager: deployment, replicaset, statefulset, daemonset, scheduler, kubelet. */
export function startControllers(manager: ControllerManager): void {
  manager.add(deploymentController(manager.context));
  manager.add(replicaSetController(manager.context));
  manager.add(statefulSetController(manager.context));
  manager.add(daemonSetController(manager.context));
  // Before the scheduler: a pod's template claims exist before it is tried.
  manager.add(resourceClaimController(manager.context));
  manager.add(schedulerController(manager.context));
  manager.add(kubeletController(manager.context));
}
