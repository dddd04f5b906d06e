import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * A stand-in for Microsoft's side of a Teams bot, on 127.0.0.1:
 * - the Bot Framework OpenID metadata and JWKS (a local RSA key, endorsed for
 *   `msteams`), so the bot's token validation runs unmodified against
 *   TEAMS_OPENID_METADATA_URL;
 * - the Entra token endpoint (client credentials) the bot asks for its own token;
 * - the Bot Connector service: it sends the activities a Teams client causes
 *   (a message with an @mention, an `adaptiveCard/action` invoke) to the bot's
 *   messaging endpoint with a signed token, and receives the bot's replies and
 *   updates on /v3/conversations/..., recording them and holding each conversation's
 *   activities as Teams would show them.
 */

export const STANDIN_ISSUER = 'https://api.botframework.com';
/** Teams refuses a message whose payload is over about 28 KB (cards included). */
export const TEAMS_MESSAGE_MAX_BYTES = 28 * 1024;

export interface ConnectorCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  status: number;
  at: number;
}

/** An activity the bot posted, as the stand-in holds it after updates. */
export interface PostedActivity {
  conversationId: string;
  id: string;
  replyToId: string | undefined;
  activity: Record<string, unknown>;
  updates: number;
}

export interface TokenOverrides {
  aud?: string;
  iss?: string;
  serviceurl?: string | null;
  /** Seconds from now; negative: already expired. */
  expiresIn?: number;
  notBefore?: number;
  /** Sign with a key the JWKS does not hold (a forgery). */
  rogueKey?: boolean;
  /** Sign with the JWKS key that is not endorsed for msteams. */
  unendorsedKey?: boolean;
  alg?: 'RS256' | 'HS256';
}

export interface Person {
  /** Teams user id (29:…). */
  id: string;
  name: string;
  /** Entra object id: what policy lists. */
  aadObjectId: string;
}

