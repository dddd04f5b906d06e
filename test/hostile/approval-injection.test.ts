/**
 * A two-person rule counts approvers in Redis (`rd:plan:<id>:approvals`). Whoever can
 * write there must not be able to add a second approver of their choosing, so that one
 * real click claims the plan and the app signs an approval naming someone who never
 * clicked. Each recorded approval is the app's mark on the plan as shown; an id added
 * by anyone else clears the approvals, is audited as tampered, and nothing is queued.
 *
 * Nor may a Redis writer make the person who asked for the diagnosis one of the two:
 * who asked travels in the app's mark on the message's subscription, its Apply buttons,
 * the signed approval and the Undo, never in a record (`rd:msgowner:*`) that deleting
 * or rewriting would change.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import type { AppRuntime } from '../../src/app/runtime.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import type { AuditEvent } from '../../src/audit.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot.js';
import { createLogger } from '../../src/logger.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';
import { NOTIFY_QUEUES, diagnoseQueueName, remediateQueueName } from '../../src/queue/names.js';

const SECRET = 'injection-secret';
const TOKEN = 'xoxb-injection';
const FIRST = 'U0FIRST';
const SECOND = 'U0SECOND';
const REQUESTER = 'U0ASKER';
const ALERT_TOKEN = 'injection-alert-token';
const ALERT_CHANNEL = 'C0ALERTS';
const QUEUES = [diagnoseQueueName('default'), remediateQueueName('default'), ...NOTIFY_QUEUES];

/** One Deployment per scenario (each has its own plan id, so one claim does not end the next). */
function planFor(name: string): RemediationPlan {
  return {
    id: `set-recreate-${name}`,
    kind: 'set-recreate',
    target: { kind: 'Deployment', namespace: 'gpu', name },
    summary: 'Switch to Recreate',
    impact: 'outage: all replicas',
    warnings: [],
    patch: {
      type: 'strategic-merge',
      body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } },
    },
    preconditions: { uid: `uid-${name}`, generation: 2, fields: [] },
    inverse: null,
    addresses: 'RolloutSurgeDeadlock',
  };
}
function diagnosisFor(name: string): Diagnosis {
  const plan = planFor(name);
  return {
    target: plan.target,
    capturedAt: '2026-11-20T10:00:00Z',
    observed: { uid: `uid-${name}`, generation: 2, resourceVersion: '100' },
    findings: [
      {
        code: 'RolloutSurgeDeadlock',
        severity: 'critical',
        summary: 'the new pod needs the GPU the old pod holds',
        evidence: [],
        remediations: [plan.id],
      },
    ],
    remediations: [plan],
    analyzerErrors: [],
  };
}
const plan = planFor('trainer');

