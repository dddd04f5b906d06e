/**
 * Draft post-mortem (issue 65.4) end to end on a real Redis: the reply that says a fix
 * rolled out carries the button, on Slack (the stand-in's Web API) and Teams (the
 * stand-in's Bot Connector); a press posts the draft of the incident's record as Redis
 * keeps it, equal to what `rollout-doctor postmortem` renders of it in the thread's
 * language (Slack: a file through files.uploadV2; Teams: replies quoting it). A second
 * press on an unchanged record posts nothing and says when the draft was posted; a
 * record grown since posts a fresh one; a forged button value, a forged record and an
 * expired record post nothing.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatServices } from '../../src/chat/services.js';
import { createPostmortemButtons } from '../../src/chat/notify/postmortem-buttons.js';
import { deliverOutcome } from '../../src/chat/notify/outcome-delivery.js';
import { ACTION } from '../../src/chat/slack/blocks/action-ids.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';
import { draftPostmortemAction } from '../../src/chat/slack/listeners/actions/draft-postmortem.js';
import { createNotifyClient } from '../../src/chat/slack/notify-client.js';
import { VERBS } from '../../src/chat/teams/cards.js';
import { answerPress } from '../../src/chat/use-cases/approve-press.js';
import { buildIncidentRecord } from '../../src/postmortem/build.js';
import { renderPostmortem } from '../../src/postmortem/render.js';
import { createIncidentJournal } from '../../src/queue/incident-journal.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { discardLogger } from '../support/http-test-server.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';
import { seedIncidentEvents, T0 } from '../support/postmortem-incident.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import { memoryCardStore } from '../../src/chat/teams/adapter.js';
import { startBareTeamsBot, type BareTeamsBot } from '../support/teams-bot.js';
import { activityText, startTeamsStandin, type TeamsStandin } from '../support/teams-standin.js';

const ID = 'default/vision/object-tracker';
const DAY = 86_400_000;
const PLAN = 'set-rolling-update-0123456789abcdef';
const keys = ephemeralPlanKeys({ seal: 's8', approval: 'a8', notify: 'n8' });
const events = seedIncidentEvents();
const STORED = {
  plan: {
    id: PLAN,
    kind: 'set-rolling-update',
    target: { kind: 'Deployment', namespace: 'vision', name: 'object-tracker' },
  },
  cluster: 'default',
  createdAt: T0,
  expiresAt: T0 + DAY,
} as unknown as StoredPlan;

let server: TestRedis;
let redis: Redis;
let slack: SlackStandin;
let teams: TeamsStandin;
let bot: BareTeamsBot;
const forged: string[] = [];

function services(lang: 'en' | 'ko' = 'ko') {
  const audit = { record: vi.fn() };
  return {
    logger: discardLogger('pm'),
    audit,
    readPolicy: { check: vi.fn(async () => ({ allowed: true })) },
    config: { lang, incidentRetentionMs: 7 * DAY },
    plans: { get: async (id: string) => (id === PLAN ? STORED : null) },
    postmortems: createPostmortemButtons(redis, {
      records: {
        signer: { by: 'app', key: { keyId: keys.approval.keyId, privateKey: keys.approval.privateKey } },
        verifier: { keys: keys.notify.keys, onForged: (record) => void forged.push(record) },
      },
      retentionMs: 7 * DAY,
    }),
  };
}

const outcome = (over: Partial<Extract<NotifyJob, { kind: 'remediation-outcome' }>>) =>
  ({
    kind: 'remediation-outcome',
    planId: PLAN,
    cluster: 'default',
    channel: 'C1',
    messageTs: '1700000000.000100',
    stage: 'rolled-out',
    detail: 'deployment/object-tracker rolled out: 3/3 available.',
    ...over,
  }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;

async function journal(list = events): Promise<void> {
  const j = createIncidentJournal(redis, { retentionMs: 7 * DAY });
  for (const { at, event } of list) await j.append(at, event);
}

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  slack = await startSlackStandin({ botToken: 'xoxb-test' });
  teams = await startTeamsStandin({ appPassword: 'pw' });
  const teamsServices = services('en');
  bot = await startBareTeamsBot({
    teams,
    appPassword: 'pw',
    store: memoryCardStore(),
    useCases: {
      command: async () => {
        throw new Error('no command here');
      },
      press: (request) => answerPress(teamsServices as never, request),
      announce: async () => null,
    },
    logger: discardLogger('teams'),
    refreshUserIds: () => [],
  });
  await journal();
});

afterAll(async () => {
  await bot?.server.close();
  await teams?.close();
  await slack?.close();
  redis?.disconnect();
  await server?.close();
});

/** The reply deliverOutcome posted in thread `thread` of C1, as the stand-in holds it. */
function replyIn(thread: string) {
  const reply = [...slack.messages.values()].find((m) => m.threadTs === thread);
  if (!reply) throw new Error(`no reply in ${thread}`);
  return reply;
}

