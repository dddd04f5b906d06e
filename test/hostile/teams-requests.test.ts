/**
 * Hostile requests on the Teams messaging endpoint (POST /api/messages), with tokens
 * signed by the Teams stand-in's local key and its OpenID metadata and JWKS served on
 * loopback, so src/chat/teams/bot-auth.ts runs exactly as in production. Each refusal
 * is checked to reach no handler.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeTable, startHttpServer, type HttpServerHandle } from '../../src/app/http-server.js';
import { bodyGate } from '../../src/app/body-gate.js';
import type { CardActionInvoke, MessageActivity } from '../../src/chat/teams/activity.js';
import { botAuthenticator } from '../../src/chat/teams/bot-auth.js';
import { TEAMS_MESSAGES_PATH, teamsEndpoint } from '../../src/chat/teams/endpoint.js';
import { openIdKeys } from '../../src/chat/teams/openid-keys.js';
import { discardLogger } from '../support/http-test-server.js';
import { startTeamsStandin, type Person, type TeamsStandin } from '../support/teams-standin.js';

let teams: TeamsStandin;
let server: HttpServerHandle;
let botUrl: string;
const messages: MessageActivity[] = [];
const actions: CardActionInvoke[] = [];
const alice: Person = { id: '29:alice', name: 'Alice', aadObjectId: randomUUID() };
const CHANNEL = '19:ops@thread.tacv2';

beforeAll(async () => {
  teams = await startTeamsStandin();
  const logger = discardLogger('teams-hostile');
  const auth = botAuthenticator({
    appId: teams.appId,
    issuer: 'https://api.botframework.com',
    keys: openIdKeys({ metadataUrl: teams.openIdMetadataUrl }),
    allowedTenants: [teams.tenantId],
    serviceUrlHosts: [new URL(teams.serviceUrl).host],
  });
  const endpoint = teamsEndpoint({
    auth,
    logger,
    readBody: (next) => bodyGate(logger).handler(next),
    handlers: {
      message: async (activity) => {
        messages.push(activity);
      },
      cardAction: async (activity) => {
        actions.push(activity);
        return { statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: 'ok' };
      },
    },
  });
  server = await startHttpServer({
    routes: routeTable([], { [TEAMS_MESSAGES_PATH]: { POST: endpoint } }),
    logger,
    timeouts: { headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, keepAliveTimeoutMs: 1_000 },
    host: '127.0.0.1',
    port: 0,
  });
  botUrl = `${server.url}${TEAMS_MESSAGES_PATH}`;
});

afterAll(async () => {
  await server?.close();
  await teams?.close();
});

beforeEach(() => {
  messages.length = 0;
  actions.length = 0;
});

const diagnose = () =>
  teams.message({ text: 'diagnose deployment/web -n shop', from: alice, conversationId: CHANNEL });

describe('Teams messaging endpoint: Bot Framework token validation', () => {
  it('serves a message with a good token, and an Action.Execute invoke with its answer', async () => {
    expect((await teams.send(botUrl, diagnose())).status).toBe(200);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.from.aadObjectId).toBe(alice.aadObjectId);
    const invoke = teams.cardAction({
      verb: 'approve',
      data: {},
      from: alice,
      conversationId: CHANNEL,
      replyToId: '1',
    });
    const answered = await teams.send(botUrl, invoke);
    expect(answered).toMatchObject({ status: 200, body: { statusCode: 200, value: 'ok' } });
    expect(actions).toHaveLength(1);
  });

  it.each([
    ['no token', { token: null }, 401],
    ['a token for another bot (audience)', { tokenOverrides: { aud: randomUUID() } }, 401],
    ['another issuer', { tokenOverrides: { iss: 'https://sts.windows.net/evil/' } }, 401],
    ['expired beyond the 5-minute skew', { tokenOverrides: { expiresIn: -400 } }, 401],
    ['not valid yet beyond the skew', { tokenOverrides: { notBefore: 400 } }, 401],
    ['signed by a key the metadata does not list', { tokenOverrides: { rogueKey: true } }, 401],
    ['HS256 with the public key as secret', { tokenOverrides: { alg: 'HS256' as const } }, 401],
    ['no serviceurl claim', { tokenOverrides: { serviceurl: null } }, 401],
    [
      'a serviceurl claim for another service',
      { tokenOverrides: { serviceurl: 'https://evil.example/' } },
      401,
    ],
    ['a key not endorsed for msteams', { tokenOverrides: { unendorsedKey: true } }, 403],
    ['a garbage token', { token: 'not.a.jwt' }, 401],
  ])('refuses %s', async (_what, options, status) => {
    const result = await teams.send(botUrl, diagnose(), options);
    expect(result.status).toBe(status);
    expect(messages).toHaveLength(0);
  });

  it('accepts a token expired within the 5-minute clock skew', async () => {
    expect((await teams.send(botUrl, diagnose(), { tokenOverrides: { expiresIn: -60 } })).status).toBe(200);
    expect(messages).toHaveLength(1);
  });

  it('refuses an activity from a tenant not on the allow-list (403)', async () => {
    const other = teams.message({
      text: 'diagnose web',
      from: alice,
      conversationId: CHANNEL,
      tenantId: randomUUID(),
    });
    expect((await teams.send(botUrl, other)).status).toBe(403);
    const invoke = teams.cardAction({
      verb: 'approve',
      data: {},
      from: alice,
      conversationId: CHANNEL,
      replyToId: '1',
      tenantId: randomUUID(),
    });
    expect((await teams.send(botUrl, invoke)).status).toBe(403);
    expect(messages).toHaveLength(0);
    expect(actions).toHaveLength(0);
  });

  it('refuses an activity that names no tenant at all (403), a press as a message', async () => {
    // Neither channelData.tenant nor conversation.tenantId: no tenant is not "any tenant".
    const untenanted = (activity: Record<string, unknown>): Record<string, unknown> => {
      const { tenantId: _dropped, ...conversation } = activity.conversation as { tenantId?: string };
      const { tenant: _gone, ...channelData } = (activity.channelData ?? {}) as { tenant?: unknown };
      return { ...activity, conversation, channelData };
    };
    const message = untenanted(teams.message({ text: 'diagnose web', from: alice, conversationId: CHANNEL }));
    expect(JSON.stringify(message)).not.toContain(teams.tenantId);
    expect((await teams.send(botUrl, message)).status).toBe(403);
    const invoke = untenanted(
      teams.cardAction({ verb: 'approve', data: {}, from: alice, conversationId: CHANNEL, replyToId: '1' }),
    );
    expect(JSON.stringify(invoke)).not.toContain(teams.tenantId);
    expect((await teams.send(botUrl, invoke)).status).toBe(403);
    expect(messages).toHaveLength(0);
    expect(actions).toHaveLength(0);
  });

  it('refuses an activity whose serviceUrl is not the token’s, and one naming a host replies may not go to', async () => {
    const moved = { ...diagnose(), serviceUrl: 'https://evil.example/teams/' };
    expect((await teams.send(botUrl, moved)).status).toBe(401);
    // Claim and activity agree, but the host is not one the bot sends its token to.
    const both = { ...diagnose(), serviceUrl: 'https://evil.example/teams/' };
    const token = await teams.signToken({ serviceurl: 'https://evil.example/teams/' });
    expect((await teams.send(botUrl, both, { token })).status).toBe(403);
    expect(messages).toHaveLength(0);
  });

  it('refuses malformed activities with 400 (zod), after the token', async () => {
    const bad = [
      { ...diagnose(), from: { id: '29:x', aadObjectId: 'not-a-guid' } },
      { ...diagnose(), serviceUrl: 'javascript:alert(1)' },
      { ...diagnose(), text: 'x'.repeat(50_000) },
      { ...diagnose(), conversation: undefined },
      {
        ...teams.cardAction({
          verb: 'approve',
          data: {},
          from: alice,
          conversationId: CHANNEL,
          replyToId: '1',
        }),
        value: { action: { type: 'Action.Submit', verb: 'approve' } },
      },
    ];
    for (const activity of bad) expect((await teams.send(botUrl, activity)).status).toBe(400);
    expect(messages).toHaveLength(0);
    expect(actions).toHaveLength(0);
  });
});

describe('Teams signing keys', () => {
  it('answers 503 when the OpenID metadata cannot be read, so the connector retries', async () => {
    const auth = botAuthenticator({
      appId: teams.appId,
      issuer: 'https://api.botframework.com',
      keys: openIdKeys({ metadataUrl: `${teams.baseUrl}/missing` }),
      allowedTenants: [teams.tenantId],
      serviceUrlHosts: [new URL(teams.serviceUrl).host],
    });
    expect(await auth.verifyHeader(`Bearer ${await teams.signToken()}`)).toMatchObject({
      ok: false,
      status: 503,
    });
  });

  it('fetches the keys again for an unknown kid at most once per cooldown', async () => {
    let now = 0;
    const keys = openIdKeys({
      metadataUrl: teams.openIdMetadataUrl,
      refreshCooldownMs: 60_000,
      now: () => now,
    });
    const before = teams.keyFetches();
    expect(await keys.find('standin-msteams')).toBeDefined();
    for (let i = 0; i < 20; i++) expect(await keys.find(`made-up-${i}`)).toBeUndefined();
    expect(teams.keyFetches() - before).toBe(1);
    now += 60_000;
    await keys.find('made-up-again');
    expect(teams.keyFetches() - before).toBe(2);
  });
});
