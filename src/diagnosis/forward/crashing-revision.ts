/**
 * A rollout whose new revision crashes on every node it ran on, with a pod of it still
 * waiting for room (a surge or canary pod): room is not what it lacks. Letting old pods
 * go first would only swap serving pods for crashing ones (engine/plan-proof.ts refuses
 * every such plan), so the crash leads and the way out is to take the update back: the
 * rollback (an Argo Rollout's abort) while the revision that serves still runs.
 * Runs after reconcile.ts, on the findings the forward model kept.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import { codeSpan } from '../../text/code-span.js';
import { rollBackCommand, workloadKind } from '../workloads/index.js';
import { currentTemplateCrash } from './crash-model.js';
import { podPhases } from './pod-phase.js';

type Draft = Omit<Finding, 'remediations'>;

/** Verdicts that say the rollout waits for room. */
export const WAITS_FOR_ROOM: ReadonlySet<FindingCode> = new Set([
  'RolloutSurgeDeadlock',
  'RolloutStuck',
  'Unschedulable',
  'QuotaExceeded',
]);

/** Findings that name new pods failing on their own (they never become Ready by themselves). */
export const FAILS_ON_ITS_OWN: ReadonlySet<FindingCode> = new Set([
  'CrashLoopOnNode',
  'CrashLoop',
  'OOMKilled',
  'ImagePullFailure',
  'ConfigError',
  'ExecFormatError',
  'ProbeFailure',
]);

export function leadWithRollback(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  return rollbackFirst(ctx, budgetHeldByFailing(ctx, findings));
}

/**
 * A surge deadlock whose unavailable budget the failing new pods hold, not the pending
 * one: the controllers count a bound new pod that is not available exactly as a Pending
 * one (rolling.go reconcileOldReplicaSets subtracts newRSUnavailablePodCount; Argo's
 * CalculateReplicaCountsForBasicCanary reads the canary's availableReplicas), so where
 * those pods, were they available, would already let an old pod go, room is not what
 * the rollout waits for: the failure is (a crash on one node, say). Letting old pods go
 * first then spends serving replicas on a budget the failing pods keep using up, and the
 * failure finding, with its own fixes, is the verdict. Where the controller would keep
 * every old pod even with them available (a traffic-routed canary's stable, a budget the
 * Pending pods alone exhaust), the deadlock is a cause of its own and stands.
 */
function budgetHeldByFailing(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const deadlocks = findings.filter((f) => f.code === 'RolloutSurgeDeadlock');
  const failure = findings.find((f) => FAILS_ON_ITS_OWN.has(f.code));
  if (deadlocks.length === 0 || !failure) return [...findings];
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const phases = podPhases(ctx);
  const failing = (kind.revisions(snapshot).current?.pods ?? []).filter(
    (p) => p.spec.nodeName && phases.get(p) === 'failing',
  );
  if (failing.length === 0) return [...findings];
  if (!kind.keepsOldPods(snapshot) || kind.keepsOldPods(snapshot, failing.length)) return [...findings];
  const names = failing.map((p) => p.metadata.name ?? '').join(', ');
  const note = {
    type: 'note' as const,
    text: `A new pod also waits for room the old pods hold (${deadlocks[0]?.summary ?? ''}). That is not the verdict: the controller already counts the failing new pod${failing.length === 1 ? '' : 's'} ${names} as unavailable, and were ${failing.length === 1 ? 'it' : 'they'} available it would let an old pod go by itself, so the failure, not the strategy, keeps the old pods; letting old pods go first only spends serving replicas while the failure goes on.`,
  };
  return findings
    .filter((f) => f.code !== 'RolloutSurgeDeadlock')
    .map((f) => (f === failure ? { ...f, evidence: [...f.evidence, note] } : f));
}

function rollbackFirst(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const crash = currentTemplateCrash(ctx);
  const crashing = findings.find((f) => f.code === 'CrashLoop');
  if (!crash?.everywhere || !crashing || !findings.some((f) => WAITS_FOR_ROOM.has(f.code)))
    return [...findings];
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  // A kind that never surges (a StatefulSet's ordered pods) has no pod waiting for room:
  // its stuck verdict already says to fix the template first.
  if (!kind.surgeFix) return [...findings];
  const { old } = kind.revisions(snapshot);
  // Only while an older revision still has pods: otherwise there is nothing to go back to that serves.
  if (!old.some((r) => r.pods.length > 0)) return [...findings];
  const { name, namespace } = snapshot.target;
  const back = rollBackCommand(snapshot.target.kind, name, namespace);
  const nodes =
    crash.seen.length === 1
      ? `the 1 node it ran on, ${crash.seen[0] ?? ''}`
      : `all ${crash.seen.length} nodes it ran on`;
  const lead = `Take the update back first: ${codeSpan(back)} (or revert the change in Git). The new revision crashes on ${nodes}, so making room would only replace serving pods with crashing ones.`;
  // A surge deadlock is no verdict here: room would only start another crashing pod
  // (the pod that waits for it is one more of the revision that crashes everywhere).
  const waiting = findings.filter((f) => f.code === 'RolloutSurgeDeadlock');
  const rest = findings
    .filter((f) => f !== crashing && f.code !== 'RolloutSurgeDeadlock')
    .map((f) =>
      WAITS_FOR_ROOM.has(f.code)
        ? {
            ...f,
            summary: `${f.summary} Room is not all it lacks: its new revision crashes on ${nodes}.`,
            explanation: `${lead} ${f.explanation ?? ''}`.trim(),
          }
        : f,
    );
  const evidence =
    waiting.length > 0
      ? [
          ...crashing.evidence,
          {
            type: 'note' as const,
            text: `A new pod also waits for room the old pods hold (${waiting[0]?.summary ?? ''}); making that room would only start one more crashing pod, so it is not the verdict.`,
          },
        ]
      : crashing.evidence;
  return [{ ...crashing, evidence, explanation: `${lead} ${crashing.explanation ?? ''}`.trim() }, ...rest];
}
