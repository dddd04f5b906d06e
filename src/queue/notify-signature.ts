/**
 * Notify jobs carry the signature of whoever made them, so a Redis writer cannot post
 * as the bot: results, progress and remediation outcomes are signed by a worker
 * (Ed25519, ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY, workers only; the app holds the public
 * keys), alert threads and alert summaries by the app itself (its approval signing
 * key, under another domain string, so neither signature can stand for the other).
 * The app renders a notification only when the kind's own signer signed exactly its
 * data; it keeps the signed form for a message that catches up later.
 *
 * A signature proves origin, not freshness: a genuine notification copied under
 * another job id is posted again where it was meant to go (a run's result only while
 * it is that run's latest, src/chat/notify/subscriptions.ts).
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { SigningKey } from '../trust/approval-signature.js';
import { canonicalJson } from '../trust/plan-seal.js';
import { notifyJobSchema, type NotifyJob } from './schemas.js';

export type NotifySigner = 'worker' | 'app' | 'admission';

/**
 * Who makes each kind: the only signer the app accepts for it. The admission webhook's
 * key (ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY; the app holds the public half in
 * ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS) signs only its warned applies: a stolen one
 * cannot post a result, an outcome or an alert thread.
 */
const NOTIFY_SIGNER: Readonly<Record<NotifyJob['kind'], NotifySigner>> = Object.freeze({
  'diagnosis-progress': 'worker',
  'diagnosis-result': 'worker',
  'remediation-outcome': 'worker',
  'proposal-outcome': 'worker',
  'alert-thread': 'app',
  'alert-overflow': 'app',
  'admission-warning': 'admission',
});

const notifySignatureSchema = z.object({
  by: z.enum(['worker', 'app', 'admission']),
  keyId: z.string().min(1).max(64),
  signature: z.string().min(1).max(200),
});
type NotifySignature = z.infer<typeof notifySignatureSchema>;

/** A notify job as it is queued: the job's data and, beside it, `sig`. */
export type SignedNotifyJob = NotifyJob & { sig: NotifySignature };

function message(by: NotifySigner, data: unknown): Buffer {
  return Buffer.from(`rollout-doctor notify v1\n${by}\n${canonicalJson(data)}`);
}

/** @example signNotify(job, 'worker', config.notifySigningKey) */
export function signNotify(job: NotifyJob, by: NotifySigner, key: SigningKey): SignedNotifyJob {
  const signature = sign(null, message(by, job), key.privateKey).toString('base64');
  return { ...job, sig: { by, keyId: key.keyId, signature } };
}

/** Public keys by signer: the workers' (ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS) and the app's own. */
export interface NotifyKeys {
  worker: ReadonlyMap<string, KeyObject>;
  app: ReadonlyMap<string, KeyObject>;
  /** The admission webhooks' (ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS); empty: no warned apply is announced. */
  admission: ReadonlyMap<string, KeyObject>;
  /**
   * The clusters a worker or admission key may speak for (ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS); a key
   * not in the map speaks for any. So the key of the least-guarded cluster's workers
   * cannot post results or outcomes as another cluster's.
   */
  workerClusters?: ReadonlyMap<string, readonly string[]>;
  /**
   * The cluster an admission key not named in `workerClusters` speaks for: the app's own
   * (ROLLOUT_DOCTOR_CLUSTER, the chart's `cluster`, which its webhook serves too). Unset:
   * such a key speaks for any cluster (the app always sets it: src/app/runtime.ts).
   */
  admissionCluster?: string;
}

/** The app's verification keys: the workers' public keys and the public half of its own signing key. */
export function notifyKeys(
  workerKeys: ReadonlyMap<string, KeyObject>,
  app: SigningKey,
  workerClusters?: ReadonlyMap<string, readonly string[]>,
  admission: ReadonlyMap<string, KeyObject> = new Map(),
  admissionCluster?: string,
): NotifyKeys {
  return {
    worker: workerKeys,
    app: new Map([[app.keyId, createPublicKey(app.privateKey)]]),
    admission,
    ...(workerClusters && workerClusters.size > 0 ? { workerClusters } : {}),
    ...(admissionCluster !== undefined ? { admissionCluster } : {}),
  };
}

/** The clusters key `keyId` of `by` is bound to; undefined: any. */
function boundClusters(keys: NotifyKeys, keyId: string, by: NotifySigner): readonly string[] | undefined {
  const bound = keys.workerClusters?.get(keyId);
  if (bound !== undefined || by !== 'admission' || keys.admissionCluster === undefined) return bound;
  return [keys.admissionCluster];
}

/**
 * Whether worker (or admission) key `keyId` may speak for `cluster`: a worker key not
 * bound to clusters may speak for any; an unbound admission key only for `admissionCluster`.
 */
export function keySpeaksFor(
  keys: NotifyKeys,
  keyId: string,
  cluster: unknown,
  by: NotifySigner = 'worker',
): boolean {
  const bound = boundClusters(keys, keyId, by);
  return bound === undefined || (typeof cluster === 'string' && bound.includes(cluster));
}

export type NotifyVerdict = { ok: true; job: NotifyJob } | { ok: false; reason: string };

/**
 * Checks a queued notification: a signature by the signer its kind belongs to, with a
 * known key, over exactly this data; then the job's schema.
 */
export function verifyNotify(data: unknown, keys: NotifyKeys): NotifyVerdict {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, reason: 'the notification is not an object' };
  const { sig, ...unsigned } = data as Record<string, unknown>;
  const signature = notifySignatureSchema.safeParse(sig);
  if (!signature.success) return { ok: false, reason: 'the notification carries no signature' };
  const parsed = notifyJobSchema.safeParse(unsigned);
  if (!parsed.success) return { ok: false, reason: 'the notification is malformed' };
  const { by, keyId } = signature.data;
  const expected = NOTIFY_SIGNER[parsed.data.kind];
  if (by !== expected)
    return {
      ok: false,
      reason: `a ${parsed.data.kind} notification is signed by the ${by}, not by the ${expected}`,
    };
  const key = keys[expected].get(keyId);
  if (!key)
    return { ok: false, reason: `the notification is signed with unknown ${expected} key "${keyId}"` };
  // Over the data as queued, not as parsed: the producer signed what it stored.
  if (!verify(null, message(by, unsigned), key, Buffer.from(signature.data.signature, 'base64')))
    return { ok: false, reason: 'the notification signature does not verify' };
  if (by !== 'app' && !keySpeaksFor(keys, keyId, (parsed.data as { cluster?: unknown }).cluster, by))
    return {
      ok: false,
      reason: `${by} key "${keyId}" is bound to cluster(s) ${boundClusters(keys, keyId, by)?.join(', ')}, not to this notification's cluster`,
    };
  return { ok: true, job: parsed.data };
}
