/**
 * The Undo of an applied plan, as its kind builds it (kinds/: `inverse`): a patch back
 * with preconditions on what the apply left (the generation it produced, each changed
 * field at its new value), the old ReplicaSet scaled back to the count it had, or the
 * DeviceTaintRule deleted. Null where nothing makes sense to put back. Pure.
 */
import { kindOf } from './kinds/index.js';
import type { Applied } from './kinds/kind.js';
import type { RemediationPlan } from './plan.js';

/** @example const undo = inversePlan(plan, { generation: result.generation, changes: result.changes }); */
export function inversePlan(plan: RemediationPlan, applied: Applied): RemediationPlan | null {
  return kindOf(plan).inverse(plan, applied);
}
