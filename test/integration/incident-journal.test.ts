/**
 * An incident's record in Redis (src/queue/incident-journal.ts): the audit events of
 * seed incident A, recorded through the audit the app and the workers use, give with
 * `postmortem --incident ID` the same draft as the audit log does; the record survives
 * a Redis restart (appendonly, as deploy/redis.yaml runs it) and expires after the
 * retention; a Redis nobody answers on is exit 3.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Audit } from '../../src/audit.js';
import { runCli } from '../../src/cli/run-cli.js';
import { createLogger } from '../../src/logger.js';
import { createIncidentJournal, journaled } from '../../src/queue/incident-journal.js';
import { fakeIo } from '../support/cli-io.js';
import { seedIncidentEvents, seedIncidentLog } from '../support/postmortem-incident.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';

const ID = 'default/vision/object-tracker';
const DAY = 86_400_000;
let server: TestRedis;
let redis: Redis;

beforeAll(async () => {
  server = await startRedis({ appendonly: true });
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

async function postmortem(args: string[], env: NodeJS.ProcessEnv) {
  const run = fakeIo();
  run.io.env = env;
  return { code: await runCli(['postmortem', ...args], run.io), out: run.stdout(), err: run.stderr() };
}

describe('incident record in Redis', () => {
  const events = seedIncidentEvents();

  it('gives the draft the audit log gives, after a restart, and expires after the retention', async () => {
    const lines: string[] = [];
    const base: Audit = { record: (event) => lines.push(event.action) };
    let now = 0;
    const audit = journaled(
      base,
      createIncidentJournal(redis, { retentionMs: 7 * DAY }),
      createLogger({ level: 'silent', name: 't' }),
      () => now,
    );
    for (const { at, event } of events) {
      now = at;
      audit.record(event);
    }
    expect(lines).toHaveLength(events.length);
    await expect.poll(() => redis.xlen(`rd:incident:${ID}`)).toBe(events.length);
    const ttl = await redis.pttl(`rd:incident:${ID}`);
    expect(ttl).toBeGreaterThan(7 * DAY - 60_000);
    expect(ttl).toBeLessThanOrEqual(7 * DAY);

    await redis.call('BGREWRITEAOF').catch(() => undefined);
    await server.stop();
    await server.start();
    const env = { REDIS_URL: server.url };
    const fromRedis = await postmortem(['--incident', ID, '--lang', 'ko'], env);
    expect(fromRedis.err).toBe('');
    expect(fromRedis.code).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'rd-journal-')), 'audit.log');
    writeFileSync(file, seedIncidentLog(events));
    const fromLog = await postmortem(['--from-audit', file, '--lang', 'ko'], {});
    expect(fromRedis.out).toBe(fromLog.out);
    const short = await postmortem(['--incident', 'vision/object-tracker', '-o', 'json'], env);
    expect(JSON.parse(short.out)).toMatchObject({ id: ID });
  });

  it('says so for an incident it has no record of, and exit 3 for a Redis nobody answers on', async () => {
    const missing = await postmortem(['--incident', 'default/vision/nope'], { REDIS_URL: server.url });
    expect([missing.code, missing.err]).toEqual([
      2,
      expect.stringMatching(/no record of incident "default\/vision\/nope" in Redis/),
    ]);
    const down = await postmortem(['--incident', ID], { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect([down.code, down.err]).toEqual([3, expect.stringMatching(/Redis unreachable/)]);
    const bad = await postmortem(['--incident', ID], { REDIS_URL: 'http://x' });
    expect(bad.code).toBe(2);
  });

  it('never fails the audit when Redis refuses the record: the line is written, the refusal logged', async () => {
    const warned: string[] = [];
    const logger = createLogger({ level: 'warn', name: 't' }, { write: (line: string) => warned.push(line) });
    const gone = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    const lines: string[] = [];
    gone.on('error', () => undefined);
    const audit = journaled(
      { record: (e) => lines.push(e.action) },
      createIncidentJournal(gone, { retentionMs: DAY }),
      logger,
    );
    const first = events[0];
    if (!first) throw new Error('fixture changed');
    expect(() => audit.record(first.event)).not.toThrow();
    expect(lines).toEqual([first.event.action]);
    await expect.poll(() => warned.join('')).toContain('incident record: audit event not kept in Redis');
    gone.disconnect();
  });
});
