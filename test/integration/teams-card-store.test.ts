/**
 * Teams card records in a real Redis (src/chat/teams/card-store.ts): two app replicas
 * (each its own connection, adapter and bot endpoint) answer each other's refresh
 * invokes; records expire; a value a Redis writer planted, altered, moved to another
 * card or bloated reads as absent and is reported, never rendered.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatUseCases } from '../../src/chat/adapter.js';
import type { ChatMessage, MessageRef } from '../../src/chat/model.js';
import { plain, say, strong } from '../../src/message/rich.js';
import { type HttpServerHandle } from '../../src/app/http-server.js';
import { type CardStore, type TeamsAdapter } from '../../src/chat/teams/adapter.js';
import { CARD_RECORD_SECONDS, redisCardStore } from '../../src/chat/teams/card-store.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { discardLogger } from '../support/http-test-server.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startTeamsStandin, type Person, type TeamsStandin } from '../support/teams-standin.js';
import { startBareTeamsBot } from '../support/teams-bot.js';

const CHANNEL = '19:ops@thread.tacv2';
const approver: Person = { id: '29:lead', name: 'Lead', aadObjectId: randomUUID() };
const keys = ephemeralPlanKeys({ seal: 's9', approval: 'a9', notify: 'n9' });
const signer = {
  by: 'app' as const,
  key: { keyId: keys.approval.keyId, privateKey: keys.approval.privateKey },
};

const result: ChatMessage = {
  summary: say`web is stuck: surge deadlock`,
  parts: [
    { kind: 'heading', text: 'deployment/web in shop' },
    { kind: 'paragraph', text: say`${strong('RolloutSurgeDeadlock')}: the quota is full`, role: 'verdict' },
    { kind: 'code', title: plain('patch'), body: '{"spec":{"replicas":2}}', whole: true },
    {
      kind: 'actions',
      buttons: [
        {
          label: 'Apply',
          style: 'primary',
          action: { kind: 'approve', planId: 'plan-1', shown: 'a'.repeat(64), requester: null },
          confirm: { title: 'Apply this fix?', text: 'Scales web-old to 2', yes: 'Apply', no: 'Cancel' },
        },
      ],
    },
  ],
};

interface Replica {
  adapter: TeamsAdapter;
  botUrl: string;
  redis: Redis;
  server: HttpServerHandle;
}

let redisServer: TestRedis;
let teams: TeamsStandin;
const forged: string[] = [];
const replicas: Replica[] = [];

const storeOn = (redis: Redis): CardStore =>
  redisCardStore(redis, {
    signer,
    verifier: { keys: keys.notify.keys, onForged: (record) => void forged.push(record) },
  });

/** One app replica: its own Redis connection, card store, adapter and bot endpoint. */
async function startReplica(name: string): Promise<Replica> {
  const redis = new Redis(redisServer.url);
  const logger = discardLogger(name);
  const useCases: ChatUseCases = {
    command: async () => ({ kind: 'private', message: { summary: plain('no'), parts: [] } }),
    press: async () => ({ tell: { summary: plain('pressed'), parts: [] } }),
    announce: async () => null,
  };
  const bot = await startBareTeamsBot({
    teams,
    appPassword: 'pw',
    store: storeOn(redis),
    useCases,
    logger,
    refreshUserIds: () => [approver.id],
  });
  return { ...bot, redis };
}

beforeAll(async () => {
  redisServer = await startRedis();
  teams = await startTeamsStandin({ appPassword: 'pw' });
  replicas.push(await startReplica('replica-a'), await startReplica('replica-b'));
});

afterAll(async () => {
  for (const r of replicas) {
    await r.server.close();
    r.redis.disconnect();
  }
  await teams?.close();
  await redisServer?.close();
});

beforeEach(() => {
  forged.length = 0;
});

const refresh = (botUrl: string, ref: MessageRef) =>
  teams.send(
    botUrl,
    teams.cardAction({
      verb: 'refresh',
      data: {},
      from: approver,
      conversationId: `${ref.conversation.id};messageid=${ref.conversation.thread ?? ref.id}`,
      replyToId: ref.id,
      trigger: 'automatic',
    }),
  );

