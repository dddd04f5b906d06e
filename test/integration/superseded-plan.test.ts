/**
 * A plan id is stable for the same cluster state, so a second diagnosis of an unchanged
 * Deployment stores the same plan again, possibly saying something else about it (a
 * warning more, another drift verdict, another dry run). The first message's Apply then
 * no longer matches the store. That click is refused either way; what it is called
 * must be true: "superseded" (use the newer message) when the workers' signed result of
 * the later diagnosis shows exactly the stored plan, "tampered" only when nothing the
 * workers reported shows it.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import type { AppRuntime } from '../../src/app/runtime.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import type { AuditEvent } from '../../src/audit.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot.js';
import { createLogger } from '../../src/logger.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';
import { Redis } from 'ioredis';

const SECRET = 'superseded-secret';
const TOKEN = 'xoxb-superseded';
const APPROVER = 'U0APPROVER';
const NAME = 'trainer';

/** The same plan id every run; its warnings say which run made it. */
function planOf(run: number): RemediationPlan {
  return {
    id: `set-rolling-update-${NAME}`,
    kind: 'set-rolling-update',
    target: { kind: 'Deployment', namespace: 'gpu', name: NAME },
    summary: 'Let the old pod go first: maxSurge 0, maxUnavailable 1',
    impact: 'brief outage: 1 replica',
    warnings: [`seen on diagnosis ${run}`],
    patch: {
      type: 'strategic-merge',
      body: { spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } } },
    },
    preconditions: { uid: 'uid-1', generation: 2, fields: [] },
    inverse: null,
    addresses: 'RolloutSurgeDeadlock',
  };
}

function diagnosisOf(run: number): Diagnosis {
  return {
    target: { kind: 'Deployment', namespace: 'gpu', name: NAME },
    capturedAt: '2026-11-20T10:00:00Z',
    observed: { uid: 'uid-1', generation: 2, resourceVersion: '100' },
    findings: [
      {
        code: 'RolloutSurgeDeadlock',
        severity: 'critical',
        summary: 'the new pod needs the GPU the old pod holds',
        evidence: [],
        remediations: [planOf(run).id],
      },
    ],
    remediations: [planOf(run)],
    analyzerErrors: [],
  };
}

describe('an Apply button whose plan a later diagnosis re-made', () => {
  let redis: TestRedis;
  let client: Redis;
  let slack: SlackStandin;
  let app: AppRuntime;
  let workers: WorkerRuntime;
  let events: string;
  const lines: string[] = [];
  let runs = 0;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    slack = await startSlackStandin({ botToken: TOKEN });
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
        ROLLOUT_DOCTOR_APPROVERS: APPROVER,
      },
      logger: createLogger({ level: 'info', name: 'app' }, sink),
    }));
    workers = startTestWorkers(
      redis.url,
      {
        collect: async (ref) => ({ target: ref }) as unknown as DeploymentSnapshot,
        diagnose: () => diagnosisOf(++runs),
        dryRun: async () => ({ ok: true, changes: [] }),
        scan: async () => ({ scanned: 0, entries: [] }),
        apply: async () => {
          throw new Error('nothing is applied in this test');
        },
        watch: async () => ({ outcome: 'complete', summary: 'rolled out' }),
        currentFinding: async () => undefined,
        inverse: () => null,
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

  const refusals = (): Extract<AuditEvent, { action: 'refusal' }>[] =>
    lines
      .map((l) => JSON.parse(l) as { audit?: boolean; event?: AuditEvent })
      .flatMap((e) => (e.audit && e.event?.action === 'refusal' ? [e.event] : []));
  const ephemeral = (n: number): Promise<string> =>
    slack.waitFor((s) => {
      const calls = s.callsOf('chat.postEphemeral');
      return calls.length >= n ? String(calls[n - 1]?.args.text) : undefined;
    });
  const diagnose = async (): Promise<StoredMessage> => {
    const known = new Set(slack.messages.keys());
    expect((await postSigned(events, SECRET, slashCommandBody({ text: `${NAME} -n gpu` }))).status).toBe(200);
    return slack.waitFor(
      (s) =>
        [...s.messages.entries()].find(
          ([key, m]) => !known.has(key) && m.blocks.some((b) => b.type === 'actions'),
        )?.[1],
    );
  };
  const shownOf = (m: StoredMessage): string => {
    const actions = m.blocks.find((b) => b.type === 'actions') as { elements: { value?: string }[] };
    return parsePlanButtonValue(actions.elements[0]?.value ?? '').shown ?? '';
  };

  it('calls the older message superseded, and a store rewritten behind both messages tampered', async () => {
    const first = await diagnose();
    // As an open client still shows it after the app marks it superseded (a stale view).
    const firstAsPosted = structuredClone(first);
    const second = await diagnose();
    expect(shownOf(second)).not.toBe(shownOf(first));

    expect((await postClick(events, SECRET, first, 'approve_plan.0', APPROVER)).status).toBe(200);
    expect(await ephemeral(1)).toContain(`a later diagnosis of deployment/${NAME} re-made this plan`);
    expect(refusals().map((r) => r.reason)).toEqual(['superseded']);
    // The older message says so where the fix was offered (issue 31.1), with the time.
    const marked = await slack.waitFor((s) => {
      const m =
        s.messages.get(`${first.channel}/${first.ts}`) ??
        [...s.messages.values()].find((x) => x.ts === first.ts);
      return JSON.stringify(m?.blocks ?? []).includes('superseded at') ? m : undefined;
    });
    expect(JSON.stringify(marked.blocks)).toMatch(
      /superseded at \d{4}-\d\d-\d\d \d\d:\d\d UTC: a later diagnosis re-made this plan/,
    );

    // Now someone rewrites what the plan says where it is stored.
    const key = `rd:plan:${planOf(0).id}`;
    const stored = JSON.parse((await client.hget(key, 'json')) ?? 'null') as StoredPlan;
    stored.plan.warnings = [];
    await client.hset(key, 'json', JSON.stringify(stored));
    expect((await postClick(events, SECRET, firstAsPosted, 'approve_plan.0', APPROVER)).status).toBe(200);
    expect(await ephemeral(2)).toContain('the plan changed since it was shown');
    expect((await postClick(events, SECRET, second, 'approve_plan.0', APPROVER)).status).toBe(200);
    expect(await ephemeral(3)).toContain('the plan changed since it was shown');
    expect(refusals().map((r) => r.reason)).toEqual(['superseded', 'tampered', 'tampered']);
  });
});
