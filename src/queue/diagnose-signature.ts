/**
 * A diagnose job states who asked for it, under a signature a worker checks before it
 * reads anything of the cluster: otherwise whoever can write to Redis
 * could queue diagnoses (a cluster-wide scan included) and have their results posted.
 * The app signs the jobs it queues (slash commands, Re-run, alerts) with its approval
 * key, which workers verify with ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS; a worker signs the
 * early warning's jobs with an HMAC under the plan seal key, which only workers hold,
 * and such a job may only be the early warning's. Domain strings of their own, so no
 * approval, seal or notification stands for a job.
 *
 * A signature covers the job id it was queued under and an expiry: a
 * captured genuine job re-added under another id is refused, and one re-added under its
 * own id (possible only once the original is gone) only until it expires, SIGNED_JOB_MS
 * after it was signed: long enough for a job waiting behind an alert storm and its
 * retries, short enough that a captured scan is not a standing licence to read.
 */
import { createHmac, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { SigningKey } from '../trust/approval-signature.js';
import { canonicalJson, type SealKeys } from '../trust/plan-seal.js';
import { expiredBeyondSkew } from '../trust/clock-skew.js';
import { diagnoseJobSchema, type DiagnoseJob } from './schemas.js';

/** Who asks when the worker's own watch queues a diagnosis (src/worker/early-warning). */
export const WATCH_REQUESTER = 'EARLYWARNING';

/** How long a signed diagnose job may be run after it was signed (queued). */
export const SIGNED_JOB_MS = 30 * 60_000;

const signatureSchema = z.object({
  by: z.enum(['app', 'worker']),
  keyId: z.string().min(1).max(64),
  signature: z.string().min(1).max(200),
  /** Epoch ms after which the job is not run (covered by the signature). */
  expiresAt: z.number().int().positive(),
});
export type DiagnoseSignature = z.infer<typeof signatureSchema>;

/** What a signature covers: who, the job id, the expiry and the job. */
interface Bound {
  jobId: string;
  expiresAt: number;
}

function bytes(by: 'app' | 'worker', bound: Bound, job: unknown): Buffer {
  return Buffer.from(
    `rollout-doctor diagnose job v2\n${by}\n${bound.jobId}\n${bound.expiresAt}\n${canonicalJson(job)}`,
  );
}

const hmac = (secret: Buffer, bound: Bound, job: unknown): string =>
  createHmac('sha256', secret)
    .update(bytes('worker', bound, job))
    .digest('hex');

export function signDiagnoseByApp(
  job: DiagnoseJob,
  jobId: string,
  key: SigningKey,
  now = Date.now(),
): DiagnoseSignature {
  const bound = { jobId, expiresAt: now + SIGNED_JOB_MS };
  return {
    by: 'app',
    keyId: key.keyId,
    signature: sign(null, bytes('app', bound, job), key.privateKey).toString('base64'),
    expiresAt: bound.expiresAt,
  };
}

export function signDiagnoseByWorker(
  job: DiagnoseJob,
  jobId: string,
  keys: SealKeys,
  now = Date.now(),
): DiagnoseSignature {
  const bound = { jobId, expiresAt: now + SIGNED_JOB_MS };
  return {
    by: 'worker',
    keyId: keys.current.id,
    signature: hmac(keys.current.secret, bound, job),
    expiresAt: bound.expiresAt,
  };
}

/**
 * `expired`: the signature verifies but its time is past (by more than the tolerated
 * clock skew): a genuine job, too old for this worker's clock, so it may be answered.
 */
export type DiagnoseVerdict =
  | { ok: true; job: DiagnoseJob }
  | { ok: false; reason: string; expired?: { expiresAt: number; job: DiagnoseJob } };

/**
 * The job as queued (its data with `sig` beside it) under `jobId`: signed by the app,
 * or by a worker for the watch, for this id, and not expired at `now`.
 */
export function verifyDiagnoseJob(
  data: unknown,
  jobId: string | undefined,
  keys: { approval: ReadonlyMap<string, KeyObject>; seal: SealKeys },
  now = Date.now(),
): DiagnoseVerdict {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, reason: 'the job is not an object' };
  const { sig, ...unsigned } = data as Record<string, unknown>;
  const signature = signatureSchema.safeParse(sig);
  if (!signature.success)
    return { ok: false, reason: 'the job carries no signature (not queued by the app or a worker)' };
  const parsed = diagnoseJobSchema.safeParse(unsigned);
  if (!parsed.success) return { ok: false, reason: 'the job is malformed' };
  const { by, keyId, expiresAt } = signature.data;
  const bound = { jobId: jobId ?? '', expiresAt };
  if (by === 'app') {
    const key = keys.approval.get(keyId);
    if (!key) return { ok: false, reason: `the job is signed with unknown app key "${keyId}"` };
    if (!verify(null, bytes('app', bound, unsigned), key, Buffer.from(signature.data.signature, 'base64')))
      return { ok: false, reason: 'the job signature does not verify (for this job id)' };
    if (expiredBeyondSkew(now, expiresAt))
      return { ok: false, reason: expiredReason(expiresAt), expired: { expiresAt, job: parsed.data } };
    return { ok: true, job: parsed.data };
  }
  const secret = keys.seal.accepted.get(keyId);
  if (!secret) return { ok: false, reason: `the job is marked with unknown seal key "${keyId}"` };
  const given = Buffer.from(signature.data.signature, 'hex');
  const expected = Buffer.from(hmac(secret, bound, unsigned), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'the job mark does not verify (for this job id)' };
  if (expiredBeyondSkew(now, expiresAt))
    return { ok: false, reason: expiredReason(expiresAt), expired: { expiresAt, job: parsed.data } };
  if (parsed.data.requestedBy !== WATCH_REQUESTER)
    return { ok: false, reason: 'a job a worker queued may only be the early warning’s' };
  return { ok: true, job: parsed.data };
}

const expiredReason = (expiresAt: number): string =>
  `the job's signature expired at ${new Date(expiresAt).toISOString()} (a replay, or a job that waited too long)`;
