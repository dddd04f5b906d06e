import { importJWK, type CryptoKey } from 'jose';
import { z } from 'zod';
import { request } from 'undici';

/**
 * The Bot Connector's signing keys, read the way Bot Framework documents: the OpenID
 * metadata document (TEAMS_OPENID_METADATA_URL, by default
 * https://login.botframework.com/v1/.well-known/openidconfiguration) names a
 * `jwks_uri`; each key there is a JWK with an extra `endorsements` list, the channel
 * ids (`msteams`) that key may sign for.
 *
 * Keys are kept by `kid`. An unknown kid refetches both documents, at most once per
 * `refreshCooldownMs` (a stream of tokens with made-up kids costs one fetch a
 * minute, not one per request); the whole set is refetched after `maxAgeMs` anyway
 * (Microsoft rolls keys; its SDKs cache them for up to five days).
 */

/** A signing key and the channels it is endorsed for. */
export interface SigningKey {
  key: CryptoKey;
  endorsements: readonly string[];
}

interface OpenIdKeysOptions {
  metadataUrl: string;
  /** Whole set refetched after this long. Default 24 h. */
  maxAgeMs?: number;
  /** Least time between two fetches caused by unknown kids. Default 60 s. */
  refreshCooldownMs?: number;
  /** Longest a fetch may take. Default 5 s. */
  timeoutMs?: number;
  now?: () => number;
}

export interface OpenIdKeys {
  /** The key with this kid, fetching the documents when needed; undefined when none has it. */
  find(kid: string): Promise<SigningKey | undefined>;
}

const MAX_DOCUMENT_BYTES = 256 * 1024;
const ALGORITHMS = ['RS256', 'RS384', 'RS512'] as const;

const metadataSchema = z.object({ jwks_uri: z.url({ protocol: /^https?$/ }) }).loose();

const jwkSchema = z
  .object({
    kty: z.literal('RSA'),
    kid: z.string().min(1).max(200),
    n: z.string().min(1),
    e: z.string().min(1),
    use: z.string().optional(),
    alg: z.enum(ALGORITHMS).optional(),
    endorsements: z.array(z.string().max(200)).max(200).default([]),
  })
  .loose();

const jwksSchema = z.object({ keys: z.array(z.unknown()).max(500) });

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await request(url, {
    method: 'GET',
    headers: { accept: 'application/json' },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`GET ${url} answered ${response.statusCode}`);
  }
  const declared = Number(response.headers['content-length'] ?? '0');
  if (declared > MAX_DOCUMENT_BYTES) {
    await response.body.dump();
    throw new Error(`GET ${url}: document over ${MAX_DOCUMENT_BYTES} bytes`);
  }
  const text = await response.body.text();
  if (text.length > MAX_DOCUMENT_BYTES)
    throw new Error(`GET ${url}: document over ${MAX_DOCUMENT_BYTES} bytes`);
  return JSON.parse(text) as unknown;
}

/** Fetches the metadata, then its JWKS; keys that are not RSA signing keys are skipped. */
async function fetchKeys(metadataUrl: string, timeoutMs: number): Promise<Map<string, SigningKey>> {
  const metadata = metadataSchema.parse(await getJson(metadataUrl, timeoutMs));
  const jwks = jwksSchema.parse(await getJson(metadata.jwks_uri, timeoutMs));
  const keys = new Map<string, SigningKey>();
  for (const raw of jwks.keys) {
    const parsed = jwkSchema.safeParse(raw);
    if (!parsed.success || (parsed.data.use !== undefined && parsed.data.use !== 'sig')) continue;
    const { kid, n, e, endorsements } = parsed.data;
    const key = await importJWK({ kty: 'RSA', n, e }, parsed.data.alg ?? 'RS256');
    if (key instanceof Uint8Array) continue;
    keys.set(kid, { key, endorsements });
  }
  return keys;
}

/**
 * @example const keys = openIdKeys({ metadataUrl }); await keys.find(header.kid)
 */
export function openIdKeys(options: OpenIdKeysOptions): OpenIdKeys {
  const maxAgeMs = options.maxAgeMs ?? 24 * 3600_000;
  const cooldownMs = options.refreshCooldownMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const now = options.now ?? Date.now;
  let keys = new Map<string, SigningKey>();
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  const refresh = (): Promise<void> => {
    inFlight ??= fetchKeys(options.metadataUrl, timeoutMs)
      .then((fresh) => {
        keys = fresh;
      })
      .finally(() => {
        // Failed or not, the next attempt waits for the cooldown.
        fetchedAt = now();
        inFlight = undefined;
      });
    return inFlight;
  };

  return {
    async find(kid) {
      const age = now() - fetchedAt;
      if (age >= maxAgeMs || (!keys.has(kid) && age >= cooldownMs)) await refresh();
      else if (inFlight !== undefined) await inFlight;
      return keys.get(kid);
    },
  };
}
