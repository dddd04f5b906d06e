/**
 * rollout-restart: what `kubectl rollout restart` does, the
 * `kubectl.kubernetes.io/restartedAt` pod-template annotation set to the current
 * time, as a strategic-merge patch. The patch carries the APPLY_TIME marker and the
 * executor writes the time of the apply (restart-time.ts), so the plan and its id
 * do not depend on when the diagnosis ran. No inverse: putting an older timestamp
 * back would itself be another rollout.
 *
 * Refuses while a surge deadlock stands: with the strategy unchanged the restart's
 * first new pod is Pending for the same reason (use set-rolling-update or
 * set-recreate, which restart in the same patch).
 */
import { warningsFrom, withImpact, type PlanSaid } from '../plan-words.js';
import { codeSpan } from '../../text/code-span.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { surgeDeadlockStands } from '../../diagnosis/rollout/surge-proof.js';
import { planId } from '../plan-id.js';
import type { RemediationPlan } from '../plan.js';
import { APPLY_TIME, RESTARTED_AT, RESTARTED_AT_POINTER } from '../restart-time.js';
import { workloadKind, workloadObject } from '../../diagnosis/workloads/index.js';

/** A restart plan for the finding, or none when a restart cannot help. */
export function buildRolloutRestartPlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
): RemediationPlan[] {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = workloadObject(snapshot);
  const strategy = kind.strategy(object);
  // OnDelete: a template change replaces no pod, so a restart does nothing until pods are deleted.
  if (strategy.type === 'OnDelete') return [];
  if (strategy.type === 'RollingUpdate' && surgeDeadlockStands(ctx)) return [];
  const patch = {
    type: 'strategic-merge' as const,
    body: { spec: { template: { metadata: { annotations: { [RESTARTED_AT]: APPLY_TIME } } } } },
  };
  const replicas = kind.desiredReplicas(object);
  const resume = codeSpan('kubectl rollout resume');
  const impact: PlanSaid = kind.paused(object)
    ? { key: 'restartPaused', params: { recreate: strategy.type === 'Recreate', replicas, resume } }
    : strategy.type === 'Recreate'
      ? { key: 'restartRecreate', params: { replicas } }
      : {
          key: 'restartRolling',
          params: {
            replicas,
            perNode: strategy.per === 'node',
            surge: strategy.maxSurge?.value ?? 0,
            unavailable: strategy.maxUnavailable?.value ?? 0,
          },
        };
  const uid = object.metadata.uid ?? '';
  const generation = object.metadata.generation ?? 0;
  return [
    {
      id: planId('rollout-restart', uid, generation, patch),
      kind: 'rollout-restart',
      target: snapshot.target,
      summary: `Restart the rollout (kubectl rollout restart): set ${RESTARTED_AT} to the time of the apply.`,
      ...withImpact(impact),
      ...warningsFrom(kind.paused(object) ? [{ key: 'restartPausedWarning', params: { resume } }] : []),
      patch,
      preconditions: {
        uid,
        generation,
        fields: [
          {
            path: RESTARTED_AT_POINTER,
            value: kind.podTemplate(object).metadata?.annotations?.[RESTARTED_AT],
          },
        ],
      },
      inverse: null,
      addresses: finding.code,
    },
  ];
}
