/**
 * The port's marks (src/chat/adapter.ts PlanMark, StateLineEdit) in Block Kit. Slack
 * cannot read a message back: a mark is applied to the blocks the click's payload
 * carried, and what the approved message shows is kept in the app's root record
 * (src/chat/notify/root-store.ts) for the outcomes to re-render (root-state.ts). The
 * marks' words are the port's (src/chat/use-cases/approve-press.ts); every text span is
 * escaped on its way into mrkdwn (render.ts toMrkdwn).
 */
import type { webApi } from '@slack/bolt';
import type { ChatAdapter, PlanMark, PressReply, StateLineEdit } from '../adapter.js';
import type { RootRecord } from '../notify/root-store.js';
import type { MessageRef } from '../model.js';
import {
  ACTION,
  APPROVE_ACTION_PATTERN,
  PROPOSE_ACTION_PATTERN,
  LASTS_ACTION_PATTERN,
  ROOT_BLOCK,
  actionIndexSuffix,
  parsePlanButtonValue,
} from './blocks/action-ids.js';
import { trusted, type Mrkdwn } from './blocks/mrkdwn.js';
import { LIMITS, asSlackBlocks, context, plain, section, type Block } from './blocks/text.js';
import { toMrkdwn } from './render.js';
import { verdictText, withVerdictAt } from './root-state.js';

/**
 * The clicked message's blocks with the plan's button replaced by a plain label and
 * a line above the buttons, so the message shows who approved and when. With
 * `withdrawOthers` (an approval), the other Apply buttons are removed: one fix per
 * message, and src/chat/approvals/approve.ts refuses the others anyway.
 */
export function markPlanInBlocks(
  blocks: Record<string, unknown>[],
  planId: string,
  label: string,
  line: Mrkdwn,
  options: { withdrawOthers?: boolean } = {},
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  // Apply and Undo buttons carry "<plan id>:<shown digest>", status buttons the plan id.
  const isPlan = (el: Record<string, unknown>): boolean =>
    typeof el.value === 'string' && parsePlanButtonValue(el.value).planId === planId;
  // Propose in Git carries its plan's value too: the approved plan's stays (its lasting fix
  // is still to propose), the other plans' go with their Apply.
  const isPropose = (el: Record<string, unknown>): boolean =>
    typeof el.action_id === 'string' && PROPOSE_ACTION_PATTERN.test(el.action_id);
  for (const block of blocks) {
    if (block.type === 'actions' && Array.isArray(block.elements)) {
      // The state line: src/chat/notify/root-update.ts re-renders it as the fix goes on.
      out.push({ ...section(line), block_id: ROOT_BLOCK.state });
      const all = block.elements as Record<string, unknown>[];
      const withdrawn = all.filter(
        (el) =>
          options.withdrawOthers === true &&
          !isPlan(el) &&
          typeof el.action_id === 'string' &&
          (APPROVE_ACTION_PATTERN.test(el.action_id) || isPropose(el)),
      );
      const applyWithdrawn = withdrawn.some((el) => !isPropose(el));
      if (applyWithdrawn)
        out.push(context(trusted('The other fixes were withdrawn; press Re-run for a fresh diagnosis.')));
      const elements = all
        .filter((el) => !withdrawn.includes(el))
        .map((el) =>
          isPlan(el) && !isPropose(el)
            ? {
                type: 'button',
                action_id: `${ACTION.status}${actionIndexSuffix(el.action_id)}`,
                value: planId,
                text: plain(label, LIMITS.buttonText),
              }
            : el,
        );
      out.push({ ...block, elements: withoutStrayChoices(elements) });
    } else if (block.block_id === ROOT_BLOCK.state) {
      // An earlier mark stays as it reads; the id moves to the newest (Slack refuses a repeated block_id).
      const { block_id: _earlier, ...rest } = block;
      out.push(rest);
    } else {
      out.push(block);
    }
  }
  return out.length > 50 ? out.slice(out.length - 50) : out;
}

/** The elements without a choice whose Apply is gone (marked or withdrawn): a choice chooses for its Apply only. */
function withoutStrayChoices(elements: Record<string, unknown>[]): Record<string, unknown>[] {
  const applies = new Set(
    elements.flatMap((el) =>
      typeof el.action_id === 'string' && APPROVE_ACTION_PATTERN.test(el.action_id)
        ? [actionIndexSuffix(el.action_id)]
        : [],
    ),
  );
  return elements.filter(
    (el) =>
      !(typeof el.action_id === 'string' && LASTS_ACTION_PATTERN.test(el.action_id)) ||
      applies.has(actionIndexSuffix(el.action_id)),
  );
}

/**
 * The pressed message's blocks with `mark` applied: the plan's button a label, the
 * mark's line as the state line, and at a resolved stage the verdict struck
 * (root-state.ts), as an outcome would show it.
 */
function markedBlocks(blocks: Record<string, unknown>[], mark: PlanMark): Block[] {
  const marked = markPlanInBlocks(blocks, mark.planId, mark.label, toMrkdwn(mark.line), {
    withdrawOthers: mark.withdrawOthers,
  });
  return mark.stage ? withVerdictAt(marked, verdictText(marked), mark.stage) : marked;
}

/** What the app keeps of the pressed message once marked (PressRequest.kept): its blocks and verdict line. */
export function keptBlocks(
  blocks: Record<string, unknown>[],
  mark: PlanMark,
): Pick<RootRecord, 'verdict' | 'blocks'> {
  const marked = markedBlocks(blocks, mark);
  return { verdict: verdictText(marked), blocks: marked };
}

/**
 * The pressed message edited with `mark`, then again with each later mark `settle`
 * gives (the approved plan's stage moved on while the edit was under way:
 * src/chat/notify/root-stage.ts), so the last edit to land shows the latest stage.
 */
export async function editMarked(
  client: webApi.WebClient,
  pressed: { ref: MessageRef; blocks: Record<string, unknown>[] },
  mark: PlanMark,
  settle: PressReply['settle'],
): Promise<void> {
  for (let next: PlanMark | undefined = mark; next; next = await settle?.())
    await client.chat.update({
      channel: pressed.ref.conversation.id,
      ts: pressed.ref.id,
      text: toMrkdwn(next.summary),
      blocks: asSlackBlocks(markedBlocks(pressed.blocks, next)),
    });
}

/**
 * Another message's state line a press moves on (an Undo's root), re-rendered from what
 * the app kept of it (ChatAdapter.showFixStage), then again with each later line.
 */
export async function editStateLine(
  chat: Pick<ChatAdapter, 'showFixStage'>,
  edit: StateLineEdit,
): Promise<void> {
  for (let next: Pick<StateLineEdit, 'line' | 'stage'> | undefined = edit; next; next = await edit.settle())
    await chat.showFixStage?.(edit.kept, next.stage, Date.now(), next.line);
}
