import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { reconnectOnReadonly } from '../../src/queue/connection.js';
import { describeTarget, parseRedisUrl, sentinelOptions } from '../../src/queue/redis-url.js';
import { testKeys } from '../support/plan-keys.js';

const problems = (env: Record<string, string>): string[] => {
  try {
    loadWorkerConfig({ ...testKeys.workerEnv, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('REDIS_URL', () => {
  it('passes one endpoint to ioredis as it is', () => {
    expect(parseRedisUrl('rediss://app:pw@redis.example:6380/2')).toEqual({
      kind: 'single',
      url: 'rediss://app:pw@redis.example:6380/2',
    });
  });

  it('reads a Sentinel set: sentinels, master name, db, the data nodes’ user and password', () => {
    const target = parseRedisUrl(
      'redis+sentinel://app:p%40ss@10.0.0.1:26379,[::1]:26380,s3:26381/mymaster/3',
    );
    expect(target).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '::1', port: 26380 },
        { host: 's3', port: 26381 },
      ],
      name: 'mymaster',
      db: 3,
      username: 'app',
      password: 'p@ss',
      tls: false,
      sentinelTls: false,
    });
    if (target.kind !== 'sentinel') throw new Error('not sentinel');
    expect(sentinelOptions(target)).toMatchObject({
      sentinels: target.sentinels,
      name: 'mymaster',
      role: 'master',
      db: 3,
      username: 'app',
      password: 'p@ss',
      failoverDetector: false,
    });
    expect(sentinelOptions(target)).not.toHaveProperty('sentinelPassword');
    expect(describeTarget(target)).toBe("sentinel master 'mymaster' via 10.0.0.1:26379,::1:26380,s3:26381");
  });

  it('rediss+sentinel: TLS to the data nodes; the sentinels get their own password and TLS only when asked', () => {
    const target = parseRedisUrl('rediss+sentinel://:pw@s1:26379/prod', { password: 'sentinel-pw' });
    if (target.kind !== 'sentinel') throw new Error('not sentinel');
    expect(target).toMatchObject({ db: 0, password: 'pw', tls: true, sentinelPassword: 'sentinel-pw' });
    expect(target).not.toHaveProperty('username');
    const options = sentinelOptions(target);
    expect(options).toMatchObject({
      tls: {},
      enableTLSForSentinelMode: true,
      sentinelPassword: 'sentinel-pw',
    });
    expect(options).not.toHaveProperty('sentinelTLS');
    const both = parseRedisUrl('rediss+sentinel://s1:26379/prod', { tls: true });
    if (both.kind !== 'sentinel') throw new Error('not sentinel');
    expect(sentinelOptions(both)).toMatchObject({ sentinelTLS: {} });
  });

  it.each([
    ['http://redis:6379', /must be a redis:\/\//],
    ['redis+sentinel://s1:26379', /must read redis\+sentinel/],
    ['redis+sentinel://s1/mymaster', /host:port/],
    ['redis+sentinel://s1:99999/mymaster', /host:port/],
    ['redis+sentinel://s1:26379,/mymaster', /host:port/],
    ['redis+sentinel://s1:26379/my$master', /master name/],
    ['redis+sentinel://s1:26379/mymaster/16', /database/],
    ['redis+sentinel://s1:26379/mymaster/x', /database/],
  ])('refuses %s, naming the rule and never the URL', (url, rule) => {
    expect(() => parseRedisUrl(url)).toThrow(rule);
  });

  it('config: a bad URL is named without its password; sentinel settings need a sentinel URL', () => {
    const bad = problems({ REDIS_URL: 'redis+sentinel://:secret-pw@s1/mymaster' });
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/^REDIS_URL each sentinel must be host:port/);
    expect(bad.join()).not.toContain('secret-pw');
    expect(problems({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_SENTINEL_PASSWORD: 'x' })).toEqual([
      'REDIS_SENTINEL_PASSWORD is set but REDIS_URL is not a redis+sentinel:// or rediss+sentinel:// URL',
    ]);
  });

  it('config: WAIT for one replica with a Sentinel set, none with one endpoint, unless told', () => {
    const single = loadWorkerConfig(testKeys.workerEnv);
    expect(single.redis.wait).toEqual({ replicas: 0, timeoutMs: 500 });
    const sentinel = loadWorkerConfig({
      ...testKeys.workerEnv,
      REDIS_URL: 'redis+sentinel://127.0.0.1:26379,127.0.0.1:26380/mymaster',
      REDIS_SENTINEL_PASSWORD: 'sp',
    });
    expect(sentinel.redis.wait).toEqual({ replicas: 1, timeoutMs: 500 });
    expect(sentinel.redis.target).toMatchObject({ kind: 'sentinel', sentinelPassword: 'sp' });
    const told = loadWorkerConfig({
      ...testKeys.workerEnv,
      REDIS_URL: 'redis+sentinel://127.0.0.1:26379,127.0.0.1:26380/mymaster',
      REDIS_WAIT_REPLICAS: '0',
    });
    expect(told.redis.wait.replicas).toBe(0);
  });

  it('reconnects and resends a command a demoted master answered READONLY, and only that', () => {
    expect(reconnectOnReadonly(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(reconnectOnReadonly(new Error('NOSCRIPT No matching script'))).toBe(false);
    expect(reconnectOnReadonly(new Error('ERR something READONLY'))).toBe(false);
  });
});
