/**
 * Moves the admission webhook's announcements from the stream it may only append to
 * (rd:admission:announce: src/admission/announce-queue.ts) into the app's alert notify
 * lane. Each entry is checked first: signed by an admission key over exactly
 * its data, a warned apply and nothing else, for a cluster this app serves and its key is
 * bound to (src/queue/notify-signature.ts). A refused entry is logged, counted, audited
 * and dropped; a valid one is queued as it was signed, with the announcement's dedup (one
 * thread per workload per DEDUP_MS) and a job id of its entry.
 *
 * A consumer group, not XREAD with a stored last id: an entry stays pending until it is
 * queued and acknowledged (XACK, then XDEL) in that order, so an app that dies between
 * the two finds it again at its next start (its own pending entries, id 0) or another
 * replica claims it once idle (XAUTOCLAIM); queued twice, the second add is a no-op (the
 * same job id, and the workload's dedup window). A stored last id would need the add and
 * the id's write to be one step, and replicas would each read every entry.
 */
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';
import type { Logger } from '../../logger.js';
import type { Audit } from '../../audit.js';
import { workloadHash } from '../../queue/alert-keys.js';
import { verifyNotify, type NotifyKeys, type SignedNotifyJob } from '../../queue/notify-signature.js';
import type { Producers } from '../../queue/producers.js';
import { redisKeys } from '../../queue/redis-keys.js';

const ANNOUNCE_GROUP = 'app';
/** One announcement per workload per this long (the webhook's own window, src/admission/announce.ts). */
const DEDUP_MS = 10 * 60_000;
/** An entry another consumer held this long without acknowledging it is taken over. */
const CLAIM_IDLE_MS = 30_000;
const BATCH = 50;
/**
 * Refusals logged and audited a minute, at most: a flood of forged entries (a stolen
 * webhook credential can append as fast as Redis takes them) is counted in the metric,
 * every one, but writes this many lines, then one that says the rest are only counted.
 */
export const REFUSAL_LINES_PER_MINUTE = 20;
/** A consumer idle this long with nothing pending is an app process that is gone. */
const FORGET_IDLE_MS = 3_600_000;

/** XINFO's answer for one consumer: field/value pairs (RESP2) or a map (RESP3). */
function fieldsOf(info: unknown): Record<string, unknown> {
  if (!Array.isArray(info)) return (info ?? {}) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (let i = 0; i + 1 < info.length; i += 2) fields[String(info[i])] = info[i + 1];
  return fields;
}
export interface AnnounceMoverOptions {
  /** A connection of its own: the mover blocks on it (createWorkerConnection). */
  connection: Redis;
  producers: Pick<Producers, 'forwardNotify'>;
  keys: NotifyKeys;
  /** The clusters this app serves: an announcement for any other is refused. */
  clusters: readonly string[];
  logger: Logger;
  /** rollout_doctor_admission_announcements_moved_total{outcome,reason}. */
  counter?: Counter<'outcome' | 'reason'>;
  audit?: Pick<Audit, 'record'>;
  /** Unique per process; default host and pid. */
  consumer?: string;
  blockMs?: number;
  claimIdleMs?: number;
  /** Consumers idle this long with nothing pending are deleted at start (default 1 hour). */
  forgetIdleMs?: number;
  /** At most one check for entries lost unread this often (default 10 s; lossReporter). */
  lossCheckMs?: number;
}

interface AnnounceMover {
  /** One pass: own pending entries, then others' long-idle ones, then new ones (blocking up to blockMs). */
  moveOnce: () => Promise<number>;
}

type Entry = [id: string, fields: string[]];

/** Why an entry is not queued, or the job to queue. */
function announcementVerdict(
  raw: string | undefined,
  keys: NotifyKeys,
  clusters: readonly string[],
): { ok: true; signed: SignedNotifyJob } | { ok: false; reason: string; detail: string } {
  let data: unknown;
  try {
    data = JSON.parse(raw ?? '');
  } catch {
    return { ok: false, reason: 'malformed', detail: 'the entry is not JSON' };
  }
  const verdict = verifyNotify(data, keys);
  if (!verdict.ok) return { ok: false, reason: 'signature', detail: verdict.reason };
  const { job } = verdict;
  if (job.kind !== 'admission-warning')
    return { ok: false, reason: 'kind', detail: `a ${job.kind} notification is not an announcement` };
  if (!clusters.includes(job.cluster))
    return {
      ok: false,
      reason: 'cluster',
      detail: `an announcement for cluster "${job.cluster}", which this app does not serve`,
    };
  return { ok: true, signed: data as SignedNotifyJob };
}

/**
 * Logs and audits a refused entry, at most REFUSAL_LINES_PER_MINUTE a minute (the
 * metric counts them all), the last line saying the rest are only counted.
 */
