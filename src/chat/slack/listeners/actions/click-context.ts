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
  /** The workspace's domain (`acme` of acme.slack.com), when the payload names it. */
  teamDomain?: string;
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
    ...(typeof body.team?.domain === 'string' ? { teamDomain: body.team.domain } : {}),
  };
}
