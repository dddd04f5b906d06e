/**
 * What the strategy plans of every workload kind share: the situation they answer (a
 * stuck rollout with its proof, or a predicted one), the strategy as it was in words,
 * and the warnings every strategy change carries. Pure.
 */
import type { PlanSaid } from '../plan-words.js';
import { codeSpan } from '../../text/code-span.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { WorkloadObject } from '../../diagnosis/snapshot/types.js';
import {
  currentDeadlockProof,
  nextRolloutProof,
  type ReleaseProof,
} from '../../diagnosis/rollout/surge-proof.js';
import { liveStrategy, type StrategyField } from './strategy-patch.js';

type FindingDraft = Omit<Finding, 'remediations'>;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export interface Situation {
  proof: ReleaseProof;
  /** Stuck rollout: restart in the same patch. Prediction: strategy only. */
  restart: boolean;
  /** "Deployment", "DaemonSet": how the warnings name the workload. */
  kindWord: string;
}

export function situation(ctx: AnalysisContext, finding: FindingDraft): Situation | undefined {
  const kindWord = ctx.snapshot.target.kind;
  if (finding.code === 'RolloutSurgeDeadlock') {
    const proof = currentDeadlockProof(ctx);
    return proof ? { proof, restart: true, kindWord } : undefined;
  }
  if (finding.code === 'RolloutAtRisk') {
    const proof = nextRolloutProof(ctx);
    return proof ? { proof, restart: false, kindWord } : undefined;
  }
  return undefined;
}

/** What the restart replaces: the stuck Pending pod, or the ReplicaSet a quota refuses. */
export function replacesWhat(proof: ReleaseProof): string {
  return proof.quota
    ? `the ReplicaSet quota ${proof.quota} refuses is replaced`
    : 'the stuck pod is replaced';
}

export function commonWarnings(
  deployment: WorkloadObject,
  s: Situation,
  previous: string,
  paused = false,
  /** While paused: pods the change removes at once, of those the ReplicaSets hold (pausedScaling). */
  scaling: { scalesNow: number; holding: number } = { scalesNow: 0, holding: 0 },
): PlanSaid[] {
  const warnings: PlanSaid[] = [];
  if (s.restart) {
    const stuck = s.proof.stuckPods.map((p) => p.metadata.name ?? '').join(', ');
    warnings.push({
      key: 'restartedAt',
      params: { paused, ...(s.proof.quota ? { quota: s.proof.quota } : stuck ? { stuck } : {}) },
    });
  }
  warnings.push({ key: 'undoPrevious', params: { previous } });
  if (paused)
    warnings.push({
      key: 'pausedStrategy',
      params: { restart: s.restart, command: codeSpan('kubectl rollout resume'), ...scaling },
    });
  // Whether its owner reverts the change is the plan's drift (drift.ts), per field.
  if (deployment.metadata.annotations?.[LAST_APPLIED])
    warnings.push({ key: 'fromManifest', params: { kind: s.kindWord } });
  return warnings;
}

/** The strategy as it was, in words (a DaemonSet's defaults are maxSurge 0, maxUnavailable 1). */
export function describePrevious(object: WorkloadObject, field: StrategyField = 'strategy'): string {
  const strategy = liveStrategy(object, field);
  const [surge, unavailable] = field === 'strategy' ? ['25%', '25%'] : ['0', '1'];
  if (!strategy) return `server default: RollingUpdate ${surge}/${unavailable}`;
  if (strategy.type === 'Recreate' || strategy.type === 'OnDelete') return strategy.type;
  const r = strategy.rollingUpdate;
  return `RollingUpdate maxSurge ${String(r?.maxSurge ?? surge)}, maxUnavailable ${String(r?.maxUnavailable ?? unavailable)}`;
}
