/**
 * Message references name their chat platform (src/platforms/chat-refs.ts): a record
 * without one is Slack and reads as it always did, each platform's ids have their own
 * shape, and every signature and mark over a reference signs its platform, so a Slack
 * record cannot be replayed as a Teams one or the other way round.
 */
import { sign } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriptions } from '../../src/chat/notify/subscriptions.js';
import { verifyNotify } from '../../src/queue/notify-signature.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { notifyJobSchema, remediateJobSchema } from '../../src/queue/schemas.js';
import {
  approvalClaims,
  approvalMark,
  markedApprover,
  signApproval,
  verifyApproval,
} from '../../src/trust/approval-signature.js';
import { canonicalJson } from '../../src/trust/plan-seal.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const ALICE = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';
const BOB = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const TEAMS_CHANNEL = '19:a1b2c3d4e5f6@thread.tacv2';
const TEAMS_ACTIVITY = '1732536000123';
const DIGEST = 'a'.repeat(64);

const slackJob = {
  planId: 'p1',
  cluster: 'default',
  approvedBy: ['U0APPROVER'],
  channel: 'C1',
  messageTs: '1.1',
};
const teamsJob = {
  planId: 'p1',
  cluster: 'default',
  platform: 'teams',
  approvedBy: [ALICE],
  channel: TEAMS_CHANNEL,
  messageTs: TEAMS_ACTIVITY,
};

function approval(
  platform: 'slack' | 'teams' | undefined,
  over: Partial<Parameters<typeof approvalClaims>[0]> = {},
) {
  const teams = platform === 'teams';
  return signApproval(
    approvalClaims({
      planId: 'p1',
      digest: DIGEST,
      cluster: 'default',
      planExpiresAt: 2_000,
      approvers: teams ? [ALICE] : ['U0APPROVER'],
      requester: teams ? BOB : 'U0ASKER',
      ...(platform ? { platform } : {}),
      channel: teams ? TEAMS_CHANNEL : 'C1',
      messageTs: teams ? TEAMS_ACTIVITY : '1.1',
      now: 1_000,
      keyId: testKeys.approval.keyId,
      ...over,
    }),
    testKeys.approval.privateKey,
  );
}

const expected = (job: typeof slackJob & { platform?: 'teams' | 'slack' }) => ({
  planId: 'p1',
  digest: DIGEST,
  cluster: 'default',
  now: 1_500,
  platform: job.platform,
  channel: job.channel,
  messageTs: job.messageTs,
  approvedBy: job.approvedBy,
});

describe('job schemas name the platform', () => {
  it('a remediate job without a platform is a Slack job, as jobs queued before Teams are', () => {
    const parsed = remediateJobSchema.parse({ ...slackJob, approval: approval(undefined) });
    expect(parsed.platform).toBeUndefined();
  });

  it('a Teams job carries Teams ids; Teams ids without the platform, or Slack ids with it, are refused', () => {
    expect(remediateJobSchema.safeParse({ ...teamsJob, approval: approval('teams') }).success).toBe(true);
    const { platform: _unused, ...untagged } = teamsJob;
    expect(remediateJobSchema.safeParse({ ...untagged, approval: approval('teams') }).success).toBe(false);
    expect(
      remediateJobSchema.safeParse({ ...slackJob, platform: 'teams', approval: approval('teams') }).success,
    ).toBe(false);
    // An upper-case GUID or a Teams user id (29:…) is no person the policy lists.
    for (const who of [ALICE.toUpperCase(), '29:1abcdef'])
      expect(
        remediateJobSchema.safeParse({ ...teamsJob, approvedBy: [who], approval: approval('teams') }).success,
      ).toBe(false);
    for (const channel of ['19:x@thread.tacv2/evil', 'C1', '19:<b>@thread.tacv2'])
      expect(
        remediateJobSchema.safeParse({ ...teamsJob, channel, approval: approval('teams') }).success,
      ).toBe(false);
  });

  it("an outcome names the same platform; its requester has its shape, its approvers some platform's", () => {
    const outcome = {
      kind: 'remediation-outcome',
      stage: 'applied',
      detail: 'ok',
      planId: 'p1',
      cluster: 'default',
    };
    expect(notifyJobSchema.safeParse({ ...outcome, ...slackJob, requester: 'U0ASKER' }).success).toBe(true);
    expect(notifyJobSchema.safeParse({ ...outcome, ...teamsJob, requester: BOB }).success).toBe(true);
    expect(notifyJobSchema.safeParse({ ...outcome, ...teamsJob, requester: '-' }).success).toBe(true);
    expect(notifyJobSchema.safeParse({ ...outcome, ...teamsJob, requester: 'U0ASKER' }).success).toBe(false);
    // One person approving with the only id they have (issue 54.3): a Teams approver on a
    // Slack message is a person; anything of no platform's shape is not.
    expect(notifyJobSchema.safeParse({ ...outcome, ...slackJob, approvedBy: [ALICE] }).success).toBe(true);
    for (const who of [ALICE.toUpperCase(), '29:1abcdef', '<!channel>'])
      expect(notifyJobSchema.safeParse({ ...outcome, ...slackJob, approvedBy: [who] }).success).toBe(false);
  });
});