export interface TeamsStandin {
  baseUrl: string;
  openIdMetadataUrl: string;
  tokenUrl: string;
  /** The serviceUrl activities carry (ends with /). */
  serviceUrl: string;
  appId: string;
  tenantId: string;
  calls: ConnectorCall[];
  activities: Map<string, PostedActivity>;
  /** Bearer tokens handed to the bot (client credentials). */
  tokensIssued(): number;
  /** GET /keys served so far. */
  keyFetches(): number;
  signToken(overrides?: TokenOverrides): Promise<string>;
  /** POSTs an activity to the bot as the connector does. `token: null` sends none. */
  send(
    botUrl: string,
    activity: Record<string, unknown>,
    options?: { token?: string | null; tokenOverrides?: TokenOverrides },
  ): Promise<{ status: number; body: unknown; ms: number }>;
  message(options: {
    text: string;
    from: Person;
    conversationId: string;
    conversationType?: 'channel' | 'groupChat' | 'personal';
    tenantId?: string;
    mentionBot?: boolean;
    replyToId?: string;
  }): Record<string, unknown>;
  cardAction(options: {
    verb: string;
    data: Record<string, unknown>;
    from: Person;
    conversationId: string;
    replyToId: string;
    trigger?: 'manual' | 'automatic';
    tenantId?: string;
  }): Record<string, unknown>;
  posted(conversationPrefix?: string): PostedActivity[];
  waitFor<T>(predicate: (s: TeamsStandin) => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const BOT_NAME = 'rollout-doctor';

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  if ((req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  return JSON.parse(text) as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}

export async function startTeamsStandin(
  options: { appId?: string; appPassword?: string; tenantId?: string } = {},
): Promise<TeamsStandin> {
  const appId = options.appId ?? randomUUID();
  const appPassword = options.appPassword ?? 'standin-secret';
  const tenantId = options.tenantId ?? randomUUID();
  const endorsed = await generateKeyPair('RS256', { extractable: true });
  const unendorsed = await generateKeyPair('RS256', { extractable: true });
  const rogue = await generateKeyPair('RS256', { extractable: true });
  const jwk = async (key: CryptoKey, kid: string, endorsements: string[]): Promise<JWK> =>
    ({
      ...(await exportJWK(key)),
      kid,
      use: 'sig',
      endorsements,
    }) as JWK;
  const jwks = {
    keys: [
      await jwk(endorsed.publicKey, 'standin-msteams', ['msteams']),
      await jwk(unendorsed.publicKey, 'standin-other', ['webchat']),
    ],
  };
  const accessTokens = new Set<string>();
  const calls: ConnectorCall[] = [];
  const activities = new Map<string, PostedActivity>();
  let counter = 0;
  let keyFetches = 0;
  const nextId = (): string => `${Date.now()}${String(++counter).padStart(4, '0')}`;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => reply(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serviceUrl = `${baseUrl}/teams/`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && path === '/openid') {
      reply(res, 200, {
        issuer: STANDIN_ISSUER,
        authorization_endpoint: `${baseUrl}/authorize`,
        jwks_uri: `${baseUrl}/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      });
      return;
    }
    if (req.method === 'GET' && path === '/keys') {
      keyFetches += 1;
      reply(res, 200, jwks);
      return;
    }
    if (req.method === 'POST' && path === `/${tenantId}/oauth2/v2.0/token`) {
      const form = await readJson(req);
      const good =
        form.grant_type === 'client_credentials' &&
        form.client_id === appId &&
        form.client_secret === appPassword &&
        form.scope === 'https://api.botframework.com/.default';
      if (!good) {
        reply(res, 401, { error: 'invalid_client' });
        return;
      }
      const token = `standin-access-${randomUUID()}`;
      accessTokens.add(token);
      reply(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: token });
      return;
    }
    if (path.startsWith('/teams/v3/conversations')) {
      await connector(req, res, path.slice('/teams'.length));
      return;
    }
    reply(res, 404, { error: 'not found' });
  }

  async function connector(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = await readJson(req);
    const record = (status: number): void => {
      calls.push({ method: req.method ?? '', path, body, status, at: Date.now() });
    };
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (auth === undefined || !accessTokens.has(auth)) {
      record(401);
      reply(res, 401, { error: { code: 'Unauthorized', message: 'bad token' } });
      return;
    }
    if (Buffer.byteLength(JSON.stringify(body)) > TEAMS_MESSAGE_MAX_BYTES) {
      record(413);
      reply(res, 413, { error: { code: 'MessageSizeTooBig', message: 'Message size too big' } });
      return;
    }
    const parts = path.split('/').slice(3).map(decodeURIComponent); // ['', 'v3', 'conversations', …]
    if (req.method === 'POST' && parts.length === 0) {
      // Create a conversation: in a channel, a new thread whose root is the activity.
      const channel = ((body.channelData as { channel?: { id?: string } } | undefined)?.channel?.id ??
        '') as string;
      const rootId = nextId();
      const conversationId = `${channel};messageid=${rootId}`;
      const activity = (body.activity ?? {}) as Record<string, unknown>;
      activities.set(rootId, { conversationId, id: rootId, replyToId: undefined, activity, updates: 0 });
      record(201);
      reply(res, 201, { id: conversationId, activityId: rootId });
      return;
    }
    const [conversationId, word, activityId] = parts;
    if (conversationId === undefined || word !== 'activities') {
      record(404);
      reply(res, 404, { error: { code: 'NotFound', message: 'no such route' } });
      return;
    }
    if (req.method === 'POST') {
      const id = nextId();
      activities.set(id, { conversationId, id, replyToId: activityId, activity: body, updates: 0 });
      record(201);
      reply(res, 201, { id });
      return;
    }
    if (req.method === 'PUT' && activityId !== undefined) {
      const existing = activities.get(activityId);
      if (existing === undefined || existing.conversationId.split(';')[0] !== conversationId.split(';')[0]) {
        record(404);
        reply(res, 404, { error: { code: 'ActivityNotFoundInConversation', message: 'not found' } });
        return;
      }
      existing.activity = body;
      existing.updates += 1;
      record(200);
      reply(res, 200, { id: activityId });
      return;
    }
    record(405);
    reply(res, 405, { error: { code: 'MethodNotAllowed', message: 'method' } });
  }

  const signToken = async (o: TokenOverrides = {}): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    const key = o.rogueKey ? rogue.privateKey : o.unendorsedKey ? unendorsed.privateKey : endorsed.privateKey;
    const kid = o.rogueKey ? 'standin-msteams' : o.unendorsedKey ? 'standin-other' : 'standin-msteams';
    const claims: Record<string, unknown> = {};
    if (o.serviceurl !== null) claims.serviceurl = o.serviceurl ?? serviceUrl;
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(o.iss ?? STANDIN_ISSUER)
      .setAudience(o.aud ?? appId)
      .setIssuedAt(now - 10)
      .setNotBefore(now + (o.notBefore ?? -10))
      .setExpirationTime(now + (o.expiresIn ?? 3600));
    if (o.alg === 'HS256') {
      // A token "signed" with the public key as an HMAC secret (algorithm confusion).
      const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid })
        .setIssuer(STANDIN_ISSUER)
        .setAudience(o.aud ?? appId)
        .setExpirationTime(now + 3600)
        .sign(secret);
    }
    return jwt.sign(key);
  };

  const standin: TeamsStandin = {
    baseUrl,
    openIdMetadataUrl: `${baseUrl}/openid`,
    tokenUrl: `${baseUrl}/{tenant}/oauth2/v2.0/token`,
    serviceUrl,
    appId,
    tenantId,
    calls,
    activities,
    tokensIssued: () => accessTokens.size,
    keyFetches: () => keyFetches,
    signToken,
    async send(botUrl, activity, sendOptions = {}) {
      const token =
        sendOptions.token === null
          ? undefined
          : (sendOptions.token ?? (await signToken(sendOptions.tokenOverrides)));
      const started = performance.now();
      const response = await fetch(botUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(activity),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), ms };
    },
    message(m) {
      const mention = `<at>${BOT_NAME}</at>`;
      const text = m.mentionBot === false ? m.text : `${mention} ${m.text}`;
      return {
        type: 'message',
        id: nextId(),
        timestamp: new Date().toISOString(),
        serviceUrl,
        channelId: 'msteams',
        from: m.from,
        conversation: {
          id: m.conversationId,
          conversationType: m.conversationType ?? 'channel',
          tenantId: m.tenantId ?? tenantId,
          isGroup: (m.conversationType ?? 'channel') !== 'personal',
        },
        recipient: { id: `28:${appId}`, name: BOT_NAME },
        text,
        textFormat: 'plain',
        ...(m.replyToId ? { replyToId: m.replyToId } : {}),
        entities:
          m.mentionBot === false
            ? []
            : [{ type: 'mention', mentioned: { id: `28:${appId}`, name: BOT_NAME }, text: mention }],
        channelData: { tenant: { id: m.tenantId ?? tenantId } },
      };
    },
    cardAction(c) {
      return {
        type: 'invoke',
        name: 'adaptiveCard/action',
        id: nextId(),
        timestamp: new Date().toISOString(),
        serviceUrl,
        channelId: 'msteams',
        from: c.from,
        conversation: { id: c.conversationId, tenantId: c.tenantId ?? tenantId },
        recipient: { id: `28:${appId}`, name: BOT_NAME },
        replyToId: c.replyToId,
        value: {
          action: { type: 'Action.Execute', id: randomUUID(), verb: c.verb, data: c.data },
          trigger: c.trigger ?? 'manual',
        },
        channelData: { tenant: { id: c.tenantId ?? tenantId } },
      };
    },
    posted(prefix) {
      return [...activities.values()].filter(
        (a) => prefix === undefined || a.conversationId.startsWith(prefix),
      );
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate(standin);
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('teams stand-in: condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standin;
}
