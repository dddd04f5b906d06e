/**
 * The root message of a result says how its approved fix ended: applying,
 * applied, rolled out, failed, refused, not finished in time, undone. Someone scanning
 * the channel at 3 a.m. reads the state there, not in a thread reply, and a resolved
 * incident stops looking critical.
 *
 * The app cannot read a message back without a history scope, so when a plan is
 * approved it keeps the blocks it put on that message, in `rd:root:<planId>`, under its
 * own mark (the approval key, a domain of its own, over the plan, the message and the
 * blocks): a Redis writer cannot make the app edit another message or say something it
 * did not render (a value that does not verify is dropped with a warning). Each outcome
 * the workers sign (src/app/notify/handle-notify.ts) then re-renders two blocks of it:
 * the verdict line's icon and the state line, both found by their block_id.
 */
import { messageTime } from '../../text/time.js';
import { ROOT_BLOCK } from './blocks/action-ids.js';
import { asIs, mrkdwn, type Mrkdwn } from './blocks/mrkdwn.js';
import { section, type Block } from './blocks/text.js';
import type { RootRecord } from '../notify/root-store.js';
import { FIX_STAGE_WORDS, RESOLVED_STAGES, type FixStage } from '../use-cases/outcome.js';
import { SLACK_ICONS, toMrkdwn } from './render.js';
import type { Rich } from '../model.js';

/** The one time format of our messages (src/text/time.ts). */
const utcMinute = messageTime;

/**
 * The state line of a record kept before Approve went through the port: its `approval`
 * is the approval clause as rendered then (names already escaped). Newer records keep
 * the approval as data and the port says the line (src/chat/notify/root-update.ts
 * keptStateLine).
 */
function keptLine(stage: FixStage, at: number, what: string, approval: Mrkdwn): Mrkdwn {
  const { icon, words } = FIX_STAGE_WORDS[stage];
  // Applying and undoing start when the approval does: the approval's time says when.
  const when = stage === 'applying' || stage === 'undoing' ? '…' : ` at ${utcMinute(at)}`;
  return mrkdwn`${asIs(`:${SLACK_ICONS[icon]}:` as Mrkdwn)} *${what}* ${asIs(approval)}; ${words}${when}`;
}

/**
 * The root's blocks with the state line replaced (`line`, or for a record kept before
 * the port kept approvals as data, its kept clause) and the verdict's icon set by the
 * stage: a check mark once resolved, the severity icon it had otherwise.
 */
export function withRootState(
  blocks: readonly Block[],
  record: RootRecord,
  stage: FixStage,
  at: number,
  line?: Rich,
): Block[] {
  const text = line ? toMrkdwn(line) : keptLine(stage, at, record.what, kept(record.approval));
  const state = { ...section(text), block_id: ROOT_BLOCK.state };
  return withVerdictAt(
    blocks.map((block) => (block.block_id === ROOT_BLOCK.state ? state : block)),
    record.verdict,
    stage,
  );
}

/**
 * `blocks` with the verdict line (block_id ROOT_BLOCK.verdict) as `verdict` said it,
 * struck and checked once `stage` resolved the incident. `verdict` is the app's own
 * text: kept under its mark, or carried back in the payload of its own message.
 */
export function withVerdictAt(blocks: readonly Block[], verdict: string, stage: FixStage): Block[] {
  if (!verdict) return [...blocks];
  return blocks.map((block) => {
    if (block.block_id !== ROOT_BLOCK.verdict) return block;
    return RESOLVED_STAGES.has(stage) ? resolvedVerdict(verdict, stage) : verdictBlock(kept(verdict));
  });
}

/** The verdict line's text as the message shows it (block_id ROOT_BLOCK.verdict), or ''. */
export function verdictText(blocks: readonly Record<string, unknown>[]): string {
  const block = blocks.find((b) => b.block_id === ROOT_BLOCK.verdict);
  const text = (block?.text as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

/**
 * The verdict line as first rendered (the app's own text), struck through once
 * resolved, after a check mark and what resolved it: ":white_check_mark: *Resolved* (rolled
 * out): ~…~", as a Teams card says "Resolved: rolled out." above its verdict. ("~…~
 * resolved" read as part of the verdict: "can never finish resolved".) A verdict read
 * back already resolved loses its old prefix first.
 */
function resolvedVerdict(verdict: string, stage: FixStage): Block {
  const bare = verdict.replace(/^:[a-z0-9_+-]+:\s*/, '').replace(/^\*Resolved\* \([^)]*\):\s*/, '');
  const text = kept(stripTilde(bare));
  return verdictBlock(
    mrkdwn`:white_check_mark: *Resolved* (${FIX_STAGE_WORDS[stage].words}): ~${asIs(text)}~`,
  );
}

/**
 * Mrkdwn the app rendered itself and kept in a record under its mark (load() verified
 * it): the one place such text becomes Mrkdwn again; nothing else reaches it.
 */
function kept(text: string): Mrkdwn {
  return text as Mrkdwn;
}

function verdictBlock(text: Mrkdwn): Block {
  return { ...section(text), block_id: ROOT_BLOCK.verdict };
}

/** A strike-through must not be ended early by a tilde inside it. */
function stripTilde(text: string): string {
  return text.replace(/~/g, '');
}

/**
 * The approved message of `record` at `stage`, as its Slack update: the kept blocks with
 * the state line and verdict re-rendered, and the notification text (an approval still
 * reads as one: "… approved; applying").
 */
export function rootStateUpdate(
  record: RootRecord,
  stage: FixStage,
  at: number,
  line?: Rich,
): { text: string; blocks: Block[] } {
  return {
    text: stage === 'applying' ? `${record.what} approved; applying` : `${record.what}: ${stage}`,
    blocks: withRootState(record.blocks, record, stage, at, line),
  };
}
