/**
 * The approvers whose Teams clients refresh a card on sight (`refresh.userIds`) are the
 * same on every app replica and survive a restart (src/chat/teams/refresh-list.ts): two
 * app replicas share one real Redis and the Teams stand-in; an approver writes only to
 * replica A, and the card replica B posts, and the one a replica started afterwards
 * posts, ask the approver's client to fetch its own view. A record a Redis writer
 * planted or altered is not used and is counted; at most 60 ids, the most recently seen.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { MAX_REFRESH_USERS } from '../../src/chat/teams/cards.js';
import { REFRESH_RENEW_MS, redisRefreshList } from '../../src/chat/teams/refresh-list.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import {
  startTeamsStandin,
  type Person,
  type PostedActivity,
  type TeamsStandin,
  teamsAppEnv,
  askDiagnosis,
} from '../support/teams-standin.js';

const OPS = '19:ops@thread.tacv2';
const approver: Person = { id: '29:lead', name: 'Lead', aadObjectId: randomUUID() };
/** An approver in the policy no replica has seen: only a Redis writer could put them on a card. */
const unseen: Person = { id: '29:unseen', name: 'Unseen', aadObjectId: randomUUID() };
const asker: Person = { id: '29:asker', name: 'Asker', aadObjectId: randomUUID() };

let redis: TestRedis;
let client: Redis;
let teams: TeamsStandin;
const replicas: AppRuntime[] = [];

async function startReplica(name: string): Promise<AppRuntime> {
  const config = loadAppConfig({
    ...testKeys.appEnv,
    REDIS_URL: redis.url,
    ROLLOUT_DOCTOR_APPROVERS: `${approver.aadObjectId},${unseen.aadObjectId}`,
    ROLLOUT_DOCTOR_READERS: '*',
    ...teamsAppEnv(teams),
  });
  const app = await startAppRuntime(config, createLogger({ level: 'silent', name }), {
    host: '127.0.0.1',
    port: 0,
  });
  replicas.push(app);
  return app;
}

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
});

afterAll(async () => {
  for (const app of replicas.reverse()) await app.stop();
  client?.disconnect();
  await teams?.close();
  await redis?.close();
});

const text = (a: PostedActivity): string => JSON.stringify(a.activity);
const approverKey = (p: Person) => redisKeys.teamsApprover(p.aadObjectId.toLowerCase());

/** The card's `refresh.userIds` (none: an empty list). */
function refreshIds(posted: PostedActivity): string[] {
  const attachments = posted.activity.attachments as { content: { refresh?: { userIds: string[] } } }[];
  return attachments[0]?.content.refresh?.userIds ?? [];
}

/** `who` asks `app` about a workload in a thread; resolves with the announcement card. */
const ask = (app: AppRuntime, who: Person, workload: string, thread: string): Promise<PostedActivity> =>
  askDiagnosis(teams, app.handle.url, who, workload, thread);

const tampered = async (app: AppRuntime): Promise<number> =>
  (await app.services.metrics.tamperedRecords.get()).values
    .filter((v) => v.labels.record === 'teams approver')
    .reduce((sum, v) => sum + v.value, 0);

describe('the refresh list across app replicas', () => {
  it('a card replica B posts asks for the view of an approver only replica A saw; so does a replica started later', async () => {
    const replicaA = await startReplica('replica-a');
    const replicaB = await startReplica('replica-b');
    // The approver writes to A only (any activity would do).
    await ask(replicaA, approver, 'web', `${OPS};messageid=1700000000001`);
    await vi.waitFor(async () => expect(await client.exists(approverKey(approver))).toBe(1));

    // The asker is no approver; B has never seen the approver.
    const onB = await ask(replicaB, asker, 'cart', `${OPS};messageid=1700000000002`);
    expect(refreshIds(onB)).toEqual([approver.id]);

    // A restart (or a scale-up): a process that saw nobody posts the same list.
    await replicaA.stop();
    replicas.splice(replicas.indexOf(replicaA), 1);
    const replicaC = await startReplica('replica-c');
    const onC = await ask(replicaC, asker, 'checkout', `${OPS};messageid=1700000000003`);
    expect(refreshIds(onC)).toEqual([approver.id]);
  });

  it('a record planted or altered in Redis is not used, and is counted', async () => {
    const app = replicas[replicas.length - 1];
    if (app === undefined) throw new Error('no replica');
    const before = await tampered(app);
    const [mark] = ((await client.get(approverKey(approver))) ?? '').split('\n');
    const forged = JSON.stringify({ teamsUserId: '29:mallory', seenAt: Date.now() + 60_000 });
    const cases = [
      // Planted: no mark at all, for an approver the policy names but nobody saw.
      { forge: () => client.set(approverKey(unseen), `\n${forged}`), shown: [approver.id], reports: 1 },
      // Altered: the approver's own record pointing at someone else, its mark kept.
      { forge: () => client.set(approverKey(approver), `${mark}\n${forged}`), shown: [], reports: 2 },
    ];
    let reports = before;
    for (const [i, { forge, shown, reports: more }] of cases.entries()) {
      await forge();
      const card = await ask(app, asker, `plant${i}`, `${OPS};messageid=170000000010${i}`);
      expect(refreshIds(card)).toEqual(shown);
      reports += more;
      expect(await tampered(app)).toBe(reports);
    }
    expect(teams.posted(OPS).filter((a) => text(a).includes('29:mallory'))).toEqual([]);
  });
});

