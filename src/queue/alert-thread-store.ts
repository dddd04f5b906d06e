import type { Redis } from 'ioredis';
import { shortHash, threadKeys } from './alert-keys.js';
import { redisKeys } from './redis-keys.js';
import { markOf, verifyMark, type RecordSigner, type RecordVerifier } from './record-mark.js';
import {
  DEFAULT_PLATFORM,
  chatPlatform,
  platformPrefix,
  platformTag,
  type ChatPlatform,
} from '../platforms/chat-refs.js';

/**
 * Where each incident's chat thread lives (a Slack channel's thread, or a Teams
 * channel conversation's: `platform`, absent = Slack, as every record before Teams), in Redis so every app replica and the
 * early-warning watch agree. One thread per workload while it is active; alert groups
 * link to it, so a pod alert, a Deployment alert and an early warning for the same
 * workload share one thread.
 */

export interface ThreadRecord {
  threadId: string;
  /** The chat platform of `channel` and `ts`; absent: Slack. Under the record's mark. */
  platform?: ChatPlatform;
  /** A Slack channel id, or a Teams channel conversation id (`19:…@thread.tacv2`). */
  channel: string;
  /** The root message's id (a Slack ts, a Teams activity id): replies go in its thread, updates edit it. */
  ts: string;
  workloadHash: string;
  status: 'firing' | 'resolved';
  /** Root message headline, kept so a resolve can rewrite the root without the alert. */
  title: string;
  /** 'admission': the admission webhook's announcement of a warned apply opened it. Under the record's mark. */
  origin?: 'admission';
}

/** Another replica is posting this workload's root message right now; retry shortly. */
export class ThreadBusyError extends Error {
  override name = 'ThreadBusyError';
}

interface OpenThreadInput {
  workloadHash: string;
  groupHash?: string;
  /** Absent: Slack. */
  platform?: ChatPlatform;
  channel: string;
  title: string;
  /** 'admission': opened by a warned apply's announcement; an alert joining it says so. */
  origin?: 'admission';
}

export interface ThreadStore {
  /** The active thread of the workload, else the group's earlier thread (a re-fire reopens it). */
  find(workloadHash: string, groupHash?: string): Promise<ThreadRecord | null>;
  /**
   * Returns the thread for the workload, posting the root message through `post` when
   * there is none. Only one caller posts: others get ThreadBusyError until it is stored.
   */
  open(
    input: OpenThreadInput,
    post: () => Promise<string>,
  ): Promise<{ record: ThreadRecord; created: boolean }>;
  /** Marks the thread active for the workload again (after a resolve). */
  reactivate(record: ThreadRecord): Promise<void>;
  /** Records that a group fires in this thread. */
  markFiring(threadId: string, groupHash: string): Promise<void>;
  /** Removes a group from the firing set; returns how many groups still fire. */
  markResolved(threadId: string, groupHash: string): Promise<number>;
  /** Marks the thread resolved and frees the workload for a new incident thread. */
  resolve(record: ThreadRecord): Promise<void>;
  /** True the first time it is asked for this thread: an alert joining a warned apply's thread says so once. */
  claimJoinNotice(threadId: string): Promise<boolean>;
  /** Gives the claim back (its line was not posted). */
  releaseJoinNotice(threadId: string): Promise<void>;
  /** Stores the verdict and returns the previous one (atomic across replicas). */
  swapVerdict(threadId: string, verdict: string): Promise<string | null>;
  /**
   * Links a diagnose job to a workload, for results whose target name was only a pod.
   * `earlyWarning` marks a run started by the watch: its result may open a thread.
   */
  linkJob(cluster: string, jobId: string, workloadHash: string, earlyWarning?: boolean): Promise<void>;
  jobLink(
    cluster: string,
    jobId: string,
  ): Promise<{ workloadHash: string; earlyWarning: boolean; linkedAt: number } | null>;
}

