/**
 * How the Deployment changed under a stepped walk, and the walk's words for its
 * longer stops: kept apart from the walk's decisions (stepped-walk.ts). The step
 * events carry codes, which src/chat/use-cases/outcome.ts renders for Slack; these
 * words are the reasons an ApplyResult carries. Pure.
 *
 * Upstream deployment controller: rolled back to the old ReplicaSet's template, that
 * ReplicaSet is the new one again and the controller scales it up itself, so no Undo
 * (scaling it by hand only races the controller); a new rollout (a third template)
 * makes it an old ReplicaSet the controller only scales down, so no Undo either;
 * any other spec change leaves both ReplicaSets in their roles, and the Undo stays.
 */
import type { Deployment, ReplicaSet } from '../../diagnosis/k8s-workloads.js';
import type { Pod } from '../../diagnosis/k8s.js';
import { templatesEqual } from '../../diagnosis/workloads/deployment/replica-sets.js';
import type { OldReplicaSetTarget } from '../../remediation/plan.js';
import type { DeploymentChange } from './stepped-state.js';

/** How the Deployment changed: replaced (another uid), or one of DeploymentChange. */
export function howChanged(
  planUid: string,
  live: Deployment,
  oldNow: ReplicaSet | undefined,
  newNow: ReplicaSet | undefined,
): 'replaced' | DeploymentChange {
  if (live.metadata.uid !== planUid) return 'replaced';
  if (oldNow?.spec.template && templatesEqual(oldNow.spec.template, live.spec.template)) return 'rolled-back';
  if (!newNow?.spec.template || !templatesEqual(newNow.spec.template, live.spec.template))
    return 'new-rollout';
  return 'spec';
}

/** The stop's words, and why the Undo is not offered where it is not. */
export function changeWords(
  change: 'replaced' | DeploymentChange,
  target: OldReplicaSetTarget,
  live: Deployment,
): { stop: string; noUndo?: string } {
  const generation = live.metadata.generation ?? 0;
  switch (change) {
    case 'replaced':
      return { stop: `the Deployment changed: it was replaced (new uid); no Undo is offered` };
    case 'rolled-back':
      return {
        stop: `the Deployment changed (generation ${generation}): it was rolled back to ReplicaSet ${target.name}'s template, which the Deployment controller scales back up itself, and no Undo is offered`,
        noUndo: `the Deployment was rolled back to ReplicaSet ${target.name}'s template: it is the new ReplicaSet again, and the Deployment controller scales it up to ${live.spec.replicas ?? 1} itself, so scaling it back by hand would only race the controller`,
      };
    case 'new-rollout':
      return {
        stop: `the Deployment changed (generation ${generation}): a new rollout, a template neither ReplicaSet runs; no Undo is offered, since the controller only scales ${target.name} down now`,
        noUndo: `the Deployment started a new rollout: ReplicaSet ${target.name} is an old one that the Deployment controller only scales down, so an Undo would be scaled straight back down and bring back the pods that blocked the new ones`,
      };
    case 'spec':
      return {
        stop: `the Deployment changed (generation ${generation}): another spec field (replicas, strategy or pause), not the template; the Undo still puts ${target.name} back while ${target.newReplicaSet.name} is not fully available`,
      };
  }
}

/** Another pod than the marked one went, where it frees nothing the Pending new pod needs. */
export function releasedElsewhereWords(
  gone: Pod,
  marked: Pod,
  target: OldReplicaSetTarget,
  expected: number,
  nodes: readonly string[],
): string {
  const goneName = gone.metadata.name ?? '';
  const goneNode = gone.spec.nodeName ?? '';
  const podName = marked.metadata.name ?? '';
  return `${goneName}${goneNode ? ` on ${goneNode}` : ''} went instead of ${podName} (deleted by someone else during the scale, or first in the ReplicaSet controller's order), so ReplicaSet ${target.name} is at ${expected} with ${podName} still running on ${marked.spec.nodeName ?? '?'}: nothing the Pending new pod needs on ${nodes.join(', ')} was freed, and it stays Pending; diagnose again for the next step`;
}
