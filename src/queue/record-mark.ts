/**
 * The mark of a Redis value that steers where the bot speaks or what it says:
 * an alert thread's record (its channel, root ts, workload and title), a job's
 * link to a workload, a thread's last verdict. The writer signs the value with its
 * notify-domain key (the app with its approval key, a worker with its notify key: the
 * same keys and public halves notify jobs use, src/queue/notify-signature.ts) under a
 * domain string of its own per record, so no mark stands for another record or a
 * notification. The app reads a value only when its mark verifies; anything else is
 * reported (`onForged`: a warning and a metric) and treated as absent, so a Redis
 * writer can make the app open a fresh thread, never speak in a channel or message of
 * the writer's choosing, and never silence a workload quietly.
 */
import { sign, verify } from 'node:crypto';
import type { z } from 'zod';
import type { SigningKey } from '../trust/approval-signature.js';
import { canonicalJson } from '../trust/plan-seal.js';
import { keySpeaksFor, type NotifyKeys, type NotifySigner } from './notify-signature.js';

/** Who marks what it writes: the app or a worker, with its key. */
export interface RecordSigner {
  by: NotifySigner;
  key: SigningKey;
}

/** What the app checks marks with, and whom it tells when one does not verify. */
export interface RecordVerifier {
  keys: NotifyKeys;
  /** A value under `key` whose mark is missing or wrong: warn and count; the value is not used. */
  onForged(record: string, key: string): void;
}

function bytes(domain: string, by: NotifySigner, data: unknown): Buffer {
  return Buffer.from(`rollout-doctor record v1\n${domain}\n${by}\n${canonicalJson(data)}`);
}

/** "<by>.<keyId>.<signature>", a single token (no spaces: it ends space-separated values). */
export function markOf(domain: string, data: unknown, signer: RecordSigner): string {
  const signature = sign(null, bytes(domain, signer.by, data), signer.key.privateKey).toString('base64url');
  return `${signer.by}.${signer.key.keyId}.${signature}`;
}

/** Whether `mark` is a mark by one of `signers` over exactly `data` in `domain`. */
export function verifyMark(
  domain: string,
  data: unknown,
  mark: string | undefined,
  keys: NotifyKeys,
  signers: readonly NotifySigner[],
): boolean {
  if (mark === undefined) return false;
  const [by, keyId, signature, ...rest] = mark.split('.');
  if (rest.length > 0 || signature === undefined || keyId === undefined) return false;
  if (by !== 'app' && by !== 'worker') return false;
  if (!signers.includes(by)) return false;
  const key = keys[by].get(keyId);
  if (!key) return false;
  // A worker's key speaks only for the clusters it is bound to (notify-signature.ts).
  if (by === 'worker' && !keySpeaksFor(keys, keyId, (data as { cluster?: unknown } | null)?.cluster))
    return false;
  try {
    return verify(null, bytes(domain, by, data), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * A record stored as "<mark>\n<json>" (the Teams records: cards, people, conversations,
 * approvers): the writer's mark over `covered(json)` (what names the record's place,
 * and the JSON exactly as stored) in `domain`, then the JSON.
 */
export function markedJson(
  domain: string,
  json: string,
  covered: (json: string) => unknown,
  signer: RecordSigner,
): string {
  return `${markOf(domain, covered(json), signer)}\n${json}`;
}

/**
 * A "<mark>\n<json>" value read back: its mark must be the app's over `covered(json)` in
 * `domain`, and its JSON must parse with `schema`; undefined when either fails (the
 * caller reports it as forged).
 */
export function readMarkedJson<T>(
  domain: string,
  value: string,
  covered: (json: string) => unknown,
  schema: z.ZodType<T>,
  keys: NotifyKeys,
): T | undefined {
  const at = value.indexOf('\n');
  if (at < 0) return undefined;
  const json = value.slice(at + 1);
  if (!verifyMark(domain, covered(json), value.slice(0, at), keys, ['app'])) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
