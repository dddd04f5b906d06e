/**
 * Every remediation kind, one module each in this folder (kind.ts says what a module
 * states). The order is the order plans are proposed in for a finding, best first
 * (the first plan of the top finding is the recommended one), before drift moves a
 * fix that sticks ahead (plan-order.ts). Add a kind here, with its name in
 * REMEDIATION_KINDS (plan.ts); docs/architecture.md walks through it.
 */
import type { RemediationKind, RemediationPlan } from '../plan.js';
import { abortRollout } from './abort-rollout.js';
import { deletePods } from './delete-pods.js';
import { excludeNode } from './exclude-node.js';
import type { KindRegistry, RemediationKindModule } from './kind.js';
import { rolloutRestart } from './rollout-restart.js';
import { scaleBackOldReplicaSet } from './scale-back-old-replicaset.js';
import { scaleOldReplicaSet } from './scale-old-replicaset.js';
import { setRecreate } from './set-recreate.js';
import { setRollingUpdate } from './set-rolling-update.js';
import { taintDevice } from './taint-device.js';
import { untaintDevice } from './untaint-device.js';

export const REMEDIATION_KIND_MODULES: KindRegistry = {
  // A surge deadlock: the strategy plans restart in the same patch; scaling the old
  // ReplicaSet leaves the spec alone; a bare restart only where the deadlock is gone.
  'set-rolling-update': setRollingUpdate,
  'set-recreate': setRecreate,
  'scale-old-replicaset': scaleOldReplicaSet,
  'rollout-restart': rolloutRestart,
  // An Argo Rollout whose update cannot finish: back to the stable pods.
  'abort-rollout': abortRollout,
  // A crash loop on one node: the fix, the device taint where a device explains it, then relief.
  'exclude-node': excludeNode,
  'taint-device': taintDevice,
  'delete-pods': deletePods,
  // Only as Undos.
  'scale-back-old-replicaset': scaleBackOldReplicaSet,
  'untaint-device': untaintDevice,
};

/** The modules in registry order. */
export const remediationKinds: readonly RemediationKindModule[] = Object.values(REMEDIATION_KIND_MODULES);

/**
 * The module of a kind, or undefined for a name that is none (a plan read back from
 * Redis may carry anything).
 */
export function findKind(kind: string): RemediationKindModule | undefined {
  return Object.hasOwn(REMEDIATION_KIND_MODULES, kind)
    ? (REMEDIATION_KIND_MODULES[kind as RemediationKind] as RemediationKindModule)
    : undefined;
}

/** The module for a plan, typed for that plan. */
export function kindOf<P extends RemediationPlan>(plan: P): RemediationKindModule<P> {
  // The registry's type pairs every kind with the module for PlanOf<kind>.
  return REMEDIATION_KIND_MODULES[plan.kind as RemediationKind] as unknown as RemediationKindModule<P>;
}

/**
 * The kind an Undo plan reverts: an Undo keeps the kind it reverts, but for the kinds
 * that exist only as Undos ("undo of taint-device", not "undo of untaint-device").
 */
export function undoneKind(kind: string): string {
  return findKind(kind)?.undoes ?? kind;
}
