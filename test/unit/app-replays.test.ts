/**
 * An app restarted during a failover (src/chat/use-cases/replays.ts, src/queue/guard-journal.ts):
 * a command's job and an approval's claim, message plan and job that no replica
 * confirmed are kept in the journal; the master dies with them, a new app process
 * starts on the same journal and writes them again, once, on a real redis-server.
 */
import { Queue } from 'bullmq';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appReplay, appReplayers } from '../../src/chat/use-cases/replays.js';
import { journalMacKey, startReplicationGuard } from '../../src/queue/guard-journal.js';
import { QUEUE_PREFIX, diagnoseQueueName, remediateQueueName } from '../../src/queue/names.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers } from '../../src/queue/producers.js';
import type { DiagnoseJob, RemediateJob } from '../../src/queue/schemas.js';
import { approvalClaims, signApproval } from '../../src/trust/approval-signature.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait.js';

const CLUSTER = 'c1';
const quiet = { info: () => undefined, warn: () => undefined };

const until = (check: () => Promise<boolean>, what: string): Promise<true> =>
  waitUntil(what, () => check().catch(() => false));

/** One app process's writing side on `server`, journaling into `dir`. */
function appSide(server: TestRedis, dir: string, answered: readonly string[] = []) {
  const redis = new Redis(server.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  const producers = createProducers({ connection: redis, clusters: [CLUSTER], timeoutMs: 5_000 });
  const plans = createPlanStore(redis);
  const claimed: { channel: string; ts: string; planId: string }[] = [];
  const services = {
    producers,
    plans,
    subscriptions: {
      claimMessagePlan: async (message: { channel: string; ts: string }, planId: string) => {
        claimed.push({ channel: message.channel, ts: message.ts, planId });
        return planId;
      },
      // The runs that published a result since their command was queued.
      finishedSince: async (_cluster: string, jobId: string) => answered.includes(jobId),
    },
  };
  // No replica: WAIT never confirms, as when the master dies as it answers.
  const guard = startReplicationGuard(
    redis,
    { replicas: 1, timeoutMs: 20, journalDir: dir },
    {
      logger: quiet,
      checkEveryMs: 20,
      replayers: appReplayers(() => services),
      journalKey: journalMacKey(Buffer.from('the app test key')),
    },
  );
  const jobs = async (queue: string): Promise<string[]> => {
    const q = new Queue(queue, { connection: redis, prefix: QUEUE_PREFIX });
    try {
      return (await q.getJobs(['waiting', 'prioritized'])).map((j) => String(j.id));
    } finally {
      await q.close();
    }
  };
  return {
    redis,
    producers,
    plans,
    guard,
    claimed,
    jobs,
    async close() {
      guard.stop();
      await producers.close();
      redis.disconnect();
    },
  };
}

describe('the app’s journal', () => {
  let server: TestRedis;
  let dir: string;
  beforeAll(async () => {
    server = await startRedis();
    dir = await mkdtemp(join(tmpdir(), 'rd-app-journal-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a command and an approval acked before the app and the master died are written again by the next app', async () => {
    const first = appSide(server, dir);
    const command: DiagnoseJob = {
      mode: 'workload',
      cluster: CLUSTER,
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      requestedBy: 'U0123ABCD',
    };
    const { jobId } = await first.producers.enqueueDiagnose(command);
    await first.guard.confirm({
      label: 'command',
      fields: { jobId },
      redo: async () => undefined,
      replay: appReplay.command(command, Date.now()),
    });
    const stored = {
      plan: { id: 'plan-1', kind: 'set-strategy', target: { namespace: 'shop', name: 'web' } },
      cluster: CLUSTER,
      createdAt: 1,
      expiresAt: Date.now() + 3_600_000,
    } as unknown as StoredPlan;
    const job = {
      planId: 'plan-1',
      cluster: CLUSTER,
      approvedBy: ['U0123ABCD'],
      channel: 'C01ABCDEF',
      messageTs: '1700000000.000100',
      approval: signApproval(
        approvalClaims({
          planId: 'plan-1',
          digest: 'd'.repeat(64),
          cluster: CLUSTER,
          planExpiresAt: stored.expiresAt,
          approvers: ['U0123ABCD'],
          channel: 'C01ABCDEF',
          messageTs: '1700000000.000100',
          now: Date.now(),
          keyId: testKeys.approval.keyId,
        }),
        testKeys.approval.privateKey,
      ),
    } satisfies RemediateJob;
    await first.plans.save(stored);
    await first.plans.restoreClaim(stored, ['U0123ABCD~sig'], 1_700_000_000_000);
    await first.producers.enqueueRemediate(job);
    await first.guard.confirm({
      label: 'approval',
      fields: { planId: 'plan-1' },
      redo: async () => undefined,
      replay: appReplay.approval({
        stored,
        marks: ['U0123ABCD~sig'],
        at: 1_700_000_000_000,
        message: { channel: 'C01ABCDEF', ts: '1700000000.000200' },
        job,
      }),
    });
    expect(await readdir(dir)).toHaveLength(2);
    // The app stops, then the master dies with both.
    await first.close();
    await server.stop('SIGKILL');
    await server.start();

    const second = appSide(server, dir);
    try {
      await until(async () => (await second.jobs(remediateQueueName(CLUSTER))).length === 1, 'the job');
      await until(async () => (await second.jobs(diagnoseQueueName(CLUSTER))).length === 1, 'the command');
      expect(await second.jobs(diagnoseQueueName(CLUSTER))).toEqual([jobId]);
      expect(await second.plans.claimOf('plan-1')).toEqual({
        approvers: ['U0123ABCD'],
        marks: ['U0123ABCD~sig'],
        at: 1_700_000_000_000,
      });
      expect(second.claimed).toEqual([{ channel: 'C01ABCDEF', ts: '1700000000.000200', planId: 'plan-1' }]);
      // Still on no replica: watched on, under the new master's history, not written again.
      await new Promise((r) => setTimeout(r, 200));
      expect(second.claimed).toHaveLength(1);
      expect(second.guard.pending()).toBe(2);
    } finally {
      await second.close();
    }
  });
});
