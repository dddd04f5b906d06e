import { LANGS, type Lang } from '../../i18n/lang.js';
import { redisKeys } from '../../queue/redis-keys.js';
import { createPublicKey, sign, verify as verifySignature, type KeyObject } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { SigningKey } from '../../trust/approval-signature.js';
import { NO_REQUESTER, type Requester } from '../actions.js';
import type { NotifyVerdict } from '../../queue/notify-signature.js';
import type { RunUpdate } from '../../queue/schemas.js';
import {
  DEFAULT_PLATFORM,
  chatPlatform,
  isId,
  platformOf,
  platformPrefix,
  platformTag,
  type ChatPlatform,
} from '../../platforms/chat-refs.js';
import { whileRedisAway } from '../../queue/connection.js';
import { redisScript } from '../../queue/redis-script.js';
import { distrustOf, dropRunRecord, readRunRecord } from './run-record.js';

/**
 * Which chat messages (Slack or Teams) show which diagnosis run. Several requests for one target
 * join one job (deterministic job id); each request's message subscribes to that
 * job, and every progress or result notification is fanned out to all of them.
 *
 * Keys (cluster and job id scoped): `rd:run:<cluster>:<jobId>` (hash: run, seq,
 * final, finishedAt, payload), `rd:subs:...` (set of "channel/ts/thread/requester/mark"
 * for the current run), `rd:subsdone:...` (the subscribers a final result went to, for
 * redelivery), where the mark is the app's signature over cluster, job id, message,
 * the thread root its report goes to and who asked for it (its approval key, a domain
 * of its own): a message added there by anyone else is not updated, so a genuine
 * result cannot be shown in a message, channel or thread nobody asked for it in, and
 * the requester it is rendered with (in its Apply buttons: they do not count toward a
 * two-person approval) cannot be removed or changed;
 * `rd:msgowner:<channel>/<ts>` (who asked for the run a message shows, and where: the
 * requester may dismiss it; it decides nothing else),
 * `rd:msgplan:<channel>/<ts>` (the one plan approved on a message: its other plans
 * are refused). A Teams message's keys read `teams:<conversation>/<activity>` in place
 * of `<channel>/<ts>`, its member ends in "/teams", and every mark over it signs its
 * platform: a Slack record never stands for a Teams message, nor the other way round.
 */

/**
 * A message location: a Slack channel and ts, or (platform 'teams') a Teams
 * conversation id and activity id. Absent platform: Slack.
 */
export interface MessageRef {
  platform?: ChatPlatform | undefined;
  channel: string;
  ts: string;
}

/**
 * A message a run updates, as the app's mark on its subscription says: who asked for
 * the run there (NO_REQUESTER: nobody, an alert) and, for a thread reply (Re-run), the
 * thread root its report goes to.
 */
export interface SubscriberRef extends MessageRef {
  requester: Requester;
  threadTs?: string;
}

/** Who asked for the run a message shows, and for which cluster and namespace. */
export interface MessageOwner {
  requestedBy: string;
  cluster: string;
  /** Absent for a cluster-wide scan. */
  namespace?: string;
  /** The thread root when the message is itself a thread reply (Re-run). */
  threadTs?: string;
  /** The language of whoever started the thread; absent (older records): the workspace's. */
  lang?: Lang;
}

const TTL_SECONDS = 24 * 3600;

// Subscribe: a request gets a finished run's result directly when that run finished
// after the request was queued (ARGV[2]) or is the very run its add joined (ARGV[4], the
// joined job's add time: a run that published its result before the request came, its
// job not yet completed, has no later result to wait for); otherwise it joins the
// current (or next) run's subscribers.
const SUBSCRIBE = `
local record = redis.call('HMGET', KEYS[1], 'final', 'finishedAt', 'payload', 'run')
local final, payload, run = record[1], record[3], record[4]
local finishedAt = tonumber(record[2] or '0') or 0
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3], 'EX', ${TTL_SECONDS}) end
local joined = ARGV[4] ~= '' and run == ARGV[4]
if final == '1' and (finishedAt >= tonumber(ARGV[2]) or joined) then return {'final', payload} end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ${TTL_SECONDS})
if final ~= '1' and payload then return {'progress', payload} end
return {'none'}
`;

