import {
  ACTION,
  APPROVE_ACTION_PATTERN,
  ROOT_BLOCK,
  actionIndexSuffix,
  parsePlanButtonValue,
} from '../../blocks/action-ids.js';
import { trusted, type Mrkdwn } from '../../blocks/mrkdwn.js';
import { LIMITS, context, plain, section } from '../../blocks/text.js';
import type { BlockAction, ButtonAction } from '@slack/bolt';

/** Where a button was clicked and by whom, from a block_actions payload. */
export interface ClickContext {
  user: string;
  channel: string;
  messageTs: string;
  /** The thread root when the click was in a thread reply (undo buttons), else the message itself. */
  rootTs: string;
  value: string;
  blocks: Record<string, unknown>[];
}

export function clickContext(body: BlockAction, action: ButtonAction): ClickContext | null {
  const channel = body.channel?.id ?? body.container.channel_id;
  const message = body.message as
    { ts?: string; thread_ts?: string; blocks?: Record<string, unknown>[] } | undefined;
  const messageTs = message?.ts ?? body.container.message_ts;
  if (typeof channel !== 'string' || typeof messageTs !== 'string' || typeof action.value !== 'string')
    return null;
  return {
    user: body.user.id,
    channel,
    messageTs,
    rootTs: message?.thread_ts ?? messageTs,
    value: action.value,
    blocks: message?.blocks ?? [],
  };
}

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
          APPROVE_ACTION_PATTERN.test(el.action_id),
      );
      if (withdrawn.length > 0)
        out.push(context(trusted('The other fixes were withdrawn; press Re-run for a fresh diagnosis.')));
      const elements = all
        .filter((el) => !withdrawn.includes(el))
        .map((el) =>
          isPlan(el)
            ? {
                type: 'button',
                action_id: `${ACTION.status}${actionIndexSuffix(el.action_id)}`,
                value: planId,
                text: plain(label, LIMITS.buttonText),
              }
            : el,
        );
      out.push({ ...block, elements });
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
