/**
 * The replication guard's judgement (src/queue/replication-guard.ts): writes noted at a
 * master's replication position are confirmed by a replica's offset, kept across a
 * promotion whose history holds them, and lost otherwise, and a lost write is written
 * again. The real thing on a Sentinel set: test/failover/redis-sentinel.test.ts.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  createReplicationGuard,
  judge,
  parseReplicationInfo,
  type ReplicationInfo,
  WAIT_ANSWER_GRACE_MS,
} from '../../src/queue/replication-guard.js';
import { waitUntil } from '../support/wait.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

const info = (fields: Partial<ReplicationInfo>): ReplicationInfo => ({
  role: 'master',
  replid: OLD,
  replid2: ZERO,
  secondOffset: -1,
  offset: 1000,
  replicaOffsets: [],
  replicasOnline: fields.replicaOffsets?.length ?? 0,
  ...fields,
});

/** INFO replication text as redis-server 7 prints it. */
const text = (i: ReplicationInfo): string =>
  [
    '# Replication',
    `role:${i.role}`,
    `connected_slaves:${i.replicaOffsets.length}`,
    ...i.replicaOffsets.map(
      (o, n) => `slave${n}:ip=127.0.0.1,port=${7000 + n},state=online,offset=${o},lag=0`,
    ),
    `master_replid:${i.replid}`,
    `master_replid2:${i.replid2}`,
    `master_repl_offset:${i.offset}`,
    `second_repl_offset:${i.secondOffset}`,
    '',
  ].join('\r\n');

describe('parseReplicationInfo', () => {
  it('reads the role, both replication ids, the offsets and each replica offset', () => {
    const parsed = info({ replicaOffsets: [990, 1000], replid2: NEW, secondOffset: 501 });
    expect(parseReplicationInfo(text(parsed))).toEqual(parsed);
  });
});

describe('judge', () => {
  const mark = { replid: OLD, offset: 1000 };
  it('confirmed once enough replicas acknowledged the offset', () => {
    expect(judge(mark, info({ replicaOffsets: [1000] }), 1)).toEqual({ kind: 'confirmed' });
    expect(judge(mark, info({ replicaOffsets: [999, 1200] }), 2)).toEqual({ kind: 'pending' });
    expect(judge(mark, info({ replicaOffsets: [999] }), 1)).toEqual({ kind: 'pending' });
  });
  it('kept when the promoted master followed the old one past the writes', () => {
    expect(judge(mark, info({ replid: NEW, replid2: OLD, secondOffset: 1001 }), 1)).toEqual({
      kind: 'kept',
      mark: { replid: NEW, offset: 1000 },
    });
  });
  it('lost when the promoted master stopped following before the writes, or never followed', () => {
    expect(judge(mark, info({ replid: NEW, replid2: OLD, secondOffset: 1000 }), 1)).toEqual({ kind: 'lost' });
    expect(judge(mark, info({ replid: NEW }), 1)).toEqual({ kind: 'lost' });
  });
});

/**
 * A connection whose WAIT and INFO answers the test sets. `reconnectDuringWait`: the
 * socket closes while WAIT is out, and the answer comes from the next one (ioredis
 * resends unanswered commands after reconnecting, to the new master after a failover).
 */
function fakeRedis(state: {
  reached: number;
  info: ReplicationInfo;
  reconnectDuringWait?: boolean;
  /** WAITs sent, and the most out at once. */
  waits?: { sent: number; out: number; most: number };
  /** How long each WAIT takes to answer; 'never': a stalled server. */
  waitMs?: number | 'never';
  /** INFOs from now on that get no answer (a stalled server). */
  infoStalls?: number;
}): Redis {
  const events = new EventEmitter();
  return Object.assign(events, {
    wait: async () => {
      const waits = state.waits ?? { sent: 0, out: 0, most: 0 };
      waits.sent += 1;
      waits.out += 1;
      waits.most = Math.max(waits.most, waits.out);
      try {
        if (state.waitMs === 'never') await new Promise(() => undefined);
        else if (state.waitMs) await new Promise((r) => setTimeout(r, state.waitMs as number));
        if (state.reconnectDuringWait) events.emit('close');
        return state.reached;
      } finally {
        waits.out -= 1;
      }
    },
    info: async () => {
      if (state.infoStalls) {
        state.infoStalls -= 1;
        await new Promise(() => undefined);
      }
      return text(state.info);
    },
  }) as unknown as Redis;
}

const quiet = { info: () => undefined, warn: () => undefined };

const until = (check: () => boolean): Promise<true> => waitUntil('the guard', check);