// Publish: accept a newer run, or a newer (or the same, on retry) notification
// of the current run unless that run already has its final result.
const PUBLISH = `
local cur = redis.call('HMGET', KEYS[1], 'run', 'seq', 'final')
local run, seq, final = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1'
local curRun, curSeq, curFinal = tonumber(cur[1]), tonumber(cur[2]), cur[3] == '1'
if curRun ~= nil and run == curRun and curFinal then
  if final and seq == curSeq then return redis.call('SMEMBERS', KEYS[3]) end
  return false
end
if curRun ~= nil and (run < curRun or (run == curRun and not final and seq < curSeq)) then return false end
redis.call('HSET', KEYS[1], 'run', ARGV[1], 'seq', ARGV[2], 'final', ARGV[3], 'payload', ARGV[4], 'finishedAt', final and ARGV[5] or '0')
redis.call('EXPIRE', KEYS[1], ${TTL_SECONDS})
if final then
  redis.call('DEL', KEYS[3])
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('RENAME', KEYS[2], KEYS[3]) redis.call('EXPIRE', KEYS[3], ${TTL_SECONDS}) end
  return redis.call('SMEMBERS', KEYS[3])
end
return redis.call('SMEMBERS', KEYS[2])
`;

export type SubscribeResult = { state: 'final' | 'progress'; update: RunUpdate } | { state: 'none' };

export interface Subscriptions {
  /**
   * `addedAt`: when this request's enqueue happened (ms), before calling. `owner`: who
   * asked (null: nobody, said so in the mark). `joinedRun`: the run the request's add
   * joined (its job's add time, as the worker's notifications carry it as `runTs`),
   * whose result answers it even when published before `addedAt`.
   */
  subscribe(
    cluster: string,
    jobId: string,
    message: MessageRef,
    addedAt: number,
    owner: MessageOwner | null,
    joinedRun?: number,
  ): Promise<SubscribeResult>;
  /**
   * Who asked for the run shown in a message, as recorded unsigned for Dismiss; null for
   * messages nobody asked for (alerts), long gone, or deleted by a Redis writer. Never
   * for the two-person rule: that reads the requester from signed data.
   */
  ownerOf(message: MessageRef): Promise<MessageOwner | null>;
  /** The plan approved on a message, if any. */
  approvedPlanOf(message: MessageRef): Promise<string | null>;
  /**
   * Makes `planId` the message's approved plan unless another plan holds it already,
   * atomically; returns the plan that holds it now (`planId` when this call won).
   */
  claimMessagePlan(message: MessageRef, planId: string): Promise<string>;
  /** Forgets the message's approved plan when it is `planId` (its job could not be queued). */
  releaseMessagePlan(message: MessageRef, planId: string): Promise<void>;
  /** Records, under the app's mark, that the message got its run's final result. */
  markAnswered(message: MessageRef): Promise<void>;
  /**
   * Whether the message got a final result: only a record with the app's mark counts,
   * so a Redis writer cannot silence the deadline answer (src/chat/notify/run-deadline.ts).
   */
  answered(message: MessageRef): Promise<boolean>;
  /**
   * The final result of the latest run of `jobId`, only when its signature still
   * verifies (null otherwise), and the messages it went to: what the workers last
   * reported, for telling a plan that a later diagnosis re-made apart from one
   * rewritten in Redis.
   */
  latestResult(
    cluster: string,
    jobId: string,
  ): Promise<{ result: Extract<RunUpdate, { kind: 'diagnosis-result' }>; shownIn: SubscriberRef[] } | null>;
  /**
   * Whether a run of `jobId` published its final result (signed, still verifying) at or
   * after `since` (ms), or is the run the request joined (`joinedRun`, its job's add
   * time) however early it published: a request queued at `since` has had its answer,
   * so writing its job again after a failover would only run the diagnosis a second time.
   */
  finishedSince(cluster: string, jobId: string, since: number, joinedRun?: number): Promise<boolean>;
  /**
   * Returns the messages to update, or null when the notification is stale. `signed`:
   * the notify job as queued, with its signature; kept for messages that join later,
   * which get it only when it still verifies.
   */
  publish(
    cluster: string,
    jobId: string,
    n: { runTs: number; seq: number; final: boolean; update: RunUpdate; signed: unknown },
    now?: number,
  ): Promise<SubscriberRef[] | null>;
}