describe('a two-person rule against a Redis writer', () => {
  let redis: TestRedis;
  let client: Redis;
  let slack: SlackStandin;
  let app: AppRuntime;
  let workers: WorkerRuntime;
  let events: string;
  const lines: string[] = [];
  const applied: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    slack = await startSlackStandin({ botToken: TOKEN });
    const dir = mkdtempSync(join(tmpdir(), 'rd-injection-'));
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(
      policyFile,
      `rules:\n  - approvers: [${FIRST}, ${SECOND}, ${REQUESTER}]\n    requiredApprovals: 2\n`,
    );
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    ({ app, events } = await startTestApp({
      slack,
      redisUrl: redis.url,
      secret: SECRET,
      token: TOKEN,
      env: {
        ROLLOUT_DOCTOR_READERS: '*',
        ROLLOUT_DOCTOR_POLICY_FILE: policyFile,
        ALERTMANAGER_TOKEN: ALERT_TOKEN,
        ROLLOUT_DOCTOR_ALERT_CHANNEL: ALERT_CHANNEL,
      },
      logger: createLogger({ level: 'info', name: 'app' }, sink),
    }));
    workers = startTestWorkers(
      redis.url,
      {
        collect: async (ref) => ({ target: ref }) as unknown as DeploymentSnapshot,
        diagnose: (snapshot) => diagnosisFor(snapshot.target.name),
        dryRun: async () => ({ ok: true, changes: [] }),
        scan: async () => ({ scanned: 0, entries: [] }),
        apply: async (p) => {
          applied.push(p.id);
          return { status: 'applied', changes: [], generation: 3, resourceVersion: '101' };
        },
        watch: async () => ({ outcome: 'complete', summary: 'rolled out' }),
        currentFinding: async () => undefined,
        // Deployments named undoable-… get an Undo (Recreate back to RollingUpdate).
        inverse: (p) =>
          p.target.name.startsWith('undoable')
            ? ({
                ...p,
                id: `undo-${p.id}`,
                kind: 'set-rolling-update',
                summary: 'Back to RollingUpdate',
                patch: {
                  type: 'strategic-merge',
                  body: { spec: { strategy: { type: 'RollingUpdate' } } },
                },
                preconditions: { ...p.preconditions, generation: 3 },
              } as RemediationPlan)
            : null,
      },
      { logger: createLogger({ level: 'silent', name: 'worker' }) },
    );
  });

  afterAll(async () => {
    await workers?.stop();
    await app?.stop();
    await slack?.close();
    client?.disconnect();
    await redis?.close();
  });

  const audit = (): AuditEvent[] =>
    lines
      .map((l) => JSON.parse(l) as { audit?: boolean; event?: AuditEvent })
      .flatMap((e) => (e.audit && e.event ? [e.event] : []));
  const ephemeral = (n: number): Promise<string> =>
    slack.waitFor((s) => {
      const calls = s.callsOf('chat.postEphemeral');
      return calls.length >= n ? String(calls[n - 1]?.args.text) : undefined;
    });

  it('does not count an approver added in Redis: one real click claims nothing, and two real ones still apply', async () => {
    expect(
      (await postSigned(events, SECRET, slashCommandBody({ text: 'trainer -n gpu', user_id: REQUESTER })))
        .status,
    ).toBe(200);
    const message: StoredMessage = await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.blocks.some((b) => b.type === 'actions')),
    );
    const actions = message.blocks.find((b) => b.type === 'actions') as { elements: { value?: string }[] };
    const { shown } = parsePlanButtonValue(actions.elements[0]?.value ?? '');

    // The attacker records SECOND's "approval" of the plan as shown.
    await client.set(`rd:plan:${plan.id}:approvals-shown`, shown ?? '');
    await client.sadd(`rd:plan:${plan.id}:approvals`, SECOND);
    expect((await postClick(events, SECRET, message, 'approve_plan.0', FIRST)).status).toBe(200);
    expect(await ephemeral(1)).toContain('not given through this app');
    await waitForIdleQueues(redis.url, QUEUES);
    expect(applied).toEqual([]);
    expect(audit()).toContainEqual(
      expect.objectContaining({ action: 'refusal', planId: plan.id, user: FIRST, reason: 'tampered' }),
    );
    expect(await client.exists(`rd:plan:${plan.id}:claim`)).toBe(0);

    // The honest path: both approvers click, the plan applies once.
    expect((await postClick(events, SECRET, message, 'approve_plan.0', FIRST)).status).toBe(200);
    expect(await ephemeral(2)).toContain('Approval recorded (1/2)');
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SECOND)).status).toBe(200);
    await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === message.ts && m.text.startsWith('rolled out')),
    );
    expect(applied).toEqual([plan.id]);
  });

  /** Clicks and returns the ephemeral answer to `user` (refusals and "recorded" say one). */
  const answer = async (message: StoredMessage, actionId: string, user: string): Promise<string> => {
    const before = slack.callsOf('chat.postEphemeral').length;
    expect((await postClick(events, SECRET, message, actionId, user)).status).toBe(200);
    return slack.waitFor((s) => {
      const call = s
        .callsOf('chat.postEphemeral')
        .slice(before)
        .find((c) => c.args.user === user);
      return call ? String(call.args.text) : undefined;
    });
  };
  const resultOf = (name: string): Promise<StoredMessage> =>
    slack.waitFor((s) =>
      [...s.messages.values()].find(
        (m) =>
          m.blocks.some((b) => b.type === 'actions') &&
          JSON.stringify(m.blocks).includes(`set-recreate-${name}:`),
      ),
    );
  const asked = async (name: string): Promise<StoredMessage> => {
    const command = slashCommandBody({ text: `${name} -n gpu`, user_id: REQUESTER });
    expect((await postSigned(events, SECRET, command)).status).toBe(200);
    return resultOf(name);
  };
  const replyIn = (root: StoredMessage, starts: string): Promise<StoredMessage> =>
    slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === root.ts && m.text.startsWith(starts)),
    );
  const buttonValue = (message: StoredMessage, actionId: string): string => {
    const actions = message.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id?: string; value?: string }[];
    };
    return actions.elements.find((e) => e.action_id === actionId)?.value ?? '';
  };
  const selfApprovals = (planId: string): AuditEvent[] =>
    audit().filter(
      (e) =>
        e.action === 'refusal' && e.planId === planId && e.user === REQUESTER && e.reason === 'self-approval',
    );

  it("deleting the message's owner record does not let the requester count as one of the two", async () => {
    const message = await asked('deleted');
    const id = planFor('deleted').id;
    expect(parsePlanButtonValue(buttonValue(message, 'approve_plan.0')).requester).toBe(REQUESTER);
    const ownerKey = `rd:msgowner:${message.channel}/${message.ts}`;
    expect(await client.del(ownerKey)).toBe(1);

    expect(await answer(message, 'approve_plan.0', REQUESTER)).toContain('you asked for this diagnosis');
    expect(await client.scard(`rd:plan:${id}:approvals`)).toBe(0);
    expect(await answer(message, 'approve_plan.0', FIRST)).toContain('Approval recorded (1/2)');
    // Second in line, the requester still does not complete the pair.
    expect(await answer(message, 'approve_plan.0', REQUESTER)).toContain('you asked for this diagnosis');
    await waitForIdleQueues(redis.url, QUEUES);
    expect(applied).not.toContain(id);
    expect(await client.exists(`rd:plan:${id}:claim`)).toBe(0);
    expect(selfApprovals(id)).toHaveLength(2);

    // Two approvers besides the requester: applied.
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SECOND)).status).toBe(200);
    await replyIn(message, 'rolled out');
    expect(applied).toContain(id);
  });

  it('rewriting the owner record to another user changes nothing: the requester is refused, that user counts', async () => {
    const message = await asked('rewritten');
    const id = planFor('rewritten').id;
    const ownerKey = `rd:msgowner:${message.channel}/${message.ts}`;
    await client.set(ownerKey, JSON.stringify({ requestedBy: FIRST, cluster: 'default', namespace: 'gpu' }));

    expect(await answer(message, 'approve_plan.0', REQUESTER)).toContain('you asked for this diagnosis');
    expect(await answer(message, 'approve_plan.0', FIRST)).toContain('Approval recorded (1/2)');
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SECOND)).status).toBe(200);
    await replyIn(message, 'rolled out');
    expect(applied).toContain(id);
    expect(selfApprovals(id)).toHaveLength(1);
  });

  it('the Undo names the requester from the signed approval: with every owner record deleted, they do not count for it either', async () => {
    const message = await asked('undoable');
    await client.del(`rd:msgowner:${message.channel}/${message.ts}`);
    expect(await answer(message, 'approve_plan.0', FIRST)).toContain('Approval recorded (1/2)');
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SECOND)).status).toBe(200);
    const reply = await slack.waitFor((s) =>
      [...s.messages.values()].find(
        (m) => m.threadTs === message.ts && m.blocks.some((b) => b.type === 'actions'),
      ),
    );
    const undoId = `undo-${planFor('undoable').id}`;
    expect(parsePlanButtonValue(buttonValue(reply, 'undo_plan.0'))).toMatchObject({
      planId: undoId,
      requester: REQUESTER,
    });
    await client.del(`rd:msgowner:${reply.channel}/${reply.ts}`);

    expect(await answer(reply, 'undo_plan.0', REQUESTER)).toContain('you asked for this diagnosis');
    expect(await answer(reply, 'undo_plan.0', FIRST)).toContain('Approval recorded (1/2)');
    await waitForIdleQueues(redis.url, QUEUES);
    expect(applied).not.toContain(undoId);
    expect(selfApprovals(undoId)).toHaveLength(1);
    expect((await postClick(events, SECRET, reply, 'undo_plan.0', SECOND)).status).toBe(200);
    await slack.waitFor(() => applied.includes(undoId) || undefined);
  });

  it('a button that names no requester (posted before buttons did) is refused under a two-person rule, not read as nobody asking', async () => {
    const message = await asked('legacy');
    const id = planFor('legacy').id;
    const value = buttonValue(message, 'approve_plan.0');
    const { shown } = parsePlanButtonValue(value);
    // The message as an earlier version posted it: "<plan id>:<shown digest>".
    const earlier: StoredMessage = JSON.parse(
      JSON.stringify(message).replace(value, `${id}:${shown ?? ''}`),
    ) as StoredMessage;
    expect(parsePlanButtonValue(buttonValue(earlier, 'approve_plan.0'))).toEqual({
      planId: id,
      shown,
      requester: null,
    });
    expect(await answer(earlier, 'approve_plan.0', FIRST)).toContain('does not name who asked');
    expect(await client.scard(`rd:plan:${id}:approvals`)).toBe(0);
    expect(audit()).toContainEqual(
      expect.objectContaining({ action: 'refusal', planId: id, user: FIRST, reason: 'outdated' }),
    );
  });

  it('a plan in an alert thread says nobody asked for it, and two approvers apply it', async () => {
    const res = await fetch(`${app.handle.url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ALERT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: '4',
        groupKey: '{}:{alertname="KubeDeploymentRolloutStuck"}',
        truncatedAlerts: 0,
        status: 'firing',
        receiver: 'rollout-doctor',
        groupLabels: { alertname: 'KubeDeploymentRolloutStuck' },
        commonLabels: {},
        commonAnnotations: {},
        externalURL: 'http://127.0.0.1:9093',
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'KubeDeploymentRolloutStuck', namespace: 'gpu', deployment: 'alerted' },
            annotations: { summary: 'rollout stuck' },
            startsAt: new Date(Date.now() - 60_000).toISOString(),
            endsAt: '0001-01-01T00:00:00Z',
            generatorURL: 'http://127.0.0.1:9090/graph',
            fingerprint: 'a1e7',
          },
        ],
      }),
    });
    await res.text();
    expect(res.status).toBe(200);
    const message = await resultOf('alerted');
    const id = planFor('alerted').id;
    expect(message.channel).toBe(ALERT_CHANNEL);
    expect(message.threadTs).toBeDefined();
    expect(parsePlanButtonValue(buttonValue(message, 'approve_plan.0')).requester).toBe('-');

    expect(await answer(message, 'approve_plan.0', FIRST)).toContain('Approval recorded (1/2)');
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SECOND)).status).toBe(200);
    await slack.waitFor(() => applied.includes(id) || undefined);
    expect(audit()).toContainEqual(
      expect.objectContaining({ action: 'approval', planId: id, user: SECOND, result: 'claimed' }),
    );
  });
});