interface ThreadStoreOptions {
  /**
   * Marks what this process writes (record-mark.ts): the app's thread records, links
   * and verdicts; a worker's job links. Without it (tests of other things) nothing is marked.
   */
  signer?: RecordSigner;
  /**
   * The app: reads a record, link or verdict only when its mark verifies (threads and
   * verdicts by the app, links by the app or a worker). Without it (a worker, which
   * only writes links) nothing is checked.
   */
  verifier?: RecordVerifier;
  /** How long thread records and links live (default 7 days). */
  ttlSeconds?: number;
  /** Bound on the root-message post; the creation lock expires after it. */
  lockMs?: number;
}

/** A job link only has to outlive the run it names (results arrive within minutes). */
export const JOB_LINK_SECONDS = 3600;

/**
 * The Redis key and value linking a diagnose job to a workload (see `linkJob`), for
 * callers that write the link inside their own script or pipeline.
 */
export function jobLinkEntry(
  cluster: string,
  jobId: string,
  workloadHash: string,
  earlyWarning = false,
  now = Date.now(),
  signer?: RecordSigner,
): { key: string; value: string } {
  const link = { cluster, jobId, workloadHash, earlyWarning, linkedAt: now };
  const mark = signer ? ` ${markOf(LINK_DOMAIN, link, signer)}` : '';
  return {
    key: threadKeys.job(cluster, jobId),
    value: `${workloadHash} ${earlyWarning ? 'early' : 'alert'} ${now}${mark}`,
  };
}

/** Domains of the marks (record-mark.ts): a thread record, a job link, a thread verdict. */
const THREAD_DOMAIN = 'alert-thread';
const LINK_DOMAIN = 'alert-job-link';
const VERDICT_DOMAIN = 'alert-thread-verdict';

/**
 * What a thread record's mark covers: where the bot speaks (platform, channel, root) and
 * what the root says. A Slack record's data has no platform field, so marks made
 * before Teams still verify; a Teams record's mark does not verify without its platform.
 */
const markedThread = (r: Omit<ThreadRecord, 'status'>) => ({
  threadId: r.threadId,
  ...platformTag(r.platform),
  channel: r.channel,
  ts: r.ts,
  workloadHash: r.workloadHash,
  title: r.title,
  // Only a warned apply's thread has an origin, so marks made before it still verify.
  ...(r.origin ? { origin: r.origin } : {}),
});

