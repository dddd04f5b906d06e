/**
 * What follows an approval, platform-free: the thread reply for each remediation
 * outcome the workers sign (applied with its Undo, rolled out, refused with Re-run, a
 * step of a stepped walk), and the state line the approved message shows as the fix
 * moves on (applying, rolled out, failed, undone). Every adapter renders these
 * replies (Slack: src/chat/slack/render.ts; Teams: src/chat/teams/cards.ts); Slack's
 * root state line keeps its own Block Kit form (src/chat/notify/root-update.ts).
 */
import { DEFAULT_WORKLOAD_KIND, typeOfKind } from '../../diagnosis/workload-ref.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import type { NotifyJob, StepProgress } from '../../queue/schemas.js';
import { messageTime } from '../../text/time.js';
import type { Button, ChatMessage, Icon, Part, Rich } from '../model.js';
import { clip, code, icon, join, rich, say, strong } from '../../message/rich.js';
import { restoredInWords, rolloutInWords, undoPatchesBack } from './confirm-text.js';
import { dryRunText, patchText } from './plan-text.js';
import { planButton } from './result.js';
import { approversText } from './approvers.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { OUTCOME_STAGE_WORDS, OUTCOME_WORDS } from '../words/outcome.js';
import { STEP_WORDS, stopReason } from '../words/step-progress.js';
import { RESULT_WORDS } from '../words/result.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const HEADLINE: Record<Outcome['stage'], { icon: Icon; words: string }> = {
  applied: { icon: 'ok', words: 'applied' },
  'already-applied': { icon: 'info', words: 'already applied' },
  'rolled-out': { icon: 'rolled-out', words: 'rolled out' },
  'pods-ready': { icon: 'ok', words: 'replacement pods Ready' },
  'still-failing': { icon: 'warning', words: 'still failing' },
  refused: { icon: 'refused', words: 'refused' },
  failed: { icon: 'failed', words: 'failed' },
  timeout: { icon: 'expired', words: 'rollout not finished in time' },
  // A paused Deployment waits for the resume; an Argo Rollout at a pause step for its promotion.
  paused: { icon: 'paused', words: 'applied; the rollout is paused and waits for a person' },
  progress: { icon: 'more', words: 'step' },
};

/** Where an approved fix stands, as the approved message's state line says it. */
export type FixStage =
  'applying' | 'undoing' | 'step' | 'undone' | 'undo-failed' | Exclude<Outcome['stage'], 'progress'>;

/** Each stage's icon and words, for every platform's state line. */
export const FIX_STAGE_WORDS: Readonly<Record<FixStage, { icon: Icon; words: string }>> = {
  applying: { icon: 'ok', words: 'applying' },
  undoing: { icon: 'undo', words: 'undo approved; undoing' },
  step: { icon: 'more', words: 'applying step by step' },
  applied: { icon: 'superseded', words: 'applied; rollout under way' },
  'already-applied': { icon: 'ok', words: 'already applied' },
  'rolled-out': { icon: 'ok', words: 'rolled out' },
  'pods-ready': { icon: 'ok', words: 'replacement pods Ready' },
  'still-failing': { icon: 'warning', words: 'applied, but the pods still fail' },
  refused: { icon: 'refused', words: 'not applied: refused' },
  failed: { icon: 'failed', words: 'not applied: failed' },
  timeout: { icon: 'expired', words: 'applied; the rollout did not finish in time' },
  paused: { icon: 'paused', words: 'applied; the rollout is paused and waits for a person' },
  undone: { icon: 'undo', words: 'undone' },
  'undo-failed': { icon: 'failed', words: 'undo not applied' },
};

/**
 * The order of the stages on one approved message, as the worker says them (its plan,
 * then that plan's Undo): approved (applying), a stepped walk's steps, applied, how the
 * apply or its rollout ended, then an Undo approved (undoing) and how it ended. A stage
 * never replaces a later one (src/chat/notify/root-stage.ts keeps the order in Redis for
 * every app replica); within one rank the later delivery wins.
 */
export const FIX_STAGE_ORDER: Readonly<Record<FixStage, number>> = {
  applying: 0,
  step: 1,
  applied: 2,
  'already-applied': 3,
  'rolled-out': 3,
  'pods-ready': 3,
  'still-failing': 3,
  refused: 3,
  failed: 3,
  timeout: 3,
  paused: 3,
  undoing: 4,
  undone: 5,
  'undo-failed': 5,
};

/** Stages that applied nothing: a new approval on the message (an Undo pressed again) follows them. */
export const NOT_APPLIED_STAGES: readonly FixStage[] = ['refused', 'failed', 'undo-failed'];

/** The stage an outcome moves the approved message to; undefined where it keeps its line. */
export function fixStageOf(job: Outcome, undo: boolean): FixStage | undefined {
  if (job.stage === 'progress') return job.step ? 'step' : undefined;
  return undo ? undoStageOf(job.stage) : job.stage;
}

