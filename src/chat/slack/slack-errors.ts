/** How the notify consumer tells Slack failures apart: wait, retry later, or give up. */
import type { ChatFailure } from '../model.js';

/** Slack errors a retry cannot fix: drop the job instead of hammering the API. */
const PERMANENT_SLACK_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'message_not_found',
  'invalid_blocks',
  'msg_too_long',
  'invalid_auth',
  'account_inactive',
  'no_text',
  'cant_update_message',
  // Our own: an install without Slack (notify-client.ts, slackOffClient).
  'slack_not_configured',
]);

/**
 * Slack answered 5xx or could not be reached. Such a job must be retried before the
 * jobs queued after it: a delayed retry would let "rolled out" overtake "applied" in
 * a thread.
 */
function isTransientSlackFailure(error: unknown): boolean {
  const e = error as { code?: unknown; statusCode?: unknown } | null;
  if (e?.code === 'slack_webapi_request_error') return true;
  return e?.code === 'slack_webapi_http_error' && typeof e.statusCode === 'number' && e.statusCode >= 500;
}

function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** A Slack Web API failure as the port names it (src/chat/model.ts ChatFailure); undefined for other errors. */
export function slackFailure(error: unknown): ChatFailure | undefined {
  if (error instanceof Error && 'retryAfter' in error && typeof error.retryAfter === 'number')
    return { kind: 'rate-limited', retryAfterSeconds: error.retryAfter };
  if (isTransientSlackFailure(error)) return { kind: 'transient' };
  const code = slackErrorCode(error);
  return code && PERMANENT_SLACK_ERRORS.has(code) ? { kind: 'permanent', code } : undefined;
}
