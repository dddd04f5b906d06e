/**
 * What a person in Slack does, as Slack would send it to the app: a signed slash
 * command and a signed block_actions click on a button of a stored message.
 */
import type { SlackStandin, StoredMessage } from '../../test/support/slack-standin.js';
import { postClick, postSigned, slashCommandBody } from '../../test/support/slack-sign.js';
import { DemoError } from './demo-error.js';

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
  const check = (what: string, res: { status: number; body: string }): void => {
    if (res.status !== 200)
      throw new DemoError(`the app answered ${what} with HTTP ${res.status}: ${res.body}`);
  };
  return {
    command: async (text, user, channel) =>
      check(
        'the slash command',
        await postSigned(
          options.eventsUrl,
          options.signingSecret,
          slashCommandBody({ text, user_id: user, channel_id: channel }),
        ),
      ),
    click: async (message, button, user) =>
      check(
        `the "${button.text}" click`,
        await postClick(options.eventsUrl, options.signingSecret, message, button.actionId, user),
      ),
  };
}
