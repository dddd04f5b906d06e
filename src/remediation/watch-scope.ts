/**
 * What there is to watch after a plan is applied, as its kind says (kinds/: `watch`).
 * Only a change to the workload (its pod template, its strategy while a rollout is
 * under way) or to its old ReplicaSet's scale moves the rollout, so only then is "the
 * rollout" watched. Plans that delete pods leave the template alone: their ReplicaSet
 * creates replacements, and what is watched is those becoming Ready. The Undo kinds
 * that only delete a DeviceTaintRule or scale an old ReplicaSet back up replace no pod
 * of the workload and start no rollout: there is nothing to wait for.
 */
import { kindOf } from './kinds/index.js';
import type { WatchScope } from './kinds/kind.js';
import type { RemediationPlan } from './plan.js';

export type { WatchScope } from './kinds/kind.js';

/** @example watchScopeOf(deletePodsPlan) // { kind: 'replacements', pods: [...] } */
export function watchScopeOf(plan: RemediationPlan): WatchScope {
  return kindOf(plan).watch(plan);
}

/** "Watching the rollout…", "Watching the 2 replacement pods become Ready…", "Nothing to watch: …". */
export function watchingWords(scope: WatchScope): string {
  switch (scope.kind) {
    case 'rollout':
      return 'Watching the rollout…';
    case 'replacements': {
      const names = scope.pods.slice(0, 3).map((p) => p.name);
      const more = scope.pods.length > 3 ? ` and ${scope.pods.length - 3} more` : '';
      return `Watching the replacement${scope.pods.length === 1 ? '' : 's'} of ${names.join(', ')}${more} become Ready…`;
    }
    case 'nothing':
      return `Nothing to watch: ${scope.why}.`;
  }
}
