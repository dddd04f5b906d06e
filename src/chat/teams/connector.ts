import { request } from 'undici';
import { z } from 'zod';
import { CLIENT_ASSERTION_TYPE, clientAssertion, type CertificateSource } from './certificate.js';

/**
 * The bot's side of the Bot Connector REST API (v3): its own token (Entra ID client
 * credentials for https://api.botframework.com/.default, with a client secret or a
 * certificate's client assertion, kept until 5 minutes before it expires), posting an activity to a conversation or a channel thread, updating
 * one, and opening a new thread in a channel. Every call goes to a serviceUrl whose
 * host is allow-listed (TEAMS_SERVICE_URL_HOSTS): the bot's token goes with it.
 */

interface ConnectorBase {
  appId: string;
  /** The token endpoint, tenant filled in: a certificate's assertion names it as `aud`. */
  tokenUrl: string;
  scope: string;
  serviceUrlHosts: readonly string[];
  timeoutMs?: number;
  now?: () => number;
}

/** Exactly one credential: the app registration's client secret, or its certificate. */
type ConnectorOptions = ConnectorBase &
  (
    | { appPassword: string; certificate?: undefined }
    | { certificate: CertificateSource; appPassword?: undefined }
  );

/**
 * A refusal or failure of the Bot Connector; `status` is its HTTP status (0: no answer,
 * or refused before asking: HOST_NOT_ALLOWED), `retryAfterSeconds` its Retry-After.
 */
export class ConnectorError extends Error {
  override name = 'ConnectorError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Bot Connector answered ${status} (${code})`);
  }
}

/** The code of a service URL whose host TEAMS_SERVICE_URL_HOSTS does not list: never asked. */
export const HOST_NOT_ALLOWED = 'serviceUrl host not allowed';

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), when it has one. */
function retryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A request that got no answer (refused, reset, timed out) as the connector's failure: an outage to wait out. */
async function answered<T>(asked: Promise<T>): Promise<T> {
  try {
    return await asked;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw new ConnectorError(0, `no answer: ${typeof code === 'string' ? code : 'network error'}`);
  }
}

/** JSON.parse that answers undefined for a body that is not JSON (a proxy's error page). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Entra's refusal names its reason by code (`invalid_client`, and AADSTS numbers such as
 * 700027 for an assertion whose certificate or signature it does not know); only the
 * codes are kept, never the description.
 */
const refusalSchema = z
  .object({
    error: z.string().regex(/^[a-z_]{1,64}$/),
    error_codes: z.array(z.number().int().nonnegative()).max(10).optional(),
  })
  .loose();

function tokenRefusal(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'token refused';
  }
  const refusal = refusalSchema.safeParse(json);
  if (!refusal.success) return 'token refused';
  const aadsts = refusal.data.error_codes?.[0];
  return `token refused: ${refusal.data.error}${aadsts === undefined ? '' : ` AADSTS${aadsts}`}`;
}

const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });
const idSchema = z.object({ id: z.string().min(1).max(512) }).loose();
const createdSchema = z
  .object({ id: z.string().min(1).max(1024), activityId: z.string().max(512).optional() })
  .loose();
const errorSchema = z.object({ error: z.object({ code: z.string().max(200) }).loose() }).loose();

type Json = Record<string, unknown>;

export interface BotConnector {
  /** Posts to a conversation (a channel thread when `conversationId` carries `;messageid=`). */
  send(serviceUrl: string, conversationId: string, activity: Json): Promise<{ id: string }>;
  update(serviceUrl: string, conversationId: string, activityId: string, activity: Json): Promise<void>;
  /** Opens a new thread in a channel with `activity` as its root. */
  createThread(
    serviceUrl: string,
    options: { channelId: string; tenantId: string; activity: Json },
  ): Promise<{ conversationId: string; activityId: string }>;
  /**
   * Opens (or finds) the bot's personal chat with one person (`userId`: their Teams id,
   * 29:…) and posts `activity` there; Teams refuses it (403) where the app is not
   * installed for that person.
   */
  sendPersonal(
    serviceUrl: string,
    options: { userId: string; tenantId: string; activity: Json },
  ): Promise<{ conversationId: string }>;
  /** Deletes an activity the bot posted. */
  remove(serviceUrl: string, conversationId: string, activityId: string): Promise<void>;
}

function base(serviceUrl: string): string {
  return serviceUrl.endsWith('/') ? serviceUrl : `${serviceUrl}/`;
}

/**
 * How the bot proves itself to the token endpoint: `client_secret`, or a client assertion
 * signed with the certificate as the files hold it at this fetch (certificate.ts).
 */
