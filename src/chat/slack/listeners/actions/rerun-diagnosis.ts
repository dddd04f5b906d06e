import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { rerun } from '../../../use-cases/press.js';
import { decodeValue } from '../../actions.js';
import { clickContext } from './click-context.js';
import { applyPressReply, pressRequest } from './press-reply.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** Re-run: a fresh diagnosis of the same target (src/chat/use-cases/press.ts), answered in the message's thread. */
export function rerunDiagnosisAction(services: ChatServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    const pressed = click ? decodeValue('rerun', click.value) : null;
    if (!click || pressed?.kind !== 'rerun') return;
    const reply = await rerun(services, pressRequest(click, pressed), pressed);
    await applyPressReply(services, client, click, reply, { tellInThread: false });
  };
}
