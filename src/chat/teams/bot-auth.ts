import { errors, jwtVerify, type JWTPayload } from 'jose';
import type { OpenIdKeys, SigningKey } from './openid-keys.js';

/**
 * Bot Framework's checks on a request from the Bot Connector service to the bot
 * ("Authentication with the Bot Connector API", connector to bot):
 *  1. an `Authorization: Bearer` JWT;
 *  2. signed (RS256/384/512) with a key from the configured OpenID metadata;
 *  3. `iss` is the Bot Framework token issuer (https://api.botframework.com);
 *  4. `aud` is the bot's Microsoft app id;
 *  5. not expired (`exp` required), not before `nbf`, with 5 minutes of clock skew;
 * then, once the activity is parsed (`checkActivity`):
 *  6. the token's `serviceurl` claim equals the activity's `serviceUrl` (replies go
 *     there, with the bot's own credentials: a token may not redirect them);
 *  7. the signing key is endorsed for the activity's `channelId` (403 otherwise);
 *  8. the activity's tenant is one we serve (TEAMS_ALLOWED_TENANTS; 403 otherwise),
 *     and its serviceUrl's host one we send to (TEAMS_SERVICE_URL_HOSTS; 403).
 * The token does not cover the body, so 1-5 run on the headers alone, before a body
 * is read.
 */

interface BotAuthOptions {
  appId: string;
  issuer: string;
  keys: OpenIdKeys;
  /** Entra tenant ids served (lower case); never empty. */
  allowedTenants: readonly string[];
  /** Hosts (host or host:port, lower case) an activity's serviceUrl may name. */
  serviceUrlHosts: readonly string[];
  /** Clock skew allowed on exp/nbf, seconds. Default 300 (Bot Framework's). */
  clockToleranceSeconds?: number;
  now?: () => number;
}

/** A token that passed checks 1-5. */
export interface VerifiedToken {
  claims: JWTPayload & { serviceurl?: unknown };
  endorsements: readonly string[];
}

type AuthResult = { ok: true; token: VerifiedToken } | { ok: false; status: 401 | 403 | 503; reason: string };

/** What checks 6-8 read from an activity. */
interface ActivityOrigin {
  serviceUrl: string;
  channelId: string;
  tenantId: string | undefined;
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512'];
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,8192})$/;

class KeysUnavailable extends Error {}

/** Trailing slashes do not make two service URLs different (Bot Framework compares them so). */
function sameServiceUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
}

/**
 * @example const auth = botAuthenticator({ appId, issuer, keys, allowedTenants });
 *          const result = await auth.verifyHeader(req.headers.authorization);
 */
export function botAuthenticator(options: BotAuthOptions) {
  const tolerance = options.clockToleranceSeconds ?? 300;
  const tenants = new Set(options.allowedTenants.map((t) => t.toLowerCase()));
  const hosts = new Set(options.serviceUrlHosts.map((h) => h.toLowerCase()));
  if (tenants.size === 0) throw new Error('the Teams endpoint needs at least one allowed tenant');

  async function verifyHeader(header: string | string[] | undefined): Promise<AuthResult> {
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    const jwt = match?.[1];
    if (jwt === undefined) return { ok: false, status: 401, reason: 'no bearer token' };
    let used: SigningKey | undefined;
    try {
      const { payload } = await jwtVerify(
        jwt,
        async (protectedHeader) => {
          const kid = protectedHeader.kid;
          if (kid === undefined) throw new errors.JWSInvalid('token names no key');
          let found: SigningKey | undefined;
          try {
            found = await options.keys.find(kid);
          } catch (error) {
            throw new KeysUnavailable(error instanceof Error ? error.message : String(error));
          }
          if (found === undefined) throw new errors.JWKSNoMatchingKey();
          used = found;
          return found.key;
        },
        {
          algorithms: ALGORITHMS,
          issuer: options.issuer,
          audience: options.appId,
          clockTolerance: tolerance,
          requiredClaims: ['exp'],
          ...(options.now ? { currentDate: new Date(options.now()) } : {}),
        },
      );
      if (used === undefined) return { ok: false, status: 401, reason: 'no key' };
      return { ok: true, token: { claims: payload, endorsements: used.endorsements } };
    } catch (error) {
      if (error instanceof KeysUnavailable)
        return { ok: false, status: 503, reason: 'signing keys unavailable' };
      const code = error instanceof errors.JOSEError ? error.code : 'ERR_UNKNOWN';
      return { ok: false, status: 401, reason: code };
    }
  }

  /** Checks 6-8 on a verified token and the activity it came with. */
  function checkActivity(token: VerifiedToken, origin: ActivityOrigin): AuthResult {
    const claimed = token.claims.serviceurl;
    if (typeof claimed !== 'string' || !sameServiceUrl(claimed, origin.serviceUrl))
      return { ok: false, status: 401, reason: 'serviceUrl differs from the token' };
    if (!hosts.has(new URL(origin.serviceUrl).host.toLowerCase()))
      return { ok: false, status: 403, reason: 'serviceUrl host not allowed' };
    if (!token.endorsements.includes(origin.channelId))
      return { ok: false, status: 403, reason: 'key not endorsed for the channel' };
    if (origin.tenantId === undefined || !tenants.has(origin.tenantId.toLowerCase()))
      return { ok: false, status: 403, reason: 'tenant not served' };
    return { ok: true, token };
  }

  return { verifyHeader, checkActivity };
}

export type BotAuthenticator = ReturnType<typeof botAuthenticator>;