/** A fix's stage (as fixStageOf(job, false) says it) said of an Undo's plan. */
export function undoStageOf(stage: FixStage): FixStage {
  if (stage === 'step') return 'step';
  if (stage === 'refused' || stage === 'failed' || stage === 'undo-failed') return 'undo-failed';
  if (stage === 'applied' || stage === 'paused' || stage === 'applying' || stage === 'undoing')
    return 'undoing';
  return 'undone';
}

export { approversText };

/** "✅ set-rolling-update approved by A at 12:03 UTC; rolled out at 12:05 UTC". */
export function stateLine(
  stage: FixStage,
  fix: {
    what: string;
    approvers: readonly string[];
    approvedAt: number;
    platform: string;
    /** The approval policy's names of approvers (`names:`), for platforms that cannot show ids. */
    names?: Readonly<Record<string, string>>;
  },
  at: number,
): Rich {
  const { icon: i, words } = FIX_STAGE_WORDS[stage];
  const when = stage === 'applying' || stage === 'undoing' ? '…' : ` at ${messageTime(at)}`;
  return say`${icon(i)} ${strong(fix.what)} approved by ${approversText(fix.platform, fix.approvers, fix.names)} at ${messageTime(fix.approvedAt)}; ${words}${when}`;
}

/**
 * One reply per step of a stepped scale-old-replicaset, rendered from the step's data
 * (names are text spans; nothing else comes from the cluster). The pod named as
 * released is the one the walk saw go after the scale.
 */
function stepProgressMessage(job: Outcome, step: StepProgress, lang: Lang): ChatMessage {
  const w = wordsIn(STEP_WORDS, lang);
  const where: Part = {
    kind: 'note',
    text: wordsIn(OUTCOME_WORDS, lang).note({ plan: job.planId, cluster: job.cluster }),
  };
  const released = (s: Extract<StepProgress, { pod: string }>): Rich =>
    s.marked ? w.releasedInstead({ pod: s.pod, marked: s.marked }) : w.released({ pod: s.pod });
  if (step.phase === 'waiting-ready') {
    const walk = { of: step.of, replicaSet: step.replicaSet, left: step.of - 1 };
    return {
      summary: w.startedSummary({ ...walk, pod: step.pod }),
      parts: [{ kind: 'paragraph', text: w.started({ ...walk, released: released(step) }) }, where],
    };
  }
  if (step.phase === 'marks-left') {
    const pods = join(
      step.pods.map((p) => rich(code(p))),
      ', ',
    );
    const commands = step.pods.map(
      (p) => `kubectl annotate pod ${p} -n ${step.namespace} controller.kubernetes.io/pod-deletion-cost-`,
    );
    return {
      summary: w.marksLeftSummary({ pods: step.pods.join(', ') }),
      parts: [
        { kind: 'paragraph', text: w.marksLeft({ pods, replicaSet: step.replicaSet }) },
        { kind: 'code', title: say`${w.marksTitle({})}`, body: commands.join('\n') },
        where,
      ],
    };
  }
  const steps = { step: step.step, of: step.of };
  if (step.phase === 'ready') {
    const walk = { ...steps, replicaSet: step.replicaSet, left: step.of - step.step };
    return {
      summary: w.readySummary({ ...walk, pod: step.pod }),
      parts: [{ kind: 'paragraph', text: w.ready({ ...walk, released: released(step) }) }, where],
    };
  }
  const why = stopReason(step, lang);
  return {
    summary: w.stoppedSummary({ ...steps, why }),
    parts: [{ kind: 'paragraph', text: w.stopped({ ...steps, why, replicaSet: step.replicaSet }) }, where],
  };
}

/**
 * Stages that say the incident's rollout completed: their reply offers Draft post-mortem
 * (src/chat/use-cases/postmortem-press.ts) where the app keeps what it drafts.
 */
export const DRAFT_STAGES: ReadonlySet<Outcome['stage']> = new Set(['rolled-out', 'pods-ready']);

/** Stages that first report a write: the one reply that offers its Undo. */
const OFFERS_UNDO: ReadonlySet<Outcome['stage']> = new Set(['applied', 'already-applied']);

/**
 * The Undo, written for the undo: what it restores, whether it starts a rollout (only
 * a change to the pod template does; the strategy is not part of it), the exact patch
 * it writes and the server's dry run when there is one.
 */
export function undoParts(undo: StoredPlan, lang: Lang = 'en'): Part[] {
  const plan = undo.plan;
  const t = plan.target;
  const w = wordsIn(OUTCOME_WORDS, lang);
  const said = { what: restoredInWords(plan, lang), target: `${typeOfKind(t.kind)}/${t.name}` };
  const lines = [
    undoPatchesBack(plan) ? w.undoRestores(said) : w.undoRestoresBeside(said),
    say`${rolloutInWords(plan, lang)}`,
  ];
  // Putting a surging strategy back on the Deployment that deadlocked brings the deadlock back.
  if (plan.addresses === 'RolloutSurgeDeadlock' && /maxSurge (?!0\b)/.test(restoredInWords(plan)))
    lines.push(w.deadlockAgain({}));
  return [
    { kind: 'paragraph', text: join(lines, '\n') },
    {
      kind: 'code',
      title: w.undoPatchTitle({ type: plan.patch?.type ?? 'delete' }),
      body: `${undo.dryRun ? `${dryRunText(undo.dryRun)}\n` : ''}${patchText(plan)}`,
      whole: true,
    },
  ];
}

