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
import { workloadKind } from '../workloads/index.js';
import { currentTemplateCrash } from './crash-model.js';

type Draft = Omit<Finding, 'remediations'>;

/** Verdicts that say the rollout waits for room. */
const WAITS_FOR_ROOM: ReadonlySet<FindingCode> = new Set([
  'RolloutSurgeDeadlock',
  'RolloutStuck',
  'Unschedulable',
  'QuotaExceeded',
]);

export function leadWithRollback(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
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
  const back =
    kind.words.rollBack?.(name, namespace) ??
    `kubectl rollout undo ${snapshot.target.kind.toLowerCase()}/${name} -n ${namespace}`;
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
