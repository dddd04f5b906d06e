/**
 * How each adapter names its API's failures for the notify consumer
 * (ChatAdapter.failureOf, src/app/notify/consumer.ts): wait, retry first, or give up.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { slackFailure } from '../../src/chat/slack/slack-errors.js';
import { connectorFailure } from '../../src/chat/teams/adapter.js';
import { botConnector, ConnectorError } from '../../src/chat/teams/connector.js';

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

describe('the Bot Connector client names its failures', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A loopback Entra and connector answering each send with `status` (and its headers, body). */
  async function connectorAnswering(status: number, headers: Record<string, string>, body: string) {
    server = createServer((req, res) => {
      req.resume();
      if (req.url === '/token') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: 't', expires_in: 3600, token_type: 'Bearer' }));
        return;
      }
      res.writeHead(status, headers);
      res.end(body);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
    const connector = botConnector({
      appId: 'app',
      appPassword: 'secret',
      tokenUrl: `${base}/token`,
      scope: 'https://api.botframework.com/.default',
      serviceUrlHosts: [new URL(base).host],
    });
    const failure = (serviceUrl = base) =>
      connector.send(serviceUrl, '19:a@thread.tacv2', { type: 'message' }).then(
        () => undefined,
        (error: unknown) => connectorFailure(error),
      );
    return { base, failure };
  }

  it('a 429 waits the Retry-After it gives; a 5xx page that is not JSON is an outage', async () => {
    const throttled = await connectorAnswering(429, { 'retry-after': '7' }, '{"error":{"code":"Throttled"}}');
    expect(await throttled.failure()).toEqual({ kind: 'rate-limited', retryAfterSeconds: 7 });
    server?.close();
    const gateway = await connectorAnswering(
      502,
      { 'content-type': 'text/html' },
      '<html>Bad gateway</html>',
    );
    expect(await gateway.failure()).toEqual({ kind: 'transient' });
  });

  it('no answer is an outage; a service URL whose host is not listed is a refusal, never asked', async () => {
    const { base, failure } = await connectorAnswering(200, {}, '{"id":"a"}');
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    expect(await failure(base)).toEqual({ kind: 'transient' });
    expect(await failure('https://evil.example/')).toEqual({
      kind: 'permanent',
      code: 'serviceUrl host not allowed',
    });
  });

  it('a card too large is a refusal', () => {
    expect(connectorFailure(new ConnectorError(413, 'MessageSizeTooBig'))).toEqual({
      kind: 'permanent',
      code: '413 MessageSizeTooBig',
    });
  });
});