/**
 * The reply in the approved message's thread for one outcome. Refusals and failures
 * offer Re-run; the first reply about a write (applied) offers its Undo, once: later
 * steps of the same plan (rolled out, still failing) point back to it. The Undo is a
 * stored plan like any other: the approver sees its exact patch and what it restores
 * before the confirm, and it is approval-gated; its button's digest is of `undo` as
 * shown, and its requester the one the app signed into the approval.
 */
export function outcomeMessage(
  job: Outcome,
  platform: string,
  undo: StoredPlan | undefined,
  now = Date.now(),
  names: Readonly<Record<string, string>> = {},
  lang: Lang = 'en',
  /** `postmortem`: offer Draft post-mortem on a stage of DRAFT_STAGES (the app keeps what it drafts). */
  options: { postmortem?: boolean } = {},
): ChatMessage {
  if (job.stage === 'progress' && job.step) return stepProgressMessage(job, job.step, lang);
  const head = HEADLINE[job.stage];
  const words = translate(OUTCOME_STAGE_WORDS, lang, job.stage);
  const w = wordsIn(OUTCOME_WORDS, lang);
  // `names`: the approval policy's names of approvers (approvers.ts).
  // The worker's sentence in the thread's language where it wrote one (remediate-words.ts).
  const detail = job.detailIn?.[lang] ?? job.detail;
  const by = job.approvedBy?.length
    ? w.approvedBy({ who: approversText(platform, job.approvedBy, names) })
    : say``;
  const parts: Part[] = [
    {
      kind: 'paragraph',
      text: say`${icon(head.icon)} ${strong(words)}: ${clip(detail, 1500)}${by}`,
    },
    { kind: 'note', text: w.note({ plan: job.planId, cluster: job.cluster }) },
  ];
  const buttons: Button[] = [];
  if (undo && undo.expiresAt > now) {
    if (OFFERS_UNDO.has(job.stage)) {
      parts.push(...undoParts(undo, lang));
      buttons.push(
        planButton(
          undo,
          { state: 'open', expiresAt: undo.expiresAt },
          { undo: true, requester: job.requester ?? null, lang },
        ),
      );
    } else parts.push({ kind: 'note', text: w.undoAbove({}) });
  }
  if ((job.stage === 'refused' || job.stage === 'failed') && job.rerun)
    buttons.push({
      label: translate(RESULT_WORDS, lang, 'rerun'),
      action: {
        kind: 'rerun',
        cluster: job.cluster,
        target: {
          namespace: job.rerun.namespace,
          name: job.rerun.name,
          kind: job.rerun.kind ?? DEFAULT_WORKLOAD_KIND,
        },
      },
    });
  if (options.postmortem && DRAFT_STAGES.has(job.stage))
    buttons.push({ label: translate(RESULT_WORDS, lang, 'draftPostmortem'), action: { kind: 'postmortem' } });
  if (buttons.length > 0) parts.push({ kind: 'actions', buttons });
  return { summary: say`${words}: ${clip(detail, 500)}${by}`, parts };
}

/** Stages after which the incident is over: the message stops reading as an open incident. */
export const RESOLVED_STAGES: ReadonlySet<FixStage> = new Set<FixStage>([
  'rolled-out',
  'pods-ready',
  'already-applied',
  'undone',
]);

/**
 * `message` at `stage` for a platform that re-renders it from what it shows (Teams):
 * once the incident is over, a line above its verdict says so (the verdict itself stays
 * as it was, so a later stage, an Undo, takes the line away again); at any other
 * stage, without that line. Slack strikes its kept verdict instead (src/chat/slack/root-state.ts).
 */
export function withResolution(message: ChatMessage, stage: FixStage): ChatMessage {
  const parts = message.parts.filter((p) => !(p.kind === 'paragraph' && p.role === 'resolved'));
  if (RESOLVED_STAGES.has(stage)) {
    const verdict = parts.findIndex((p) => p.kind === 'paragraph' && p.role === 'verdict');
    parts.splice(verdict >= 0 ? verdict : 0, 0, {
      kind: 'paragraph',
      text: say`${icon('ok')} ${strong('Resolved')}: ${FIX_STAGE_WORDS[stage].words}.`,
      role: 'resolved',
    });
  }
  return { summary: message.summary, parts };
}

/** `message` with its state line (the paragraph of role `state`) set to `line`: in place, else above its buttons. */
export function withStateLine(message: ChatMessage, line: Rich): ChatMessage {
  const state: Part = { kind: 'paragraph', text: line, role: 'state' };
  const parts = [...message.parts];
  const current = parts.findIndex((p) => p.kind === 'paragraph' && p.role === 'state');
  if (current >= 0) parts[current] = state;
  else {
    const actions = parts.findIndex((p) => p.kind === 'actions');
    parts.splice(actions >= 0 ? actions : parts.length, 0, state);
  }
  return { summary: message.summary, parts };
}
