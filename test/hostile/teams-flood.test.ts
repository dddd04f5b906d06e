/**
 * Issue 54, items 1 and 2, on Teams with the real app on a real Redis: every id is its
 * own budget key (two Teams people, two Teams channels: neither uses up the other's),
 * and a tenant member with no rights flooding the bot refuses nobody else: their
 * commands and Apply presses are refused privately (no public post in the channel, at
 * most a few answers in their personal chat, every refusal audited) and spend nothing
 * of the channel's budget, so a reader's command and an approver's Apply still go
 * through in that channel.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../src/app/runtime.js';
import type { AuditEvent } from '../../src/audit.js';
import { createLogger } from '../../src/logger.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import { fakeClusterDeps, recreatePlan } from '../support/fake-cluster.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import {
  activityText,
  startTeamsStandin,
  teamsAppEnv,
  type Person,
  type PostedActivity,
  type TeamsStandin,
} from '../support/teams-standin.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const CHANNEL = '19:flood@thread.tacv2';
const OTHER_CHANNEL = '19:quiet@thread.tacv2';
const thread = (channel: string, root: string) => `${channel};messageid=${root}`;
const person = (name: string): Person => ({ id: `29:${name}`, name, aadObjectId: randomUUID() });
const readerA = person('reader-a');
const readerB = person('reader-b');
const approver = person('approver');
const outsider = person('outsider');

let redis: TestRedis;
let slack: SlackStandin;
let teams: TeamsStandin;
let app: AppRuntime;
let workers: WorkerRuntime;
let botUrl: string;
const lines: string[] = [];
const applied: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: 'xoxb-teams-flood' });
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  const dir = mkdtempSync(join(tmpdir(), 'rd-teams-flood-'));
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(
    policyFile,
    [
      'rules:',
      `  - approvers: [${approver.aadObjectId}]`,
      'readers:',
      `  - users: [${readerA.aadObjectId}, ${readerB.aadObjectId}]`,
      '',
    ].join('\n'),
  );
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  app = (
    await startTestApp({
      slack,
      redisUrl: redis.url,
      secret: 'teams-flood-secret',
      token: 'xoxb-teams-flood',
      env: {
        ROLLOUT_DOCTOR_POLICY_FILE: policyFile,
        ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE: '3',
        ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE: '5',
        ...teamsAppEnv(teams),
      },
      logger: createLogger({ level: 'info', name: 'app' }, sink),
    })
  ).app;
  botUrl = `${app.handle.url}/api/messages`;
  workers = startTestWorkers(redis.url, fakeClusterDeps(applied), {
    logger: createLogger({ level: 'silent', name: 'worker' }),
  });
});

afterAll(async () => {
  await workers?.stop();
  await app?.stop();
  await teams?.close();
  await slack?.close();
  await redis?.close();
});

const audit = (): AuditEvent[] =>
  lines
    .map((l) => JSON.parse(l) as { audit?: boolean; event?: AuditEvent })
    .flatMap((e) => (e.audit && e.event ? [e.event] : []));
const refusals = (user: Person, reason: string) =>
  audit().filter(
    (e) => e.action === 'refusal' && e.reason === reason && e.user === user.aadObjectId.toLowerCase(),
  );
const say = (from: Person, conversationId: string, text: string) =>
  teams.send(botUrl, teams.message({ text, from, conversationId }));
const announced = (conversation: string, name: string): PostedActivity[] =>
  teams.posted(conversation).filter((a) => activityText(a).includes(`deployment/${name}`));
const personalChat = (who: Person) => teams.posted(`a:personal-${who.id.slice(3)}`);
/** Everything the bot posted in a channel that names `who` or answers them. */
const publicAbout = (conversation: string, who: Person) =>
  teams
    .posted(conversation)
    .filter((a) => activityText(a).includes(who.name) || activityText(a).includes('Not started'));

