/**
 * How the bot reaches an asker privately on Teams is kept in Redis (src/chat/teams/people.ts):
 * two app replicas share one Redis and the Teams stand-in. The asker writes to replica A,
 * A stops (a restart, a scale-down); the not-found result reaches replica B, which tells
 * the asker in the bot's personal chat, at the service URL of the asker's own activities.
 * A record a Redis writer altered (pointing at someone else) or moved from another person
 * is not used: the answer stays on the public card, and the tampering is counted.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import {
  startTeamsStandin,
  type Person,
  type PostedActivity,
  type TeamsStandin,
  askDiagnosis,
} from '../support/teams-standin.js';
import { workerNotifyProducers } from '../support/worker-notify.js';

const OPS = '19:ops@thread.tacv2';
const asker: Person = { id: '29:asker', name: 'Asker', aadObjectId: randomUUID() };
const other: Person = { id: '29:other', name: 'Other', aadObjectId: randomUUID() };

let redis: TestRedis;
let client: Redis;
let teams: TeamsStandin;
let replicaA: AppRuntime;
let replicaB: AppRuntime;
let queue: Queue;
let workerNotify: ReturnType<typeof workerNotifyProducers>;

async function startReplica(name: string): Promise<AppRuntime> {
  const config = loadAppConfig({
    ...testKeys.appEnv,
    REDIS_URL: redis.url,
    ROLLOUT_DOCTOR_READERS: '*',
    TEAMS_APP_ID: teams.appId,
    TEAMS_APP_PASSWORD: 'teams-secret',
    TEAMS_TENANT_ID: teams.tenantId,
    TEAMS_OPENID_METADATA_URL: teams.openIdMetadataUrl,
    TEAMS_TOKEN_URL: teams.tokenUrl,
    // Not where the stand-in listens: a private answer must use the asker's own serviceUrl.
    TEAMS_SERVICE_URL: 'http://127.0.0.1:9/',
    TEAMS_SERVICE_URL_HOSTS: `${new URL(teams.serviceUrl).host},127.0.0.1:9`,
  });
  return startAppRuntime(config, createLogger({ level: 'silent', name }), { host: '127.0.0.1', port: 0 });
}

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  replicaA = await startReplica('replica-a');
  replicaB = await startReplica('replica-b');
  queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
  workerNotify = workerNotifyProducers(redis.url);
});

afterAll(async () => {
  await workerNotify?.close();
  await queue?.close();
  await replicaB?.stop();
  await replicaA?.stop();
  client?.disconnect();
  await teams?.close();
  await redis?.close();
});

const text = (a: PostedActivity): string => JSON.stringify(a.activity);
const personKey = (p: Person) => redisKeys.teamsPerson(p.aadObjectId.toLowerCase());
const personal = (p: Person) => `a:personal-${p.id.slice(3)}`;

/** `who` asks `app` about a workload in a thread; resolves with the announcement card. */
const ask = (app: AppRuntime, who: Person, workload: string, thread: string): Promise<PostedActivity> =>
  askDiagnosis(teams, app.handle.url, who, workload, thread);

/** The worker's answer: no such workload. */
async function notFound(workload: string): Promise<void> {
  const jobId = `diagnose.shop.${workload}`;
  const job = await queue.getJob(jobId);
  expect(job).toBeDefined();
  await workerNotify.enqueueNotify({
    kind: 'diagnosis-result',
    jobId,
    cluster: 'default',
    runTs: job?.timestamp ?? 0,
    seq: 1,
    outcome: {
      status: 'failed',
      reason: `deployment/${workload} not found in namespace shop`,
      notFound: { namespace: 'shop', name: workload, suggestions: ['web'] },
    },
  });
}

const tampered = async (app: AppRuntime): Promise<number> =>
  (await app.services.metrics.tamperedRecords.get()).values
    .filter((v) => v.labels.record === 'teams person')
    .reduce((sum, v) => sum + v.value, 0);

describe('private answers on Teams across app replicas', () => {
  it('the replica that delivers the result reaches an asker who wrote to another, stopped since', async () => {
    const announced = await ask(replicaA, asker, 'missing', `${OPS};messageid=1700000000001`);
    // What A learned is in Redis (written beside the command, not awaited by it).
    await vi.waitFor(async () => expect(await client.exists(personKey(asker))).toBe(1));
    await replicaA.stop();

    await notFound('missing');
    const told = await teams.waitFor((s) =>
      s.posted(personal(asker)).find((a) => text(a).includes('not found in namespace shop')),
    );
    expect(text(told)).toContain('did you mean deployment/web?');
    expect(teams.calls).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/v3/conversations',
        body: expect.objectContaining({ isGroup: false, members: [{ id: asker.id }] }),
      }),
    );
    await teams.waitFor((s) => !s.activities.has(announced.id));
    expect(teams.posted(OPS).filter((a) => text(a).includes('not found'))).toEqual([]);
  });

  it('a record altered or moved in Redis is not used: the answer stays on the public card', async () => {
    const before = await tampered(replicaB);
    const cases = [
      // Altered: the asker's record pointing at someone else, its mark kept.
      {
        workload: 'gone',
        forge: async () => {
          const [mark] = ((await client.get(personKey(other))) ?? '').split('\n');
          const json = JSON.stringify({ teamsUserId: '29:mallory', serviceUrl: teams.serviceUrl });
          await client.set(personKey(other), `${mark}\n${json}`);
        },
      },
      // Moved: a valid record of another person (the asker's) under this person's key.
      {
        workload: 'lost',
        forge: async () => {
          await client.set(personKey(other), (await client.get(personKey(asker))) ?? '');
        },
      },
    ];
    for (const [i, { workload, forge }] of cases.entries()) {
      const thread = `${OPS};messageid=170000000010${i}`;
      const announced = await ask(replicaB, other, workload, thread);
      await vi.waitFor(async () => expect(await client.exists(personKey(other))).toBe(1));
      await forge();
      await notFound(workload);
      const shown = await teams.waitFor((s) => {
        const card = s.activities.get(announced.id);
        return card !== undefined && text(card).includes('not found in namespace shop') && card;
      });
      expect(text(shown)).toContain('did you mean deployment/web?');
    }
    expect(teams.posted(personal(other))).toEqual([]);
    expect(
      teams.calls.filter((c) => c.path === '/v3/conversations' && JSON.stringify(c.body).includes('mallory')),
    ).toEqual([]);
    expect(await tampered(replicaB)).toBe(before + cases.length);
  });
});
