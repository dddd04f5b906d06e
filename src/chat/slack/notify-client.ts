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
