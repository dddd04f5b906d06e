import type { RedisOptions } from 'ioredis';

/**
 * `REDIS_URL` as the processes read it: one endpoint (`redis://`, `rediss://`, as
 * ioredis reads it) or a Sentinel set (`redis+sentinel://`, `rediss+sentinel://`):
 *
 *     redis+sentinel://[user:password@]host:port[,host:port…]/<master-name>[/<db>]
 *
 * The user and password are the data nodes' (the master and its replicas), as for
 * `redis://`. The sentinels are asked with `REDIS_SENTINEL_PASSWORD` (and
 * `REDIS_SENTINEL_USERNAME`) when set, else without a password; `rediss+sentinel://`
 * speaks TLS to the data nodes, and the sentinels are reached in plain TCP unless
 * `REDIS_SENTINEL_TLS=true` (docs/operations.md).
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: { host: string; port: number }[];
      name: string;
      db: number;
      username?: string;
      password?: string;
      tls: boolean;
      sentinelUsername?: string;
      sentinelPassword?: string;
      sentinelTls: boolean;
    };

/** The sentinel-side settings that do not belong in the URL (the password is a secret of its own). */
interface SentinelAccess {
  username?: string;
  password?: string;
  tls?: boolean;
}

/** A malformed REDIS_URL; the message never repeats the URL (it may hold a password). */
export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

const SINGLE = /^rediss?:\/\/[^\s]+$/;
const SENTINEL = /^(rediss?)\+sentinel:\/\/(?:([^@/\s]*)@)?([^/@\s]+)\/([^/\s?#]+)(?:\/([^/\s?#]*))?\/?$/;
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;
const MASTER_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Reads a REDIS_URL.
 * @example parseRedisUrl('redis+sentinel://:pw@10.0.0.1:26379,10.0.0.2:26379/mymaster/0')
 * @throws RedisUrlError naming what is wrong (never the URL itself)
 */
export function parseRedisUrl(url: string, access: SentinelAccess = {}): RedisTarget {
  if (SINGLE.test(url)) return { kind: 'single', url };
  if (!/^rediss?\+sentinel:\/\//.test(url))
    throw new RedisUrlError('must be a redis://, rediss://, redis+sentinel:// or rediss+sentinel:// URL');
  const match = SENTINEL.exec(url);
  if (!match)
    throw new RedisUrlError(
      'must read redis+sentinel://[user:password@]host:port[,host:port…]/<master-name>[/<db>]',
    );
  const [, scheme, auth, hosts = '', name = '', dbText] = match;
  const sentinels = hosts.split(',').map((entry) => {
    const hp = HOST_PORT.exec(entry.trim());
    const port = Number(hp?.[2]);
    if (!hp?.[1] || !(port >= 1 && port <= 65535))
      throw new RedisUrlError('each sentinel must be host:port (port 1-65535), comma-separated');
    return { host: hp[1].replace(/^\[|\]$/g, ''), port };
  });
  const master = decode(name, 'master name');
  if (!MASTER_NAME.test(master))
    throw new RedisUrlError('the master name must be 1-128 characters of A-Z a-z 0-9 . _ -');
  const db = dbText === undefined || dbText === '' ? 0 : Number(dbText);
  if (!/^\d{0,2}$/.test(dbText ?? '') || !Number.isInteger(db) || db > 15)
    throw new RedisUrlError('the database must be a number from 0 to 15');
  // One sentinel has nobody to agree with (src/queue/sentinel-agreement.ts): the data
  // nodes must then prove who they are, over TLS with their certificate verified.
  if (sentinels.length < 2 && scheme !== 'rediss')
    throw new RedisUrlError(
      'a single sentinel cannot be checked against another: list two or more (a majority must agree on the master), or use rediss+sentinel:// (TLS to the data nodes, their certificate verified)',
    );
  const [user, password] = splitAuth(auth);
  return {
    kind: 'sentinel',
    sentinels,
    name: master,
    db,
    ...(user ? { username: user } : {}),
    ...(password ? { password } : {}),
    tls: scheme === 'rediss',
    ...(access.username ? { sentinelUsername: access.username } : {}),
    ...(access.password ? { sentinelPassword: access.password } : {}),
    sentinelTls: access.tls ?? false,
  };
}

function splitAuth(auth: string | undefined): [string | undefined, string | undefined] {
  if (auth === undefined || auth === '') return [undefined, undefined];
  const colon = auth.indexOf(':');
  if (colon < 0) return [undefined, decode(auth, 'password')]; // redis://password@host, as ioredis reads it
  return [
    decode(auth.slice(0, colon), 'user') || undefined,
    decode(auth.slice(colon + 1), 'password') || undefined,
  ];
}

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new RedisUrlError(`the ${what} is not valid percent-encoding`);
  }
}
/** ioredis options for a target (the single-endpoint URL is handed to ioredis as is). */
export function sentinelOptions(target: Extract<RedisTarget, { kind: 'sentinel' }>): RedisOptions {
  return {
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    db: target.db,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.sentinelUsername ? { sentinelUsername: target.sentinelUsername } : {}),
    ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
    ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
    ...(target.sentinelTls ? { sentinelTLS: {} } : {}),
    // Not ioredis' failoverDetector: a +switch-master that arrives while the connection
    // asks the sentinels again ends it for good. src/queue/switch-watch.ts follows the
    // switches instead (src/queue/connection.ts).
    failoverDetector: false,
    // A sentinel that lost touch answers with stale data; ask the others.
    sentinelRetryStrategy: (times: number) => Math.min(times * 100, 1_000),
  };
}

/** For logs: the kind and the sentinel addresses or host, never a password. */
export function describeTarget(target: RedisTarget): string {
  if (target.kind === 'sentinel')
    return `sentinel master '${target.name}' via ${target.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
  try {
    const u = new URL(target.url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'redis';
  }
}