describe('the refresh list in Redis', () => {
  const keys = ephemeralPlanKeys({ seal: 's8', approval: 'a8', notify: 'n8' });
  const signer = {
    by: 'app' as const,
    key: { keyId: keys.approval.keyId, privateKey: keys.approval.privateKey },
  };
  const forged: string[] = [];
  const verifier = {
    keys: keys.notify.keys,
    onForged: (_record: string, key: string) => void forged.push(key),
  };
  const aad = () => randomUUID();

  it('holds at most 60 ids, the approvers seen most recently, the same for every reader', async () => {
    let clock = 1_000_000;
    const writer = redisRefreshList(client, { signer, verifier, now: () => clock });
    const people = Array.from({ length: MAX_REFRESH_USERS + 15 }, (_, i) => ({ aad: aad(), id: `29:p${i}` }));
    for (const p of people) {
      clock += 1_000;
      await writer.seen(p.aad, p.id);
    }
    const reader = redisRefreshList(client, { signer, verifier });
    const listed = people.map((p) => p.aad);
    const ids = await reader.userIds(listed);
    expect(ids).toHaveLength(MAX_REFRESH_USERS);
    expect(ids).toEqual(
      people
        .slice(-MAX_REFRESH_USERS)
        .map((p) => p.id)
        .reverse(),
    );
    expect(await redisRefreshList(client, { signer, verifier }).userIds([...listed].reverse())).toEqual(ids);

    // The first person seen again (a write is due after REFRESH_RENEW_MS) moves to the
    // front; the latest one, once the policy no longer names them, drops off.
    clock += REFRESH_RENEW_MS;
    const first = people[0];
    const second = people[people.length - 1];
    await writer.seen(first?.aad ?? '', first?.id ?? '');
    const now = await reader.userIds(listed.filter((a) => a !== second?.aad));
    expect(now[0]).toBe(first?.id);
    expect(now).not.toContain(second?.id);
    expect(forged).toEqual([]);
  });

  it('writes an approver again only when their Teams id changed or the record is getting old', async () => {
    let clock = 5_000_000;
    const list = redisRefreshList(client, { signer, verifier, now: () => clock, renewMs: 60_000 });
    const person = aad();
    const key = redisKeys.teamsApprover(person);
    await list.seen(person, '29:x');
    const first = await client.get(key);
    clock += 1_000;
    await list.seen(person.toUpperCase(), '29:x');
    expect(await client.get(key)).toBe(first);
    clock += 60_000;
    await list.seen(person, '29:x');
    expect(await client.get(key)).not.toBe(first);
    await list.seen(person, '29:y');
    expect(await list.userIds([person])).toEqual(['29:y']);
    expect(await client.ttl(key)).toBeGreaterThan(6 * 24 * 3600);
  });

  it('a value moved from another approver, unmarked, altered or bloated reads as absent and is reported', async () => {
    const list = redisRefreshList(client, { signer, verifier });
    const real = aad();
    await list.seen(real, '29:real');
    const value = (await client.get(redisKeys.teamsApprover(real))) ?? '';
    const [mark] = value.split('\n');
    const victims = [aad(), aad(), aad(), aad(), aad()];
    const planted = [
      value, // moved: the mark names the other approver
      `\n${JSON.stringify({ teamsUserId: '29:mallory', seenAt: 1 })}`,
      `${mark}\n${JSON.stringify({ teamsUserId: '29:mallory', seenAt: 1 })}`,
      `${mark}\n${JSON.stringify({ teamsUserId: '29:real', seenAt: 1, extra: 'x'.repeat(5_000) })}`,
      'not a record',
    ];
    for (const [i, victim] of victims.entries())
      await client.set(redisKeys.teamsApprover(victim), planted[i] ?? '');
    forged.length = 0;
    expect(await list.userIds([real, ...victims])).toEqual(['29:real']);
    expect(forged.sort()).toEqual(victims.map((v) => redisKeys.teamsApprover(v)).sort());
    // Nor is a Redis writer able to add anyone the policy does not name: only its keys are read.
    expect(await list.userIds(victims)).toEqual([]);
  });
});
