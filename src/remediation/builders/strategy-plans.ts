/**
 * set-rolling-update and set-recreate: let the old pods go before the new ones
 * start. For a stuck rollout (RolloutSurgeDeadlock) the same patch also sets the
 * restartedAt annotation, so one approval replaces the stuck Pending pod; for a
 * prediction (RolloutAtRisk) it changes the strategy only and restarts nothing.
 *
 * Safety: a plan exists only when the snapshot proves that the new pod fits once
 * our old pods are gone from an eligible node (surge-proof.ts); otherwise the
 * change would only add downtime.
 */
import type { Finding } from '../../diagnosis/finding.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { planId } from '../plan-id.js';
import type { NotOffered, RemediationPlan } from '../plan.js';
import { rolloutCanaryPlan } from './strategy-rollout.js';
import {
  inverseStrategyPatch,
  liveStrategy,
  strategyPatch,
  strategyPreconditions,
  type StrategyChange,
} from './strategy-patch.js';
import { workloadKind, workloadObject } from '../../diagnosis/workloads/index.js';
import { daemonSetRollingUpdatePlan } from './strategy-daemonset.js';
import { commonWarnings, describePrevious, replacesWhat, situation } from './strategy-situation.js';
import { maxFixUnavailable } from './strategy-bounds.js';
import { warningsFrom, withImpact, type PlanSaid } from '../plan-words.js';

type FindingDraft = Omit<Finding, 'remediations'>;

/**
 * RollingUpdate with maxSurge 0 and maxUnavailable 1 (more when the proof needs
 * several old pods gone on one node), plus the restart for a stuck rollout.
 */
export function buildSetRollingUpdatePlans(
  ctx: AnalysisContext,
  finding: FindingDraft,
  notOffered?: NotOffered,
): RemediationPlan[] {
  const s = situation(ctx, finding);
  if (!s) return [];
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  if (kind.surgeFix === 'per-node') return daemonSetRollingUpdatePlan(ctx, finding, s);
  if (kind.surgeFix === 'canary') return rolloutCanaryPlan(ctx, finding, s, notOffered);
  const deployment = workloadObject(snapshot);
  const replicas = kind.desiredReplicas(deployment);
  const paused = kind.paused(deployment);
  const unavailable = Math.max(1, s.proof.release);
  // Every replica at once is Recreate's outage, offered as such (strategy-bounds.ts).
  if (unavailable > maxFixUnavailable(replicas)) return [];
  const change: StrategyChange = {
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: unavailable } },
    ...(s.restart ? { restart: true } : {}),
  };
  const patch = strategyPatch(change);
  const scaling = paused ? pausedScaling(ctx, replicas) : { scalesNow: 0, holding: 0 };
  const worded = commonWarnings(deployment, s, describePrevious(deployment), paused, scaling);
  const { warnings, ...words } = warningsFrom(worded);
  if (unavailable > 1) {
    warnings.push(
      `maxUnavailable is ${unavailable}: on each node ${unavailable} old pods must go before a new one fits.`,
    );
  }
  if (s.proof.releasableOnNodes < s.proof.releasablePods) {
    warnings.push(
      `The controller picks which old pod goes first; only ${s.proof.releasableOnNodes} of ${s.proof.releasablePods} sit on nodes where that makes room (${s.proof.nodes.join(', ')}). If it removes another, the rollout stalls one replica short.`,
    );
  }
  return [
    {
      id: planId(
        'set-rolling-update',
        deployment.metadata.uid ?? '',
        deployment.metadata.generation ?? 0,
        patch,
      ),
      kind: 'set-rolling-update',
      target: snapshot.target,
      summary: `Let old pods go first: RollingUpdate maxSurge 0, maxUnavailable ${unavailable}${s.restart ? (paused ? ', and restart the rollout, which replaces the stuck pod once the Deployment is resumed (it is paused)' : `, and restart the rollout so ${replacesWhat(s.proof)}`) : ' (no restart)'}.`,
      ...withImpact({
        key: 'rollingOldFirst',
        // Pods removed at once are not "from the resume on": the impact is now.
        params: {
          paused: paused && scaling.scalesNow === 0,
          restart: s.restart,
          down: Math.min(unavailable, replicas),
          replicas,
        },
      }),
      warnings,
      ...words,
      patch,
      preconditions: strategyPreconditions(deployment, s.restart),
      inverse: inverseStrategyPatch(liveStrategy(deployment, 'strategy')),
      addresses: finding.code,
    },
  ];
}

/**
 * What maxSurge 0 does to a paused Deployment at once: it still runs sync() → scale(), and
 * with more than one active ReplicaSet scale() keeps them to spec.replicas + maxSurge in
 * all, removing the excess now (proportionally, the leftover from the largest). `holding`:
 * the active ReplicaSets' replicas; `scalesNow`: how many go.
 */
function pausedScaling(ctx: AnalysisContext, replicas: number): { scalesNow: number; holding: number } {
  const { current, old } = workloadKind(ctx.snapshot).revisions(ctx.snapshot);
  const active = [...(current ? [current] : []), ...old]
    .map((r) => r.desired ?? r.pods.length)
    .filter((n) => n > 0);
  if (active.length < 2 || replicas <= 0) return { scalesNow: 0, holding: 0 };
  const holding = active.reduce((sum, n) => sum + n, 0);
  return { scalesNow: Math.max(0, holding - replicas), holding };
}

/** Recreate: stop every old pod, then start the new ones (plus the restart for a stuck rollout). */
export function buildSetRecreatePlans(ctx: AnalysisContext, finding: FindingDraft): RemediationPlan[] {
  const s = situation(ctx, finding);
  if (!s) return [];
  const { snapshot } = ctx;
  // Recreate is a Deployment's only: a DaemonSet has RollingUpdate and OnDelete.
  const kind = workloadKind(snapshot);
  if (!kind.recreate) return [];
  const deployment = workloadObject(snapshot);
  const replicas = kind.desiredReplicas(deployment);
  const paused = kind.paused(deployment);
  const change: StrategyChange = {
    strategy: { type: 'Recreate' },
    ...(s.restart ? { restart: true } : {}),
  };
  const patch = strategyPatch(change);
  const worded: PlanSaid[] = [
    ...commonWarnings(deployment, s, describePrevious(deployment), paused),
    { key: 'recreateLater', params: {} },
  ];
  return [
    {
      id: planId('set-recreate', deployment.metadata.uid ?? '', deployment.metadata.generation ?? 0, patch),
      kind: 'set-recreate',
      target: snapshot.target,
      summary: `Switch to Recreate${s.restart ? (paused ? ' and restart the rollout, which replaces the stuck pod once the Deployment is resumed (it is paused)' : ` and restart the rollout so ${replacesWhat(s.proof)}`) : ' (no restart)'}.`,
      ...withImpact({ key: 'recreate', params: { paused, restart: s.restart, replicas } }),
      ...warningsFrom(worded),
      patch,
      preconditions: strategyPreconditions(deployment, s.restart),
      inverse: inverseStrategyPatch(liveStrategy(deployment, 'strategy')),
      addresses: finding.code,
    },
  ];
}