interface SubscriptionOptions {
  /**
   * A run record that may not decide (run-record.ts: unsigned, another run's, ahead of
   * this clock, without or beyond its expiry) was ignored: `key` and why. The app logs
   * and counts it (rollout_doctor_tampered_records_total{record="run record"}).
   */
  onIgnored?: (key: string, reason: string) => void;
  /** This clock (ms); Date.now by default. */
  now?: () => number;
}

function keys(cluster: string, jobId: string): [string, string, string] {
  const k = redisKeys.run(cluster, jobId);
  return [k.run, k.subscribers, k.delivered];
}

const ownerKey = redisKeys.messageOwner;
const answeredKey = redisKeys.messageAnswered;
const planKey = redisKeys.messagePlan;

// SET NX, or the holder: one plan per message, decided in Redis.
const CLAIM_MESSAGE_PLAN = `
local ok = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
if ok then return ARGV[1] end
return redis.call('GET', KEYS[1])
`;
const RELEASE_MESSAGE_PLAN = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Every script here runs for every announcement or notification: by its hash (redis-script.ts). */
const scripts = {
  subscribe: redisScript(SUBSCRIBE),
  publish: redisScript(PUBLISH),
  claimMessagePlan: redisScript(CLAIM_MESSAGE_PLAN),
  releaseMessagePlan: redisScript(RELEASE_MESSAGE_PLAN),
};

const messageOwnerSchema = z.object({
  requestedBy: z.string().min(1),
  cluster: z.string().min(1),
  namespace: z.string().min(1).optional(),
  threadTs: z.string().min(1).max(210).optional(),
  // Redis is not trusted: a language we do not have reads as none, and the owner stays.
  lang: z.enum(LANGS).optional().catch(undefined),
});

/** JSON.parse that answers undefined for text that is not JSON (then the schema refuses it). */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What a mark over a message signs of its platform: nothing on the default platform
 * (Slack, as before Teams), "<platform>\n" on any other ("teams\n").
 */
function signedPlatform(message: { platform?: ChatPlatform | undefined }): string {
  return platformPrefix(message, '\n');
}

function markAnswer(message: MessageRef): Buffer {
  return Buffer.from(
    `rollout-doctor answered v1\n${signedPlatform(message)}${message.channel}/${message.ts}`,
  );
}

/** The thread root as a member holds it: a ts, or "-" for a message that is no thread reply. */
const NO_THREAD = '-';

function markMessage(cluster: string, jobId: string, ref: SubscriberRef): Buffer {
  return Buffer.from(
    `rollout-doctor subscription v2\n${signedPlatform(ref)}${cluster}\n${jobId}\n${ref.channel}/${ref.ts}\n${ref.threadTs ?? NO_THREAD}\n${ref.requester}`,
  );
}

/**
 * A subscriber as stored: "channel/ts/thread/requester/mark" (the default platform,
 * Slack) or "…/mark/<platform>" (any other: "…/mark/teams"), the mark deterministic (Ed25519), so adding it twice is one
 * member.
 */
function memberOf(cluster: string, jobId: string, ref: SubscriberRef, key: SigningKey): string {
  const mark = sign(null, markMessage(cluster, jobId, ref), key.privateKey).toString('base64url');
  const tail = platformPrefix(ref, '') === '' ? '' : `/${platformOf(ref)}`;
  return `${ref.channel}/${ref.ts}/${ref.threadTs ?? NO_THREAD}/${ref.requester}/${mark}${tail}`;
}

/** The subscriber a message of `owner` is (NO_REQUESTER when nobody asked). */
export function subscriberOf(message: MessageRef, owner: MessageOwner | null): SubscriberRef {
  return {
    ...platformTag(message.platform),
    channel: message.channel,
    ts: message.ts,
    requester: owner?.requestedBy ?? NO_REQUESTER,
    ...(owner?.threadTs ? { threadTs: owner.threadTs } : {}),
  };
}

/**
 * The message a member names, with its requester and thread, when the app itself
 * recorded it for this run's job (a member from before v2 names no requester: not
 * updated).
 */
