/**
 * The Bot Connector client's own token (src/chat/teams/connector.ts): fetched once and
 * shared, and fetched again once when the connector answers 401 (a token revoked
 * before it expired), on a loopback server playing Entra and the connector.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { botConnector } from '../../src/chat/teams/connector.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listen(revokeFirst: boolean): Promise<{ base: string; tokens: number; bearers: string[] }> {
  const seen = { base: '', tokens: 0, bearers: [] as string[] };
  server = createServer((req, res) => {
    req.resume();
    if (req.url === '/token') {
      seen.tokens += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: `t${seen.tokens}`, expires_in: 3600, token_type: 'Bearer' }));
      return;
    }
    const bearer = req.headers.authorization ?? '';
    seen.bearers.push(bearer);
    res.setHeader('content-type', 'application/json');
    if (revokeFirst && bearer === 'Bearer t1') {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { code: 'Unauthorized', message: 'revoked' } }));
      return;
    }
    res.end(JSON.stringify({ id: 'activity-1' }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  seen.base = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
  return seen;
}

const connectorFor = (base: string) =>
  botConnector({
    appId: 'app',
    appPassword: 'secret',
    tokenUrl: `${base}/token`,
    scope: 'https://api.botframework.com/.default',
    serviceUrlHosts: [new URL(base).host],
  });

describe('Bot Connector token', () => {
  it('fetches one token for concurrent sends and keeps it', async () => {
    const seen = await listen(false);
    const connector = connectorFor(seen.base);
    await Promise.all(
      [1, 2, 3].map(() => connector.send(seen.base, '19:a@thread.tacv2', { type: 'message' })),
    );
    await connector.send(seen.base, '19:a@thread.tacv2', { type: 'message' });
    expect(seen.tokens).toBe(1);
    expect(seen.bearers).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t1', 'Bearer t1']);
  });

  it('after a 401 fetches a fresh token once and sends again with it', async () => {
    const seen = await listen(true);
    const connector = connectorFor(seen.base);
    expect(await connector.send(seen.base, '19:a@thread.tacv2', { type: 'message' })).toEqual({
      id: 'activity-1',
    });
    expect(seen.tokens).toBe(2);
    expect(seen.bearers).toEqual(['Bearer t1', 'Bearer t2']);
  });
});