// Delete the workload's active-thread pointer only if it still points at this thread.
const CLEAR_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Creates the Redis-backed thread store. */
export function createThreadStore(redis: Redis, options: ThreadStoreOptions = {}): ThreadStore {
  const ttl = options.ttlSeconds ?? 7 * 24 * 3600;
  const lockMs = options.lockMs ?? 30_000;
  const { signer, verifier } = options;

  const load = (threadId: string | null, forWorkload: string) =>
    loadThread(redis, verifier, threadId, forWorkload);

  const find: ThreadStore['find'] = async (workloadHash, groupHash) => {
    const active = await load(await redis.get(threadKeys.byWorkload(workloadHash)), workloadHash);
    if (active !== null || groupHash === undefined) return active;
    return load(await redis.get(threadKeys.byGroup(groupHash, workloadHash)), workloadHash);
  };

  const linkGroup = async (groupHash: string | undefined, record: ThreadRecord): Promise<void> => {
    if (groupHash === undefined) return;
    await redis.set(threadKeys.byGroup(groupHash, record.workloadHash), record.threadId, 'EX', ttl);
  };

  return {
    find,
    async open(input, post) {
      const existing = await find(input.workloadHash, input.groupHash);
      if (existing !== null) {
        await linkGroup(input.groupHash, existing);
        return { record: existing, created: false };
      }
      const lockKey = threadKeys.creating(input.workloadHash);
      const token = shortHash(`${Date.now()}-${Math.random()}`);
      if ((await redis.set(lockKey, token, 'PX', lockMs, 'NX')) !== 'OK') {
        throw new ThreadBusyError(`thread for ${input.workloadHash} is being opened`);
      }
      try {
        const again = await find(input.workloadHash, input.groupHash);
        if (again !== null) {
          await linkGroup(input.groupHash, again);
          return { record: again, created: false };
        }
        const record = await saveThread(redis, { ttl, signer }, input, await post());
        await linkGroup(input.groupHash, record);
        return { record, created: true };
      } finally {
        await redis.eval(CLEAR_IF, 1, lockKey, token);
      }
    },
    async reactivate(record) {
      await redis
        .multi()
        .hset(threadKeys.thread(record.threadId), 'status', 'firing')
        .expire(threadKeys.thread(record.threadId), ttl)
        .set(threadKeys.byWorkload(record.workloadHash), record.threadId, 'EX', ttl)
        .exec();
    },
    async markFiring(threadId, groupHash) {
      await redis
        .multi()
        .sadd(threadKeys.firing(threadId), groupHash)
        .expire(threadKeys.firing(threadId), ttl)
        .exec();
    },
    async markResolved(threadId, groupHash) {
      const result = await redis
        .multi()
        .srem(threadKeys.firing(threadId), groupHash)
        .scard(threadKeys.firing(threadId))
        .exec();
      const count = result?.[1]?.[1];
      return typeof count === 'number' ? count : 0;
    },
    async resolve(record) {
      await redis.hset(threadKeys.thread(record.threadId), 'status', 'resolved');
      await redis.eval(CLEAR_IF, 1, threadKeys.byWorkload(record.workloadHash), record.threadId);
    },
    async claimJoinNotice(threadId) {
      return (await redis.set(redisKeys.admissionJoinNoticed(threadId), '1', 'EX', ttl, 'NX')) === 'OK';
    },
    async releaseJoinNotice(threadId) {
      await redis.del(redisKeys.admissionJoinNoticed(threadId));
    },
    swapVerdict: (threadId, verdict) =>
      swapMarkedVerdict(redis, { signer, verifier, ttl }, threadId, verdict),
    async linkJob(cluster, jobId, workloadHash, earlyWarning = false) {
      const { key, value } = jobLinkEntry(cluster, jobId, workloadHash, earlyWarning, Date.now(), signer);
      // An alert's link wins over an early warning's: its result waits for the alert thread.
      if (earlyWarning) await redis.set(key, value, 'EX', JOB_LINK_SECONDS, 'NX');
      else await redis.set(key, value, 'EX', JOB_LINK_SECONDS);
    },
    jobLink: (cluster, jobId) => readJobLink(redis, verifier, cluster, jobId),
  };
}

/** Writes the record of a thread just posted at `ts` (signed when the store signs) and points the workload at it. */
async function saveThread(
  redis: Redis,
  store: { ttl: number; signer: ThreadStoreOptions['signer'] },
  input: Parameters<ThreadStore['open']>[0],
  ts: string,
): Promise<ThreadRecord> {
  const record: ThreadRecord = {
    threadId: shortHash(`${input.workloadHash}\n${platformPrefix(input, ':')}${input.channel}\n${ts}`),
    ...platformTag(input.platform),
    channel: input.channel,
    ts,
    workloadHash: input.workloadHash,
    status: 'firing',
    title: input.title,
    ...(input.origin ? { origin: input.origin } : {}),
  };
  const { threadId, ...unmarked } = record;
  const fields = store.signer
    ? { ...unmarked, mark: markOf(THREAD_DOMAIN, markedThread(record), store.signer) }
    : unmarked;
  await redis
    .multi()
    .hset(threadKeys.thread(threadId), fields)
    .expire(threadKeys.thread(threadId), store.ttl)
    .set(threadKeys.byWorkload(input.workloadHash), threadId, 'EX', store.ttl)
    .exec();
  return record;
}

