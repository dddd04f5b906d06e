/**
 * set-rolling-update for an Argo Rollout's basic canary: maxSurge 0 and maxUnavailable
 * (1, or what the proof needs) on spec.strategy.canary, as a JSON merge patch (a CRD
 * takes no strategic merge: apiextensions-apiserver answers 415). No restart: with
 * maxUnavailable above 0 the controller's next reconcile scales the stable ReplicaSet
 * down itself (utils/replicaset/canary.go CalculateReplicaCountsForBasicCanary: the
 * stable side drains past replicas − maxUnavailable available pods), which frees the
 * room the Pending canary pod waits for; the canary steps then go on as written (a
 * pause step still pauses). Only the basic canary: blue-green and a traffic-routed
 * canary keep every stable pod whatever maxSurge says (abort-rollout answers those).
 * Pure.
 */
import { warningsFrom, withImpact } from '../plan-words.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { ArgoRollout } from '../../diagnosis/k8s-argo.js';
import { isRolloutObjects } from '../../diagnosis/snapshot/types.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { NotOffered, Patch, RemediationPlan } from '../plan.js';
import { planId } from '../plan-id.js';
import type { Situation } from './strategy-situation.js';
import { maxFixUnavailable } from './strategy-bounds.js';

type Canary = NonNullable<NonNullable<ArgoRollout['spec']['strategy']>['canary']>;

export function rolloutCanaryPlan(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  s: Situation,
  notOffered?: NotOffered,
): RemediationPlan[] {
  const { snapshot } = ctx;
  if (!isRolloutObjects(snapshot)) return [];
  const kind = workloadKind(snapshot);
  const { rollout } = snapshot;
  const strategy = kind.strategy(rollout);
  if (strategy.argo !== 'canary') {
    notOffered?.(
      'set-rolling-update',
      `${strategy.argo === 'blueGreen' ? 'blue-green' : 'a traffic-routed canary'} keeps every stable pod until promotion whatever maxSurge says`,
    );
    return [];
  }
  const replicas = kind.desiredReplicas(rollout);
  const unavailable = Math.max(1, s.proof.release);
  if (unavailable > maxFixUnavailable(replicas)) {
    notOffered?.(
      'set-rolling-update',
      `the room needs ${unavailable} of ${replicas} replicas gone at once: every replica, which abort-rollout says in so many words`,
    );
    return [];
  }
  const canary: Canary = rollout.spec.strategy?.canary ?? {};
  const patch: Patch = {
    type: 'merge',
    body: { spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: unavailable } } } },
  };
  const inverse: Patch = {
    type: 'merge',
    body: {
      spec: {
        strategy: {
          canary: { maxSurge: canary.maxSurge ?? null, maxUnavailable: canary.maxUnavailable ?? null },
        },
      },
    },
  };
  const stuck = s.proof.stuckPods.map((p) => p.metadata.name ?? '').filter(Boolean);
  const down = Math.min(unavailable, replicas);
  const now = s.restart
    ? ` The controller then scales ${down} stable pod${down === 1 ? '' : 's'} down itself and the stuck canary pod${stuck.length === 1 ? '' : 's'} ${stuck.join(', ')} schedule${stuck.length === 1 ? 's' : ''}; no restart is needed.`
    : ' Nothing changes now (the strategy is not in the pod template); the next update lets a stable pod go before its canary pod starts.';
  const worded = warningsFrom([
    {
      key: 'canaryUndo',
      params: {
        ...(canary.maxSurge != null ? { maxSurge: String(canary.maxSurge) } : {}),
        ...(canary.maxUnavailable != null ? { maxUnavailable: String(canary.maxUnavailable) } : {}),
      },
    },
    { key: 'canaryStepsKept', params: { promote: 'kubectl argo rollouts promote' } },
    ...(rollout.spec.paused
      ? [{ key: 'rolloutPausedSpec', params: { resume: 'kubectl argo rollouts resume' } } as const]
      : []),
  ]);
  return [
    {
      id: planId('set-rolling-update', rollout.metadata.uid ?? '', rollout.metadata.generation ?? 0, patch),
      kind: 'set-rolling-update',
      target: snapshot.target,
      summary: `Let stable pods go first: canary maxSurge 0, maxUnavailable ${unavailable}.${now}`,
      ...withImpact({ key: 'canaryOldFirst', params: { restart: s.restart, down, replicas } }),
      ...worded,
      patch,
      preconditions: {
        uid: rollout.metadata.uid ?? '',
        generation: rollout.metadata.generation ?? 0,
        fields: [
          { path: '/spec/strategy/canary/maxSurge', value: canary.maxSurge },
          { path: '/spec/strategy/canary/maxUnavailable', value: canary.maxUnavailable },
          { path: '/spec/replicas', value: rollout.spec.replicas },
        ],
      },
      inverse,
      addresses: finding.code,
    },
  ];
}
