import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { proposePress } from '../../../use-cases/propose-press.js';
import { decodeValue } from '../../actions.js';
import { slackPressLookups } from '../../press-lookups.js';
import { createSlackUsers, type SlackUsers } from '../../user-info.js';
import { clickContext } from './click-context.js';
import { applyPressReply, pressRequest } from './press-reply.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * Propose in Git (src/chat/use-cases/propose-press.ts): decided as an Approve is, then
 * queued for the cluster's workers; the presser is answered privately, the pull
 * request's link comes to the thread. The approvers' names (users.info) and the thread's
 * permalink go with it, for the pull request's body (../../press-lookups.ts). A value
 * other than a plan button's is no press.
 */
export function proposeInGitAction(services: ChatServices, users: SlackUsers = createSlackUsers()) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    const pressed = click ? decodeValue('propose', click.value) : null;
    if (!click || pressed?.kind !== 'propose') return;
    // The approvers' names and the thread's permalink, for the pull request's body.
    const lookups = slackPressLookups(client, users, click);
    const reply = await proposePress(services, { ...pressRequest(click, pressed), lookups }, pressed);
    await applyPressReply(services, client, click, reply, { tellInThread: true });
  };
}
