/**
 * A diagnose job states who asked for it, under a signature a worker checks before it
 * reads anything of the cluster (issue 27.1): otherwise whoever can write to Redis
 * could queue diagnoses (a cluster-wide scan included) and have their results posted.
 * The app signs the jobs it queues (slash commands, Re-run, alerts) with its approval
 * key, which workers verify with ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS; a worker signs the
 * early warning's jobs with an HMAC under the plan seal key, which only workers hold,
 * and such a job may only be the early warning's. Domain strings of their own, so no
 * approval, seal or notification stands for a job.
 */
import { createHmac, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { SigningKey } from '../trust/approval-signature.js';
import { canonicalJson, type SealKeys } from '../trust/plan-seal.js';
import { diagnoseJobSchema, type DiagnoseJob } from './schemas.js';

/** Who asks when the worker's own watch queues a diagnosis (src/worker/early-warning). */
export const WATCH_REQUESTER = 'EARLYWARNING';

const signatureSchema = z.object({
  by: z.enum(['app', 'worker']),
  keyId: z.string().min(1).max(64),
  signature: z.string().min(1).max(200),
});
export type DiagnoseSignature = z.infer<typeof signatureSchema>;

function bytes(by: 'app' | 'worker', job: unknown): Buffer {
  return Buffer.from(`rollout-doctor diagnose job v1\n${by}\n${canonicalJson(job)}`);
}

const hmac = (secret: Buffer, job: unknown): string =>
  createHmac('sha256', secret).update(bytes('worker', job)).digest('hex');

export function signDiagnoseByApp(job: DiagnoseJob, key: SigningKey): DiagnoseSignature {
  return {
    by: 'app',
    keyId: key.keyId,
    signature: sign(null, bytes('app', job), key.privateKey).toString('base64'),
  };
}

export function signDiagnoseByWorker(job: DiagnoseJob, keys: SealKeys): DiagnoseSignature {
  return { by: 'worker', keyId: keys.current.id, signature: hmac(keys.current.secret, job) };
}

export type DiagnoseVerdict = { ok: true; job: DiagnoseJob } | { ok: false; reason: string };

/** The job as queued (its data with `sig` beside it): signed by the app, or by a worker for the watch. */
export function verifyDiagnoseJob(
  data: unknown,
  keys: { approval: ReadonlyMap<string, KeyObject>; seal: SealKeys },
): DiagnoseVerdict {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, reason: 'the job is not an object' };
  const { sig, ...unsigned } = data as Record<string, unknown>;
  const signature = signatureSchema.safeParse(sig);
  if (!signature.success)
    return { ok: false, reason: 'the job carries no signature (not queued by the app or a worker)' };
  const parsed = diagnoseJobSchema.safeParse(unsigned);
  if (!parsed.success) return { ok: false, reason: 'the job is malformed' };
  const { by, keyId } = signature.data;
  if (by === 'app') {
    const key = keys.approval.get(keyId);
    if (!key) return { ok: false, reason: `the job is signed with unknown app key "${keyId}"` };
    if (!verify(null, bytes('app', unsigned), key, Buffer.from(signature.data.signature, 'base64')))
      return { ok: false, reason: 'the job signature does not verify' };
    return { ok: true, job: parsed.data };
  }
  const secret = keys.seal.accepted.get(keyId);
  if (!secret) return { ok: false, reason: `the job is marked with unknown seal key "${keyId}"` };
  const given = Buffer.from(signature.data.signature, 'hex');
  const expected = Buffer.from(hmac(secret, unsigned), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'the job mark does not verify' };
  if (parsed.data.requestedBy !== WATCH_REQUESTER)
    return { ok: false, reason: 'a job a worker queued may only be the early warning’s' };
  return { ok: true, job: parsed.data };
}