/** The thread record, only when it is the app's and (`forWorkload`) that workload's. */
async function loadThread(
  redis: Redis,
  verifier: RecordVerifier | undefined,
  threadId: string | null,
  forWorkload: string,
): Promise<ThreadRecord | null> {
  if (threadId === null) return null;
  const key = threadKeys.thread(threadId);
  const h = await redis.hgetall(key);
  const { channel, ts, workloadHash, status, title } = h;
  // Only 'admission' is stored; anything else is not the app's (and fails the mark below).
  const origin = h.origin === 'admission' ? ('admission' as const) : undefined;
  // Only another platform than the default is stored; anything else is not the app's.
  const platform = h.platform === undefined ? undefined : chatPlatform(h.platform);
  if (platform === null || platform === DEFAULT_PLATFORM) {
    verifier?.onForged('alert thread', key);
    return null;
  }
  if (channel === undefined || ts === undefined || workloadHash === undefined || title === undefined) {
    // A pointer to nothing (expired, or deleted): no thread, as without one.
    return null;
  }
  const record: ThreadRecord = {
    threadId,
    ...platformTag(platform),
    channel,
    ts,
    workloadHash,
    title,
    status: status === 'resolved' ? 'resolved' : 'firing',
    ...(origin ? { origin } : {}),
  };
  if (h.origin !== undefined && origin === undefined) {
    verifier?.onForged('alert thread', key);
    return null;
  }
  if (
    verifier &&
    (workloadHash !== forWorkload ||
      !verifyMark(THREAD_DOMAIN, markedThread(record), h['mark'], verifier.keys, ['app']))
  ) {
    verifier.onForged('alert thread', key);
    return null;
  }
  return record;
}

/** Stores the thread's verdict (marked) and returns the previous one when the app marked it. */
async function swapMarkedVerdict(
  redis: Redis,
  options: { signer: RecordSigner | undefined; verifier: RecordVerifier | undefined; ttl: number },
  threadId: string,
  verdict: string,
): Promise<string | null> {
  const { signer, verifier, ttl } = options;
  // The previous verdict decides whether a result is posted (the same one is not):
  // one the app did not mark reads as none, so a planted verdict silences nothing.
  const key = `${threadKeys.thread(threadId)}:verdict`;
  const value = signer ? `${verdict}\n${markOf(VERDICT_DOMAIN, { threadId, verdict }, signer)}` : verdict;
  const previous = (await redis.call('SET', key, value, 'EX', String(ttl), 'GET')) as string | null;
  if (previous === null || !verifier) return previous;
  const at = previous.lastIndexOf('\n');
  const [before, mark] = at < 0 ? [previous, undefined] : [previous.slice(0, at), previous.slice(at + 1)];
  if (verifyMark(VERDICT_DOMAIN, { threadId, verdict: before }, mark, verifier.keys, ['app'])) return before;
  verifier.onForged('alert thread verdict', key);
  return null;
}

/** A run's link to a workload, only when its writer (the app or a worker) marked it. */
async function readJobLink(
  redis: Redis,
  verifier: RecordVerifier | undefined,
  cluster: string,
  jobId: string,
): Promise<{ workloadHash: string; earlyWarning: boolean; linkedAt: number } | null> {
  const key = threadKeys.job(cluster, jobId);
  const value = await redis.get(key);
  if (value === null) return null;
  const [workloadHash = '', flag, at, mark] = value.split(' ');
  const link = { workloadHash, earlyWarning: flag === 'early', linkedAt: Number(at ?? 0) || 0 };
  // Links route a run's result into a thread: the app's (alerts) or a worker's (early warning).
  if (
    verifier &&
    !verifyMark(LINK_DOMAIN, { cluster, jobId, ...link }, mark, verifier.keys, ['app', 'worker'])
  ) {
    verifier.onForged('alert job link', key);
    return null;
  }
  return link;
}