function memberRef(
  publicKey: KeyObject,
  cluster: string,
  jobId: string,
  member: string,
): SubscriberRef | null {
  const [channel = '', ts = '', thread = '', requester = '', mark = '', tail, ...rest] = member.split('/');
  if (!channel || !ts || !thread || rest.length > 0) return null;
  // The default platform's members carry no tail; another platform's carry its name.
  const platform = tail === undefined ? DEFAULT_PLATFORM : chatPlatform(tail);
  if (platform === null || (tail !== undefined && platform === DEFAULT_PLATFORM)) return null;
  if (!isId(platform, 'conversation', channel) || !isId(platform, 'message', ts)) return null;
  if (requester !== NO_REQUESTER && !isId(platform, 'person', requester)) return null;
  if (thread !== NO_THREAD && !isId(platform, 'message', thread)) return null;
  const ref: SubscriberRef = {
    ...platformTag(platform),
    channel,
    ts,
    requester,
    ...(thread === NO_THREAD ? {} : { threadTs: thread }),
  };
  const ok = verifySignature(
    null,
    markMessage(cluster, jobId, ref),
    publicKey,
    Buffer.from(mark, 'base64url'),
  );
  return ok ? ref : null;
}

/**
 * Reads the run record that just said "stale" or "answered already" and, when it is
 * not what the app would have written (run-record.ts), reports it and drops it: true
 * when the caller should ask again (the record no longer decides).
 */
function recordGuard(
  redis: Redis,
  verify: (stored: unknown) => NotifyVerdict,
  clock: () => number,
  onIgnored: SubscriptionOptions['onIgnored'],
): (cluster: string, jobId: string) => Promise<boolean> {
  return async (cluster, jobId) => {
    const [state] = keys(cluster, jobId);
    const record = await readRunRecord(redis, state);
    const reason = distrustOf(record, { cluster, jobId, now: clock(), ttlSeconds: TTL_SECONDS, verify });
    if (reason === undefined) return false;
    onIgnored?.(state, reason);
    await dropRunRecord(redis, state, record);
    return true;
  };
}

/**
 * @param redis a connection the app already holds (fail-fast producer connection is fine).
 * @param verify checks a stored notification's signature (src/queue/notify-signature.ts).
 * @param key the app's approval key: marks the subscribers it records.
 */
