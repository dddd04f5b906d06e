/**
 * A paused Deployment mid-rollout (spec.paused) is always said to be paused:
 * "No problem found" with replicas unavailable left the on-call engineer guessing. The
 * Deployment controller runs only sync() → scale() while paused (syncDeployment returns
 * before rolloutRolling; checkPausedConditions keeps a ProgressDeadlineExceeded written
 * before the pause), so no old pod is removed and no new one added until `kubectl rollout
 * resume`. The finding says what the pause holds (each ReplicaSet's pods, how many are
 * unavailable) and what resuming does, run forward as resumed (verdict.ts, `paused`).
 * Info: a pause waits for a person; whatever stops the rollout once resumed is its own
 * finding beside it.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Evidence, Finding } from '../finding.js';
import type { FindingWords, PausedHold, PausedResume } from '../finding-words.js';
import type { Condition, Pod } from '../k8s.js';
import type { Revision } from '../workload-kind.js';
import { workloadKind } from '../workloads/index.js';
import { workloadAutoscaler } from '../guards/autoscaler.js';
import { codeSpan } from '../../text/code-span.js';
import { podPhases, type PodPhase } from './pod-phase.js';
import { podsAsTheyAre } from './pods-as-they-are.js';
import { stepsInPlainWords } from './step-words.js';
import { forwardVerdict } from './verdict.js';
import type { Outcome } from './run.js';

type Draft = Omit<Finding, 'remediations'>;
type PausedParams = Extract<FindingWords, { key: 'deployment-paused' }>['params'];

/**
 * The findings with the pause said, where the workload is a paused Deployment (a kind
 * whose pause holds its template back) that is under way or short of available
 * replicas, and nothing said it yet.
 */
export function withPauseSaid(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const kind = workloadKind(ctx.snapshot);
  const object = kind.object(ctx.snapshot);
  if (!kind.pauseHoldsTemplate || !kind.paused(object)) return [...findings];
  if (findings.some((f) => f.code === 'RolloutPaused')) return [...findings];
  const { progress } = kind.rolloutStatus(object);
  const short = progress.statusRead && progress.available < kind.desiredReplicas(object);
  if (kind.underWay(ctx.snapshot) === undefined && !short) return [...findings];
  return [...findings, pausedFinding(ctx, findings)];
}

const SHOWN_PHASES: [PodPhase[], string][] = [
  [['ready'], 'Ready'],
  [['starting'], 'starting'],
  [['pending'], 'Pending'],
  [['failing'], 'failing'],
  [['terminating', 'stuck'], 'terminating'],
];

/** "3 pods (2 Ready, 1 Pending)". */
function tally(pods: readonly Pod[], phases: ReadonlyMap<Pod, PodPhase>): string {
  const parts = SHOWN_PHASES.flatMap(([which, word]) => {
    const n = pods.filter((p) => which.includes(phases.get(p) ?? 'failing')).length;
    return n > 0 ? [`${n} ${word}`] : [];
  });
  const count = `${pods.length} pod${pods.length === 1 ? '' : 's'}`;
  return parts.length > 0 ? `${count} (${parts.join(', ')})` : count;
}

/** Each ReplicaSet the pause holds, with its pods. */
function whatThePauseHolds(ctx: AnalysisContext): string {
  const { current, old } = workloadKind(ctx.snapshot).revisions(ctx.snapshot);
  const phases = podPhases(ctx);
  const line = (age: string, r: Revision): string => `${age} ${r.label}: ${tally(r.pods, phases)}`;
  return [
    ...old.filter((r) => r.pods.length > 0).map((r) => line('old', r)),
    current ? line('new', current) : 'no ReplicaSet for the new template yet',
  ].join('; ');
}

/**
 * Whether the new ReplicaSet will be saturated while paused (deploymentutil.IsSaturated:
 * spec.replicas and its desired-replicas at the Deployment's, every one available): it
 * holds every replica and each pod is Ready or starting. Then scale() scales every old
 * ReplicaSet to 0 even while paused, and the rollout completes without the resume.
 */
