/**
 * What there is to watch after a plan is applied, from what its kind changes. Only a
 * change to the Deployment (its pod template, its strategy while a rollout is under
 * way) or to its old ReplicaSet's scale moves the rollout, so only then is "the rollout"
 * watched. Plans that delete pods leave the template alone: their ReplicaSet creates
 * replacements, and what is watched is those becoming Ready. The Undo kinds that only
 * delete a DeviceTaintRule or scale an old ReplicaSet back up replace no pod of the
 * Deployment and start no rollout: there is nothing to wait for.
 */
import type { RemediationPlan } from './plan.js';

export type WatchScope =
  | { kind: 'rollout' }
  | { kind: 'replacements'; pods: { name: string; uid: string }[] }
  | { kind: 'nothing'; why: string };

/** @example watchScopeOf(deletePodsPlan) // { kind: 'replacements', pods: [...] } */
export function watchScopeOf(plan: Pick<RemediationPlan, 'kind' | 'pods'>): WatchScope {
  switch (plan.kind) {
    case 'delete-pods':
    case 'taint-device':
      return { kind: 'replacements', pods: plan.pods ?? [] };
    case 'untaint-device':
      return {
        kind: 'nothing',
        why: 'deleting the DeviceTaintRule starts no rollout and replaces no pod (new claims may get the device again)',
      };
    case 'scale-back-old-replicaset':
      return {
        kind: 'nothing',
        why: "it starts no rollout: the old ReplicaSet's pods start beside the new ones, and the Deployment controller scales them down again as the new ones are available",
      };
    case 'set-rolling-update':
    case 'set-recreate':
    case 'exclude-node':
    case 'rollout-restart':
    case 'scale-old-replicaset':
      return { kind: 'rollout' };
  }
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
