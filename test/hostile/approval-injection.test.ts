/**
 * A two-person rule counts approvers in Redis (`rd:plan:<id>:approvals`). Whoever can
 * write there must not be able to add a second approver of their choosing, so that one
 * real click claims the plan and the app signs an approval naming someone who never
 * clicked. Each recorded approval is the app's mark on the plan as shown; an id added
 * by anyone else clears the approvals, is audited as tampered, and nothing is queued.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlanButtonValue } from '../../src/app/blocks/action-ids.js';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import type { AuditEvent } from '../../src/audit.js';
import { loadAppConfig, loadWorkerConfig } from '../../src/config.js';
import type { Diagnosis } from '../../src/diagnosis/diagnosis.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot.js';
import { createLogger } from '../../src/logger.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { startWorkers, type WorkerRuntime } from '../../src/worker/runtime.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';
import { testKeys } from '../support/plan-keys.js';
import { NOTIFY_QUEUES, diagnoseQueueName, remediateQueueName } from '../../src/queue/names.js';

const SECRET = 'injection-secret';
const TOKEN = 'xoxb-injection';
const FIRST = 'U0FIRST';
const SECOND = 'U0SECOND';
const REQUESTER = 'U0ASKER';
const QUEUES = [diagnoseQueueName('default'), remediateQueueName('default'), ...NOTIFY_QUEUES];

const plan: RemediationPlan = {
  id: 'set-recreate-trainer',
  kind: 'set-recreate',
  target: { kind: 'Deployment', namespace: 'gpu', name: 'trainer' },
  summary: 'Switch to Recreate',
  impact: 'outage: all replicas',
  warnings: [],
  patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } },
  preconditions: { uid: 'uid-1', generation: 2, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
};
const diagnosis: Diagnosis = {
  target: plan.target,
  capturedAt: '2026-11-20T10:00:00Z',
  observed: { uid: 'uid-1', generation: 2, resourceVersion: '100' },
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
    writeFileSync(policyFile, `rules:\n  - approvers: [${FIRST}, ${SECOND}]\n    requiredApprovals: 2\n`);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    app = await startAppRuntime(
      loadAppConfig({
        ...testKeys.appEnv,
        ROLLOUT_DOCTOR_READERS: '*',
        SLACK_BOT_TOKEN: TOKEN,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        REDIS_URL: redis.url,
        ROLLOUT_DOCTOR_POLICY_FILE: policyFile,
      }),
      createLogger({ level: 'info', name: 'app' }, sink),
      { host: '127.0.0.1', port: 0 },
    );
    events = `${app.handle.url}/slack/events`;
    workers = startWorkers(
      loadWorkerConfig({
        ...testKeys.workerEnv,
        REDIS_URL: redis.url,
        ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
      }),
      createLogger({ level: 'silent', name: 'worker' }),
      {
        collect: async (ref) => ({ target: ref }) as unknown as WorkloadSnapshot,
        diagnose: () => diagnosis,
        dryRun: async () => ({ ok: true, changes: [] }),
        scan: async () => ({ scanned: 0, entries: [] }),
        renderText: (d) => `full report of ${d.target.name}`,
        apply: async (p) => {
          applied.push(p.id);
          return { status: 'applied', changes: [], generation: 3, resourceVersion: '101' };
        },
        watch: async () => ({ outcome: 'complete', summary: 'rolled out' }),
        currentFinding: async () => undefined,
        inverse: () => null,
      },
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
});