function saturating(ctx: AnalysisContext): boolean {
  const kind = workloadKind(ctx.snapshot);
  const { current, old } = kind.revisions(ctx.snapshot);
  const desired = kind.desiredReplicas(kind.object(ctx.snapshot));
  if (!current || current.desired !== desired || current.pods.length !== desired) return false;
  if (!old.some((r) => r.pods.length > 0)) return false;
  const phases = podPhases(ctx);
  return current.pods.every((p) => phases.get(p) === 'ready' || phases.get(p) === 'starting');
}

/** What the pause holds and what resuming does, as data (finding-words.ts `deployment-paused`). */
function pausedSays(
  ctx: AnalysisContext,
  others: readonly Draft[],
): Pick<PausedParams, 'holds' | 'noNew' | 'resume'> {
  const { current, old } = workloadKind(ctx.snapshot).revisions(ctx.snapshot);
  const phases = podPhases(ctx);
  const hold = (isOld: boolean, r: Revision): PausedHold => {
    const n = (which: PodPhase[]): number =>
      r.pods.filter((p) => which.includes(phases.get(p) ?? 'failing')).length;
    return {
      old: isOld,
      name: r.name,
      pods: r.pods.length,
      ready: n(['ready']),
      starting: n(['starting']),
      pending: n(['pending']),
      failing: n(['failing']),
      terminating: n(['terminating', 'stuck']),
    };
  };
  const holds = [
    ...old.filter((r) => r.pods.length > 0).map((r) => hold(true, r)),
    ...(current ? [hold(false, current)] : []),
  ];
  return { holds, noNew: current === undefined, resume: resumeSays(ctx, others) };
}

function resumeSays(ctx: AnalysisContext, others: readonly Draft[]): PausedResume {
  const { asIs, withoutOld } = forwardVerdict(ctx);
  const codes = [...new Set(others.filter((f) => f.severity !== 'info').map((f) => f.code))].join(', ');
  switch (asIs.result) {
    case 'completes':
    case 'moving':
      return { result: 'finishes' };
    case 'blocked':
      return {
        result: 'blocked',
        pending: asIs.pending.length,
        refused: Boolean(asIs.refused),
        evenWithoutOld: withoutOld?.result === 'blocked',
        codes,
      };
    case 'failing':
      return { result: 'failing', codes };
    case 'unknown':
      return { result: 'unknown' };
  }
}

/** What resuming does, run forward, in a clause ("once resumed, …"). */
function whatResumingDoes(ctx: AnalysisContext, others: readonly Draft[]): string {
  const { asIs, withoutOld } = forwardVerdict(ctx);
  const codes = [...new Set(others.filter((f) => f.severity !== 'info').map((f) => f.code))];
  const see = codes.length > 0 ? ` (${codes.join(', ')})` : '';
  switch (asIs.result) {
    case 'completes':
    case 'moving': {
      const steps = stepsInPlainWords(asIs);
      const first = steps.length > 0 ? ` (${steps.slice(0, 2).join(', then ')})` : '';
      return `once resumed, the controllers finish it by themselves${first}`;
    }
    case 'blocked': {
      const n = asIs.pending.length;
      const why = asIs.refused
        ? 'the quota refuses its next new pod'
        : `${n === 1 ? 'a new pod finds' : `${n} new pods find`} no room`;
      const old =
        withoutOld?.result === 'blocked'
          ? ', even with every old pod gone'
          : ', while the old pods hold the room';
      return `once resumed, it can never finish: ${why}${old}${see}`;
    }
    case 'failing':
      return `once resumed, its new pods fail on their own${see}`;
    case 'unknown':
      return `what resuming does could not be followed (${asIs.why})`;
  }
}

