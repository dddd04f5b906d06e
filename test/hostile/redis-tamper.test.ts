/**
 * Whoever can write to Redis must not be able to make a worker patch the cluster, nor
 * to have an approver approve something other than what they were shown. Against the
 * real app, the real-kube worker, Redis and the simulator, an attacker with a plain
 * Redis connection forges a plan, a claim, a job and an approval, alters a genuine
 * stored plan (what it writes, or only what it says) before an approver clicks,
 * rewrites the notify job of a result so that a real sealed plan is shown with a false
 * summary, impact and patch, and replays a genuine approval. Each is refused, audited
 * as tampered, and no write reaches the simulator; the honest path still applies.
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { approvalClaims, signApproval } from '../../src/trust/approval-signature.js';
import { planDigest } from '../../src/trust/plan-seal.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { NOTIFY_QUEUE, QUEUE_PREFIX, remediateQueueName } from '../../src/queue/names.js';
import { signNotify } from '../../src/queue/notify-signature.js';
import type { RunUpdate } from '../../src/queue/schemas.js';
import { REMEDIATE_JOB_OPTIONS } from '../../src/queue/producers.js';
import {
  deployment,
  reproduceSurgeDeadlock,
  startE2e,
  writesSince,
  type E2eHarness,
  type StoredMessage,
} from '../support/e2e-harness.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const NAME = 'vision-object-tracker';

describe('a Redis writer cannot make the worker patch the cluster', () => {
  let h: E2eHarness;
  let redis: Redis;
  let queue: Queue;
  let notify: Queue;
  let events: QueueEvents;
  let result: StoredMessage;
  const attacker = ephemeralPlanKeys({ seal: 's1', approval: 'a1' });

  beforeAll(async () => {
    h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml' });
    redis = new Redis(h.redis.url, { maxRetriesPerRequest: 1 });
    queue = new Queue(remediateQueueName('default'), { connection: redis, prefix: QUEUE_PREFIX });
    notify = new Queue(NOTIFY_QUEUE, { connection: redis, prefix: QUEUE_PREFIX });
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
    await notify?.close();
    redis?.disconnect();
    await h?.close();
  });

  const planIdOf = (actionId: string, message: StoredMessage = result): string => {
    const value = h.buttons(message).find((b) => b.action_id === actionId)?.value;
    if (!value) throw new Error(`no ${actionId} button`);
    return parsePlanButtonValue(value).planId;
  };
  const refusedAtClick = (planId: string) =>
    h
      .audit()
      .flatMap((e) => (e.action === 'refusal' && e.planId === planId && e.reason === 'tampered' ? [e] : []));
  /** Remediate jobs the app queued for a plan (none when the click was refused). */
  const queuedFor = async (planId: string): Promise<Job[]> =>
    (await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed'])).filter(
      (j) => (j.data as { planId?: string }).planId === planId,
    );
  /** The final result of the run shown in `result`, as the app keeps it in Redis (which anyone there can read). */
  const finalResult = async (): Promise<
    Extract<RunUpdate, { kind: 'diagnosis-result' }> & { sig?: unknown }
  > => {
    for (const key of await redis.keys('rd:run:default:*')) {
      const update = JSON.parse((await redis.hget(key, 'payload')) ?? 'null') as RunUpdate | null;
      if (update?.kind === 'diagnosis-result' && update.target?.name === NAME) return update;
    }
    throw new Error('no final result stored for the run');
  };
  /**
   * A notify job for the run `result` shows, as an attacker rewrites it: the same run,
   * the same sequence number (so the app takes it for a retry of the final result and
   * renders it into the same message), with `alter` applied to one plan. `sign`: the
   * attacker also holds a worker's notify key (else the genuine signature is kept).
   */
  const rewriteResult = async (
    planId: string,
    jobId: string,
    alter: (p: RemediationPlan) => void,
    sign: 'worker-key' | 'keep-signature' = 'worker-key',
  ) => {
    const { sig, ...update } = structuredClone(await finalResult()) as Extract<
      RunUpdate,
      { kind: 'diagnosis-result' }
    > & { sig?: unknown };
    if (update.outcome.status !== 'diagnosed') throw new Error('not a diagnosis');
    const plan = update.outcome.diagnosis.remediations.find((p) => p.id === planId);
    if (!plan) throw new Error(`plan ${planId} is not in the result`);
    alter(plan);
    const data =
      sign === 'worker-key' ? signNotify(update, 'worker', testKeys.notify.signing) : { ...update, sig };
    await notify.add(update.kind, data, { jobId });
  };
  const FALSE_SUMMARY = 'Add the label reviewed=yes to the Deployment (nothing restarts)';
  const falsify = (p: RemediationPlan): void => {
    p.summary = FALSE_SUMMARY;
    p.impact = 'None: no pod is replaced and no rollout starts.';
    p.warnings = [];
    p.patch = { type: 'merge', body: { metadata: { labels: { reviewed: 'yes' } } } };
  };
  /** Until the message shows `text`. */
  const shows = (text: string): Promise<StoredMessage> =>
    h.slack.waitFor(() => {
      const now = h.message(result.channel, result.ts);
      return now && JSON.stringify(now.blocks).includes(text) ? now : undefined;
    }, SIGNAL_WAIT_MS);
  const readPlan = async (id: string): Promise<StoredPlan> =>
    JSON.parse((await redis.hget(`rd:plan:${id}`, 'json')) ?? 'null') as StoredPlan;
  const tampered = (planId: string) =>
    h
      .audit()
      .flatMap((e) => (e.action === 'outcome' && e.planId === planId && e.outcome === 'tampered' ? [e] : []));
  /** Until the worker has handled the job (completed, or failed for good). */
  const handled = (job: Job): Promise<unknown> =>
    job.waitUntilFinished(events, SIGNAL_WAIT_MS).catch(() => undefined);

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
      } as RemediationPlan,
    };
    // The attacker's own "seal" and "approval": keys the worker does not trust.
    const { seal: _drop, ...unsealed } = forged;
    const sealed = { ...unsealed, seal: { v: 2, keyId: 's1', mac: 'ab'.repeat(32) } };
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

  it('refuses the click on a genuine plan altered where it is stored: nothing is queued or written', async () => {
    const id = planIdOf('approve_plan.1');
    const stored = await readPlan(id);
    const body = stored.plan.patch?.body as { spec: Record<string, unknown> };
    body.spec.template = { spec: { containers: [{ name: 'app', image: 'evil/miner:1' }] } };
    await redis.hset(`rd:plan:${id}`, 'json', JSON.stringify(stored));
    const mark = h.sim.requests.length;
    expect((await h.click(result, 'approve_plan.1', h.approver)).status).toBe(200);
    await h.waitForEphemeral(h.approver, 'the plan changed since it was shown');
    expect(refusedAtClick(id)).toHaveLength(1);
    expect(await queuedFor(id)).toEqual([]);
    expect(writesSince(h, mark)).toEqual([]);
  });

  it('a claim rewritten in Redis cannot put a link, a broadcast or formatting in front of an approver', async () => {
    const id = planIdOf('approve_plan.2');
    await redis.set(
      `rd:plan:${id}:claim`,
      `<https://evil.example/login> *URGENT* <!channel>,U0REAL|${Date.now()}`,
    );
    expect((await h.click(result, 'approve_plan.2', h.approver)).status).toBe(200);
    const told = String((await h.waitForEphemeral(h.approver, 'already approved by')).args.text);
    expect(told).not.toMatch(/<https?:|<!channel>|\*URGENT\*/);
    expect(told).toContain('<@U0REAL>');
    expect(await queuedFor(id)).toEqual([]);
  });

  it('refuses the click when only what a stored plan says was rewritten (summary, impact, warnings)', async () => {
    const id = planIdOf('approve_plan.0');
    const genuine = await redis.hget(`rd:plan:${id}`, 'json');
    const stored = await readPlan(id);
    stored.plan.summary = FALSE_SUMMARY;
    stored.plan.impact = 'None.';
    stored.plan.warnings = [];
    await redis.hset(`rd:plan:${id}`, 'json', JSON.stringify(stored));
    const mark = h.sim.requests.length;
    const before = refusedAtClick(id).length;
    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.slack.waitFor(() => refusedAtClick(id).length > before, SIGNAL_WAIT_MS);
    expect(await queuedFor(id)).toEqual([]);
    expect(writesSince(h, mark)).toEqual([]);
    await redis.hset(`rd:plan:${id}`, 'json', genuine ?? '');
  });

  it('posts nothing from a notify job rewritten in Redis without a worker key: the message keeps the real plan', async () => {
    const id = planIdOf('approve_plan.0');
    const before = JSON.stringify(h.message(result.channel, result.ts)?.blocks);
    const updates = h.message(result.channel, result.ts)?.updates ?? 0;
    await rewriteResult(id, 'forged-result-0', falsify, 'keep-signature');
    await h.slack.waitFor(
      () => h.audit().find((e) => e.action === 'notification' && e.planId === 'forged-result-0'),
      SIGNAL_WAIT_MS,
    );
    expect(h.audit()).toContainEqual(
      expect.objectContaining({
        action: 'notification',
        outcome: 'tampered',
        kind: 'diagnosis-result',
        detail: 'the notification signature does not verify',
      }),
    );
    expect(h.message(result.channel, result.ts)?.updates).toBe(updates);
    expect(JSON.stringify(h.message(result.channel, result.ts)?.blocks)).toBe(before);
    expect(JSON.stringify(h.slack.calls.map((c) => c.args))).not.toContain(FALSE_SUMMARY);
  });

  it("even signed with a worker's notify key, a rewritten notify job that shows a real sealed plan with a false summary, impact and patch gets its click refused", async () => {
    const id = planIdOf('approve_plan.0');
    const genuineValue = h.buttons(result).find((b) => b.action_id === 'approve_plan.0')?.value;
    await rewriteResult(id, 'forged-result-1', falsify);
    // The message now reads as the attacker wrote it, and its thread carries the false patch.
    const shown = await shows(FALSE_SUMMARY);
    await h.slack.waitFor(
      () => h.replies(result.ts).find((m) => JSON.stringify(m.blocks).includes('reviewed')),
      SIGNAL_WAIT_MS,
    );
    const forgedValue = h.buttons(shown).find((b) => b.action_id === 'approve_plan.0')?.value;
    expect(forgedValue).not.toBe(genuineValue);
    const mark = h.sim.requests.length;
    const before = refusedAtClick(id).length;
    const told = (): number =>
      h.slack
        .callsOf('chat.postEphemeral')
        .filter((c) => String(c.args.text).includes('the plan changed since it was shown')).length;
    const toldBefore = told();
    expect((await h.click(shown, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.slack.waitFor(() => refusedAtClick(id).length > before, SIGNAL_WAIT_MS);
    await h.slack.waitFor(() => told() > toldBefore, SIGNAL_WAIT_MS);
    expect(await queuedFor(id)).toEqual([]);
    expect(writesSince(h, mark)).toEqual([]);
    expect(deployment(h, 'vision', NAME).metadata.labels?.reviewed).toBeUndefined();
  });

  it('refuses, at the worker, a plan whose stored display and notify job were rewritten alike (the seal covers what is shown)', async () => {
    const id = planIdOf('approve_plan.1');
    // Put the genuine plan back (an earlier test altered its patch), then rewrite only what it says.
    const stored = await readPlan(id);
    const update = await finalResult();
    if (update.outcome.status !== 'diagnosed') throw new Error('not a diagnosis');
    const genuinePlan = update.outcome.diagnosis.remediations.find((p) => p.id === id);
    if (!genuinePlan) throw new Error('no genuine plan');
    stored.plan = { ...genuinePlan, summary: 'Roll back to the last good image', impact: 'None.' };
    await redis.hset(`rd:plan:${id}`, 'json', JSON.stringify(stored));
    // With a worker's notify key, so that the app shows it.
    await rewriteResult(id, 'forged-result-2', (p) => {
      p.summary = 'Roll back to the last good image';
      p.impact = 'None.';
    });
    // Not the recommended fix: its summary is in the thread report, posted after the message is updated.
    await h.slack.waitFor(
      () =>
        h
          .replies(result.ts)
          .find((m) => JSON.stringify(m.blocks).includes('Roll back to the last good image')),
      SIGNAL_WAIT_MS,
    );
    const mark = h.sim.requests.length;
    const earlier = h.replies(result.ts).length;
    expect((await h.click(result, 'approve_plan.1', h.approver)).status).toBe(200);
    const reply = await h.slack.waitFor(
      () =>
        h
          .replies(result.ts)
          .slice(earlier)
          .find((m) => m.text.startsWith('refused')),
      SIGNAL_WAIT_MS,
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
      SIGNAL_WAIT_MS,
    );
    const id = planIdOf('approve_plan.0', fresh);
    expect((await h.click(fresh, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForReply(result.ts, 'applied', SIGNAL_WAIT_MS);
    const [job] = (await queue.getJobs(['completed', 'active', 'waiting', 'delayed'])).filter(
      (j) => (j.data as { planId?: string }).planId === id,
    );
    if (!job) throw new Error('the genuine remediate job is gone');
    const mark = h.sim.requests.length;
    await handled(await queue.add('remediate', job.data, { ...REMEDIATE_JOB_OPTIONS, jobId: 'replayed-1' }));
    expect(tampered(id)[0]?.detail).toBe('this approval was already used by another job');
    expect(writesSince(h, mark)).toEqual([]);
  });

  it('refuses an Undo whose stored plan was rewritten after its reply showed it', async () => {
    const applied = await h.slack.waitFor(
      () =>
        h
          .replies(result.ts)
          .find(
            (m) => m.text.startsWith('applied') && h.buttons(m).some((b) => b.action_id === 'undo_plan.0'),
          ),
      SIGNAL_WAIT_MS,
    );
    const id = planIdOf('undo_plan.0', applied);
    const stored = await readPlan(id);
    stored.plan.patch = {
      type: 'strategic-merge',
      body: { spec: { template: { spec: { hostPID: true } } } },
    };
    await redis.hset(`rd:plan:${id}`, 'json', JSON.stringify(stored));
    const mark = h.sim.requests.length;
    const before = refusedAtClick(id).length;
    expect((await h.click(applied, 'undo_plan.0', h.approver)).status).toBe(200);
    await h.slack.waitFor(() => refusedAtClick(id).length > before, SIGNAL_WAIT_MS);
    expect(await queuedFor(id)).toEqual([]);
    expect(writesSince(h, mark)).toEqual([]);
  });
});
