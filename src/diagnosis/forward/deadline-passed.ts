/**
 * A progress deadline passed on a rollout the controllers still finish. The Deployment
 * controller only reports the deadline (progress.go syncRolloutStatus writes Progressing
 * False, ProgressDeadlineExceeded); rolloutRolling goes on all the same, and the condition
 * turns True again once a new pod becomes available (util.DeploymentProgressing). Seen
 * where a pod takes longer to count as available than the deadline allows (minReadySeconds
 * longer than progressDeadlineSeconds, a slow readiness probe). Moving is not stuck: the
 * finding stays, as a note (info) that says so, and RolloutProgressing says what comes next.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding } from '../finding.js';
import { workloadKind } from '../workloads/index.js';

type Draft = Omit<Finding, 'remediations'>;

/** The ProgressDeadlineExceeded findings reworded as passed while the rollout moves; the rest as they are. */
export function deadlinePassedWhileMoving(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const { snapshot } = ctx;
  const stalled = workloadKind(snapshot).stalled(snapshot);
  if (!stalled) return [...findings];
  const { deadlineSeconds, ready, desired } = stalled;
  return findings.map((f) =>
    f.code === 'ProgressDeadlineExceeded' && f.severity !== 'info'
      ? {
          ...f,
          severity: 'info',
          summary: `Rollout of ${snapshot.target.name} passed its progress deadline (${deadlineSeconds}s, ${ready} of ${desired} new pods ready) but is still moving: run forward, the controllers finish it.`,
          explanation:
            'The Deployment controller only reports a passed progress deadline (Progressing=False, ProgressDeadlineExceeded): it goes on with the rollout, and the condition turns True again once a new pod becomes available. A pod that takes longer than progressDeadlineSeconds to count as available (minReadySeconds longer than the deadline, a slow readiness probe) passes it in every rollout: make progressDeadlineSeconds longer than the time a new pod needs to become available, so that the condition means stuck.',
        }
      : f,
  );
}

/** Findings that say nothing of why new pods do not become available. */
const SAYS_NO_CAUSE: ReadonlySet<string> = new Set([
  'ProgressDeadlineExceeded',
  'IncompleteEvidence',
  'AccessDenied',
]);

/**
 * A passed deadline says where its cause is: in the other findings where one says why the
 * new pods do not become available, or, where none does, that nothing read says it and
 * where to look (the deadline alone is only the controller giving up waiting).
 */
export function withDeadlineCauseSaid(findings: readonly Draft[]): Draft[] {
  const cause = findings.some((f) => !SAYS_NO_CAUSE.has(f.code) && f.severity !== 'info')
    ? 'The other findings say why the new pods do not become available.'
    : 'Nothing read here says why the new pods do not become available: their events (`kubectl describe pod`), logs and readiness probes are where to look next.';
  return findings.map((f) =>
    f.code === 'ProgressDeadlineExceeded' && f.severity !== 'info'
      ? { ...f, explanation: `${f.explanation} ${cause}` }
      : f,
  );
}