function refusalReporter(
  options: Pick<AnnounceMoverOptions, 'logger' | 'audit'>,
  stream: string,
): (id: string, verdict: { reason: string; detail: string }) => void {
  const refusals = { since: 0, lines: 0, unlogged: 0 };
  /** Whether this refusal gets its lines, and how many went unlogged before it. */
  const refusalLines = (): { log: boolean; unlogged: number; last: boolean } => {
    const t = Date.now();
    if (t - refusals.since >= 60_000) Object.assign(refusals, { since: t, lines: 0 });
    if (refusals.lines >= REFUSAL_LINES_PER_MINUTE) {
      refusals.unlogged += 1;
      return { log: false, unlogged: 0, last: false };
    }
    refusals.lines += 1;
    const unlogged = refusals.unlogged;
    refusals.unlogged = 0;
    return { log: true, unlogged, last: refusals.lines === REFUSAL_LINES_PER_MINUTE };
  };

  const refused = (
    id: string,
    verdict: { reason: string; detail: string },
    lines: { unlogged: number; last: boolean },
  ): void => {
    options.audit?.record({
      action: 'notification',
      planId: id,
      kind: 'admission-warning',
      queue: stream,
      outcome: 'tampered',
      detail: verdict.detail,
    });
    options.logger.warn(
      {
        entry: id,
        reason: verdict.detail,
        ...(lines.unlogged > 0 ? { unloggedBefore: lines.unlogged } : {}),
      },
      lines.last
        ? `admission announcement refused; further refusals this minute are counted (rollout_doctor_admission_announcements_moved_total), not logged`
        : 'admission announcement refused',
    );
  };
  return (id, verdict) => {
    const lines = refusalLines();
    if (lines.log) refused(id, verdict, lines);
  };
}

/** How often a mover compares the stream's count of entries added with those it handled. */
const LOSS_CHECK_MS = 10_000;

/**
 * Entries removed from the stream before any app read them: the webhook's XADD trims it
 * (MAXLEN ~ its bound) while the app is behind or stopped, and its credential may trim it
 * at will (XADD … MAXLEN 0), which deletes announcements unread and without a trace in
 * the stream. Redis counts every entry ever added (XINFO STREAM entries-added); the
 * movers count what they handled (handledKey, with each XDEL), so what is neither handled
 * nor still in the stream was lost. Each new loss is counted once across app replicas
 * (SET … GET on lostKey) and logged as an error. A first check with no count yet (an
 * upgrade, a stream made again) takes the stream as it is for its baseline.
 */
function lossReporter(
  options: Pick<AnnounceMoverOptions, 'connection' | 'logger' | 'counter' | 'lossCheckMs'>,
  stream: string,
): (first: boolean) => Promise<void> {
  const every = options.lossCheckMs ?? LOSS_CHECK_MS;
  const redis = options.connection;
  const handledKey = redisKeys.admissionAnnounceHandled();
  const lostKey = redisKeys.admissionAnnounceLost();
  let checkedAt = 0;
  return async (first) => {
    const t = Date.now();
    if (!first && t - checkedAt < every) return;
    checkedAt = t;
    const [info, handledRaw] = await Promise.all([
      redis.xinfo('STREAM', stream).then(fieldsOf),
      redis.get(handledKey),
    ]);
    const added = Number(info['entries-added']);
    const length = Number(info['length']);
    if (!Number.isFinite(added) || !Number.isFinite(length)) return;
    const handled = Number(handledRaw);
    // No count yet, or one from before the stream was made again: start from here.
    if (handledRaw === null || !Number.isFinite(handled) || handled > added - length) {
      await redis
        .multi()
        .set(handledKey, String(added - length))
        .set(lostKey, '0')
        .exec();
      return;
    }
    const lost = added - length - handled;
    const before = Number(await redis.set(lostKey, String(lost), 'GET'));
    const fresh = lost - (Number.isFinite(before) ? before : 0);
    if (fresh <= 0) return;
    options.counter?.inc({ outcome: 'lost', reason: 'trimmed' }, fresh);
    options.logger.error(
      { stream, lost: fresh, lostInAll: lost },
      'admission announcements removed from the stream before the app read them: trimmed while the app was behind or stopped, or the webhook’s Redis credential used to drop them',
    );
  };
}

