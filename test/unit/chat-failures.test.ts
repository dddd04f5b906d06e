/**
 * How each adapter names its API's failures for the notify consumer
 * (ChatAdapter.failureOf, src/app/notify/consumer.ts): wait, retry first, or give up.
 */
import { describe, expect, it } from 'vitest';
import { slackFailure } from '../../src/chat/slack/slack-errors.js';
import { connectorFailure } from '../../src/chat/teams/adapter.js';
import { ConnectorError } from '../../src/chat/teams/connector.js';

/** An error shaped as @slack/web-api throws them. */
const slackError = (fields: Record<string, unknown>): Error => Object.assign(new Error('slack'), fields);

describe('Slack Web API failures', () => {
  it('a rate limit waits Retry-After, a 5xx or no answer is an outage, a refusal is final', () => {
    expect(slackFailure(slackError({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 }))).toEqual({
      kind: 'rate-limited',
      retryAfterSeconds: 7,
    });
    expect(slackFailure(slackError({ code: 'slack_webapi_http_error', statusCode: 503 }))).toEqual({
      kind: 'transient',
    });
    expect(slackFailure(slackError({ code: 'slack_webapi_request_error' }))).toEqual({ kind: 'transient' });
    expect(
      slackFailure(slackError({ code: 'slack_webapi_platform_error', data: { error: 'not_in_channel' } })),
    ).toEqual({ kind: 'permanent', code: 'not_in_channel' });
  });

  it('anything else is not a Slack failure the consumer treats apart', () => {
    expect(slackFailure(slackError({ code: 'slack_webapi_http_error', statusCode: 400 }))).toBeUndefined();
    expect(slackFailure(slackError({ data: { error: 'ratelimited_elsewhere' } }))).toBeUndefined();
    expect(slackFailure(new ConnectorError(503, 'ServiceError'))).toBeUndefined();
    expect(slackFailure('text')).toBeUndefined();
  });
});

describe('Bot Connector failures', () => {
  it('429 waits, 5xx and no answer are an outage, 400/403/404 are final', () => {
    expect(connectorFailure(new ConnectorError(429, 'Throttled'))).toEqual({
      kind: 'rate-limited',
      retryAfterSeconds: 2,
    });
    expect(connectorFailure(new ConnectorError(502, 'error'))).toEqual({ kind: 'transient' });
    expect(connectorFailure(new ConnectorError(0, 'no answer'))).toEqual({ kind: 'transient' });
    expect(connectorFailure(new ConnectorError(403, 'BotNotInConversationRoster'))).toEqual({
      kind: 'permanent',
      code: '403 BotNotInConversationRoster',
    });
  });

  it('anything else is not a connector failure the consumer treats apart', () => {
    expect(connectorFailure(new ConnectorError(409, 'Conflict'))).toBeUndefined();
    expect(
      connectorFailure(slackError({ code: 'slack_webapi_http_error', statusCode: 503 })),
    ).toBeUndefined();
  });
});