async function clientCredentials(
  options: ConnectorOptions,
  now: () => number,
): Promise<Record<string, string>> {
  if (options.certificate === undefined) return { client_secret: options.appPassword };
  const credential = await options.certificate.current();
  return {
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: await clientAssertion(credential, {
      appId: options.appId,
      tokenUrl: options.tokenUrl,
      nowSeconds: Math.floor(now() / 1000),
    }),
  };
}

/**
 * The bot's own Entra ID token (client credentials), kept until 5 minutes before it
 * expires; concurrent callers share one fetch.
 */
function botToken(
  options: ConnectorOptions,
  timeoutMs: number,
  now: () => number,
): { get(): Promise<string>; forget(): void } {
  let cached: { token: string; until: number } | undefined;
  let inFlight: Promise<string> | undefined;
  const fetchToken = async (): Promise<string> => {
    const response = await answered(
      request(options.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: options.appId,
          ...(await clientCredentials(options, now)),
          scope: options.scope,
        }).toString(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      }),
    );
    const text = await response.body.text();
    // The answer is never logged or echoed: it holds the token.
    if (response.statusCode !== 200) throw new ConnectorError(response.statusCode, tokenRefusal(text));
    const parsed = tokenSchema.safeParse(parseJson(text));
    if (!parsed.success) throw new ConnectorError(response.statusCode, 'token answer malformed');
    cached = { token: parsed.data.access_token, until: now() + (parsed.data.expires_in - 300) * 1000 };
    return parsed.data.access_token;
  };
  return {
    get() {
      if (cached && cached.until > now()) return Promise.resolve(cached.token);
      inFlight ??= fetchToken().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    forget() {
      cached = undefined;
    },
  };
}

/** @example const c = botConnector({ appId, appPassword, tokenUrl, scope, serviceUrlHosts }) */
export function botConnector(options: ConnectorOptions): BotConnector {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const hosts = new Set(options.serviceUrlHosts.map((h) => h.toLowerCase()));
  const token = botToken(options, timeoutMs, now);

  const call = async (
    method: 'POST' | 'PUT' | 'DELETE',
    serviceUrl: string,
    path: string,
    body: Json,
  ): Promise<unknown> => {
    const url = new URL(path, base(serviceUrl));
    if (!hosts.has(url.host.toLowerCase())) throw new ConnectorError(0, HOST_NOT_ALLOWED);
    const send = (bearer: string) =>
      answered(
        request(url, {
          method,
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        }),
      );
    let response = await send(await token.get());
    if (response.statusCode === 401) {
      // A token revoked early: one more try with a fresh one.
      await response.body.dump();
      token.forget();
      response = await send(await token.get());
    }
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const error = errorSchema.safeParse(parseJson(text));
      throw new ConnectorError(
        response.statusCode,
        error.success ? error.data.error.code : 'error',
        retryAfter(response.headers['retry-after'], now()),
      );
    }
    return text === '' ? {} : (JSON.parse(text) as unknown);
  };

  const conversationPath = (conversationId: string): string =>
    `v3/conversations/${encodeURIComponent(conversationId)}/activities`;

  return {
    async send(serviceUrl, conversationId, activity) {
      return idSchema.parse(await call('POST', serviceUrl, conversationPath(conversationId), activity));
    },
    async update(serviceUrl, conversationId, activityId, activity) {
      await call('PUT', serviceUrl, `${conversationPath(conversationId)}/${encodeURIComponent(activityId)}`, {
        ...activity,
        id: activityId,
      });
    },
    async createThread(serviceUrl, { channelId, tenantId, activity }) {
      const created = createdSchema.parse(
        await call('POST', serviceUrl, 'v3/conversations', {
          isGroup: true,
          channelData: { channel: { id: channelId }, tenant: { id: tenantId } },
          tenantId,
          activity,
        }),
      );
      const activityId = created.activityId ?? /;messageid=(.+)$/.exec(created.id)?.[1];
      if (activityId === undefined) throw new ConnectorError(201, 'no activity id for the new thread');
      return { conversationId: created.id, activityId };
    },
    async sendPersonal(serviceUrl, { userId, tenantId, activity }) {
      const created = createdSchema.parse(
        await call('POST', serviceUrl, 'v3/conversations', {
          isGroup: false,
          members: [{ id: userId }],
          channelData: { tenant: { id: tenantId } },
          tenantId,
        }),
      );
      idSchema.parse(await call('POST', serviceUrl, conversationPath(created.id), activity));
      return { conversationId: created.id };
    },
    async remove(serviceUrl, conversationId, activityId) {
      await call(
        'DELETE',
        serviceUrl,
        `${conversationPath(conversationId)}/${encodeURIComponent(activityId)}`,
        {},
      );
    },
  };
}
