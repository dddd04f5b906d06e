import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { draftPostmortem } from '../../../use-cases/postmortem-press.js';
import { decodeValue } from '../../actions.js';
import { clickContext } from './click-context.js';
import { applyPressReply, pressRequest } from './press-reply.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * Draft post-mortem (src/chat/use-cases/postmortem-press.ts): the draft of the incident
 * the app recorded for the clicked message, uploaded in its thread. A value other than
 * the button's own is no press.
 */
export function draftPostmortemAction(services: ChatServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    const pressed = click ? decodeValue('postmortem', click.value) : null;
    if (!click || pressed?.kind !== 'postmortem') return;
    const reply = await draftPostmortem(services, pressRequest(click, pressed));
    await applyPressReply(services, client, click, reply, { tellInThread: true });
  };
}