/** A click of the reply's Draft post-mortem button (its value as posted, or `value`). */
async function pressOnSlack(svc: ReturnType<typeof services>, ts: string, thread: string, value?: string) {
  const client = createNotifyClient('xoxb-test', slack.apiUrl);
  const button = replyIn(thread)
    .blocks.flatMap((b) => (b.elements as Record<string, unknown>[] | undefined) ?? [])
    .find((e) => e.action_id === ACTION.postmortem);
  const action = {
    type: 'button',
    action_id: ACTION.postmortem,
    block_id: 'b',
    value: value ?? String(button?.value),
    action_ts: '1',
  };
  const body = {
    type: 'block_actions',
    user: { id: 'U0READER' },
    channel: { id: 'C1' },
    container: { channel_id: 'C1', message_ts: ts },
    message: { ts, thread_ts: thread, blocks: replyIn(thread).blocks },
    actions: [action],
  };
  const told = slack.callsOf('chat.postEphemeral').length;
  await draftPostmortemAction(svc as unknown as ChatServices)({
    ack: vi.fn(async () => undefined),
    body,
    action,
    client,
  } as never);
  return slack
    .callsOf('chat.postEphemeral')
    .slice(told)
    .map((c) => String(c.args.text));
}

const buttonsOf = (blocks: Record<string, unknown>[]) =>
  blocks.flatMap((b) => (b.elements as Record<string, unknown>[] | undefined) ?? []).map((e) => e.action_id);

describe('Draft post-mortem on Slack', () => {
  const svc = () => services('ko');

  it('is offered on the rolled-out reply, not on the applied one', async () => {
    const s = svc();
    const slackChat = createSlackChatAdapter(createNotifyClient('xoxb-test', slack.apiUrl));
    await deliverOutcome(
      { ...s, chats: { slack: slackChat } } as never,
      outcome({ stage: 'applied', messageTs: '1700000000.000001' }),
      undefined,
    );
    expect(buttonsOf(replyIn('1700000000.000001').blocks)).not.toContain(ACTION.postmortem);
    await deliverOutcome({ ...s, chats: { slack: slackChat } } as never, outcome({}), undefined);
    const reply = replyIn('1700000000.000100');
    expect(buttonsOf(reply.blocks)).toContain(ACTION.postmortem);
    // The button carries nothing of the incident: the app kept it for this message.
    expect(JSON.stringify(reply.blocks)).not.toContain('object-tracker","action_id');
    expect(await s.postmortems.of({ channel: 'C1', ts: reply.ts })).toEqual({
      incident: ID,
      cluster: 'default',
      namespace: 'vision',
      lang: 'ko',
    });
  });

  it('posts the draft of the record in the thread as a file, in the thread language', async () => {
    const reply = replyIn('1700000000.000100');
    const pressed = svc();
    const told = await pressOnSlack(pressed, reply.ts, '1700000000.000100');
    expect(told).toEqual([]);
    expect(slack.files).toHaveLength(1);
    const [file] = slack.files;
    expect(file?.content).toBe(
      renderPostmortem(buildIncidentRecord(ID, events), { lang: 'ko', zone: 'UTC' }),
    );
    expect(file?.content).toContain('# 포스트모템');
    expect(file).toMatchObject({ channel: 'C1', threadTs: '1700000000.000100' });
    expect(file?.name).toMatch(/^postmortem-default-vision-object-tracker-\d{4}-\d\d-\d\d\.md$/);
    expect(file?.initialComment).toContain(`기록의 이벤트 ${events.length}건으로 만들었습니다`);
    // Audited once posted: who pressed, which incident, the file.
    expect(pressed.audit.record).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        action: 'postmortem',
        incident: ID,
        user: expect.any(String) as unknown,
        file: file?.name,
        posted: 'file',
      }),
    );
  });

  it('a second press on the same record posts nothing and says when the draft was posted', async () => {
    const reply = replyIn('1700000000.000100');
    const told = await pressOnSlack(svc(), reply.ts, '1700000000.000100');
    expect(slack.files).toHaveLength(1);
    expect(told.join('\n')).toMatch(/이 스레드에 올렸습니다. 그 뒤로 기록된 것이 없어/);
  });

  it('a press after the record grew posts a fresh draft with the new event', async () => {
    await journal([
      {
        at: T0 + 3_600_000,
        event: {
          action: 'refusal',
          planId: PLAN,
          cluster: 'default',
          namespace: 'vision',
          deployment: 'object-tracker',
          user: 'U0LATE',
          reason: 'not-approver',
        },
      },
    ]);
    const reply = replyIn('1700000000.000100');
    await pressOnSlack(svc(), reply.ts, '1700000000.000100');
    expect(slack.files).toHaveLength(2);
    expect(slack.files[1]?.content).toContain('U0LATE');
    expect(slack.files[0]?.content).not.toContain('U0LATE');
  });

  it('an upload Slack refuses (no files:write, an outage) is told, and a press again posts it', async () => {
    await journal([
      {
        at: T0 + 7_200_000,
        event: {
          action: 'refusal',
          planId: PLAN,
          cluster: 'default',
          namespace: 'vision',
          deployment: 'object-tracker',
          user: 'U0LATER',
          reason: 'not-approver',
        },
      },
    ]);
    const reply = replyIn('1700000000.000100');
    slack.failNext('files.getUploadURLExternal', 1, { status: 500 });
    const told = await pressOnSlack(svc(), reply.ts, '1700000000.000100');
    expect(told.join('\n')).toContain('이 스레드에 올리지 못했습니다. 다시 눌러 주세요');
    expect(slack.files).toHaveLength(2);
    expect(await pressOnSlack(svc(), reply.ts, '1700000000.000100')).toEqual([]);
    expect(slack.files).toHaveLength(3);
    expect(slack.files[2]?.content).toContain('U0LATER');
  });

  it('a forged value is no press: nothing posted, nothing told', async () => {
    const reply = replyIn('1700000000.000100');
    await redis.del(...(await redis.keys('rd:pm-draft:*')));
    for (const value of [ID, 'other/ns/secret', '{"incident":"other/ns/secret"}']) {
      const told = await pressOnSlack(svc(), reply.ts, '1700000000.000100', value);
      expect(told).toEqual([]);
    }
    expect(slack.files).toHaveLength(3);
  });

  it('a record a Redis writer pointed at another incident reads as none, reported', async () => {
    const reply = replyIn('1700000000.000100');
    const key = redisKeys.postmortemButton({ channel: 'C1', ts: reply.ts });
    const value = (await redis.get(key)) ?? '';
    await redis.set(key, value.replace(ID, 'default/payments/ledger'));
    const told = await pressOnSlack(svc(), reply.ts, '1700000000.000100');
    expect(told.join('\n')).toContain('더 이상 보관되어 있지 않습니다');
    expect(forged).toContain('post-mortem button');
    expect(slack.files).toHaveLength(3);
    await redis.set(key, value);
  });

  it('an expired record is said so, with the command that drafts from the audit log', async () => {
    const reply = replyIn('1700000000.000100');
    const kept = await redis.xrange(redisKeys.incident(ID), '-', '+');
    await redis.del(redisKeys.incident(ID));
    const told = await pressOnSlack(svc(), reply.ts, '1700000000.000100');
    expect(told.join('\n')).toMatch(/Redis에 인시던트 .*default\/vision\/object-tracker.* 기록이 없습니다/);
    expect(told.join('\n')).toContain('postmortem --from-audit');
    expect(slack.files).toHaveLength(3);
    for (const [, fields] of kept) await redis.xadd(redisKeys.incident(ID), '*', ...fields);
  });
});

