/**
 * RolloutDegraded and RolloutPaused: an Argo Rollout its controller halted, said in
 * its own words (the phase and message `kubectl argo rollouts status` prints, and the
 * condition or pause behind them: workloads/rollout/rollout-phase.ts). Degraded by an
 * abort (RolloutAborted: the stable pods serve, the template still holds the new
 * version) or a spec it refuses (InvalidSpec: nothing rolls out); Paused at a canary
 * pause step, before a blue-green promotion, on an inconclusive analysis or by
 * spec.paused (it waits for a person). A progress deadline is ProgressDeadlineExceeded's.
 * Reasons are upstream's (pkg/apis/rollouts/v1alpha1/types.go PauseReason*; the Paused
 * condition's own reason is always RolloutPaused, rollout/sync.go).
 */
import type { Analyzer } from '../analyzer.js';
import type { Finding } from '../finding.js';
import { typeOfKind } from '../workload-ref.js';
import { workloadKind } from '../workloads/index.js';
import type { RolloutHalt } from '../workload-kind.js';
import { messageTime, spanWords } from '../../text/time.js';
import type { Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { isTerminating, isUnscheduled } from '../base/pods.js';
import { latestSchedulingFailure } from '../base/pod-events.js';

type Draft = Omit<Finding, 'remediations'>;

export const rolloutHalt: Analyzer = {
  name: 'rollout-halt',
  analyze({ snapshot }) {
    const halt = workloadKind(snapshot).halt?.(snapshot);
    if (!halt) return [];
    const ref = `${typeOfKind(snapshot.target.kind)}/${snapshot.target.name}`;
    const at = `${halt.step ? ` at ${halt.step}` : ''}${halt.since ? ` since ${halt.since}` : ''}`;
    // The condition as the controller wrote it; without one (a hand-written dump), the phase.
    const evidence: Draft['evidence'] = [
      halt.condition
        ? { type: 'condition', condition: halt.condition.type, ...conditionDetail(halt.condition) }
        : {
            type: 'condition',
            condition: 'Phase',
            status: halt.phase,
            reason: halt.reason,
            ...(halt.message ? { message: halt.message } : {}),
          },
    ];
    if (halt.condition && halt.code === 'RolloutPaused' && !pausedByHand(halt)) {
      evidence.push({ type: 'note', text: `status.pauseConditions: ${halt.reason}` });
    }
    const timed = halt.endsAt
      ? timedWords(halt, snapshot.capturedAt, snapshot.target.name, `${ref} is paused${at}`)
      : undefined;
    const says =
      halt.code === 'RolloutPaused' ? pausedSays(halt, snapshot.capturedAt, snapshot.target.name, ref) : {};
    const said = { ...words(halt, snapshot.target.name, ref, at), ...timed, evidence, ...says };
    const unfinished = halt.reason === 'RolloutAborted' ? abortUnfinished(snapshot) : undefined;
    return [unfinished ? withAbortUnfinished(said, unfinished) : said];
  },
};

/** A pause's facts as data, for the words of other languages (finding-words.ts `argo-paused`). */
function pausedSays(halt: RolloutHalt, capturedAt: string, name: string, ref: string): Pick<Draft, 'says'> {
  const ends = Date.parse(halt.endsAt ?? '');
  const now = Date.parse(capturedAt);
  const timed =
    !Number.isNaN(ends) && !Number.isNaN(now) && halt.lasts !== undefined
      ? {
          lasts: spanWords(halt.lasts),
          endsAt: messageTime(ends),
          ended: ends <= now,
          gap: spanWords(Math.abs(ends - now) / 1000),
        }
      : undefined;
  return {
    says: {
      key: 'argo-paused',
      params: {
        ref,
        name,
        reason: halt.reason,
        ...(halt.stepAt ? { step: halt.stepAt.at, steps: halt.stepAt.of } : {}),
        ...(halt.since ? { since: halt.since } : {}),
        ...(timed ? { timed } : {}),
      },
    },
  };
}

function conditionDetail(c: NonNullable<RolloutHalt['condition']>): {
  status: string;
  reason?: string;
  message?: string;
} {
  return {
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  };
}

const pausedByHand = (halt: RolloutHalt): boolean => halt.reason === 'spec.paused';

/**
 * A timed canary pause (rollout-phase.ts `timedPause`) does not wait for a person: the
 * controller goes on at its end. One still paused after its end is said, since only a
 * controller that does not act keeps it there.
 */
function timedWords(
  halt: RolloutHalt,
  capturedAt: string,
  name: string,
  /** "rollout/web is paused at step 2 of 4 since …" */
  paused: string,
): Pick<Draft, 'summary' | 'explanation'> | undefined {
  const ends = Date.parse(halt.endsAt ?? '');
  const now = Date.parse(capturedAt);
  if (Number.isNaN(ends) || Number.isNaN(now) || halt.lasts === undefined) return undefined;
  const lasts = spanWords(halt.lasts);
  const promote = `\`kubectl argo rollouts promote ${name}\``;
  const abort = `\`kubectl argo rollouts abort ${name}\``;
  const blueGreen = halt.reason === 'BlueGreenPause';
  if (ends > now)
    return {
      summary: `${paused} (${halt.reason}): a timed pause of ${lasts}; the controller goes on by itself at ${messageTime(ends)} (in ${spanWords((ends - now) / 1000)}).`,
      // The same words as paused.ts argoAutoPromoteWhy and argoTimedWhy, in English.
      explanation: blueGreen
        ? `With autoPromotionSeconds (${lasts}) the Argo Rollouts controller promotes the preview by itself once the pause has lasted that long: the active Service switches to the new version without anyone acting. ${promote} switches now, ${abort} ends the update before it. The pause itself is not stuck; any other finding says whether the update can finish after it.`
        : `The Argo Rollouts controller holds the update for the pause step's duration (${lasts}) and then goes on to the next step without anyone acting; ${promote} ends the pause now, ${abort} ends the update. The pause itself is not stuck; any other finding says whether the update can finish after it.`,
    };
  return {
    summary: `${paused} (${halt.reason}): its timed pause of ${lasts} ended at ${messageTime(ends)}, ${spanWords((now - ends) / 1000)} before this was read, and it has not gone on.`,
    explanation: `The Argo Rollouts controller goes on from a timed pause by itself once its duration has passed (it requeues the Rollout for that moment), so a Rollout still paused after it points at the controller: check that its pod runs and what its log says about this Rollout. ${promote} goes on by hand; ${abort} ends the update.`,
  };
}

function words(halt: RolloutHalt, name: string, ref: string, at: string): Omit<Draft, 'evidence'> {
  const cli = (verb: string): string => `\`kubectl argo rollouts ${verb} ${name}\``;
  if (halt.code === 'RolloutPaused') {
    const why: Record<string, string> = {
      'spec.paused': `it was paused by hand (spec.paused); ${cli('resume')} lets it go on.`,
      CanaryPauseStep: `it reached a pause step of its canary and waits to be promoted (${cli('promote')}), or aborted (${cli('abort')}).`,
      BlueGreenPause: `the preview is up and waits for promotion to the active Service (${cli('promote')}), or an abort (${cli('abort')}).`,
      InconclusiveAnalysisRun: `an analysis was inconclusive: a person decides, ${cli('promote')} or ${cli('abort')}.`,
      InconclusiveExperiment: `an experiment was inconclusive: a person decides, ${cli('promote')} or ${cli('abort')}.`,
    };
    return {
      code: 'RolloutPaused',
      severity: 'info',
      summary: `${ref} is paused${at} (${halt.reason}): it waits for a person, not for the cluster.`,
      explanation: `The Argo Rollouts controller holds the update on purpose: ${why[halt.reason] ?? `pause ${halt.reason}; ${cli('promote')} or ${cli('abort')} ends it.`} The pause itself is not stuck; any other finding says whether the update can finish after it.`,
    };
  }
  if (halt.reason === 'InvalidSpec') {
    return {
      code: 'RolloutDegraded',
      severity: 'critical',
      summary: `${ref} is Degraded: the Argo Rollouts controller refuses its spec, so nothing rolls out.`,
      explanation: `The controller validates a Rollout before acting on it and stops at the first error (InvalidSpec): ${halt.message}. Fix the spec (often a Service it names that does not exist, or a selector); the pods that run now keep running.`,
    };
  }
  return {
    code: 'RolloutDegraded',
    severity: 'warning',
    summary: `${ref} was aborted${at}: the stable pods serve, and spec.template still holds the version that did not roll out.`,
    explanation: `After an abort (${halt.message || halt.reason}) the controller returns every pod to the stable ReplicaSet and marks the Rollout Degraded. It stays so until the template is reverted to the stable version (a revert in Git, or \`kubectl argo rollouts undo\`) or the update is retried (${cli('retry')}), which starts the same update again: fix what made it fail first.`,
  };
}

interface AbortUnfinished {
  waiting: Pod;
  message: string;
  aborted: Pod[];
  /** maxUnavailable resolves to 0: the aborted pods go only as stable pods become available. */
  holds: boolean;
}

/**
 * An abort that has not finished returning the pods: a pod of the stable ReplicaSet waits
 * Pending with the scheduler's refusal while pods of the aborted version still run (a
 * basic canary scales its available pods down only as far as maxUnavailable allows,
 * CalculateReplicaCountsForBasicCanary at weight 0). "The stable pods serve" was not so.
 */
function abortUnfinished(snapshot: WorkloadSnapshot): AbortUnfinished | undefined {
  const kind = workloadKind(snapshot);
  const { current, old } = kind.revisions(snapshot);
  const stableHash = (kind.object(snapshot) as { status?: { stableRS?: string } }).status?.stableRS;
  const stable = old.find((r) => r.hash === stableHash);
  const aborted = (current?.pods ?? []).filter((p) => !isUnscheduled(p) && !isTerminating(p));
  if (!stable || aborted.length === 0) return undefined;
  for (const pod of stable.pods) {
    const failure = isUnscheduled(pod) ? latestSchedulingFailure(snapshot, pod) : undefined;
    if (failure)
      return {
        waiting: pod,
        message: failure.message,
        aborted,
        holds: (kind.strategy(kind.object(snapshot)).maxUnavailable?.value ?? 1) === 0,
      };
  }
  return undefined;
}

function withAbortUnfinished(said: Draft, u: AbortUnfinished): Draft {
  const names = u.aborted.map((p) => p.metadata.name ?? '').join(', ');
  const pod = u.waiting.metadata.name ?? '';
  return {
    ...said,
    severity: u.holds ? 'critical' : 'warning',
    summary: `${said.summary.replace(/: the stable pods serve, and /, ': ')} The abort has not finished: stable pod ${pod} waits for room while ${u.aborted.length === 1 ? 'a pod' : `${u.aborted.length} pods`} of the aborted version (${names}) ${u.aborted.length === 1 ? 'still runs' : 'still run'}${u.holds ? `, and with maxUnavailable 0 the controller removes ${u.aborted.length === 1 ? 'it' : 'them'} only as stable pods become available: it goes no further until a node has room` : ''}.`,
    evidence: [
      ...(said.evidence ?? []),
      { type: 'note', text: `Scheduler message for ${pod}: ${u.message}` },
    ],
  };
}