describe('Teams command budget: one key per id', () => {
  it('two Teams people in two channels each have their own budget', async () => {
    const a = thread(OTHER_CHANNEL, '1732600000001');
    for (let i = 0; i < 4; i++)
      expect((await say(readerA, a, `diagnose deployment/a-${i} -n shop`)).status).toBe(200);
    await teams.waitFor(
      () => [0, 1, 2].every((i) => announced(OTHER_CHANNEL, `a-${i}`).length > 0),
      SIGNAL_WAIT_MS,
    );
    await teams.waitFor(() => refusals(readerA, 'rate-limited').length === 1, SIGNAL_WAIT_MS);
    // Reader B, in another channel: their own budget and their channel's, untouched by A.
    const b = thread('19:elsewhere@thread.tacv2', '1732600000002');
    await say(readerB, b, 'diagnose deployment/b-0 -n shop');
    await teams.waitFor(() => announced('19:elsewhere@thread.tacv2', 'b-0').length > 0, SIGNAL_WAIT_MS);
    expect(refusals(readerB, 'rate-limited')).toEqual([]);
    // A's refusal was private: their personal chat, never the channel.
    expect(announced(OTHER_CHANNEL, 'a-3')).toEqual([]);
    await teams.waitFor(
      () => personalChat(readerA).some((p) => activityText(p).includes('Not started')),
      SIGNAL_WAIT_MS,
    );
    expect(
      publicAbout(OTHER_CHANNEL, readerA).filter((p) => activityText(p).includes('Not started')),
    ).toEqual([]);
  });

  it("an outsider's flood is refused privately and bounded, and refuses no reader nor approver", async () => {
    const root = thread(CHANNEL, '1732600000100');
    const before = teams.posted(CHANNEL).length;
    const flood = await Promise.all(
      Array.from({ length: 12 }, (_, i) => say(outsider, root, `diagnose deployment/x-${i} -n shop`)),
    );
    expect(flood.map((r) => r.status)).toEqual(Array(12).fill(200));
    await teams.waitFor(() => refusals(outsider, 'not-reader').length === 12, SIGNAL_WAIT_MS);
    // Nothing public: not one post in the channel for the outsider's 12 commands.
    expect(teams.posted(CHANNEL).length).toBe(before);
    // Their personal chat got a few answers, not twelve.
    await teams.waitFor(() => personalChat(outsider).length > 0, SIGNAL_WAIT_MS);
    expect(personalChat(outsider).length).toBeLessThanOrEqual(3);
    expect(refusals(outsider, 'rate-limited')).toEqual([]);

    // The reader's command in the same channel runs (the channel's budget is intact)...
    await say(readerB, root, 'diagnose deployment/web -n shop');
    const card = await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => a.updates > 0 && activityText(a).includes('Recommended fix')),
      SIGNAL_WAIT_MS,
    );
    const data = approveData(card);
    const press = (from: Person) =>
      teams.send(
        botUrl,
        teams.cardAction({ verb: 'press', data, from, conversationId: root, replyToId: card.id }),
      );
    // ...the outsider pressing Apply again and again is refused in each press's own answer...
    const presses = await Promise.all(Array.from({ length: 8 }, () => press(outsider)));
    for (const p of presses) expect(JSON.stringify(p.body)).toContain('Not applied');
    expect(refusals(outsider, 'not-approver').length).toBe(8);
    // ...and the approver's Apply goes through, once.
    const approved = await press(approver);
    expect(JSON.stringify(approved.body)).not.toContain('Not started');
    await teams.waitFor(() => applied.length === 1, SIGNAL_WAIT_MS);
    expect(applied).toEqual([recreatePlan('shop', 'web').id]);
    expect(refusals(approver, 'rate-limited')).toEqual([]);
    expect(teams.posted(CHANNEL).some((a) => activityText(a).includes(outsider.name))).toBe(false);
  });
});

function approveData(card: PostedActivity): Record<string, unknown> {
  const match = /"data":(\{"action":\{"kind":"approve"[^}]*\}\})/.exec(JSON.stringify(card.activity));
  if (!match?.[1]) throw new Error('no Approve on the card');
  return JSON.parse(match[1]) as Record<string, unknown>;
}
