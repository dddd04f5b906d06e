import type { Analyzer } from '../analyzer.js';
import type { Finding } from '../finding.js';
import { classifyReplicaSets } from '../base/pods.js';

/**
 * ProgressDeadlineExceeded: the Deployment controller gave up waiting for the
 * rollout (condition Progressing=False, reason ProgressDeadlineExceeded, after
 * spec.progressDeadlineSeconds, 600 by default). It only reports: nothing is
 * rolled back or stopped.
 */
export const progressDeadline: Analyzer = {
  name: 'progress-deadline',
  analyze({ snapshot }) {
    const { deployment } = snapshot;
    const condition = deployment.status?.conditions?.find(
      (c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded',
    );
    if (!condition) return [];
    // The controller writes: ReplicaSet "web-5d8f7c9b4" has timed out progressing.
    const named = /ReplicaSet "([^"]+)"/.exec(condition.message ?? '')?.[1];
    const rs =
      snapshot.replicaSets.find((r) => r.metadata.name === named) ?? classifyReplicaSets(snapshot).current;
    const rsName = named ?? rs?.metadata.name ?? 'the new ReplicaSet';
    const desired = deployment.spec.replicas ?? 1;
    const ready = rs?.status?.readyReplicas ?? 0;
    const deadline = deployment.spec.progressDeadlineSeconds ?? 600;
    const finding: Omit<Finding, 'remediations'> = {
      code: 'ProgressDeadlineExceeded',
      severity: 'critical',
      summary:
        `Rollout of ${snapshot.target.name} stalled: ReplicaSet ${rsName} made no progress for ${deadline}s ` +
        `(${ready} of ${desired} new pods ready).`,
      explanation:
        'The Deployment controller marks the rollout as failed (Progressing=False, ProgressDeadlineExceeded) when no ' +
        `new pod became available for progressDeadlineSeconds (${deadline}s). It does not roll back or stop anything: ` +
        'the old pods keep serving and the stuck new ones stay as they are. The other findings say why the new pods ' +
        'do not become available; `kubectl rollout undo` goes back to the previous revision.',
      evidence: [
        {
          type: 'condition',
          condition: 'Progressing',
          status: condition.status,
          reason: condition.reason ?? 'ProgressDeadlineExceeded',
          ...(condition.message ? { message: condition.message } : {}),
        },
      ],
    };
    return [finding];
  },
};
