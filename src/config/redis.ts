import { z } from 'zod';
import { parseRedisUrl, RedisUrlError, type RedisTarget } from '../queue/redis-url.js';

/**
 * The Redis settings the app and the workers share (app-environment.ts and
 * worker-environment.ts spread them into their schemas): REDIS_URL (one endpoint or a Sentinel set, src/queue/redis-url.ts),
 * how the sentinels are asked, and how many replicas the records that decide an
 * approval wait for (docs/operations.md, "What Redis can lose").
 */

const emptyToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const DEFAULT_URL = 'redis://127.0.0.1:6379';

const redisUrl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default(DEFAULT_URL)
    .superRefine((value, ctx) => {
      try {
        parseRedisUrl(value);
      } catch (error) {
        // The message names the rule, never the value: it may hold a password.
        ctx.addIssue({
          code: 'custom',
          message: error instanceof RedisUrlError ? error.message : 'is invalid',
        });
      }
    }),
);

const optionalSecret = z.preprocess(emptyToUndefined, z.string().min(1).optional());

export const redisEnvShape = {
  REDIS_URL: redisUrl,
  /** ACL user on the sentinels (Redis 6.2+ sentinels take `sentinel sentinel-user`). */
  REDIS_SENTINEL_USERNAME: optionalSecret,
  /** The sentinels' `requirepass`, which may differ from the data nodes' password. */
  REDIS_SENTINEL_PASSWORD: optionalSecret,
  REDIS_SENTINEL_TLS: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  /**
   * Replicas a claim and its remediation job must reach before the approver is told
   * "approved" (WAIT). Unset: 1 with a Sentinel URL, 0 (no WAIT) with one endpoint.
   */
  REDIS_WAIT_REPLICAS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(16).optional()),
  /**
   * How long one WAIT may hold the connection every other call waits behind. A confirm
   * sends at most two (src/queue/replication-guard.ts): capped so both fit in Slack's
   * 3 s acknowledgement with the rest of the answer.
   */
  REDIS_WAIT_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000).default(500),
  ),
  /**
   * A directory where writes no replica confirmed in time are kept until one does, so a
   * restarted process writes again what a failover lost (src/queue/guard-journal.ts).
   * Unset: kept in memory only.
   */
  REDIS_WAIT_JOURNAL_DIR: z.preprocess(
    emptyToUndefined,
    z.string().startsWith('/', 'must be an absolute path').optional(),
  ),
};

type RedisEnv = z.output<z.ZodObject<typeof redisEnvShape>>;

export interface RedisSettings {
  readonly target: RedisTarget;
  /** WAIT after the writes that decide an approval; replicas 0: no WAIT. */
  readonly wait: { readonly replicas: number; readonly timeoutMs: number; readonly journalDir?: string };
}

/** Problems no single variable shows (a sentinel setting beside a one-endpoint URL). */
export function redisProblems(e: RedisEnv): string[] {
  if (parseRedisUrl(e.REDIS_URL).kind === 'sentinel') return [];
  return (['REDIS_SENTINEL_USERNAME', 'REDIS_SENTINEL_PASSWORD'] as const)
    .filter((name) => e[name] !== undefined)
    .map((name) => `${name} is set but REDIS_URL is not a redis+sentinel:// or rediss+sentinel:// URL`);
}

export function redisSettings(e: RedisEnv): RedisSettings {
  const target = parseRedisUrl(e.REDIS_URL, {
    ...(e.REDIS_SENTINEL_USERNAME ? { username: e.REDIS_SENTINEL_USERNAME } : {}),
    ...(e.REDIS_SENTINEL_PASSWORD ? { password: e.REDIS_SENTINEL_PASSWORD } : {}),
    tls: e.REDIS_SENTINEL_TLS === 'true',
  });
  return Object.freeze({
    target: Object.freeze(target),
    wait: Object.freeze({
      replicas: e.REDIS_WAIT_REPLICAS ?? (target.kind === 'sentinel' ? 1 : 0),
      timeoutMs: e.REDIS_WAIT_TIMEOUT_MS,
      ...(e.REDIS_WAIT_JOURNAL_DIR ? { journalDir: e.REDIS_WAIT_JOURNAL_DIR } : {}),
    }),
  });
}
