import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import type { AppRuntime } from '../../src/app/runtime.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import { shownDigest } from '../../src/trust/plan-seal.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { WorkloadNotFoundError } from '../../src/diagnosis/errors.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { createLogger } from '../../src/logger.js';
import type { RemediationPlan, WorkloadPatchPlan } from '../../src/remediation/plan.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import {
  NOTIFY_QUEUE,
  NOTIFY_QUEUES,
  QUEUE_PREFIX,
  diagnoseQueueName,
  remediateQueueName,
} from '../../src/queue/names.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';
import { workerNotifyProducers } from '../support/worker-notify.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { CLOCK_SKEW_TOLERANCE_MS } from '../../src/trust/clock-skew.js';

const SECRET = 'flow-secret';
const TOKEN = 'xoxb-flow-token';
const APPROVER = 'U0APPROVER';

function planFor(name: string): WorkloadPatchPlan {
  return {
    id: `set-rolling-update-${name}`,
    kind: 'set-rolling-update',
    target: { kind: 'Deployment', namespace: 'gpu', name },
    summary: 'Let the old pod go first: maxSurge 0, maxUnavailable 1',
    impact: 'brief outage: 1 replica',
    warnings: [],
    patch: {
      type: 'strategic-merge',
      body: {
        spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
      },
    },
    preconditions: { uid: 'uid-1', generation: 2, fields: [] },
    inverse: {
      type: 'strategic-merge',
      body: { spec: { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } },
    },
    addresses: 'RolloutSurgeDeadlock',
  };
}

function diagnosisFor(name: string): Diagnosis {
  return {
    target: { kind: 'Deployment', namespace: 'gpu', name },
    capturedAt: '2026-11-20T10:00:00Z',
    observed: { uid: 'uid-1', generation: 2, resourceVersion: '100' },
    findings: [
      {
        code: 'RolloutSurgeDeadlock',
        severity: 'critical',
        summary: 'the new pod needs the GPU the old pod holds',
        evidence: [{ type: 'note', text: 'one eligible node' }],
        remediations: [planFor(name).id],
      },
    ],
    remediations: [planFor(name), recreateFor(name)],
    analyzerErrors: [],
  };
}

/** A second plan on the same message: refused once the first is approved. */
function recreateFor(name: string): RemediationPlan {
  return {
    ...planFor(name),
    id: `set-recreate-${name}`,
    kind: 'set-recreate',
    summary: 'Switch to Recreate',
    impact: 'outage: all replicas',
    patch: {
      type: 'strategic-merge',
      body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } },
    },
  };
}

const QUEUES = [diagnoseQueueName('default'), remediateQueueName('default'), ...NOTIFY_QUEUES];

