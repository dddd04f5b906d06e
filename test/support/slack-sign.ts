import { createHmac } from 'node:crypto';

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
    response_url: 'http://127.0.0.1:9/commands/T0001/1/abc',
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
