import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { dismiss } from '../../../use-cases/press.js';
import { clickContext } from './click-context.js';
import { applyPressReply, pressRequest } from './press-reply.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * Dismiss: collapse the result to one line (buttons gone), keeping who dismissed it;
 * the requester or an approver only (src/chat/use-cases/press.ts).
 */
export function dismissResultAction(services: ChatServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    const reply = await dismiss(services, pressRequest(click, { kind: 'dismiss' }));
    await applyPressReply(services, client, click, reply, { tellInThread: true });
  };
}