describe('approvals sign their platform', () => {
  it('a Teams approval verifies for its Teams job, and a Slack one (no platform) for its Slack job', () => {
    const keys = testKeys.approval.publicKeys;
    const teams = verifyApproval(approval('teams'), keys, expected(teamsJob as never));
    expect(teams.ok && teams.claims.platform).toBe('teams');
    const slack = verifyApproval(approval(undefined), keys, expected(slackJob));
    expect(slack.ok && slack.claims.platform).toBeUndefined();
    // Signing 'slack' explicitly stores nothing: Slack approvals read as before Teams.
    expect(approval('slack').claims).not.toHaveProperty('platform');
  });

  it('an approval is refused for a job on the other platform, and its platform cannot be edited', () => {
    const keys = testKeys.approval.publicKeys;
    const teams = approval('teams');
    expect(verifyApproval(teams, keys, { ...expected(teamsJob as never), platform: undefined })).toEqual({
      ok: false,
      reason: 'the job names another chat platform than the approval',
    });
    const slack = approval(undefined);
    expect(verifyApproval(slack, keys, { ...expected(slackJob), platform: 'teams' })).toMatchObject({
      ok: false,
    });
    // Dropping the signed platform from a Teams approval breaks its signature (and its ids).
    const { platform: _unused, ...claims } = teams.claims;
    expect(
      verifyApproval({ ...teams, claims }, keys, { ...expected(teamsJob as never), platform: undefined }),
    ).toMatchObject({
      ok: false,
      reason: 'the approval is missing or malformed',
    });
  });

  it("an approver's mark: Slack marks are the bytes they always were, Teams marks sign the platform", () => {
    const plan = { planId: 'p1', shown: DIGEST };
    const slackMark = approvalMark({ ...plan, user: 'U0APPROVER' }, testKeys.approval);
    const before = sign(
      null,
      Buffer.from(`rollout-doctor approval mark v1\n${canonicalJson({ ...plan, user: 'U0APPROVER' })}`),
      testKeys.approval.privateKey,
    ).toString('base64');
    expect(slackMark).toBe(`U0APPROVER~${before}`);
    const publicKey = testKeys.approval.publicKeys.get(testKeys.approval.keyId);
    if (!publicKey) throw new Error('no public key');
    expect(markedApprover(slackMark, plan, publicKey)).toBe('U0APPROVER');
    const teamsMark = approvalMark({ ...plan, user: ALICE }, testKeys.approval);
    expect(markedApprover(teamsMark, plan, publicKey)).toBe(ALICE);
    // A mark made the Slack way (no platform signed) does not stand for a Teams approver.
    const unplatformed = sign(
      null,
      Buffer.from(`rollout-doctor approval mark v1\n${canonicalJson({ ...plan, user: ALICE })}`),
      testKeys.approval.privateKey,
    ).toString('base64');
    expect(markedApprover(`${ALICE}~${unplatformed}`, plan, publicKey)).toBeNull();
  });
});

describe('subscriptions and message keys name the platform', () => {
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

  it('Slack keys are unchanged; Teams keys say teams', () => {
    expect(redisKeys.messageOwner({ channel: 'C1', ts: '1.1' })).toBe('rd:msgowner:C1/1.1');
    expect(redisKeys.messagePlan({ platform: 'teams', channel: TEAMS_CHANNEL, ts: TEAMS_ACTIVITY })).toBe(
      `rd:msgplan:teams:${TEAMS_CHANNEL}/${TEAMS_ACTIVITY}`,
    );
  });

  it('a Teams subscriber round-trips with its platform; the same member made to read as Slack is dropped', async () => {
    const subs = createSubscriptions(redis, (s) => verifyNotify(s, testKeys.notify.keys), testKeys.approval);
    const message = { platform: 'teams' as const, channel: TEAMS_CHANNEL, ts: TEAMS_ACTIVITY };
    const owner = { requestedBy: BOB, cluster: 'default', namespace: 'shop' };
    await subs.subscribe('default', 'diagnose.shop.web', message, 1, owner);
    const set = redisKeys.run('default', 'diagnose.shop.web').subscribers;
    const [member = ''] = await redis.smembers(set);
    expect(member.endsWith('/teams')).toBe(true);
    await redis.sadd(set, member.slice(0, -'/teams'.length));
    const update = {
      kind: 'diagnosis-progress' as const,
      jobId: 'diagnose.shop.web',
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
    expect(refs).toEqual([{ ...message, requester: BOB }]);
    expect(await subs.ownerOf(message)).toEqual(owner);
  });

  it('an answered mark made without the platform does not answer a Teams message', async () => {
    const subs = createSubscriptions(redis, (s) => verifyNotify(s, testKeys.notify.keys), testKeys.approval);
    const teams = { platform: 'teams' as const, channel: TEAMS_CHANNEL, ts: TEAMS_ACTIVITY };
    const slackWay = sign(
      null,
      Buffer.from(`rollout-doctor answered v1\n${TEAMS_CHANNEL}/${TEAMS_ACTIVITY}`),
      testKeys.approval.privateKey,
    ).toString('base64url');
    await redis.set(redisKeys.messageAnswered(teams), slackWay);
    expect(await subs.answered(teams)).toBe(false);
    await subs.markAnswered(teams);
    expect(await subs.answered(teams)).toBe(true);
    await subs.markAnswered({ channel: 'C9', ts: '9.9' });
    expect(await subs.answered({ channel: 'C9', ts: '9.9' })).toBe(true);
  });
});
