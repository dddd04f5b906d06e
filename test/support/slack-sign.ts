import { createHmac } from 'node:crypto';
import type { StoredMessage } from './slack-standin.js';

/**
 * Signs a request body exactly as Slack does (v0): HMAC-SHA256 over
 * `v0:<timestamp>:<raw body>` with the signing secret, hex, prefixed `v0=`.
 */
export function slackSignature(secret: string, timestamp: number | string, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** Headers for a signed form post; `timestamp` defaults to now (seconds). */
export function signedHeaders(
  secret: string,
  rawBody: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(secret, timestamp, rawBody),
  };
}

/** Form body of a slash command as Slack sends it. */
export function slashCommandBody(fields: {
  text: string;
  user_id?: string;
  channel_id?: string;
  command?: string;
  /** Where the app's respond() goes; by default a closed loopback port. */
  response_url?: string;
}): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: 'T0001',
    team_domain: 'example',
    channel_id: fields.channel_id ?? 'C0001',
    channel_name: 'incidents',
    user_id: fields.user_id ?? 'U0001',
    user_name: 'oncall',
    command: fields.command ?? '/rollout-doctor',
    text: fields.text,
    api_app_id: 'A0001',
    is_enterprise_install: 'false',
    response_url: fields.response_url ?? 'http://127.0.0.1:9/commands/T0001/1/abc',
    trigger_id: '1.2.abc',
  }).toString();
}

/** Form body of a block_actions interaction (one `payload` field of JSON). */
export function blockActionBody(payload: Record<string, unknown>): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** Posts a signed body to the app; returns status and text. */
export async function postSigned(
  url: string,
  secret: string,
  rawBody: string,
  timestamp?: number,
): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: signedHeaders(secret, rawBody, timestamp),
    body: rawBody,
  });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started };
}

export interface Button {
  action_id: string;
  value?: string;
  text?: { type: string; text: string };
  style?: string;
  confirm?: { title?: { text: string }; text?: { text: string } };
  blockId: string;
}

/** The buttons of a message's actions blocks, each with the block_id Slack would report. */
export function buttonsOf(message: StoredMessage): Button[] {
  return message.blocks.flatMap((block, i) =>
    block.type === 'actions' && Array.isArray(block.elements)
      ? (block.elements as Omit<Button, 'blockId'>[])
          .filter((el) => (el as { type?: string }).type === 'button')
          .map((el) => ({ ...el, blockId: typeof block.block_id === 'string' ? block.block_id : `b${i}` }))
      : [],
  );
}

/**
 * A block_actions payload shaped like Slack's: Slack gives every block a block_id
 * (random when the app set none) and echoes the message, with thread_ts for a reply.
 */
export function blockActionPayload(
  message: StoredMessage,
  button: Button,
  user: string,
  chosen: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const blocks = message.blocks.map((b, i) => ({ block_id: `b${i}`, ...b }));
  const thread = message.threadTs ? { thread_ts: message.threadTs } : {};
  const { blockId, ...element } = button;
  return {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: 'T0001' },
    api_app_id: 'A0001',
    token: 'deprecated-verification-token',
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: message.channel,
      is_ephemeral: false,
      ...thread,
    },
    trigger_id: `${Date.now()}.1.abc`,
    team: { id: 'T0001', domain: 'example' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: message.channel, name: 'incidents' },
    message: {
      type: 'message',
      subtype: 'bot_message',
      text: message.text,
      ts: message.ts,
      bot_id: 'B0BOT',
      blocks,
      ...thread,
    },
    state: { values: selectState(blocks, chosen) },
    response_url: 'http://127.0.0.1:9/actions/T0001/1/abc',
    actions: [{ ...element, block_id: blockId, action_ts: `${Date.now() / 1000}` }],
  };
}

/**
 * The message's selects as Slack sends them with a press (`state.values`, by block and
 * action id): each at its initial option, or the value `chosen` names for its action id.
 */
function selectState(
  blocks: Record<string, unknown>[],
  chosen: Readonly<Record<string, string>>,
): Record<string, Record<string, unknown>> {
  const values: Record<string, Record<string, unknown>> = {};
  for (const block of blocks) {
    const elements = Array.isArray(block.elements) ? (block.elements as Record<string, unknown>[]) : [];
    for (const el of elements) {
      if (el.type !== 'static_select' || typeof el.action_id !== 'string') continue;
      const options = (el.options ?? []) as { value: string }[];
      const value = chosen[el.action_id];
      const selected =
        value === undefined ? el.initial_option : (options.find((o) => o.value === value) ?? { value });
      (values[String(block.block_id)] ??= {})[el.action_id] = {
        type: 'static_select',
        selected_option: selected ?? null,
      };
    }
  }
  return values;
}

/**
 * Clicks the button `actionId` of a message on the Slack stand-in, exactly as Slack
 * would deliver it to the app: a signed block_actions payload echoing the message,
 * with its selects as `chosen` says (by action id; else their initial option).
 */
export function postClick(
  eventsUrl: string,
  secret: string,
  message: StoredMessage,
  actionId: string,
  user: string,
  chosen: Readonly<Record<string, string>> = {},
): Promise<{ status: number; body: string; ms: number }> {
  const button = buttonsOf(message).find((b) => b.action_id === actionId);
  if (!button) throw new Error(`no button ${actionId} in message ${message.ts}`);
  return postSigned(eventsUrl, secret, blockActionBody(blockActionPayload(message, button, user, chosen)));
}
