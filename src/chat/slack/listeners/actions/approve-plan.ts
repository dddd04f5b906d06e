import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { approvePress } from '../../../use-cases/approve-press.js';
import { ACKED_PRESS_DEADLINE_MS } from '../../../use-cases/redis-words.js';
import { actionKindOf, chosenBeside, decodeValue } from '../../actions.js';
import { clickContext } from './click-context.js';
import { applyPressReply, pressRequest } from './press-reply.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * Approve (or Undo) button: ack, let the port's press decide (src/chat/use-cases/approve-press.ts,
 * as on every platform), then apply its reply in Slack: refusals ephemeral (in the thread
 * the click was in), the message marked approved, expired or superseded (../../mark.ts).
 */
export function approvePlanAction(services: ChatServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    // Bolt routed the click here by its action id: an Undo's, or else an Approve's.
    const kind = actionKindOf(action.action_id) === 'undo' ? 'undo' : 'approve';
    // An Apply's choice beside it (how long an exclusion lasts): one of the options, or no press.
    const chosen = kind === 'approve' ? chosenBeside(body.state, action.action_id) : {};
    if (chosen === null)
      services.logger.warn({ actionId: action.action_id }, 'press dropped: a choice none of the options has');
    const pressed = click && chosen ? decodeValue(kind, click.value, chosen) : null;
    if (!click || (pressed?.kind !== 'approve' && pressed?.kind !== 'undo')) return;
    // Acked above: the press may wait out a failover under way (ACKED_PRESS_DEADLINE_MS).
    const request = { ...pressRequest(click, pressed), deadlineMs: ACKED_PRESS_DEADLINE_MS };
    const reply = await approvePress(services, request, pressed);
    await applyPressReply(services, client, click, reply, { tellInThread: true });
  };
}