describe('Slack flow: command → result → approval → patch → rolled out (fake cluster)', () => {
  let redis: TestRedis;
  let slack: SlackStandin;
  let app: AppRuntime;
  let workers: WorkerRuntime;
  /** Stands in for a worker's outcome replies: signed with the workers' notify key. */
  let workerNotify: ReturnType<typeof workerNotifyProducers>;
  let events: string;
  const applied: string[] = [];
  const refuse = new Set<string>();

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startSlackStandin({ botToken: TOKEN });
    const logger = createLogger({ level: 'silent', name: 'flow' });
    ({ app, events } = await startTestApp({
      slack,
      redisUrl: redis.url,
      secret: SECRET,
      token: TOKEN,
      env: {
        // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
        ROLLOUT_DOCTOR_READERS: '*',
        ROLLOUT_DOCTOR_APPROVERS: APPROVER,
        ROLLOUT_DOCTOR_PLAN_TTL_SECONDS: '60',
      },
      logger: logger,
    }));
    workerNotify = workerNotifyProducers(redis.url);
    workers = startTestWorkers(
      redis.url,
      {
        collect: async (ref) => {
          // A typo: the real collector lists the namespace and names the closest Deployments.
          if (ref.name === 'vison-tracker')
            throw new WorkloadNotFoundError(
              'deployment "vison-tracker" not found in namespace "gpu"',
              ['gpu'],
              ['vision-tracker'],
            );
          return { target: ref } as unknown as DeploymentSnapshot;
        },
        diagnose: (snapshot) => diagnosisFor(snapshot.target.name),
        dryRun: async () => ({
          ok: true,
          changes: [{ path: '/spec/strategy/rollingUpdate/maxSurge', before: '25%', after: 0 }],
        }),
        scan: async () => ({ scanned: 0, entries: [] }),
        apply: async (plan) => {
          if (refuse.has(plan.target.name))
            return {
              status: 'refused',
              reason: 'generation changed from 2 to 3',
              field: '/metadata/generation',
            };
          applied.push(plan.id);
          return {
            status: 'applied',
            changes: [{ path: '/spec/strategy/rollingUpdate/maxSurge', before: '25%', after: 0 }],
            generation: 3,
            resourceVersion: '101',
          };
        },
        watch: async () => ({ outcome: 'complete', summary: 'rollout complete: 1/1 updated and available' }),
        currentFinding: async () => undefined,
        inverse: (plan) =>
          ({ ...plan, id: `undo-${plan.id}`, patch: plan.inverse, inverse: plan.patch }) as RemediationPlan,
      },
      { logger },
    );
  });

  afterAll(async () => {
    await workerNotify?.close();
    await workers?.stop();
    await app?.stop();
    await slack?.close();
    await redis?.close();
  });

  const resultMessage = (name: string): Promise<StoredMessage> =>
    slack.waitFor((s) =>
      [...s.messages.values()].find(
        (m) => m.text.includes(`deployment/${name}`) && m.blocks.some((b) => b.type === 'actions'),
      ),
    );

  const click = (user: string, message: StoredMessage, actionId = 'approve_plan.0') =>
    postClick(events, SECRET, message, actionId, user);

  it('posts the result with one primary button and the dry run in the thread, refuses a non-approver, applies once for two clicks, refuses the other plan, and reports rolled out', async () => {
    expect((await postSigned(events, SECRET, slashCommandBody({ text: 'trainer -n gpu' }))).status).toBe(200);
    const message = await resultMessage('trainer');
    // The message as a client that has not refreshed still shows it (the stand-in updates in place).
    const stale = structuredClone(message);
    const json = JSON.stringify(message.blocks);
    expect(json).toContain('RolloutSurgeDeadlock');
    // The dry run and the patch are in the thread report, not in the message.
    expect(json).not.toContain('→');
    const report = await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === message.ts && m.text.startsWith('Full report')),
    );
    expect(JSON.stringify(report.blocks)).toContain('maxSurge: \\"25%\\" → 0');
    const buttons = (
      message.blocks.find((b) => b.type === 'actions') as { elements: Record<string, unknown>[] }
    ).elements;
    expect(buttons.map((b) => b.style)).toEqual(['primary', undefined, undefined, undefined]);
    expect(JSON.stringify(buttons[0]?.confirm)).toContain('brief outage: 1 replica');
    expect(JSON.stringify(buttons[0]?.confirm)).toContain('in the thread');

    expect((await click('U0STRANGER', message)).status).toBe(200);
    await slack.waitFor((s) => s.callsOf('chat.postEphemeral').find((c) => c.args.user === 'U0STRANGER'));
    expect(String(slack.callsOf('chat.postEphemeral').at(-1)?.args.text)).toContain('not an approver');
    // The refusal was posted; whatever the click set off has run once the queues idle.
    await waitForIdleQueues(redis.url, QUEUES);
    expect(applied).toEqual([]);

    await Promise.all([click(APPROVER, message), click(APPROVER, message)]);
    const rolledOut = await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === message.ts && m.text.startsWith('rolled out')),
    );
    // Undo is offered once, in the "applied" reply, not again under "rolled out".
    const appliedReplies = [...slack.messages.values()].filter(
      (m) => m.threadTs === message.ts && m.text.startsWith('applied'),
    );
    expect(appliedReplies).toHaveLength(1);
    expect(JSON.stringify(appliedReplies[0]?.blocks)).toContain('undo_plan');
    expect(JSON.stringify(appliedReplies[0]?.blocks)).toContain('It does not start a rollout');
    expect(JSON.stringify(rolledOut.blocks)).not.toContain('undo_plan');
    await waitForIdleQueues(redis.url, QUEUES); // a second click's job, if any, has run too
    expect(applied).toEqual(['set-rolling-update-trainer']);
    const updated = slack.messages.get(`${message.channel}/${message.ts}`);
    expect(JSON.stringify(updated?.blocks)).toContain(`approved by <@${APPROVER}>`);
    // The other Apply button is gone from the message…
    expect(JSON.stringify(updated?.blocks)).not.toContain('approve_plan.1');
    // …and a click on it from a stale client is refused by the app.
    expect((await click(APPROVER, stale, 'approve_plan.1')).status).toBe(200);
    const refusal = await slack.waitFor((s) =>
      s
        .callsOf('chat.postEphemeral')
        .find((c) => String(c.args.text).includes('another fix on this message')),
    );
    expect(refusal.args.user).toBe(APPROVER);
    await waitForIdleQueues(redis.url, QUEUES);
    expect(applied).toEqual(['set-rolling-update-trainer']);
    expect(await app.services.plans.claimOf('set-recreate-trainer')).toBeUndefined();
  });

  it('answers a mistyped name privately with the closest names, and removes the public message', async () => {
    const before = slack.callsOf('chat.postMessage').length;
    expect(
      (await postSigned(events, SECRET, slashCommandBody({ text: 'deployment/vison-tracker -n gpu' })))
        .status,
    ).toBe(200);
    const answer = await slack.waitFor((s) =>
      s.callsOf('chat.postEphemeral').find((c) => String(c.args.text).includes('vison-tracker')),
    );
    expect(String(answer.args.text)).toBe(
      ':mag: deployment/vison-tracker not found in namespace gpu (cluster default); did you mean *deployment/vision-tracker*?',
    );
    const announced = slack
      .callsOf('chat.postMessage')
      .slice(before)
      .find((c) => String(c.args.text).includes('vison-tracker'));
    const ts = String(announced?.response.ts);
    await slack.waitFor((s) => s.callsOf('chat.delete').find((c) => c.args.ts === ts));
    expect(slack.messages.get(`${String(announced?.args.channel)}/${ts}`)).toBeUndefined();
    // Nothing public says "Diagnosis failed" or offers a Re-run for it.
    expect(
      [...slack.messages.values()].some(
        (m) => m.text.includes('vison-tracker') || m.text.includes('Diagnosis failed'),
      ),
    ).toBe(false);
  });

  it('refuses a plan whose Deployment changed and offers Re-run', async () => {
    refuse.add('drifted');
    await postSigned(events, SECRET, slashCommandBody({ text: 'drifted -n gpu' }));
    const message = await resultMessage('drifted');
    await click(APPROVER, message);
    const reply = await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === message.ts && m.text.startsWith('refused')),
    );
    expect(JSON.stringify(reply.blocks)).toContain('rerun_diagnosis');
    expect(applied).not.toContain('set-rolling-update-drifted');
  });

  it('refuses an expired plan: ephemeral answer, button marked expired, nothing applied', async () => {
    const expired = { ...planFor('stale'), id: 'set-rolling-update-stale-expired' };
    await app.services.plans.save({
      plan: expired,
      cluster: 'default',
      createdAt: Date.now() - CLOCK_SKEW_TOLERANCE_MS - 120_000,
      // Past its expiry by more than the clock skew every freshness check tolerates.
      expiresAt: Date.now() - CLOCK_SKEW_TOLERANCE_MS - 1,
    });
    // A message of its own to carry the button (no reliance on an earlier test's posts).
    await postSigned(events, SECRET, slashCommandBody({ text: 'stale -n gpu' }));
    const posted = await resultMessage('stale');
    const message: StoredMessage = {
      ...posted,
      blocks: [
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'approve_plan.0',
              value: planButtonValue(expired.id, shownDigest({ plan: expired, cluster: 'default' })),
              text: { type: 'plain_text', text: 'Apply' },
            },
          ],
        },
      ],
    };
    slack.messages.set(`${message.channel}/${message.ts}`, message);
    await click(APPROVER, message);
    await slack.waitFor((s) =>
      s.callsOf('chat.postEphemeral').find((c) => String(c.args.text).includes('expired')),
    );
    const updated = await slack.waitFor(
      (s) =>
        JSON.stringify(s.messages.get(`${message.channel}/${message.ts}`)?.blocks).includes('Expired') &&
        s.messages.get(`${message.channel}/${message.ts}`),
    );
    expect(JSON.stringify(updated.blocks)).toContain('Expired: set-rolling-update');
    expect(applied).not.toContain(expired.id);
  });

  it('an expired Undo says how to revert by hand, not to press Re-run', async () => {
    const undo = { ...planFor('stale-undo'), id: 'undo-set-rolling-update-stale-undo' };
    await app.services.plans.save({
      plan: undo,
      cluster: 'default',
      createdAt: Date.now() - CLOCK_SKEW_TOLERANCE_MS - 120_000,
      // Past its expiry by more than the clock skew every freshness check tolerates.
      expiresAt: Date.now() - CLOCK_SKEW_TOLERANCE_MS - 1,
      undoOf: 'set-rolling-update-stale-undo',
    });
    await postSigned(events, SECRET, slashCommandBody({ text: 'stale-undo -n gpu' }));
    const posted = await resultMessage('stale-undo');
    const message: StoredMessage = {
      ...posted,
      blocks: [
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'undo_plan.0',
              value: planButtonValue(
                undo.id,
                shownDigest({ plan: undo, cluster: 'default', undoOf: 'set-rolling-update-stale-undo' }),
              ),
              text: { type: 'plain_text', text: 'Undo' },
            },
          ],
        },
      ],
    };
    slack.messages.set(`${message.channel}/${message.ts}`, message);
    await click(APPROVER, message, 'undo_plan.0');
    const told = await slack.waitFor((s) =>
      s.callsOf('chat.postEphemeral').find((c) => String(c.args.text).includes('This Undo expired')),
    );
    expect(String(told.args.text)).toContain('apply the exact patch of the undo');
    const updated = await slack.waitFor(
      (s) =>
        JSON.stringify(s.messages.get(`${message.channel}/${message.ts}`)?.blocks).includes('Expired') &&
        s.messages.get(`${message.channel}/${message.ts}`),
    );
    expect(JSON.stringify(updated.blocks)).toContain('Expired: undo of set-rolling-update');
    expect(JSON.stringify(updated.blocks)).not.toContain('re-run');
    expect(applied).not.toContain(undo.id);
  });

  it('notify waits out a 429 Retry-After and posts once', async () => {
    slack.failNext('chat.postMessage', 2, { status: 429, retryAfter: 1 });
    const started = Date.now();
    await workerNotify.enqueueNotify({
      kind: 'remediation-outcome',
      planId: 'set-recreate-ratelimited',
      cluster: 'default',
      channel: 'C0NOTIFY',
      messageTs: '1700000000.000100',
      stage: 'failed',
      detail: 'rate limited hello',
    });
    const mine = (text: unknown): boolean => String(text).includes('rate limited hello');
    const posted = await slack.waitFor((s) => {
      const found = [...s.messages.values()].filter((m) => mine(m.text));
      return found.length > 0 && found;
    }, SIGNAL_WAIT_MS);
    await waitForIdleQueues(redis.url, QUEUES); // a second post, if any, has happened too
    expect(slack.callsOf('chat.postMessage').filter((c) => mine(c.args.text))).toHaveLength(3);
    expect(posted).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(slack.callsOf('chat.postMessage').filter((c) => c.status === 429)).toHaveLength(2);
  });

  it('a 429 that pauses the alert lane does not hold up a person’s result on the other lane', async () => {
    const alertText = (text: unknown): boolean => String(text).includes('2980 (2980 firing)');
    const personText = (text: unknown): boolean => String(text).includes('lane test: person');
    slack.failNext('chat.postMessage', 1, { status: 429, retryAfter: 3 });
    await app.services.producers.enqueueNotify({
      kind: 'alert-overflow',
      cause: 'minute',
      groupHash: '0'.repeat(32),
      channel: 'C0ALERTS',
      workloads: 2_980,
      firing: 2_980,
      limit: 60,
      alertNames: ['KubeDeploymentRolloutStuck'],
      namespaces: ['flood'],
      receivedAt: new Date().toISOString(),
    });
    // The alert lane has met its 429 and waits 3 s.
    await slack.waitFor((s) =>
      s.callsOf('chat.postMessage').find((c) => c.status === 429 && alertText(c.args.text)),
    );
    await workerNotify.enqueueNotify({
      kind: 'remediation-outcome',
      planId: 'set-recreate-lanes',
      cluster: 'default',
      channel: 'C0NOTIFY',
      messageTs: '1700000000.000300',
      stage: 'failed',
      detail: 'lane test: person',
    });
    await slack.waitFor((s) => [...s.messages.values()].find((m) => personText(m.text)), SIGNAL_WAIT_MS);
    // Posted while the alert post still waits out its Retry-After.
    expect(slack.callsOf('chat.postMessage').filter((c) => alertText(c.args.text))).toHaveLength(1);
    // Then the alert lane resumes on its own and posts its summary once.
    await slack.waitFor((s) => [...s.messages.values()].find((m) => alertText(m.text)), SIGNAL_WAIT_MS);
  });

  it('posts nothing for a notify job that carries its own Slack text (written straight into Redis)', async () => {
    const raw = new Queue(NOTIFY_QUEUE, { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
    try {
      await raw.add('forged', {
        kind: 'message',
        channel: 'C0NOTIFY',
        text: '<!channel> re-authenticate at <https://evil.example|Slack>',
      });
      // A real job after it: once it is posted, the forged one has been handled.
      await workerNotify.enqueueNotify({
        kind: 'remediation-outcome',
        planId: 'set-recreate-after-forged',
        cluster: 'default',
        channel: 'C0NOTIFY',
        messageTs: '1700000000.000200',
        stage: 'failed',
        detail: 'after the forged job',
      });
      await slack.waitFor((s) =>
        [...s.messages.values()].find((m) => m.text.includes('after the forged job')),
      );
      await waitForIdleQueues(redis.url, QUEUES);
      expect(slack.calls.filter((c) => JSON.stringify(c.args).includes('evil.example'))).toEqual([]);
    } finally {
      await raw.close();
    }
  });
});
