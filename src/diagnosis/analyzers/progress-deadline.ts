import type { Analyzer } from '../analyzer.js';
import type { Finding } from '../finding.js';
import { workloadKind } from '../workloads/index.js';

/**
 * ProgressDeadlineExceeded: the controller gave up waiting for the rollout (for a
 * Deployment, condition Progressing=False, reason ProgressDeadlineExceeded, after
 * spec.progressDeadlineSeconds, 600 by default: its kind module says). It only
 * reports: nothing is rolled back or stopped.
 */
export const progressDeadline: Analyzer = {
  name: 'progress-deadline',
  analyze({ snapshot }) {
    const stalled = workloadKind(snapshot).stalled(snapshot);
    if (!stalled) return [];
    const { condition, revision: rsName, ready, desired, deadlineSeconds: deadline } = stalled;
    const finding: Omit<Finding, 'remediations'> = {
      code: 'ProgressDeadlineExceeded',
      severity: 'critical',
      summary:
        `Rollout of ${snapshot.target.name} stalled: ReplicaSet ${rsName} made no progress for ${deadline}s ` +
        `(${ready} of ${desired} new pods ready).`,
      explanation:
        stalled.explanation ??
        'The Deployment controller marks the rollout as failed (Progressing=False, ProgressDeadlineExceeded) when no ' +
          `new pod became available for progressDeadlineSeconds (${deadline}s). It does not roll back or stop anything: ` +
          'the old pods keep serving and the stuck new ones stay as they are. `kubectl rollout undo` goes back to the ' +
          'previous revision.',
      evidence: [
        {
          type: 'condition',
          condition: condition.type,
          status: condition.status,
          reason: condition.reason,
          ...(condition.message ? { message: condition.message } : {}),
        },
      ],
    };
    return [finding];
  },
};
