/**
 * IncompleteEvidence: a verdict needed something that was not read (forbidden,
 * capped, absent from a dump), and nothing else proved it. Said with exactly what to
 * read or which permission to grant, and never turned into "no problem found"
 * (DESIGN.md §2: unknown is not empty).
 */
import type { Analyzer } from '../analyzer.js';
import type { Evidence, Finding } from '../finding.js';
import type { Pod } from '../k8s.js';
import { workloadKind } from '../workloads/index.js';
import { assessRollout, schedulingEvidence, type PendingAssessment } from '../rollout/rollout-assessment.js';
import type { CoverageGap, WorkloadSnapshot } from '../snapshot/types.js';
import { isReady } from '../base/pods.js';

type Draft = Omit<Finding, 'remediations'>;

export const incompleteEvidence: Analyzer = {
  name: 'incomplete-evidence',
  analyze(ctx) {
    const { snapshot } = ctx;
    const findings: Draft[] = [];
    const unreadWorkload = workloadGaps(snapshot);
    if (unreadWorkload.length > 0) findings.push(workloadUnread(snapshot, unreadWorkload));
    const { pending } = assessRollout(ctx);
    const first = pending.find((p) => p.verdict === 'incomplete');
    if (first) {
      findings.push(
        pendingUnsettled(snapshot, first, pending.filter((p) => p.verdict === 'incomplete').length),
      );
    }
    return findings;
  },
};

/**
 * The ReplicaSets or pods were not read. Events matter only for a pod that is not
 * Ready while its own status says nothing (no waiting or terminated reason): then only
 * the events (probe failures, mounts) would tell why, and a capped event list may have
 * ended before that pod's.
 */
function workloadGaps(snapshot: WorkloadSnapshot): CoverageGap[] {
  const { coverage } = snapshot;
  const silent = snapshot.pods.some((p) => !isReady(p) && !statusExplains(p));
  return coverage.gaps.filter((gap) => {
    if (gap.about === 'replicaSets') return coverage.replicaSets !== 'complete';
    if (gap.about === 'pods') return coverage.pods !== 'complete';
    if (gap.about === 'events') return coverage.events !== 'complete' && silent;
    return false;
  });
}

function statusExplains(pod: Pod): boolean {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return statuses.some((c) => c.state?.waiting?.reason || c.lastState?.terminated?.reason);
}

function workloadUnread(snapshot: WorkloadSnapshot, gaps: CoverageGap[]): Draft {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const name = object.metadata.name ?? '';
  const status = kind.statusSummary(object);
  const unsettled = !status.complete;
  const what = gaps.map((g) => g.what).join(', ');
  return {
    code: 'IncompleteEvidence',
    severity: unsettled ? 'warning' : 'info',
    // "could not be read" agrees with "the nodes" and "the Deployment's pods" alike.
    summary: `Cannot judge ${name}: ${what} could not be read (${reasons(gaps)}); the ${snapshot.target.kind} reports ${status.text}.`,
    explanation:
      `Without ${what} there is nothing to look for a stuck rollout, a crash or a pull failure in, and their absence is not evidence of health. ` +
      `${unsettled ? `The ${snapshot.target.kind} itself says the rollout is not complete, so something is wrong that this diagnosis cannot see. ` : ''}` +
      `To settle it: ${gaps.map((g) => g.settle).join('; ')}.`,
    evidence: gaps.map((g) => ({ type: 'note' as const, text: gapLine(g) })),
  };
}

function pendingUnsettled(snapshot: WorkloadSnapshot, pending: PendingAssessment, count: number): Draft {
  const podName = pending.pod.metadata.name ?? '';
  const lead = count === 1 ? `Pod ${podName} is` : `${count} pods (${podName}, ...) are`;
  const missing = pending.missing.length > 0 ? pending.missing : ['the nodes this pod may use'];
  const evidence: Evidence[] = [
    ...schedulingEvidence(pending),
    ...missing.map((text) => ({ type: 'note' as const, text: `Not read: ${text}` })),
    ...pending.caveats.map((text) => ({ type: 'note' as const, text: `Caveat: ${text}.` })),
    ...snapshot.coverage.gaps.map((g) => ({ type: 'note' as const, text: gapLine(g) })),
  ];
  return {
    code: 'IncompleteEvidence',
    severity: 'warning',
    summary: `${lead} Pending and why cannot be settled without reading ${missing[0]}${missing.length > 1 ? ` (and ${missing.length - 1} more, below)` : ''}.`,
    explanation:
      'Whether this is a surge deadlock (fixable by letting old pods go first) or a pod that fits nowhere (where that would only add downtime) depends on what the nodes hold, and that was not read. ' +
      'No change is offered until it is. ' +
      `To settle it, read ${missing.join('; ')}.`,
    evidence,
  };
}

function reasons(gaps: CoverageGap[]): string {
  const words: Record<CoverageGap['reason'], string> = {
    forbidden: 'forbidden',
    capped: 'capped',
    'not-in-dump': 'not in the dump',
    failed: 'the read failed',
    'not-served': 'not served by this cluster',
    'not-found': 'not found',
  };
  return [...new Set(gaps.map((g) => words[g.reason]))].join(', ');
}

function gapLine(gap: CoverageGap): string {
  return `Not read: ${gap.what} (${reasons([gap])}); to settle it: ${gap.settle}`;
}
