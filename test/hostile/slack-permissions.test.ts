/**
 * Who may do what with a result message, through signed Slack requests against the
 * real app and worker runtimes (fake cluster): Dismiss only by the requester or an
 * approver, the requester never one of the two people of a two-person rule, and
 * every refusal ephemeral, audited and changing nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../src/app/runtime.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import { createLogger } from '../../src/logger.js';
import { NOTIFY_QUEUES, diagnoseQueueName, remediateQueueName } from '../../src/queue/names.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { fakeClusterDeps } from '../support/fake-cluster.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';

const SECRET = 'permissions-secret';
const TOKEN = 'xoxb-permissions-token';
const LEAD = 'U0LEAD'; // approver everywhere
const SRE = 'U0SRE'; // approver in namespace "payments" only, where two are needed
const SECOND = 'U0SECOND'; // the other payments approver
const STRANGER = 'U0STRANGER';
const QUEUES = [diagnoseQueueName('default'), remediateQueueName('default'), ...NOTIFY_QUEUES];

describe('result permissions (signed requests, real app and worker runtimes)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-permissions-'));
  const auditLines: { event: { action: string; reason?: string; user?: string } }[] = [];
  const applied: string[] = [];
  let redis: TestRedis;
  let slack: SlackStandin;
  let app: AppRuntime;
  let workers: WorkerRuntime;
  let events: string;

  beforeAll(async () => {
    const policy = join(dir, 'policy.yaml');
    writeFileSync(
      policy,
      [
        'rules:',
        '  - namespace: payments',
        `    approvers: [${SRE}, ${SECOND}, ${LEAD}]`,
        '    requiredApprovals: 2',
        // Anyone may read shop; payments only its approvers (the safe default).
        'readers:',
        '  - namespace: shop',
        '',
      ].join('\n'),
    );
    redis = await startRedis();
    slack = await startSlackStandin({ botToken: TOKEN });
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          const parsed = JSON.parse(line) as { audit?: boolean } & Partial<(typeof auditLines)[number]>;
          if (parsed.audit && parsed.event) auditLines.push({ event: parsed.event });
        }
        cb();
      },
    });
    ({ app, events } = await startTestApp({
      slack,
      redisUrl: redis.url,
      secret: SECRET,
      token: TOKEN,
      env: {
        ROLLOUT_DOCTOR_APPROVERS: LEAD,
        ROLLOUT_DOCTOR_POLICY_FILE: policy,
      },
      logger: createLogger({ level: 'info', name: 'permissions' }, sink),
    }));
    workers = startTestWorkers(redis.url, fakeClusterDeps(applied), {
      logger: createLogger({ level: 'silent', name: 'permissions-worker' }),
    });
  });

  afterAll(async () => {
    await workers?.stop();
    await app?.stop();
    await slack?.close();
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function requestResult(user: string, namespace: string, name: string): Promise<StoredMessage> {
    const body = slashCommandBody({ text: `${name} -n ${namespace}`, user_id: user });
    expect((await postSigned(events, SECRET, body)).status).toBe(200);
    return slack.waitFor((s) =>
      [...s.messages.values()].find(
        (m) => m.text.includes(`deployment/${name}`) && m.blocks.some((b) => b.type === 'actions'),
      ),
    );
  }
  const ephemeralTo = (user: string, text: string) =>
    slack.waitFor((s) =>
      s.callsOf('chat.postEphemeral').find((c) => c.args.user === user && String(c.args.text).includes(text)),
    );
  const current = (m: StoredMessage): StoredMessage | undefined => slack.messages.get(`${m.channel}/${m.ts}`);

  it("refuses a stranger's Dismiss ephemerally, keeps the message, and lets the requester dismiss it", async () => {
    const message = await requestResult('U0ASKER', 'shop', 'web');
    expect((await postClick(events, SECRET, message, 'dismiss_result', STRANGER)).status).toBe(200);
    await ephemeralTo(STRANGER, 'Only the person who asked');
    expect(current(message)?.text).not.toContain('Dismissed');
    expect(auditLines.map((l) => l.event)).toContainEqual(
      expect.objectContaining({ action: 'refusal', reason: 'not-requester', user: STRANGER }),
    );

    expect((await postClick(events, SECRET, message, 'dismiss_result', 'U0ASKER')).status).toBe(200);
    await slack.waitFor((s) =>
      s.messages.get(`${message.channel}/${message.ts}`)?.text.includes('Dismissed') ? true : undefined,
    );
  });

  it('lets an approver dismiss a result someone else asked for', async () => {
    const message = await requestResult('U0ASKER', 'shop', 'api');
    expect((await postClick(events, SECRET, message, 'dismiss_result', LEAD)).status).toBe(200);
    await slack.waitFor((s) =>
      s.messages.get(`${message.channel}/${message.ts}`)?.text.includes(`Dismissed by <@${LEAD}>`)
        ? true
        : undefined,
    );
  });

  it('does not count the requester as one of the two approvers of a two-person rule', async () => {
    const message = await requestResult(SRE, 'payments', 'ledger');
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SRE)).status).toBe(200);
    await ephemeralTo(SRE, 'you asked for this diagnosis');
    expect(auditLines.map((l) => l.event)).toContainEqual(
      expect.objectContaining({ action: 'refusal', reason: 'self-approval', user: SRE }),
    );
    expect((await postClick(events, SECRET, message, 'approve_plan.0', SECOND)).status).toBe(200);
    await ephemeralTo(SECOND, 'Approval recorded (1/2)');
    await waitForIdleQueues(redis.url, QUEUES);
    expect(applied).toEqual([]);
    expect((await postClick(events, SECRET, message, 'approve_plan.0', LEAD)).status).toBe(200);
    await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === message.ts && m.text.startsWith('rolled out')),
    );
    expect(applied).toEqual(['set-recreate-payments-ledger']);
  });

  it('refuses a diagnosis, a cluster-wide scan and a Re-run the read policy does not allow: ephemeral, audited, nothing queued', async () => {
    const message = await requestResult(SRE, 'payments', 'ledger-reader');
    // The result's thread replies (full report) are still being posted when its
    // buttons appear: count only once that diagnosis has nothing left in flight.
    await waitForIdleQueues(redis.url, QUEUES);
    const posted = slack.messages.size;
    for (const text of ['ledger -n payments', 'scan']) {
      const answer = await postSigned(events, SECRET, slashCommandBody({ text, user_id: STRANGER }));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        response_type: 'ephemeral',
        text: expect.stringMatching(
          /^:no_entry: Not started: you may not (read namespace payments|scan every namespace)/,
        ),
      });
    }
    expect((await postClick(events, SECRET, message, 'rerun_diagnosis', STRANGER)).status).toBe(200);
    await ephemeralTo(STRANGER, 'Not re-run: you may not read namespace payments');
    await waitForIdleQueues(redis.url, QUEUES);
    expect(slack.messages.size).toBe(posted);
    const refusals = auditLines
      .map((l) => l.event)
      .filter((e) => e.reason === 'not-reader' && e.user === STRANGER)
      .map((e) => (e as { planId?: string }).planId);
    expect(refusals).toEqual(['diagnose', 'scan', 'rerun']);
  });
});
