import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  decodeProtectedHeader,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { SIGNAL_WAIT_MS } from './timeouts.js';

/**
 * A stand-in for Microsoft's side of a Teams bot, on 127.0.0.1:
 * - the Bot Framework OpenID metadata and JWKS (a local RSA key, endorsed for
 *   `msteams`), so the bot's token validation runs unmodified against
 *   TEAMS_OPENID_METADATA_URL;
 * - the Entra token endpoint (client credentials) the bot asks for its own token, with
 *   the app's client secret or a client assertion signed with a certificate registered
 *   for the app (checked as Entra documents "certificate credentials": see tokenEndpoint);
 * - the Bot Connector service: it sends the activities a Teams client causes
 *   (a message with an @mention, an `adaptiveCard/action` invoke) to the bot's
 *   messaging endpoint with a signed token, and receives the bot's replies and
 *   updates and deletes on /v3/conversations/... (and personal chats: `a:personal-…`),
 *   recording them and holding each conversation's
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

/** One request to the token endpoint and the stand-in's verdict. */
export interface TokenRequest {
  credential: 'secret' | 'assertion' | 'none';
  accepted: boolean;
  /** Why it was refused (an AADSTS code and words, as Entra says it). */
  reason?: string;
  /** The client assertion's protected header and claims, when one came (and decoded). */
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
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
  /** Every request to the token endpoint, in order. */
  tokenRequests: TokenRequest[];
  /** The token endpoint's address as the stand-in serves it (tenant filled in): an assertion's `aud`. */
  tokenEndpoint: string;
  /** Uploads a certificate (PEM) to the app registration's "Certificates & secrets". */
  registerCertificate(pem: string): void;
  /** Deletes an uploaded certificate (PEM) from the app registration. */
  removeCertificate(pem: string): void;
  /** Revokes every token handed out: the connector answers 401 until the bot fetches a new one. */
  revokeTokens(): void;
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
  /**
   * Serves GET /client: the posted cards rendered with Microsoft's Adaptive Cards
   * renderer (the `adaptivecards` package) as `person` sees them; an Action.Execute
   * pressed there is sent to `botUrl` as a signed `adaptiveCard/action` invoke, as Teams
   * sends it, and the answer's card replaces the pressed one.
   */
  serveClient(options: { botUrl: string; people: Record<string, Person> }): string;
  waitFor<T>(predicate: (s: TeamsStandin) => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const BOT_NAME = 'rollout-doctor';
const ADAPTIVECARDS_JS = createRequire(import.meta.url).resolve('adaptivecards/dist/adaptivecards.min.js');

/**
 * The Teams client page: each posted card rendered by Microsoft's renderer; a card whose
 * refresh lists the viewer's Teams id is refreshed on load (as Teams does), and an
 * Action.Execute goes back through /client/execute. `?as=` names the viewer.
 */
const CLIENT_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Teams stand-in</title>
<style>
body { font-family: 'Segoe UI', system-ui, sans-serif; background: #f5f5f5; margin: 0; padding: 16px; }
.post { background: #fff; border-radius: 6px; box-shadow: 0 1px 3px #0002; margin: 0 0 16px; max-width: 560px; padding: 12px 16px; }
.who { color: #616161; font-size: 12px; margin-bottom: 8px; }
.said { color: #444; font-size: 13px; margin-top: 8px; }
.ac-pushButton { background: #fff; border: 1px solid #d1d1d1; border-radius: 4px; color: #242424; font: 600 13px 'Segoe UI', system-ui, sans-serif; padding: 5px 12px; }
.ac-pushButton.style-positive { background: #5b5fc7; border-color: #5b5fc7; color: #fff; }
.ac-pushButton:disabled { background: #f0f0f0; border-color: #e0e0e0; color: #bdbdbd; }
</style>
<link rel="stylesheet" href="client/adaptivecards.css">
<script src="client/adaptivecards.js"></script></head>
<body data-state="loading"><main id="posts"></main>
<script>
const as = new URLSearchParams(location.search).get('as') || '';
const host = new AdaptiveCards.HostConfig({ fontFamily: "'Segoe UI', system-ui, sans-serif", supportsInteractivity: true });
function show(box, post, card) {
  const ac = new AdaptiveCards.AdaptiveCard();
  ac.hostConfig = host;
  ac.onExecuteAction = async (action) => {
    if (!(action instanceof AdaptiveCards.ExecuteAction)) return;
    await execute(box, post, action.verb, action.data, 'manual');
  };
  ac.parse(card);
  box.querySelector('.card').replaceChildren(ac.render());
}
async function execute(box, post, verb, data, trigger) {
  const r = await fetch('client/execute', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ as, conversationId: post.conversationId, activityId: post.id, verb, data, trigger }) });
  const answer = await r.json();
  if (answer.type === 'application/vnd.microsoft.card.adaptive') show(box, post, answer.value);
  box.querySelector('.said').textContent = answer.type === 'application/vnd.microsoft.activity.message' ? answer.value
    : answer.type === 'application/vnd.microsoft.error' ? 'Refused: ' + answer.value.message : '';
  document.body.dataset.state = 'answered';
}
(async () => {
  const posts = await (await fetch('client/activities.json')).json();
  const people = document.getElementById('posts');
  for (const post of posts) {
    const box = document.createElement('section');
    box.className = 'post';
    box.dataset.activityId = post.id;
    box.innerHTML = '<div class="who">rollout-doctor</div><div class="card"></div><div class="said"></div>';
    people.append(box);
    const card = post.activity.attachments[0].content;
    show(box, post, card);
    const ids = (card.refresh && card.refresh.userIds) || [];
    if (ids.includes(as)) await execute(box, post, card.refresh.action.verb, card.refresh.action.data, 'automatic');
  }
  document.body.dataset.state = 'ready';
})();
</script></body></html>`;

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

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Entra allows some clock skew on an assertion's nbf/exp; the stand-in allows 30 s. */
const ASSERTION_SKEW_SECONDS = 30;
/** Microsoft: "keep it short - 5-10 minutes after nbf at most"; the stand-in holds to 10. */
const ASSERTION_MAX_LIFETIME_SECONDS = 600;

/** A certificate uploaded to the app registration, found by its thumbprints. */
interface Registered {
  pem: string;
  x509: X509Certificate;
  sha256: string;
  sha1: string;
}

function registered(pem: string): Registered {
  const x509 = new X509Certificate(pem);
  return {
    pem,
    x509,
    sha256: createHash('sha256').update(x509.raw).digest('base64url'),
    sha1: createHash('sha1').update(x509.raw).digest('base64url'),
  };
}

export async function startTeamsStandin(
  options: {
    appId?: string;
    /** The app registration's client secret; null: it has none (certificates only). */
    appPassword?: string | null;
    tenantId?: string;
    /** PEM certificates uploaded to the app registration (client assertions signed with their keys). */
    certificates?: string[];
  } = {},
): Promise<TeamsStandin> {
  const appId = options.appId ?? randomUUID();
  const appPassword = options.appPassword === null ? undefined : (options.appPassword ?? 'standin-secret');
  const certificates = new Map<string, Registered>(
    (options.certificates ?? []).map((pem) => [pem, registered(pem)]),
  );
  const tokenRequests: TokenRequest[] = [];
  const usedJtis = new Set<string>();
  let issued = 0;
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
  const tokenEndpointUrl = (): string => `${baseUrl}/${tenantId}/oauth2/v2.0/token`;
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
      await tokenEndpoint(req, res);
      return;
    }
    if (path.startsWith('/client')) {
      await clientRoute(req, res, path);
      return;
    }
    if (path.startsWith('/teams/v3/conversations')) {
      await connector(req, res, path.slice('/teams'.length));
      return;
    }
    reply(res, 404, { error: 'not found' });
  }

  /**
   * Client credentials, as Entra ID answers them: the app's client secret, or a client
   * assertion ("certificate credentials", Microsoft identity platform): a JWT whose
   * header's `x5t#S256` (or `x5t`, SHA-1) names a certificate uploaded to the app, signed
   * with that certificate's key (PS256 or RS256), `aud` this endpoint, `iss` = `sub` = the
   * app id, `jti` never seen before, inside its nbf/exp (30 s skew, at most 10 minutes
   * long), and the certificate itself valid now. Anything else is refused with 401
   * invalid_client; the reason carries Entra's AADSTS code where Entra documents one
   * (700027 signature or key, 700024 time range, 7000215 secret, 7000218 no credential).
   */
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readJson(req);
    const refuse = (record: TokenRequest, status = 401, error = 'invalid_client'): void => {
      tokenRequests.push({ ...record, accepted: false });
      const code = /^AADSTS(\d+)/.exec(record.reason ?? '')?.[1];
      reply(res, status, {
        error,
        error_description: record.reason ?? 'refused',
        ...(code === undefined ? {} : { error_codes: [Number(code)] }),
      });
    };
    const common =
      form.grant_type === 'client_credentials' &&
      form.client_id === appId &&
      form.scope === 'https://api.botframework.com/.default';
    if (form.client_assertion !== undefined || form.client_assertion_type !== undefined) {
      const verdict = await checkAssertion(form);
      if (!common) verdict.reason ??= 'client_id, grant_type or scope wrong';
      if (form.client_secret !== undefined) verdict.reason ??= 'a client secret and an assertion together';
      if (verdict.reason !== undefined) {
        refuse({ credential: 'assertion', accepted: false, ...verdict });
        return;
      }
      usedJtis.add(String(verdict.claims?.jti));
      tokenRequests.push({ credential: 'assertion', accepted: true, ...verdict });
    } else if (form.client_secret !== undefined) {
      if (!common || appPassword === undefined || form.client_secret !== appPassword) {
        refuse({ credential: 'secret', accepted: false, reason: 'AADSTS7000215: invalid client secret' });
        return;
      }
      tokenRequests.push({ credential: 'secret', accepted: true });
    } else {
      refuse({ credential: 'none', accepted: false, reason: 'AADSTS7000218: no client credential' });
      return;
    }
    const token = `standin-access-${randomUUID()}`;
    accessTokens.add(token);
    issued += 1;
    reply(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: token });
  }

  async function checkAssertion(
    form: Record<string, unknown>,
  ): Promise<Pick<TokenRequest, 'reason' | 'header' | 'claims'>> {
    if (form.client_assertion_type !== ASSERTION_TYPE)
      return { reason: 'client_assertion_type is not jwt-bearer' };
    const assertion = typeof form.client_assertion === 'string' ? form.client_assertion : '';
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(assertion) as Record<string, unknown>;
    } catch {
      return { reason: 'AADSTS50027: the assertion is not a JWT' };
    }
    const alg = header.alg;
    if (alg !== 'PS256' && alg !== 'RS256') return { header, reason: `alg ${String(alg)} not accepted` };
    const byThumbprint = [...certificates.values()].find(
      (c) =>
        (header['x5t#S256'] !== undefined && header['x5t#S256'] === c.sha256) ||
        (header.x5t !== undefined && header.x5t === c.sha1),
    );
    if (byThumbprint === undefined)
      return {
        header,
        reason: 'AADSTS700027: the key was not found (no registered certificate has this thumbprint)',
      };
    const now = Date.now();
    if (Date.parse(byThumbprint.x509.validTo) <= now || Date.parse(byThumbprint.x509.validFrom) > now)
      return { header, reason: 'AADSTS700027: the certificate is not valid now' };
    try {
      const { payload } = await jwtVerify(assertion, byThumbprint.x509.publicKey, {
        algorithms: [alg],
        audience: tokenEndpointUrl(),
        issuer: appId,
        subject: appId,
        requiredClaims: ['aud', 'iss', 'sub', 'jti', 'exp', 'nbf'],
        clockTolerance: ASSERTION_SKEW_SECONDS,
      });
      const claims = payload as Record<string, unknown>;
      if ((payload.exp ?? 0) - (payload.nbf ?? 0) > ASSERTION_MAX_LIFETIME_SECONDS)
        return { header, claims, reason: 'AADSTS700024: the assertion is good for more than 10 minutes' };
      if (usedJtis.has(payload.jti ?? ''))
        return { header, claims, reason: 'jti used before (a replayed assertion)' };
      return { header, claims };
    } catch (error) {
      if (error instanceof joseErrors.JWSSignatureVerificationFailed)
        return { header, reason: 'AADSTS700027: the signature does not verify with the certificate' };
      if (error instanceof joseErrors.JWTExpired)
        return { header, reason: 'AADSTS700024: the assertion is not within its valid time range (expired)' };
      if (error instanceof joseErrors.JWTClaimValidationFailed)
        return { header, reason: `claim ${error.claim} ${error.reason}` };
      return {
        header,
        reason: `the assertion does not verify (${error instanceof Error ? error.name : 'error'})`,
      };
    }
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
    if (req.method === 'POST' && parts.length === 0 && body.isGroup === false) {
      // The personal chat with one member: `a:` and the member's id, as Teams answers.
      const [member] = (body.members ?? []) as { id?: string }[];
      const status = member?.id?.startsWith('29:') ? 201 : 400;
      record(status);
      if (status === 201) reply(res, 201, { id: `a:personal-${member?.id?.slice(3) ?? ''}` });
      else reply(res, 400, { error: { code: 'BadArgument', message: 'members' } });
      return;
    }
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
    if (req.method === 'DELETE' && activityId !== undefined) {
      const existing = activities.get(activityId);
      if (existing === undefined || existing.conversationId.split(';')[0] !== conversationId.split(';')[0]) {
        record(404);
        reply(res, 404, { error: { code: 'ActivityNotFoundInConversation', message: 'not found' } });
        return;
      }
      activities.delete(activityId);
      record(200);
      reply(res, 200, {});
      return;
    }
    record(405);
    reply(res, 405, { error: { code: 'MethodNotAllowed', message: 'method' } });
  }

  let client: { botUrl: string; people: Record<string, Person> } | undefined;
  async function clientRoute(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (client === undefined) {
      reply(res, 404, { error: 'no client' });
      return;
    }
    if (req.method === 'GET' && path === '/client') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(CLIENT_PAGE);
      return;
    }
    if (req.method === 'GET' && path === '/client/adaptivecards.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(ADAPTIVECARDS_JS));
      return;
    }
    if (req.method === 'GET' && path === '/client/adaptivecards.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(readFileSync(ADAPTIVECARDS_JS.replace(/adaptivecards\.min\.js$/, 'adaptivecards.css')));
      return;
    }
    if (req.method === 'GET' && path === '/client/activities.json') {
      reply(
        res,
        200,
        [...activities.values()]
          .filter((a) => Array.isArray(a.activity.attachments))
          .map((a) => ({ conversationId: a.conversationId, id: a.id, activity: a.activity })),
      );
      return;
    }
    if (req.method === 'POST' && path === '/client/execute') {
      const body = (await readJson(req)) as {
        as: string;
        conversationId: string;
        activityId: string;
        verb: string;
        data: Record<string, unknown>;
        trigger?: 'manual' | 'automatic';
      };
      const from = client.people[body.as];
      if (from === undefined) {
        reply(res, 400, { error: 'unknown person' });
        return;
      }
      const invoke = standin.cardAction({
        verb: body.verb,
        data: body.data ?? {},
        from,
        conversationId: body.conversationId,
        replyToId: body.activityId,
        trigger: body.trigger ?? 'manual',
      });
      const answer = await standin.send(client.botUrl, invoke);
      reply(res, 200, answer.body ?? { statusCode: answer.status });
      return;
    }
    reply(res, 404, { error: 'not found' });
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
    tokensIssued: () => issued,
    tokenRequests,
    tokenEndpoint: tokenEndpointUrl(),
    registerCertificate(pem) {
      certificates.set(pem, registered(pem));
    },
    removeCertificate(pem) {
      certificates.delete(pem);
    },
    revokeTokens() {
      accessTokens.clear();
    },
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
    serveClient(options) {
      client = options;
      return `${baseUrl}/client`;
    },
    posted(prefix) {
      return [...activities.values()].filter(
        (a) => prefix === undefined || a.conversationId.startsWith(prefix),
      );
    },
    async waitFor(predicate, timeoutMs = SIGNAL_WAIT_MS) {
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

/** The app's Teams settings for a bot registered with the stand-in (its client secret). */
export function teamsAppEnv(teams: TeamsStandin): Record<string, string> {
  return {
    TEAMS_APP_ID: teams.appId,
    TEAMS_APP_PASSWORD: 'teams-secret',
    TEAMS_TENANT_ID: teams.tenantId,
    TEAMS_OPENID_METADATA_URL: teams.openIdMetadataUrl,
    TEAMS_TOKEN_URL: teams.tokenUrl,
    TEAMS_SERVICE_URL: teams.serviceUrl,
    TEAMS_SERVICE_URL_HOSTS: new URL(teams.serviceUrl).host,
  };
}

/** What a posted activity says, as one string to search. */
export const activityText = (a: PostedActivity): string => JSON.stringify(a.activity);

/**
 * `who` sends `@rollout-doctor diagnose deployment/<workload> -n shop` to the app at
 * `appUrl` in `thread`; resolves with the announcement card the app posted there.
 */
export async function askDiagnosis(
  teams: TeamsStandin,
  appUrl: string,
  who: Person,
  workload: string,
  thread: string,
): Promise<PostedActivity> {
  const message = teams.message({
    text: `diagnose deployment/${workload} -n shop`,
    from: who,
    conversationId: thread,
  });
  const answer = await teams.send(`${appUrl}/api/messages`, message);
  if (answer.status !== 200) throw new Error(`the app answered ${answer.status} to the command`);
  return teams.waitFor((s) => s.posted(thread).find((a) => activityText(a).includes(workload)));
}
