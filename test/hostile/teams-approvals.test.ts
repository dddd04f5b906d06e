/**
 * Approvals from Teams hold the Slack path's rules (DESIGN.md §6), by Entra object id
 * in the same policy file: under a two-person rule the person who asked for the
 * diagnosis is refused, one approver is recorded and nothing applies, the second
 * applies it once; a press the card never offered (a forged plan id) is refused.
 * Two app replicas share the Redis: an invoke replayed to the other replica (whose own
 * replay guard never saw it, src/chat/teams/inbound.ts) does not count its approver
 * twice: the approvals recorded in Redis decide (docs/teams.md, Replays). Both replicas
 * run through the apply: their notify consumers share the plan's outcomes, and the card
 * still ends on "rolled out", naming approvers as the policy's `names:` does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../src/app/runtime.js';
import type { AuditEvent } from '../../src/audit.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { createLogger } from '../../src/logger.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import {
  startTeamsStandin,
  type Person,
  type PostedActivity,
  type TeamsStandin,
  teamsAppEnv,
} from '../support/teams-standin.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const CHANNEL = '19:gpu@thread.tacv2';
const THREAD = `${CHANNEL};messageid=1732536000002`;
const person = (name: string): Person => ({ id: `29:${name}`, name, aadObjectId: randomUUID() });
const asker = person('asker');
const first = person('first');
const second = person('second');

const plan: RemediationPlan = {
  id: 'set-recreate-trainer',
  kind: 'set-recreate',
  target: { kind: 'Deployment', namespace: 'gpu', name: 'trainer' },
  summary: 'Switch to Recreate',
  impact: 'outage: all replicas',
  warnings: [],
  patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } },
  preconditions: { uid: 'uid-trainer', generation: 2, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
};
const diagnosis: Diagnosis = {
  target: plan.target,
  capturedAt: '2026-11-20T10:00:00Z',
  observed: { uid: 'uid-trainer', generation: 2, resourceVersion: '100' },
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

let redis: TestRedis;
let slack: SlackStandin;
let teams: TeamsStandin;
let app: AppRuntime;
let replica: AppRuntime;
let workers: WorkerRuntime;
let botUrl: string;
let replicaUrl: string;
const lines: string[] = [];
const applied: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: 'xoxb-teams-approvals' });
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  const dir = mkdtempSync(join(tmpdir(), 'rd-teams-approvals-'));
  const policyFile = join(dir, 'policy.yaml');
  const ids = [asker, first, second].map((p) => p.aadObjectId).join(', ');
  // The first approver has a name in the policy (with markup, which stays characters);
  // the second has none: the card says "an approver", never an object id.
  writeFileSync(
    policyFile,
    `rules:\n  - approvers: [${ids}]\n    requiredApprovals: 2\nnames:\n  ${first.aadObjectId}: "Dana *Lee*"\n`,
  );
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const start = async () =>
    (
      await startTestApp({
        slack,
        redisUrl: redis.url,
        secret: 'teams-approvals-secret',
        token: 'xoxb-teams-approvals',
        env: {
          ROLLOUT_DOCTOR_READERS: '*',
          ROLLOUT_DOCTOR_POLICY_FILE: policyFile,
          ...teamsAppEnv(teams),
        },
        logger: createLogger({ level: 'info', name: 'app' }, sink),
      })
    ).app;
  app = await start();
  replica = await start();
  botUrl = `${app.handle.url}/api/messages`;
  replicaUrl = `${replica.handle.url}/api/messages`;
  workers = startTestWorkers(
    redis.url,
    {
      collect: async (ref) => ({ target: ref }) as unknown as DeploymentSnapshot,
      diagnose: () => diagnosis,
      dryRun: async () => ({ ok: true, changes: [] }),
      scan: async () => ({ scanned: 0, entries: [] }),
      apply: async (p) => {
        applied.push(p.id);
        return { status: 'applied', changes: [], generation: 3, resourceVersion: '101' };
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
  await replica?.stop();
  await app?.stop();
  await teams?.close();
  await slack?.close();
  await redis?.close();
});

const audit = (): AuditEvent[] =>
  lines
    .map((l) => JSON.parse(l) as { audit?: boolean; event?: AuditEvent })
    .flatMap((e) => (e.audit && e.event ? [e.event] : []));
const cardOf = (a: PostedActivity): string => JSON.stringify(a.activity.attachments ?? []);

function approveData(card: PostedActivity): Record<string, unknown> {
  const match = /"data":(\{"action":\{"kind":"approve"[^}]*\}\})/.exec(cardOf(card));
  if (!match?.[1]) throw new Error('no Approve on the card');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe('Teams approvals under a two-person rule', () => {
  it('refuses the requester, records one approver, applies on the second, once', async () => {
    const asked = await teams.send(
      botUrl,
      teams.message({ text: 'diagnose deployment/trainer -n gpu', from: asker, conversationId: THREAD }),
    );
    expect(asked.status).toBe(200);
    const card = await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => a.updates > 0 && cardOf(a).includes('Recommended fix')),
      SIGNAL_WAIT_MS,
    );
    const invoke = (from: Person, data = approveData(card)) =>
      teams.cardAction({ verb: 'press', data, from, conversationId: THREAD, replyToId: card.id });
    const press = (from: Person, data?: Record<string, unknown>) => teams.send(botUrl, invoke(from, data));
    const answer = async (to: string, activity: ReturnType<typeof invoke>) =>
      JSON.stringify((await teams.send(to, activity)).body);
    expect(JSON.stringify((await press(asker)).body)).toContain('you asked for this diagnosis');
    const firstPress = invoke(first);
    expect(await answer(botUrl, firstPress)).toContain('Approval recorded (1/2)');
    // The same invoke again: this replica's guard stops it; the other replica's claim does.
    expect(await answer(botUrl, firstPress)).toContain('already handled');
    expect(await answer(replicaUrl, firstPress)).toContain('You already approved this plan');
    expect(applied).toEqual([]);
    // A plan id the card never offered, with the digest of the real one: refused before any decision.
    const forged = approveData(card);
    const action = { ...(forged.action as Record<string, unknown>), planId: 'set-recreate-other' };
    expect(JSON.stringify((await press(second, { ...forged, action })).body)).toContain('does not offer');
    expect(audit()).toContainEqual(expect.objectContaining({ action: 'refusal', reason: 'self-approval' }));
    const secondPress = invoke(second);
    await teams.send(botUrl, secondPress);
    await teams.waitFor((s) => {
      const now = s.activities.get(card.id);
      return now && cardOf(now).includes('rolled out') ? now : undefined;
    }, SIGNAL_WAIT_MS);
    // Both replicas' notify consumers took outcomes; once every one is handled, the card
    // still says "rolled out" (src/chat/notify/root-stage.ts), not "rollout under way".
    await waitForIdleQueues(redis.url, ['notify', 'remediate.default']);
    const final = cardOf(teams.activities.get(card.id) ?? card);
    expect(final).toContain('rolled out at');
    expect(final).not.toContain('rollout under way');
    expect(final).toContain('"text":"Dana *Lee*"');
    expect(final).toContain(' and an approver at ');
    for (const p of [first, second]) expect(final).not.toContain(p.aadObjectId);
    expect(applied).toEqual([plan.id]);
    const claimed = audit().filter((e) => e.action === 'approval' && e.result === 'claimed');
    expect(claimed).toEqual([expect.objectContaining({ user: second.aadObjectId.toLowerCase() })]);
  });
});