/** A guard for one replica on `redis`, checking every 5 ms. */
const checkingGuard = (redis: Redis) =>
  createReplicationGuard(redis, { replicas: 1, timeoutMs: 10, logger: quiet, checkEveryMs: 5 });

/** A checking guard and one write it watches (the WAIT reached too few), with how often it wrote it again. */
async function watchedWrite(state: Parameters<typeof fakeRedis>[0]) {
  let redone = 0;
  const guard = checkingGuard(fakeRedis(state));
  await guard.confirm({ label: 't', fields: {}, redo: async () => void (redone += 1) });
  return { guard, redone: () => redone };
}

describe('createReplicationGuard', () => {
  it('answers at once when WAIT reaches the replicas, and watches nothing', async () => {
    const state = { reached: 1, info: info({}) };
    let redone = 0;
    const guard = createReplicationGuard(fakeRedis(state), { replicas: 1, timeoutMs: 10, logger: quiet });
    expect(await guard.confirm({ label: 't', fields: {}, redo: async () => void (redone += 1) })).toEqual({
      wanted: 1,
      reached: 1,
    });
    expect(guard.pending()).toBe(0);
    expect(redone).toBe(0);
  });

  it('writes again what a failover lost, and stops watching once a replica has it', async () => {
    const state = { reached: 0, info: info({ offset: 1000 }) };
    const { guard, redone } = await watchedWrite(state);
    expect(guard.pending()).toBe(1);
    // The replica promoted had followed the old master up to offset 900 only.
    state.info = info({ replid: NEW, replid2: OLD, secondOffset: 901, offset: 950 });
    await until(() => redone() === 1);
    state.reached = 1;
    state.info = info({ replid: NEW, replid2: OLD, secondOffset: 901, offset: 1100, replicaOffsets: [1100] });
    await until(() => guard.pending() === 0);
    expect(redone()).toBe(1);
    guard.stop();
  });

  it('a redo is watched like the first write: until a replica has it, and redone again if the next failover loses it too', async () => {
    // INFO as the guard reads it, counted: each check reads it once.
    let current = info({ offset: 1000 });
    let reads = 0;
    const state = {
      reached: 0,
      get info(): ReplicationInfo {
        reads += 1;
        return current;
      },
      set info(next: ReplicationInfo) {
        current = next;
      },
    };
    const { guard, redone } = await watchedWrite(state);
    // A failover loses the writes (the promoted replica had followed up to 900): written again.
    state.info = info({ replid: NEW, replid2: OLD, secondOffset: 901, offset: 950 });
    await until(() => redone() === 1);
    // No replica has the redo yet: still watched, check after check.
    const after = reads;
    await until(() => reads >= after + 3);
    expect(guard.pending()).toBe(1);
    // The next failover loses the redo too (its new master followed NEW up to 940 only):
    // written again, and once a replica acknowledged the offset after it, the watch ends.
    const NEWER = 'c'.repeat(40);
    state.info = info({ replid: NEWER, replid2: NEW, secondOffset: 941, offset: 960 });
    await until(() => redone() === 2);
    state.info = info({ replid: NEWER, replid2: NEW, secondOffset: 941, offset: 980, replicaOffsets: [980] });
    await until(() => guard.pending() === 0);
    expect(redone()).toBe(2);
    guard.stop();
  });

  it('writes nothing again when the new master holds the writes; confirms them on its replica', async () => {
    const state = { reached: 0, info: info({ offset: 1000 }) };
    const { guard, redone } = await watchedWrite(state);
    state.info = info({
      replid: NEW,
      replid2: OLD,
      secondOffset: 1200,
      offset: 1300,
      replicaOffsets: [1250],
    });
    await until(() => guard.pending() === 0);
    expect(redone()).toBe(0);
    guard.stop();
  });

  it('a WAIT answered on another socket than the writes confirms nothing: written again on the new master', async () => {
    // The writes went to the old master (OLD); the socket closed while WAIT was out and
    // the WAIT went again to the new master (NEW), whose replica answered it at once.
    const state = {
      reached: 1,
      reconnectDuringWait: true,
      info: info({ replid: NEW, replid2: OLD, secondOffset: 901, offset: 950, replicaOffsets: [950] }),
    };
    let redone = 0;
    const guard = checkingGuard(fakeRedis(state));
    expect(await guard.confirm({ label: 't', fields: {}, redo: async () => void (redone += 1) })).toEqual({
      wanted: 1,
      reached: 0,
    });
    expect(guard.pending()).toBe(1);
    state.reconnectDuringWait = false;
    await until(() => redone === 1 && guard.pending() === 0);
    guard.stop();
  });

  it('writes begun on a socket lost before the WAIT are judged lost, however many replicas answer', async () => {
    // A subscription written on the old master; the master died while the app caught
    // the message up, and the WAIT went out on the next socket, to the new master.
    const state = {
      reached: 1,
      info: info({ replid: NEW, replid2: OLD, secondOffset: 901, offset: 950, replicaOffsets: [950] }),
    };
    const redis = fakeRedis(state);
    let redone = 0;
    const guard = checkingGuard(redis);
    const socket = guard.socket();
    redis.emit('close');
    const redo = async (): Promise<void> => void (redone += 1);
    expect(await guard.confirm({ label: 't', fields: {}, socket, redo })).toEqual({ wanted: 1, reached: 0 });
    await until(() => redone === 1 && guard.pending() === 0);
    // Writes begun on the socket current now are confirmed by its WAIT as before.
    expect(await guard.confirm({ label: 't', fields: {}, socket: guard.socket(), redo })).toEqual({
      wanted: 1,
      reached: 1,
    });
    guard.stop();
  });

  it('after a WAIT falls short, sends no WAIT until INFO shows the replicas online again', async () => {
    // A failover that left no replica: the first WAIT runs its timeout and reaches none.
    const waits = { sent: 0, out: 0, most: 0 };
    const state = { reached: 0, waits, info: info({ offset: 1000 }) };
    const guard = checkingGuard(fakeRedis(state));
    const write = { label: 't', fields: {}, redo: async () => undefined };
    expect(await guard.confirm(write)).toEqual({ wanted: 1, reached: 0 });
    expect(waits.sent).toBe(1);
    // Every confirm after it goes without a WAIT (each would hold the connection for its
    // timeout): watched instead, as after the first.
    for (let i = 0; i < 5; i += 1) expect(await guard.confirm(write)).toEqual({ wanted: 1, reached: 0 });
    expect(waits.sent).toBe(1);
    expect(guard.pending()).toBe(6);
    // A replica is back and has them all: the watch ends, and the next confirm WAITs again.
    state.reached = 1;
    state.info = info({ offset: 1000, replicaOffsets: [1000] });
    await until(() => guard.pending() === 0);
    expect(await guard.confirm(write)).toEqual({ wanted: 1, reached: 1 });
    expect(waits.sent).toBe(2);
    guard.stop();
  });

  it('has at most one WAIT out at a time: confirms that come meanwhile share the next one', async () => {
    const waits = { sent: 0, out: 0, most: 0 };
    const state = { reached: 1, waits, waitMs: 20, info: info({}) };
    const guard = checkingGuard(fakeRedis(state));
    const write = { label: 't', fields: {}, redo: async () => undefined };
    const answers = await Promise.all(Array.from({ length: 20 }, () => guard.confirm(write)));
    expect(answers.every((a) => a.reached === 1)).toBe(true);
    expect(waits.most).toBe(1);
    expect(waits.sent).toBe(2); // the first, and one for the 19 that came while it was out
    expect(guard.pending()).toBe(0);
    guard.stop();
  });

  it('gives a WAIT that gets no answer (a stalled server) a deadline: the answer goes out, the writes are watched', async () => {
    const state = { reached: 1, waitMs: 'never' as const, info: info({}) };
    const guard = createReplicationGuard(fakeRedis(state), {
      replicas: 1,
      timeoutMs: 50,
      logger: quiet,
      checkEveryMs: 5,
    });
    const started = performance.now();
    expect(await guard.confirm({ label: 't', fields: {}, redo: async () => undefined })).toEqual({
      wanted: 1,
      reached: 0,
    });
    expect(performance.now() - started).toBeLessThan(50 + WAIT_ANSWER_GRACE_MS + 2_000);
    expect(guard.pending()).toBe(1);
    guard.stop();
  });

  it("gives a check's INFO a deadline: one that got no answer does not stop the checks after it", async () => {
    const state = { reached: 0, infoStalls: 0, info: info({ offset: 1000 }) };
    const { guard } = await watchedWrite(state);
    // The next two checks meet a stalled server; then a replica has the writes.
    state.infoStalls = 2;
    state.info = info({ offset: 1000, replicaOffsets: [1000] });
    await until(() => guard.pending() === 0);
    expect(state.infoStalls).toBe(0);
    guard.stop();
  });

  it('asks for no WAIT with 0 replicas (one endpoint)', async () => {
    const guard = createReplicationGuard(new EventEmitter() as unknown as Redis, {
      replicas: 0,
      timeoutMs: 10,
      logger: quiet,
    });
    expect(await guard.confirm({ label: 't', fields: {}, redo: async () => undefined })).toEqual({
      wanted: 0,
      reached: 0,
    });
  });
});