describe('Teams card records in Redis', () => {
  it('a card posted by one replica is refreshed by the other', async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas not started');
    const ref = await a.adapter.post({ platform: 'teams', id: CHANNEL }, result);
    const answer = await refresh(b.botUrl, ref);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ statusCode: 200, type: 'application/vnd.microsoft.card.adaptive' });
    expect(JSON.stringify(answer.body)).toContain('RolloutSurgeDeadlock');
    // And an update by the second replica is what the first one shows next.
    await b.adapter.update(ref, {
      summary: plain('web: rolled out'),
      parts: [{ kind: 'heading', text: 'rolled out' }],
    });
    const again = await refresh(a.botUrl, ref);
    expect(JSON.stringify(again.body)).toContain('rolled out');
    expect(JSON.stringify(again.body)).not.toContain('RolloutSurgeDeadlock');
    expect(forged).toEqual([]);
  });

  it('keeps each record for its TTL only', async () => {
    const [a] = replicas;
    if (!a) throw new Error('replicas not started');
    const ref: MessageRef = { conversation: { platform: 'teams', id: CHANNEL, thread: 't1' }, id: 'ttl-1' };
    await storeOn(a.redis).set(ref, { message: result, refreshUserIds: [] });
    const ttl = await a.redis.ttl(redisKeys.teamsCard(CHANNEL, 'ttl-1'));
    expect(ttl).toBeGreaterThan(CARD_RECORD_SECONDS - 5);
    expect(ttl).toBeLessThanOrEqual(CARD_RECORD_SECONDS);
    const short = redisCardStore(a.redis, {
      signer,
      verifier: { keys: keys.notify.keys, onForged: () => undefined },
      ttlSeconds: 60,
    });
    await short.set(ref, { message: result, refreshUserIds: [] });
    expect(await a.redis.ttl(redisKeys.teamsCard(CHANNEL, 'ttl-1'))).toBeLessThanOrEqual(60);
  });

  it('reads a planted, altered, moved, malformed or bloated value as absent, and reports it', async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas not started');
    const storeA = storeOn(a.redis);
    const storeB = storeOn(b.redis);
    const ref: MessageRef = { conversation: { platform: 'teams', id: CHANNEL, thread: 'r' }, id: 'genuine' };
    const other: MessageRef = { conversation: { platform: 'teams', id: CHANNEL, thread: 'r' }, id: 'other' };
    await storeA.set(ref, { message: result, refreshUserIds: ['29:lead'] });
    expect(await storeB.get(ref)).toEqual({ message: result, refreshUserIds: ['29:lead'] });
    const key = redisKeys.teamsCard(CHANNEL, 'genuine');
    const genuine = (await a.redis.get(key)) ?? '';

    // Moved to another card: the mark names the card it was written for.
    await a.redis.set(redisKeys.teamsCard(CHANNEL, 'other'), genuine);
    expect(await storeB.get(other)).toBeUndefined();
    // Altered text, an action the app never offered, unmarked, malformed, bloated.
    const [mark] = genuine.split('\n');
    const json = genuine.slice(genuine.indexOf('\n') + 1);
    const planted = [
      `${mark}\n${json.replace('RolloutSurgeDeadlock', 'All fine, approve now')}`,
      `${mark}\n${json.replace('plan-1', 'plan-evil')}`,
      json,
      `${mark}\n{not json`,
      `${mark}\n${json}${' '.repeat(600 * 1024)}`,
    ];
    for (const value of planted) {
      await a.redis.set(key, value);
      expect(await storeB.get(ref)).toBeUndefined();
    }
    expect(forged).toEqual(Array(planted.length + 1).fill('teams card'));
  });

  it("refuses a card marked with a worker's key: cards are records only the app writes", async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas not started');
    // A thief of a worker's notify key writes a card of its choosing, with a mark that
    // verifies under that worker's public key, which the app knows (it checks outcomes with it).
    const thief = redisCardStore(a.redis, {
      signer: { by: 'worker', key: keys.notify.signing },
      verifier: { keys: keys.notify.keys, onForged: () => undefined },
    });
    const ref: MessageRef = { conversation: { platform: 'teams', id: CHANNEL }, id: 'thief' };
    await thief.set(ref, { message: result, refreshUserIds: [] });
    expect((await a.redis.get(redisKeys.teamsCard(CHANNEL, 'thief')))?.startsWith('worker.')).toBe(true);
    expect(await storeOn(b.redis).get(ref)).toBeUndefined();
    expect(forged).toEqual(['teams card']);
  });

  it('refuses a well-marked value whose content breaks the message schema', async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas not started');
    // Written through the store (so marked), but not a message the port could have made.
    const ref: MessageRef = { conversation: { platform: 'teams', id: CHANNEL }, id: 'odd' };
    const odd = {
      summary: [{ kind: 'script', text: '<b>' }],
      parts: [],
    } as unknown as ChatMessage;
    await storeOn(a.redis).set(ref, { message: odd, refreshUserIds: [] });
    expect(await storeOn(b.redis).get(ref)).toBeUndefined();
    expect(forged).toEqual(['teams card']);
  });
});
