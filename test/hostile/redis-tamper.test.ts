/**
 * Whoever can write to Redis must not be able to make a worker patch the cluster.
 * Against the real app, the real-kube worker, Redis and the simulator, an attacker
 * with a plain Redis connection forges a plan, a claim, a job and an approval, alters
 * a genuine stored plan before an approver clicks, and replays a genuine approval.
 * Each is refused, audited as tampered, and no write reaches the simulator.
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalClaims, signApproval } from '../../src/plans/approval-signature.js';
import { planDigest } from '../../src/plans/plan-seal.js';
import type { StoredPlan } from '../../src/plans/store.js';
import { QUEUE_PREFIX, remediateQueueName } from '../../src/queue/names.js';
import { REMEDIATE_JOB_OPTIONS } from '../../src/queue/producers.js';
import {
  deployment,
  reproduceSurgeDeadlock,
  startE2e,
  writesSince,
  type E2eHarness,
  type StoredMessage,
} from '../support/e2e-harness.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';

const NAME = 'vision-object-tracker';

describe('a Redis writer cannot make the worker patch the cluster', () => {
  let h: E2eHarness;
  let redis: Redis;
  let queue: Queue;
  let events: QueueEvents;
  let result: StoredMessage;
  const attacker = ephemeralPlanKeys({ seal: 's1', approval: 'a1' });

  beforeAll(async () => {
    h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml' });
    redis = new Redis(h.redis.url, { maxRetriesPerRequest: 1 });
    queue = new Queue(remediateQueueName('default'), { connection: redis, prefix: QUEUE_PREFIX });
    events = new QueueEvents(remediateQueueName('default'), {
      connection: new Redis(h.redis.url, { maxRetriesPerRequest: null }),
      prefix: QUEUE_PREFIX,
    });
    await events.waitUntilReady();
    await reproduceSurgeDeadlock(h);
    expect((await h.command(`${NAME} -n vision`)).status).toBe(200);
    result = await h.waitForResult('vision', NAME);
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    redis?.disconnect();
    await h?.close();
  });

  const planIdOf = (actionId: string): string => {
    const id = h.buttons(result).find((b) => b.action_id === actionId)?.value;
    if (!id) throw new Error(`no ${actionId} button`);
    return id;
  };
  const readPlan = async (id: string): Promise<StoredPlan> =>
    JSON.parse((await redis.hget(`rd:plan:${id}`, 'json')) ?? 'null') as StoredPlan;
  const tampered = (planId: string) =>
    h
      .audit()
      .flatMap((e) => (e.action === 'outcome' && e.planId === planId && e.outcome === 'tampered' ? [e] : []));
  /** Until the worker has handled the job (completed, or failed for good). */
  const handled = (job: Job): Promise<unknown> =>
    job.waitUntilFinished(events, 20_000).catch(() => undefined);

  it('refuses a forged plan with a forged claim, job and self-signed approval', async () => {
    const live = deployment(h, 'vision', NAME);
    const image = live.spec.template.spec.containers[0]?.image;
    const genuine = await readPlan(planIdOf('approve_plan.1'));
    const forged: StoredPlan = {
      ...genuine,
      plan: {
        ...genuine.plan,
        id: 'set-recreate-f0f0f0f0f0f0f0f0',
        patch: {
          type: 'strategic-merge',
          body: {
            spec: {
              strategy: { type: 'Recreate', rollingUpdate: null },
              template: { spec: { hostPID: true, containers: [{ name: 'app', image: 'evil/miner:1' }] } },
            },
          },
        },
      },
    };
    // The attacker's own "seal" and "approval": keys the worker does not trust.
    const { seal: _drop, ...unsealed } = forged;
    const sealed = { ...unsealed, seal: { keyId: 's1', mac: 'ab'.repeat(32) } };
    const id = forged.plan.id;
    await redis.hset(`rd:plan:${id}`, 'json', JSON.stringify(sealed), 'expiresAt', String(forged.expiresAt));
    await redis.set(`rd:plan:${id}:claim`, `${h.approver}|${Date.now()}`);
    const approval = signApproval(
      approvalClaims({
        planId: id,
        digest: planDigest(sealed),
        cluster: 'default',
        planExpiresAt: forged.expiresAt,
        approvers: [h.approver],
        channel: result.channel,
        messageTs: result.ts,
        now: Date.now(),
        keyId: 'a1',
      }),
      attacker.approval.privateKey,
    );
    const mark = h.sim.requests.length;
    const data = {
      planId: id,
      cluster: 'default',
      approvedBy: [h.approver],
      channel: result.channel,
      messageTs: result.ts,
    };
    await handled(
      await queue.add('remediate', { ...data, approval }, { ...REMEDIATE_JOB_OPTIONS, jobId: 'forged-1' }),
    );
    await handled(
      await queue.add('remediate', data, { ...REMEDIATE_JOB_OPTIONS, jobId: 'forged-no-approval' }),
    );

    expect(tampered(id).map((e) => e.detail)).toEqual(
      expect.arrayContaining([
        'the plan does not match its seal',
        'the remediate job is malformed or carries no approval',
      ]),
    );
    expect(writesSince(h, mark)).toEqual([]);
    expect(h.sim.requests.slice(mark).filter((r) => r.verb === 'patch')).toEqual([]);
    expect(deployment(h, 'vision', NAME).spec.template.spec.containers[0]?.image).toBe(image);
    expect(h.audit().some((e) => e.action === 'outcome' && e.planId === id && e.outcome === 'applied')).toBe(
      false,
    );
  });

  it('refuses a genuine plan altered where it is stored, even after a real approver clicks', async () => {
    const id = planIdOf('approve_plan.1');
    const stored = await readPlan(id);
    const body = stored.plan.patch?.body as { spec: Record<string, unknown> };
    body.spec.template = { spec: { containers: [{ name: 'app', image: 'evil/miner:1' }] } };
    await redis.hset(`rd:plan:${id}`, 'json', JSON.stringify(stored));
    const mark = h.sim.requests.length;
    const earlier = h.replies(result.ts).length;
    expect((await h.click(result, 'approve_plan.1', h.approver)).status).toBe(200);
    const reply = await h.slack.waitFor(
      () =>
        h
          .replies(result.ts)
          .slice(earlier)
          .find((m) => m.text.startsWith('refused')),
      15_000,
    );
    expect(reply.text).toContain('does not match its seal');
    expect(tampered(id)).toHaveLength(1);
    expect(writesSince(h, mark)).toEqual([]);
  });

  it('honours a genuine approval once: a copy of its job under another id is refused', async () => {
    // One fix per message: the approval above withdrew the other plans of `result`;
    // a Re-run posts a fresh message that offers them again.
    const known = new Set(h.replies(result.ts).map((m) => m.ts));
    expect((await h.click(result, 'rerun_diagnosis', h.approver)).status).toBe(200);
    const fresh = await h.slack.waitFor(
      () =>
        h
          .replies(result.ts)
          .find(
            (m) =>
              !known.has(m.ts) &&
              m.text.startsWith(`deployment/${NAME} in vision:`) &&
              h.buttons(m).length > 0,
          ),
      20_000,
    );
    const id = h.buttons(fresh).find((b) => b.action_id === 'approve_plan.0')?.value ?? '';
    expect((await h.click(fresh, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForReply(result.ts, 'applied', 25_000);
    const [job] = (await queue.getJobs(['completed', 'active', 'waiting', 'delayed'])).filter(
      (j) => (j.data as { planId?: string }).planId === id,
    );
    if (!job) throw new Error('the genuine remediate job is gone');
    const mark = h.sim.requests.length;
    await handled(await queue.add('remediate', job.data, { ...REMEDIATE_JOB_OPTIONS, jobId: 'replayed-1' }));
    expect(tampered(id)[0]?.detail).toBe('this approval was already used by another job');
    expect(writesSince(h, mark)).toEqual([]);
  });
});
