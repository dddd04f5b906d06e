/**
 * What a person in Slack does, as Slack would send it to the app: a signed slash
 * command and a signed block_actions click on a button of a stored message.
 */
import type { SlackStandin, StoredMessage } from '../../test/support/slack-standin.js';
import { blockActionBody, postSigned, slashCommandBody } from '../../test/support/slack-sign.js';
import { DemoError } from './redis.js';

type Json = Record<string, unknown>;

export interface Button {
  actionId: string;
  blockId: string;
  value: string;
  text: string;
}

export interface SlackUser {
  command(text: string, user: string, channel: string): Promise<void>;
  click(message: StoredMessage, button: Button, user: string): Promise<void>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Buttons of a message's actions blocks. */
export function buttonsOf(message: StoredMessage): Button[] {
  return message.blocks
    .filter((b) => b.type === 'actions' && Array.isArray(b.elements))
    .flatMap((b) =>
      (b.elements as Json[])
        .filter((e) => e.type === 'button')
        .map((e) => ({
          actionId: str(e.action_id),
          blockId: str(b.block_id),
          value: str(e.value),
          text: str((e.text as Json | undefined)?.text),
        })),
    );
}

/** The first stored message (in post order) for which `pick` returns something. */
export function findMessage<T>(
  slack: SlackStandin,
  pick: (message: StoredMessage) => T | undefined,
): { message: StoredMessage; found: T } | undefined {
  for (const message of slack.messages.values()) {
    const found = pick(message);
    if (found !== undefined) return { message, found };
  }
  return undefined;
}

/** Signs requests with the app's signing secret, as Slack does. */
export function slackUser(options: { eventsUrl: string; signingSecret: string }): SlackUser {
  const post = async (what: string, body: string): Promise<void> => {
    const res = await postSigned(options.eventsUrl, options.signingSecret, body);
    if (res.status !== 200)
      throw new DemoError(`the app answered ${what} with HTTP ${res.status}: ${res.body}`);
  };
  return {
    command: (text, user, channel) =>
      post('the slash command', slashCommandBody({ text, user_id: user, channel_id: channel })),
    click: (message, button, user) =>
      post(
        `the "${button.text}" click`,
        blockActionBody({
          type: 'block_actions',
          team: { id: 'T0001', domain: 'example' },
          user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: 'T0001' },
          api_app_id: 'A0001',
          token: 'deprecated-verification-token',
          trigger_id: '2.3.demo',
          response_url: 'http://127.0.0.1:9/actions/T0001/1/demo',
          container: {
            type: 'message',
            message_ts: message.ts,
            channel_id: message.channel,
            is_ephemeral: false,
            ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
          },
          channel: { id: message.channel, name: 'demo' },
          message: {
            type: 'message',
            ts: message.ts,
            text: message.text,
            blocks: message.blocks,
            ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
          },
          actions: [
            {
              type: 'button',
              action_id: button.actionId,
              block_id: button.blockId,
              value: button.value,
              text: { type: 'plain_text', text: button.text, emoji: true },
              action_ts: `${Date.now() / 1000}`,
            },
          ],
        }),
      ),
  };
}