export function createAnnounceMover(options: AnnounceMoverOptions): AnnounceMover {
  const redis = options.connection;
  const stream = redisKeys.admissionAnnounce();
  const consumer = options.consumer ?? `${hostname()}-${process.pid}`;
  const blockMs = options.blockMs ?? 2_000;
  const claimIdleMs = options.claimIdleMs ?? CLAIM_IDLE_MS;
  const forgetIdleMs = options.forgetIdleMs ?? FORGET_IDLE_MS;
  let grouped = false;
  const reportRefusal = refusalReporter(options, stream);
  const handledKey = redisKeys.admissionAnnounceHandled();
  const checkLoss = lossReporter(options, stream);

  const ensureGroup = async (): Promise<void> => {
    if (grouped) return;
    try {
      // From the start of the stream: what the webhook added before the app first ran is moved too.
      await redis.xgroup('CREATE', stream, ANNOUNCE_GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String((error as Error).message).startsWith('BUSYGROUP')) throw error;
    }
    grouped = true;
    await forgetGoneConsumers();
    await checkLoss(true);
  };

  // Consumers of app processes gone long ago (a pod's name dies with it), holding nothing.
  const forgetGoneConsumers = async (): Promise<void> => {
    const consumers = (await redis.xinfo('CONSUMERS', stream, ANNOUNCE_GROUP)) as unknown[];
    for (const info of consumers.map(fieldsOf)) {
      const name = String(info['name']);
      if (name !== consumer && Number(info['pending']) === 0 && Number(info['idle']) > forgetIdleMs)
        await redis.xgroup('DELCONSUMER', stream, ANNOUNCE_GROUP, name);
    }
  };

  const move = async ([id, fields]: Entry): Promise<void> => {
    const raw = fields[fields.indexOf('job') + 1];
    const verdict = fields.includes('job')
      ? announcementVerdict(raw, options.keys, options.clusters)
      : ({ ok: false, reason: 'malformed', detail: 'the entry has no job' } as const);
    if (verdict.ok) {
      const { cluster, workload } = verdict.signed as Extract<SignedNotifyJob, { kind: 'admission-warning' }>;
      const hash = workloadHash({ cluster, ...workload });
      await options.producers.forwardNotify(verdict.signed, {
        background: true,
        jobId: `admission-${id}`,
        deduplication: { id: `admission-warning-${hash}`, ttl: DEDUP_MS },
      });
      options.counter?.inc({ outcome: 'moved', reason: '' });
    } else {
      options.counter?.inc({ outcome: 'refused', reason: verdict.reason });
      reportRefusal(id, verdict);
    }
    // Only now: an app that died before this finds the entry pending again. Counted in the
    // same step, so added = handled + still in the stream + lost (lossReporter).
    await redis.multi().xack(stream, ANNOUNCE_GROUP, id).xdel(stream, id).incr(handledKey).exec();
  };

  const moveAll = async (entries: Entry[]): Promise<number> => {
    for (const entry of entries) await move(entry);
    return entries.length;
  };

  const read = async (from: '0' | '>', block: boolean): Promise<Entry[]> => {
    const answer = (
      block
        ? await redis.xreadgroup(
            'GROUP',
            ANNOUNCE_GROUP,
            consumer,
            'COUNT',
            BATCH,
            'BLOCK',
            blockMs,
            'STREAMS',
            stream,
            from,
          )
        : await redis.xreadgroup('GROUP', ANNOUNCE_GROUP, consumer, 'COUNT', BATCH, 'STREAMS', stream, from)
    ) as [string, [string, string[] | null][]][] | null;
    // A pending entry deleted meanwhile comes back with no fields: refused as malformed, acknowledged.
    return (answer?.[0]?.[1] ?? []).map(([id, f]) => [id, f ?? []] as Entry);
  };

  const moveOnce = async (): Promise<number> => {
    try {
      await ensureGroup();
      const own = await read('0', false);
      if (own.length > 0) return await moveAll(own);
      const [, claimed] = (await redis.xautoclaim(
        stream,
        ANNOUNCE_GROUP,
        consumer,
        claimIdleMs,
        '0-0',
        'COUNT',
        BATCH,
      )) as [string, Entry[]];
      if (claimed.length > 0) return await moveAll(claimed);
      const moved = await moveAll(await read('>', blockMs > 0));
      await checkLoss(false);
      return moved;
    } catch (error) {
      // The stream or its group was deleted: made again on the next pass.
      if (String((error as Error).message).startsWith('NOGROUP')) grouped = false;
      throw error;
    }
  };

  return { moveOnce };
}

/** The mover's loop in the app (src/app/runtime.ts): until `stop`, which closes its connection. */
export function startAnnounceMover(options: AnnounceMoverOptions): { stop: () => Promise<void> } {
  const { moveOnce } = createAnnounceMover(options);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        await moveOnce();
      } catch (error) {
        if (stopped) break;
        options.logger.warn({ err: error }, 'admission announcements not moved (retrying)');
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      options.connection.disconnect();
      await loop;
    },
  };
}
