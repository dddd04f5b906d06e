/**
 * What follows an approval, platform-free: the thread reply for each remediation
 * outcome the workers sign (applied with its Undo, rolled out, refused with Re-run, a
 * step of a stepped walk), and the state line the approved message shows as the fix
 * moves on (applying, rolled out, failed, undone). Slack renders its own Block Kit
 * versions (src/app/notify/outcome-message.ts, root-state.ts); adapters on the port
 * (Teams) render these.
 */
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import type { NotifyJob } from '../../queue/schemas.js';
import { messageTime } from '../../text/time.js';
import { shownDigest } from '../../trust/plan-seal.js';
import type { Button, ChatMessage, Icon, Part, Rich } from '../model.js';
import { icon, join, mention, plain, rich, say, strong } from '../rich.js';
import { confirmDialogText, restoredInWords, rolloutInWords } from './confirm-text.js';
import { clip, dryRunText, patchText } from './plan-text.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const HEADLINE: Record<Outcome['stage'], { icon: Icon; words: string }> = {
  applied: { icon: 'ok', words: 'Applied' },
  'already-applied': { icon: 'info', words: 'Already applied' },
  'rolled-out': { icon: 'rolled-out', words: 'Rolled out' },
  'pods-ready': { icon: 'ok', words: 'Replacement pods Ready' },
  'still-failing': { icon: 'warning', words: 'Still failing' },
  refused: { icon: 'refused', words: 'Refused' },
  failed: { icon: 'failed', words: 'Failed' },
  timeout: { icon: 'expired', words: 'Rollout not finished in time' },
  paused: { icon: 'paused', words: 'Applied; the rollout is paused and waits for a person' },
  progress: { icon: 'more', words: 'Step' },
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
 * never replaces a later one (src/app/notify/root-stage.ts keeps the order in Redis for
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
  if (!undo) return job.stage;
  if (job.stage === 'refused' || job.stage === 'failed') return 'undo-failed';
  if (job.stage === 'applied' || job.stage === 'paused') return 'undoing';
  return 'undone';
}

/** Slack's platform name (src/chat/slack/render.ts): it shows a mentioned id as the person. */
const SLACK = 'slack';

/**
 * Approvers, "A and B": on Slack as mentions (Slack shows an id as its person). Teams
 * cannot show an Entra object id as a person, so there they are named as the policy
 * file's `names:` names them, and the rest counted ("an approver", "2 approvers"),
 * never shown as an id.
 */
export function approversText(
  platform: string,
  ids: readonly string[],
  names: Readonly<Record<string, string>> = {},
): Rich {
  if (platform === SLACK)
    return join(
      ids.map((id) => rich(mention({ platform, id }))),
      ' and ',
    );
  const named: Rich[] = [];
  let unnamed = 0;
  for (const id of ids) {
    const name = names[id] ?? names[id.toLowerCase()];
    if (name === undefined) unnamed++;
    else named.push(rich(strong(name)));
  }
  if (unnamed > 0) named.push(plain(unnamed === 1 ? 'an approver' : `${String(unnamed)} approvers`));
  return join(named, ' and ');
}

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
  return say`${icon(i)} ${fix.what} approved by ${approversText(fix.platform, fix.approvers, fix.names)} at ${messageTime(fix.approvedAt)}; ${words}${when}`;
}

/**
 * The reply in the approved message's thread for one outcome; the first write offers
 * its Undo. `names`: the approval policy's names of approvers (see approversText).
 */
export function outcomeMessage(
  job: Outcome,
  platform: string,
  undo: StoredPlan | undefined,
  now = Date.now(),
  names: Readonly<Record<string, string>> = {},
): ChatMessage {
  const head = HEADLINE[job.stage];
  const by = job.approvedBy?.length
    ? say` (approved by ${approversText(platform, job.approvedBy, names)})`
    : say``;
  const summary = say`${head.words}: ${clip(job.detail, 500)}${by}`;
  const parts: Part[] = [
    { kind: 'paragraph', text: say`${icon(head.icon)} ${head.words}: ${clip(job.detail, 1500)}${by}` },
    { kind: 'note', text: say`plan ${job.planId} · cluster ${job.cluster}` },
  ];
  const buttons: Button[] = [];
  if (undo && undo.expiresAt > now && (job.stage === 'applied' || job.stage === 'already-applied')) {
    const plan = undo.plan;
    const t = plan.target;
    parts.push(
      {
        kind: 'paragraph',
        text: say`${icon('undo')} Undo restores ${restoredInWords(plan)} of ${typeOfKind(t.kind)}/${t.name}. ${rolloutInWords(plan)}`,
      },
      {
        kind: 'code',
        title: say`Exact patch of the undo`,
        body: `${undo.dryRun ? `${dryRunText(undo.dryRun)}\n` : ''}${patchText(plan)}`,
        whole: true,
      },
    );
    buttons.push({
      label: `Undo: ${plan.kind}`,
      style: 'danger',
      action: { kind: 'undo', planId: plan.id, shown: shownDigest(undo), requester: job.requester ?? null },
      confirm: {
        title: `Undo ${plan.kind} on ${t.name}?`,
        text: confirmDialogText(plan, { undo: true }),
        yes: 'Undo it',
        no: 'Cancel',
      },
    });
  }
  if ((job.stage === 'refused' || job.stage === 'failed') && job.rerun)
    buttons.push({
      label: 'Re-run',
      action: {
        kind: 'rerun',
        cluster: job.cluster,
        target: {
          namespace: job.rerun.namespace,
          name: job.rerun.name,
          kind: job.rerun.kind ?? 'Deployment',
        },
      },
    });
  if (buttons.length > 0) parts.push({ kind: 'actions', buttons });
  return { summary, parts };
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
