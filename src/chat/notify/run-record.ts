/**
 * Whether a run record (`rd:run:<cluster>:<jobId>`, subscriptions.ts) may decide that a
 * later notification is stale or that a request already had its answer.
 * The record steers which diagnosis a message shows, and anyone with Redis write access
 * can write it: a run number no real run reaches, kept with PERSIST, would make every
 * later diagnosis of the workload stale, and a `finishedAt` far ahead would hand every
 * later request an old result instead of subscribing it. So a record counts only when
 * it is what the app itself would have written: its payload the worker-signed
 * notification of exactly this run (cluster, job id, run, sequence, final), its times
 * (run, finishedAt) not ahead of this clock by more than the tolerated skew, and an
 * expiry no longer than the app sets (an old record decides nothing: only later runs
 * and requests are compared with it). Anything else is ignored (dropped,
 * when it still holds what was judged), logged and counted, and the notification or
 * request goes ahead as if there were no record.
 */
import type { Redis } from 'ioredis';
import type { NotifyVerdict } from '../../queue/notify-signature.js';
import { redisScript } from '../../queue/redis-script.js';
import { CLOCK_SKEW_TOLERANCE_MS } from '../../trust/clock-skew.js';

/** The fields of a run record as stored (null: absent), and its remaining life (PTTL: -1 none, -2 gone). */
interface RunRecord {
  run: string | null;
  seq: string | null;
  final: string | null;
  finishedAt: string | null;
  payload: string | null;
  ttlMs: number;
}

const FIELDS = ['run', 'seq', 'final', 'finishedAt', 'payload'] as const;

/** Reads the record at `key` in one round trip. */
export async function readRunRecord(redis: Redis, key: string): Promise<RunRecord> {
  const replies = await redis
    .multi()
    .hmget(key, ...FIELDS)
    .pttl(key)
    .exec();
  const [fields, ttl] = (replies ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  }) as [(string | null)[], number];
  const [run = null, seq = null, final = null, finishedAt = null, payload = null] = fields;
  return { run, seq, final, finishedAt, payload, ttlMs: ttl };
}

/** JSON.parse that answers undefined for text that is not JSON. */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why `record` may not decide anything (a short phrase for the log), or undefined when it
 * may (or there is none). `ttlSeconds`: the life the app gives a record; `now`: this clock.
 */
export function distrustOf(
  record: RunRecord,
  expected: {
    cluster: string;
    jobId: string;
    now: number;
    ttlSeconds: number;
    verify: (stored: unknown) => NotifyVerdict;
  },
): string | undefined {
  if (FIELDS.every((f) => record[f] === null)) return undefined;
  if (record.ttlMs === -1) return 'no expiry';
  if (record.ttlMs > expected.ttlSeconds * 1000) return 'an expiry beyond the life the app gives it';
  const run = Number(record.run);
  const finishedAt = Number(record.finishedAt ?? '0');
  // An old record decides nothing by itself: only later runs and requests are compared with it.
  const latest = expected.now + CLOCK_SKEW_TOLERANCE_MS;
  if (!Number.isSafeInteger(run) || !Number.isSafeInteger(finishedAt)) return 'not numbers';
  if (run > latest || finishedAt > latest) return 'times ahead of this clock';
  if (record.payload === null) return 'no notification';
  const verdict = expected.verify(safeJson(record.payload));
  if (!verdict.ok) return `a notification that does not verify (${verdict.reason})`;
  const job = verdict.job;
  if (job.kind !== 'diagnosis-progress' && job.kind !== 'diagnosis-result') return 'not a run notification';
  const final = job.kind === 'diagnosis-result' ? '1' : '0';
  if (
    job.cluster !== expected.cluster ||
    job.jobId !== expected.jobId ||
    String(job.runTs) !== record.run ||
    String(job.seq) !== record.seq ||
    final !== record.final
  )
    return "another run's notification";
  return undefined;
}

// Deletes the record only while it holds exactly what was judged: a genuine publish in
// between is kept.
const DROP_IF_UNCHANGED = `
local cur = redis.call('HMGET', KEYS[1], 'run', 'seq', 'final', 'finishedAt', 'payload')
for i = 1, 5 do
  if (cur[i] or '') ~= ARGV[i] then return 0 end
end
return redis.call('DEL', KEYS[1])
`;
const dropScript = redisScript(DROP_IF_UNCHANGED);

/** Drops `record` from `key` unless it changed since it was read; true when dropped. */
export async function dropRunRecord(redis: Redis, key: string, record: RunRecord): Promise<boolean> {
  const args = FIELDS.map((f) => record[f] ?? '');
  return (await dropScript(redis, [key], ...args)) === 1;
}
