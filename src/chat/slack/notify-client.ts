import { webApi } from '@slack/bolt';
import { slackFetch } from './slack-fetch.js';

/**
 * A Web API client for the consumer that never waits out a 429 itself: the
 * consumer turns Retry-After into a BullMQ rate limit, which pauses the
 * notify lane (Slack's limits are per method and workspace, not per job).
 */
export function createNotifyClient(token: string, apiUrl: string | undefined): webApi.WebClient {
  return new webApi.WebClient(token, {
    fetch: slackFetch,
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
}

/** The error code every call of `slackOffClient` answers with (a permanent one: slack-errors.ts). */
const SLACK_OFF = 'slack_not_configured';

/**
 * The Web API client of an install without Slack (Teams only): every call is answered
 * here, without a request, with `{ ok: false, error: 'slack_not_configured' }`, so a
 * Slack message reference that still reaches the app (a record from before Slack was
 * turned off) fails once, permanently, and nothing is sent anywhere.
 */
export function slackOffClient(): webApi.WebClient {
  const body = JSON.stringify({ ok: false, error: SLACK_OFF });
  const answer: webApi.FetchFunction = async (url) => ({
    ok: true,
    status: 200,
    statusText: 'OK',
    url: typeof url === 'string' ? url : url.href,
    headers: { get: () => null, entries: () => new Map<string, string>().entries() },
    text: async () => body,
    json: async () => JSON.parse(body) as unknown,
    arrayBuffer: async () => new TextEncoder().encode(body).buffer,
  });
  return new webApi.WebClient('', {
    fetch: answer,
    slackApiUrl: 'http://127.0.0.1:9/api/',
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
}
