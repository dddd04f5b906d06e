/**
 * The chat platform is data (src/platforms/list.ts): a throwaway third platform,
 * Mattermost, added to the list here in test code, is carried by records and jobs,
 * keyed, signed and marked, subscribed to runs, given alert threads and named in
 * approvals, named by the approval policy (approvers, readers and their channels,
 * people, names), with no other edit; records that name no platform still read as Slack's.
 * And nothing under src/ names a platform outside the adapters, the configuration and
 * the list (the composition roots that build each adapter and its route aside).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sign } from 'node:crypto';
import { Redis } from 'ioredis';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSubscriptions } from '../../src/chat/notify/subscriptions.js';
import { createApprovalPolicy, policyFileSchema } from '../../src/policy/approval-policy.js';
import { createReadPolicy } from '../../src/policy/read-policy.js';
import { approversText } from '../../src/chat/use-cases/approvers.js';
import {
  CHAT_PLATFORMS,
  DEFAULT_PLATFORM,
  checkRef,
  messageKeyPart,
  platformField,
  platformOf,
  platformTag,
} from '../../src/platforms/chat-refs.js';
import type * as ListModule from '../../src/platforms/list.js';
import { createThreadStore } from '../../src/queue/alert-thread-store.js';
import { verifyNotify } from '../../src/queue/notify-signature.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { notifyJobSchema } from '../../src/queue/schemas.js';
import { approvalMark, markedApprover } from '../../src/trust/approval-signature.js';
import { sourceFiles } from '../support/source-files.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

vi.mock('../../src/platforms/list.js', async (original) => {
  const list = await original<typeof ListModule>();
  // Mattermost's ids: 26 lower-case letters and digits for users, channels and posts.
  const MM_ID = /^[a-z0-9]{26}$/;
  return {
    ...list,
    // The list with its one new line.
    PLATFORM_LIST: [
      ...list.PLATFORM_LIST,
      {
        name: 'mattermost',
        ids: { conversation: MM_ID, message: MM_ID, person: MM_ID, approver: MM_ID },
        mentionsById: true,
        policy: {
          lowerCase: false,
          channel: MM_ID,
          says: {
            principal: 'a Mattermost user id',
            person: 'a Mattermost user id',
            channel: 'a Mattermost channel id',
          },
        },
      },
    ],
  };
});

const MM = 'mattermost' as never;
const CHANNEL = 'c'.repeat(26);
const POST = 'p'.repeat(26);
const USER = 'u'.repeat(25) + '1';
const DIGEST = 'a'.repeat(64);

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

describe('a third chat platform added to the list', () => {
  it('is a platform records may name, keyed apart; a record naming none is still Slack', () => {
    expect(CHAT_PLATFORMS).toEqual(['slack', 'teams', 'mattermost']);
    expect(platformField.parse('mattermost')).toBe('mattermost');
    expect(platformTag(MM)).toEqual({ platform: 'mattermost' });
    expect(platformTag(DEFAULT_PLATFORM)).toEqual({});
    expect(platformOf({})).toBe('slack');
    expect(messageKeyPart({ platform: MM, channel: CHANNEL, ts: POST })).toBe(
      `mattermost:${CHANNEL}/${POST}`,
    );
    expect(messageKeyPart({ channel: 'C1', ts: '1.1' })).toBe('C1/1.1');
    expect(redisKeys.messagePlan({ platform: MM, channel: CHANNEL, ts: POST })).toBe(
      `rd:msgplan:mattermost:${CHANNEL}/${POST}`,
    );
  });

  it('has its ids checked by their own shape, in jobs too', () => {
    const job = {
      planId: 'p1',
      cluster: 'default',
      platform: 'mattermost',
      approvedBy: [USER],
      channel: CHANNEL,
      messageTs: POST,
    };
    const outcome = (fields: object) => ({
      kind: 'remediation-outcome',
      stage: 'applied',
      detail: 'ok',
      requester: USER,
      ...fields,
    });
    const issues = (value: Parameters<typeof checkRef>[0]) => {
      const found: string[] = [];
      checkRef(value, { addIssue: (i: { message?: string }) => found.push(i.message ?? '') } as never);
      return found;
    };
    expect(issues({ platform: MM, conversation: CHANNEL, message: POST, approvers: [USER] })).toEqual([]);
    // Slack's ids are not Mattermost's; an approver may be another platform's person
    // (the policy's people: issue 54.3), never something of no platform's shape.
    expect(issues({ platform: MM, conversation: 'C1', message: '1.1', approvers: ['U0LEAD'] })).toEqual([
      'the conversation is not a mattermost id',
      'the message is not a mattermost id',
    ]);
    expect(issues({ platform: MM, conversation: CHANNEL, message: POST, approvers: ['<!channel>'] })).toEqual(
      ['an approver is not a mattermost id'],
    );
    expect(notifyJobSchema.safeParse(outcome(job)).success).toBe(true);
    expect(notifyJobSchema.safeParse(outcome({ ...job, channel: 'C1' })).success).toBe(false);
  });

  it("has its approvers' marks sign its name, so no other platform's mark stands for them", () => {
    const plan = { planId: 'p1', shown: DIGEST };
    const mark = approvalMark({ ...plan, user: USER }, testKeys.approval);
    const publicKey = testKeys.approval.publicKeys.get(testKeys.approval.keyId);
    if (!publicKey) throw new Error('no public key');
    expect(markedApprover(mark, plan, publicKey)).toBe(USER);
    // A mark made the way the default platform's are (no platform signed) does not verify.
    const unsigned = `${USER}~${sign(
      null,
      Buffer.from(
        `rollout-doctor approval mark v1\n${JSON.stringify({ planId: 'p1', shown: DIGEST, user: USER })}`,
      ),
      testKeys.approval.privateKey,
    ).toString('base64')}`;
    expect(markedApprover(unsigned, plan, publicKey)).toBeNull();
    // Slack's marks are signed as they always were.
    const slack = approvalMark({ ...plan, user: 'U0LEAD' }, testKeys.approval);
    expect(markedApprover(slack, plan, publicKey)).toBe('U0LEAD');
  });

  it('is mentioned by id where the list says a mention reaches a person', () => {
    expect(approversText('mattermost', [USER])).toEqual([
      { kind: 'mention', person: { platform: 'mattermost', id: USER } },
    ]);
    expect(approversText('teams', ['6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b'])).toEqual([
      { kind: 'text', text: 'an approver' },
    ]);
  });

  it('is named by the approval policy: its people approve and read, in its channels, one person with a Slack id', async () => {
    const file = policyFileSchema.parse({
      rules: [{ cluster: 'prod', approvers: [USER, 'U0LEAD'], requiredApprovals: 2 }],
      readers: [{ namespace: 'shop', channels: [CHANNEL], users: [USER] }],
      people: [{ name: 'Dana Lee', ids: ['U0DANA', USER] }],
      names: { [USER]: 'Dana (Mattermost)' },
    });
    expect(file.names[USER]).toBe('Dana (Mattermost)');
    const approval = createApprovalPolicy({
      approvers: [],
      rules: file.rules,
      people: file.people,
      listGroupMembers: async () => [],
    });
    expect(await approval.check(USER, { cluster: 'prod', namespace: 'shop' })).toEqual({
      allowed: true,
      required: 2,
    });
    // Listed by its Mattermost id, the person approves with their Slack id too.
    expect(await approval.check('U0DANA', { cluster: 'prod', namespace: 'shop' })).toMatchObject({
      allowed: true,
    });
    const read = createReadPolicy({
      readers: [],
      everyone: false,
      rules: file.readers ?? [],
      approval,
      isListed: approval.isListed,
    });
    const ask = (user: string, channel: string) => ({ user, channel, cluster: 'dev', namespace: 'shop' });
    expect(await read.check(ask(USER, CHANNEL))).toEqual({ allowed: true });
    expect(await read.check(ask(USER, 'd'.repeat(26)))).toMatchObject({ allowed: false });
    // Its words in the policy's refusals, beside the other platforms'.
    const refused = policyFileSchema.safeParse({ rules: [{ approvers: ['dana@example.com'] }] });
    expect(refused.error?.issues[0]?.message).toBe(
      'must be a Slack id (U…/W…/S…) or an Entra user object id (GUID) or a Mattermost user id',
    );
  });

  it('subscribes its messages to a run, read back with their platform; made to read as Slack they are dropped', async () => {
    const subs = createSubscriptions(redis, (s) => verifyNotify(s, testKeys.notify.keys), testKeys.approval);
    const message = { platform: MM, channel: CHANNEL, ts: POST };
    const owner = { requestedBy: USER, cluster: 'default', namespace: 'shop' };
    await subs.subscribe('default', 'diagnose.shop.mm', message, 1, owner);
    const set = redisKeys.run('default', 'diagnose.shop.mm').subscribers;
    const [member = ''] = await redis.smembers(set);
    expect(member.endsWith('/mattermost')).toBe(true);
    await redis.sadd(
      set,
      member.slice(0, -'/mattermost'.length),
      `${member.slice(0, -'/mattermost'.length)}/slack`,
    );
    const update = {
      kind: 'diagnosis-progress' as const,
      jobId: 'diagnose.shop.mm',
      cluster: 'default',
      runTs: 1,
      seq: 1,
      text: 'collecting',
    };
    const refs = await subs.publish('default', update.jobId, {
      runTs: 1,
      seq: 1,
      final: false,
      update,
      signed: {},
    });
    expect(refs).toEqual([{ ...message, requester: USER }]);
    expect(await subs.ownerOf(message)).toEqual(owner);
  });

  it('opens alert threads that read back with their platform', async () => {
    const forged: string[] = [];
    const store = createThreadStore(redis, {
      signer: {
        by: 'app',
        key: { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
      },
      verifier: { keys: testKeys.notify.keys, onForged: (record) => void forged.push(record) },
    });
    const { record } = await store.open(
      { workloadHash: 'w-mm', platform: MM, channel: CHANNEL, title: 'web' },
      async () => POST,
    );
    expect(record).toMatchObject({ platform: 'mattermost', channel: CHANNEL, ts: POST });
    expect(await store.find('w-mm')).toMatchObject({ platform: 'mattermost', channel: CHANNEL, ts: POST });
    expect(forged).toEqual([]);
  });
});

/** String literals of `file` that are exactly a platform's name, as `file:line 'name'`. */
function platformLiterals(file: string, names: readonly string[]): string[] {
  const text = readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.includes(node.text))
      found.push(
        `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} '${node.text}'`,
      );
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('where a platform is named', () => {
  /** The adapters, the configuration, the list, and the composition roots that build each adapter and its route. */
  const ALLOWED = [
    /^src\/chat\/(slack|teams)\//,
    /^src\/config\//,
    /^src\/platforms\/list\.ts$/,
    /^src\/app\/(runtime|slack-app|teams-route)\.ts$/,
  ];

  it('nothing under src/ or workers/ names one outside the adapters, the configuration and the list', () => {
    const names = ['slack', 'teams'];
    const files = [...sourceFiles('src'), ...sourceFiles('workers')].filter(
      (f) => !ALLOWED.some((allowed) => allowed.test(f)),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => platformLiterals(f, names))).toEqual([]);
  });

  it('finds a platform named where one is (the check is not vacuous)', () => {
    expect(platformLiterals('src/platforms/list.ts', ['slack', 'teams'])).toHaveLength(2);
    // comments do not count
    expect(platformLiterals('src/platforms/chat-refs.ts', ['slack', 'teams'])).toEqual([]);
  });
});
