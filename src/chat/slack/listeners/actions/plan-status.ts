import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { planStatus } from '../../../use-cases/press.js';
import { clickContext } from './click-context.js';
import { applyPressReply, pressRequest } from './press-reply.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * A click on an "Approved: …" or "Expired: …" button: says where the plan stands,
 * privately, and applies nothing (src/chat/use-cases/press.ts).
 */
export function planStatusAction(services: ChatServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    const request = pressRequest(click, { kind: 'status', planId: click.value });
    const reply = await planStatus(services, request, click.value);
    await applyPressReply(services, client, click, reply, { tellInThread: true });
  };
}