describe('Draft post-mortem on Teams', () => {
  const CHANNEL = '19:ops@thread.tacv2';
  const ROOT = '1732536000001';
  const reader = { id: '29:reader', name: 'Reader', aadObjectId: randomUUID() };

  it('the rolled-out reply offers it; a press posts the draft as a reply quoting it; a forged action is refused', async () => {
    const s = services('en');
    await deliverOutcome(
      { ...s, chats: { teams: bot.adapter } } as never,
      outcome({ platform: 'teams', channel: CHANNEL, messageTs: ROOT }),
      undefined,
    );
    const reply = await teams.waitFor((t) =>
      t.posted(CHANNEL).find((a) => activityText(a).includes('"kind":"postmortem"')),
    );
    const press = (action: Record<string, unknown>) =>
      teams.send(
        bot.botUrl,
        teams.cardAction({
          verb: VERBS.press,
          data: { action },
          from: reader,
          conversationId: `${CHANNEL};messageid=${ROOT}`,
          replyToId: reply.id,
        }),
      );
    const forgedPress = await press({ kind: 'postmortem', incident: 'default/payments/ledger' });
    expect(forgedPress.body).toMatchObject({ statusCode: 400 });
    const before = teams.posted(CHANNEL).length;
    const answer = await press({ kind: 'postmortem' });
    expect(answer.status).toBe(200);
    const markdown = renderPostmortem(
      buildIncidentRecord(
        ID,
        (await import('../../src/queue/incident-journal.js').then((m) => m.readIncidentJournal(redis, ID)))
          .events,
      ),
      {
        lang: 'en',
        zone: 'UTC',
      },
    );
    const draft = await teams.waitFor((t) =>
      t
        .posted(CHANNEL)
        .slice(before)
        .find((a) => activityText(a).includes('Post-mortem draft')),
    );
    expect(draft.conversationId).toBe(`${CHANNEL};messageid=${ROOT}`);
    // The whole draft, quoted as code text (a run of the card, never Markdown the card renders).
    expect(activityText(draft)).toContain(JSON.stringify(markdown).slice(1, -1));
  });
});