export function createSubscriptions(
  redis: Redis,
  verify: (stored: unknown) => NotifyVerdict,
  key: SigningKey,
  options: SubscriptionOptions = {},
): Subscriptions {
  const publicKey = createPublicKey(key.privateKey);
  const clock = options.now ?? ((): number => Date.now());
  const ignoredRecord = recordGuard(redis, verify, clock, options.onIgnored);
  const toRef = (cluster: string, jobId: string, member: string): SubscriberRef | null =>
    memberRef(publicKey, cluster, jobId, member);
  const refsOf = (cluster: string, jobId: string, members: string[]): SubscriberRef[] =>
    members.map((m) => toRef(cluster, jobId, m)).filter((r): r is SubscriberRef => r !== null);
  return {
    async subscribe(cluster, jobId, message, addedAt, owner, joinedRun) {
      const [state, subs] = keys(cluster, jobId);
      const run = async () =>
        (await scripts.subscribe(
          redis,
          [state, subs, ownerKey(message)],
          memberOf(cluster, jobId, subscriberOf(message, owner), key),
          String(addedAt),
          owner ? JSON.stringify(owner) : '',
          joinedRun === undefined ? '' : String(joinedRun),
        )) as string[];
      let reply = await run();
      // "Answered already" leaves the message out of the run: only a record the app
      // would have written may say so (a forged one would keep it out of every later run).
      if (reply[0] === 'final' && (await ignoredRecord(cluster, jobId))) reply = await run();
      const [kind, payload] = reply;
      if ((kind === 'final' || kind === 'progress') && typeof payload === 'string') {
        // Stored by publish below, signed: verified again so a value altered in Redis is
        // refused, not rendered.
        const verdict = verify(safeJson(payload));
        if (
          verdict.ok &&
          (verdict.job.kind === 'diagnosis-progress' || verdict.job.kind === 'diagnosis-result')
        )
          return { state: kind, update: verdict.job };
      }
      return { state: 'none' };
    },
    async latestResult(cluster, jobId) {
      const [state, , done] = keys(cluster, jobId);
      const [final, payload] = await redis.hmget(state, 'final', 'payload');
      if (final !== '1' || typeof payload !== 'string') return null;
      const verdict = verify(safeJson(payload));
      if (!verdict.ok || verdict.job.kind !== 'diagnosis-result') return null;
      // Signed for this run: a genuine result of another run copied here is not it.
      if (verdict.job.cluster !== cluster || verdict.job.jobId !== jobId) return null;
      const shownIn = refsOf(cluster, jobId, await redis.smembers(done));
      return { result: verdict.job, shownIn };
    },
    async finishedSince(cluster, jobId, since, joinedRun) {
      const [state] = keys(cluster, jobId);
      const record = await readRunRecord(redis, state);
      const joined = joinedRun !== undefined && record.run === String(joinedRun);
      if (record.final !== '1' || (Number(record.finishedAt) < since && !joined)) return false;
      // Verified as this run's result, its times and expiry bounded (run-record.ts).
      const reason = distrustOf(record, { cluster, jobId, now: clock(), ttlSeconds: TTL_SECONDS, verify });
      if (reason !== undefined) options.onIgnored?.(state, reason);
      return reason === undefined;
    },
    async ownerOf(message) {
      const raw = await redis.get(ownerKey(message));
      if (raw === null) return null;
      const parsed = messageOwnerSchema.safeParse(safeJson(raw));
      return parsed.success ? parsed.data : null;
    },
    async approvedPlanOf(message) {
      return redis.get(planKey(message));
    },
    async claimMessagePlan(message, planId) {
      const holder = (await scripts.claimMessagePlan(
        redis,
        [planKey(message)],
        planId,
        String(TTL_SECONDS),
      )) as string | null;
      return holder ?? planId;
    },
    async releaseMessagePlan(message, planId) {
      await scripts.releaseMessagePlan(redis, [planKey(message)], planId);
    },
    async markAnswered(message) {
      const mark = sign(null, markAnswer(message), key.privateKey).toString('base64url');
      await redis.set(answeredKey(message), mark, 'EX', TTL_SECONDS);
    },
    async answered(message) {
      const mark = await redis.get(answeredKey(message));
      if (mark === null) return false;
      return verifySignature(null, markAnswer(message), publicKey, Buffer.from(mark, 'base64url'));
    },
    async publish(cluster, jobId, n, now = clock()) {
      const [state, subs, done] = keys(cluster, jobId);
      const run = async () =>
        (await scripts.publish(
          redis,
          [state, subs, done],
          String(n.runTs),
          String(n.seq),
          n.final ? '1' : '0',
          JSON.stringify(n.signed),
          String(now),
        )) as string[] | null;
      let reply = await run();
      // Stale: only against a record the app would have written (a pinned one would make
      // every later run of the workload stale).
      if (reply === null && (await ignoredRecord(cluster, jobId))) reply = await run();
      if (reply === null) return null;
      return refsOf(cluster, jobId, reply);
    },
  };
}

/**
 * The result `ref` should show instead of `update`'s progress line, or undefined: the
 * run's latest result (signed, `latestResult` above) when it is of `update`'s run and
 * went to `ref`. Several notify consumers (app replicas, or one app's concurrent jobs)
 * deliver one run's notifications at once: publish orders them in Redis, but not their
 * chat calls, so a progress line accepted just before the result can reach the chat
 * after it and replace it (the message then shows no result and no Apply button). Read
 * after the progress call returned, this sees any result whose call could have come
 * first (its publish did), so the message is shown that result again; a result whose
 * call comes later replaces the progress by itself.
 */
export async function resultOvertaking(
  subscriptions: Pick<Subscriptions, 'latestResult'>,
  ref: SubscriberRef,
  update: RunUpdate,
): Promise<Extract<RunUpdate, { kind: 'diagnosis-result' }> | undefined> {
  const latest = await whileRedisAway(() => subscriptions.latestResult(update.cluster, update.jobId));
  if (latest?.result.runTs !== update.runTs) return undefined;
  const same = latest.shownIn.some(
    (r) => r.channel === ref.channel && r.ts === ref.ts && platformOf(r) === platformOf(ref),
  );
  return same ? latest.result : undefined;
}
