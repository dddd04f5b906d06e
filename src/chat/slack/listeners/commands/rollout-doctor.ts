import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { announceRun } from '../../../notify/announce.js';
import type { ChatServices } from '../../../services.js';
import { runCommand, type CommandWords } from '../../../use-cases/command.js';
import { createSlackChatAdapter } from '../../chat-adapter.js';
import { SLACK, toMrkdwn } from '../../render.js';
import { createSlackUsers, type SlackUsers } from '../../user-info.js';

type CommandArgs = AllMiddlewareArgs & SlackCommandMiddlewareArgs;

/** How Slack users call the app, and let it into a channel. */
const SLACK_COMMAND_WORDS: CommandWords = {
  command: '/rollout-doctor',
  invite: '/invite @rollout-doctor',
};

/**
 * `/rollout-doctor`: the command use-case (src/chat/use-cases/command.ts) validates
 * and enqueues, the ack carries its private reply (all inside Slack's 3 s), then the
 * visible "diagnosing…" message is posted and subscribed to the run. No cluster work here.
 */
export function rolloutDoctorCommand(services: ChatServices, locales: SlackUsers = createSlackUsers()) {
  return async ({ command, ack, client, respond, logger }: CommandArgs): Promise<void> => {
    // The person's Slack locale (cached, bounded in time): the thread the command starts keeps it.
    const lang = await locales.langOf(client, command.user_id);
    const reply = await runCommand(
      services,
      {
        person: { platform: SLACK, id: command.user_id },
        conversation: { platform: SLACK, id: command.channel_id },
        text: command.text,
        ...(lang ? { lang } : {}),
      },
      SLACK_COMMAND_WORDS,
    );
    if (reply.kind === 'private') {
      await ack({ response_type: 'ephemeral', text: toMrkdwn(reply.message.summary) });
      return;
    }
    await ack();
    const { run } = reply;
    let posted = null;
    try {
      posted = await announceRun(
        services,
        createSlackChatAdapter(client),
        { platform: SLACK, id: command.channel_id },
        run,
      );
    } catch (error) {
      logger.warn(
        `could not follow the run in ${command.channel_id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // Not posted (the app is not in the channel): said to the person alone.
    if (posted === null)
      await respond({ response_type: 'ephemeral', text: toMrkdwn(run.cannotPost.summary) });
  };
}
