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
import { codeSpan } from '../../text/code-span.js';
import { desiredReplicas } from '../../diagnosis/workloads/deployment/strategy.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { Deployment } from '../../diagnosis/k8s.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import {
  currentDeadlockProof,
  nextRolloutProof,
  type ReleaseProof,
} from '../../diagnosis/rollout/surge-proof.js';
import { planId } from '../plan-id.js';
import type { RemediationPlan } from '../plan.js';
import {
  inverseStrategyPatch,
  strategyPatch,
  strategyPreconditions,
  type StrategyChange,
} from './strategy-patch.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';

type FindingDraft = Omit<Finding, 'remediations'>;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

interface Situation {
  proof: ReleaseProof;
  /** Stuck rollout: restart in the same patch. Prediction: strategy only. */
  restart: boolean;
}

function situation(ctx: AnalysisContext, finding: FindingDraft): Situation | undefined {
  if (finding.code === 'RolloutSurgeDeadlock') {
    const proof = currentDeadlockProof(ctx);
    return proof ? { proof, restart: true } : undefined;
  }
  if (finding.code === 'RolloutAtRisk') {
    const proof = nextRolloutProof(ctx);
    return proof ? { proof, restart: false } : undefined;
  }
  return undefined;
}

/** What the restart replaces: the stuck Pending pod, or the ReplicaSet a quota refuses. */
function replacesWhat(proof: ReleaseProof): string {
  return proof.quota
    ? `the ReplicaSet quota ${proof.quota} refuses is replaced`
    : 'the stuck pod is replaced';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function commonWarnings(deployment: Deployment, s: Situation, previous: string): string[] {
  const warnings: string[] = [];
  if (s.restart) {
    const stuck = s.proof.stuckPods.map((p) => p.metadata.name ?? '').join(', ');
    const replaced = s.proof.quota
      ? `; the ReplicaSet whose pods quota ${s.proof.quota} refuses is scaled down as an old one`
      : stuck
        ? `, including the stuck ${stuck}`
        : '';
    warnings.push(
      `Also sets the kubectl.kubernetes.io/restartedAt annotation: a new rollout starts${deployment.spec.paused ? ' once the Deployment is resumed' : ''} and replaces every pod${replaced}.`,
    );
  }
  warnings.push(
    `Undo restores the previous strategy (${previous}), which makes the next rollout deadlock again.`,
  );
  if (deployment.spec.paused)
    warnings.push(
      `The Deployment is paused: the strategy${s.restart ? ' and the restart' : ''} only take effect at ${codeSpan('kubectl rollout resume')}; until then no pod is replaced${s.restart ? ' and the stuck pod stays Pending' : ''}.`,
    );
  if (deployment.metadata.annotations?.[LAST_APPLIED]) {
    warnings.push(
      // Whether its owner reverts the change is the plan's drift (drift.ts), per field.
      'This Deployment is applied from a manifest: commit the strategy there too (see the change to commit), or the next rollout deadlocks again.',
    );
  }
  return warnings;
}

function describePrevious(deployment: Deployment): string {
  const strategy = deployment.spec.strategy;
  if (!strategy) return 'server default: RollingUpdate 25%/25%';
  if (strategy.type === 'Recreate') return 'Recreate';
  const r = strategy.rollingUpdate;
  return `RollingUpdate maxSurge ${String(r?.maxSurge ?? '25%')}, maxUnavailable ${String(r?.maxUnavailable ?? '25%')}`;
}

/**
 * RollingUpdate with maxSurge 0 and maxUnavailable 1 (more when the proof needs
 * several old pods gone on one node), plus the restart for a stuck rollout.
 */
export function buildSetRollingUpdatePlans(ctx: AnalysisContext, finding: FindingDraft): RemediationPlan[] {
  const s = situation(ctx, finding);
  if (!s) return [];
  const { snapshot } = ctx;
  const { deployment } = snapshot;
  const replicas = desiredReplicas(deployment);
  const unavailable = Math.max(1, s.proof.release);
  if (unavailable > Math.max(replicas, 1)) return [];
  const change: StrategyChange = {
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: unavailable } },
    ...(s.restart ? { restart: true } : {}),
  };
  const patch = strategyPatch(change);
  const warnings = commonWarnings(deployment, s, describePrevious(deployment));
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
  const down = Math.min(unavailable, replicas);
  const impact =
    down >= replicas
      ? `brief outage: ${down} of ${replicas} replicas down until the new pod${replicas === 1 ? ' is' : 's are'} Ready`
      : `reduced capacity: ${down} of ${replicas} replicas down at a time until each replacement is Ready; the other ${replicas - down} keep serving`;
  const paused = workloadKind(snapshot).paused(deployment);
  const lead = paused
    ? 'Nothing rolls out while the Deployment is paused; from the resume on, and in every later rollout'
    : s.restart
      ? 'Now and in every later rollout'
      : 'Nothing restarts now; in every later rollout';
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
      impact: `${lead}: ${impact}. No extra pod is created (maxSurge 0).`,
      warnings,
      patch,
      preconditions: strategyPreconditions(deployment, s.restart),
      inverse: inverseStrategyPatch(deployment.spec.strategy),
      addresses: finding.code,
    },
  ];
}

/** Recreate: stop every old pod, then start the new ones (plus the restart for a stuck rollout). */
export function buildSetRecreatePlans(ctx: AnalysisContext, finding: FindingDraft): RemediationPlan[] {
  const s = situation(ctx, finding);
  if (!s) return [];
  const { snapshot } = ctx;
  const { deployment } = snapshot;
  const replicas = desiredReplicas(deployment);
  const paused = workloadKind(snapshot).paused(deployment);
  const change: StrategyChange = {
    strategy: { type: 'Recreate' },
    ...(s.restart ? { restart: true } : {}),
  };
  const patch = strategyPatch(change);
  const warnings = [
    ...commonWarnings(deployment, s, describePrevious(deployment)),
    'Every later rollout is a full outage too: Recreate never runs old and new pods side by side.',
  ];
  return [
    {
      id: planId('set-recreate', deployment.metadata.uid ?? '', deployment.metadata.generation ?? 0, patch),
      kind: 'set-recreate',
      target: snapshot.target,
      summary: `Switch to Recreate${s.restart ? (paused ? ' and restart the rollout, which replaces the stuck pod once the Deployment is resumed (it is paused)' : ` and restart the rollout so ${replacesWhat(s.proof)}`) : ' (no restart)'}.`,
      impact: `${paused ? 'Nothing rolls out while the Deployment is paused; from the resume on, and in every later rollout' : s.restart ? 'Now and in every later rollout' : 'Nothing restarts now; in every later rollout'}: outage, all ${plural(replicas, 'replica')} down from the moment the old pods stop until the new pods are Ready.`,
      warnings,
      patch,
      preconditions: strategyPreconditions(deployment, s.restart),
      inverse: inverseStrategyPatch(deployment.spec.strategy),
      addresses: finding.code,
    },
  ];
}
