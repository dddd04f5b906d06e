/**
 * What the strategy plans of every workload kind share: the situation they answer (a
 * stuck rollout with its proof, or a predicted one), the strategy as it was in words,
 * and the warnings every strategy change carries. Pure.
 */
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
): string[] {
  const warnings: string[] = [];
  if (s.restart) {
    const stuck = s.proof.stuckPods.map((p) => p.metadata.name ?? '').join(', ');
    const replaced = s.proof.quota
      ? `; the ReplicaSet whose pods quota ${s.proof.quota} refuses is scaled down as an old one`
      : stuck
        ? `, including the stuck ${stuck}`
        : '';
    warnings.push(
      `Also sets the kubectl.kubernetes.io/restartedAt annotation: a new rollout starts${paused ? ' once the Deployment is resumed' : ''} and replaces every pod${replaced}.`,
    );
  }
  warnings.push(
    `Undo restores the previous strategy (${previous}), which makes the next rollout deadlock again.`,
  );
  if (paused)
    warnings.push(
      `The Deployment is paused: the strategy${s.restart ? ' and the restart' : ''} only take effect at ${codeSpan('kubectl rollout resume')}; until then no pod is replaced${s.restart ? ' and the stuck pod stays Pending' : ''}.`,
    );
  if (deployment.metadata.annotations?.[LAST_APPLIED]) {
    warnings.push(
      // Whether its owner reverts the change is the plan's drift (drift.ts), per field.
      `This ${s.kindWord} is applied from a manifest: commit the strategy there too (see the change to commit), or the next rollout deadlocks again.`,
    );
  }
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