function explanation(
  ctx: AnalysisContext,
  asIs: Outcome,
  progressing: Condition | undefined,
  saturates: boolean,
): string {
  const { kind, name, namespace } = ctx.snapshot.target;
  const ref = `${kind.toLowerCase()}/${name}`;
  const words = workloadKind(ctx.snapshot).words.kind;
  const resume = codeSpan(`kubectl rollout resume ${ref} -n ${namespace}`);
  return [
    `A paused ${words} rolls no new template out: its controller only keeps each ReplicaSet at its size (and spreads a replicas change over them), so no old pod is removed and no new pod added until someone runs ${resume}; pods already created still start, and a Pending one is still scheduled where room appears.`,
    ...(saturates
      ? [
          'The one exception: a new ReplicaSet that holds every replica, all available, is saturated, and scale() then scales every old ReplicaSet to 0 while paused.',
        ]
      : []),
    ...(progressing?.reason === 'ProgressDeadlineExceeded'
      ? [
          'Its Progressing condition still reads ProgressDeadlineExceeded from before the pause: the controller keeps that condition while paused and checks no deadline until the rollout moves again.',
        ]
      : []),
    asIs.result === 'completes' || asIs.result === 'moving'
      ? 'Run forward as resumed, the controllers finish it: nothing needs changing but the resume.'
      : asIs.result === 'unknown'
        ? 'Whether it finishes once resumed is not known: see what could not be read.'
        : 'Fix what stops it (the other findings) before resuming, or together with the resume.',
    'Do not scale the old ReplicaSet to 0 by hand to get around the pause: the controller then scales the new one to spec.replicas at once (scale() with one active ReplicaSet), which rolls the whole new template out while paused.',
  ].join(' ');
}

function pausedFinding(ctx: AnalysisContext, others: readonly Draft[]): Draft {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const { progress } = kind.rolloutStatus(object);
  const desired = kind.desiredReplicas(object);
  const counts = progress.statusRead
    ? `${progress.available} of ${desired} replicas available${desired > progress.available ? `, ${desired - progress.available} unavailable` : ''}`
    : `${desired} replicas wanted`;
  const ref = `${snapshot.target.kind.toLowerCase()}/${snapshot.target.name}`;
  const saturates = saturating(ctx);
  // scale() runs while paused: a new count from the autoscaler is spread over the ReplicaSets.
  const autoscaler = workloadAutoscaler(ctx);
  const scaled =
    autoscaler?.next === undefined ? undefined : { name: autoscaler.name, next: autoscaler.next };
  const { asIs } = forwardVerdict(ctx);
  const steps = 'steps' in asIs ? stepsInPlainWords(asIs) : [];
  const conditions = (object as { status?: { conditions?: Condition[] } }).status?.conditions ?? [];
  const progressing = conditions.find((c) => c.type === 'Progressing');
  const evidence: Evidence[] = [
    ...(progressing
      ? [
          {
            type: 'condition' as const,
            condition: 'Progressing',
            status: progressing.status,
            ...(progressing.reason ? { reason: progressing.reason } : {}),
            ...(progressing.message ? { message: progressing.message } : {}),
          },
        ]
      : []),
    ...(steps.length > 0
      ? [{ type: 'note' as const, text: `Once resumed, in order: ${steps.slice(0, 6).join('; ')}.` }]
      : []),
    podsAsTheyAre(ctx),
  ];
  return {
    code: 'RolloutPaused',
    severity: 'info',
    summary: `${ref} is paused mid-rollout (spec.paused), ${counts}: ${whatThePauseHolds(ctx)}. ${
      saturates
        ? `Its new ReplicaSet already holds all ${desired} replicas: once they are available the controller removes the old pods while paused (it still scales), and the rollout completes without the resume`
        : `Nothing rolls on until it is resumed${scaled ? `, but HorizontalPodAutoscaler ${scaled.name} sets ${scaled.next} replicas at its next sync and the controller spreads that over the old and new ReplicaSets while paused, so the new template gets pods of its own share too` : ''}; ${whatResumingDoes(ctx, others)}`
    }.`,
    explanation: explanation(ctx, asIs, progressing, saturates),
    evidence,
    says: {
      key: 'deployment-paused',
      params: {
        ref,
        namespace: snapshot.target.namespace,
        kind: kind.words.kind,
        desired,
        ...(progress.statusRead ? { available: progress.available } : {}),
        ...pausedSays(ctx, others),
        deadlineExceeded: progressing?.reason === 'ProgressDeadlineExceeded',
        saturating: saturates,
        ...(scaled ? { autoscaler: scaled.name, scaledTo: scaled.next } : {}),
      },
    },
  };
}
