/**
 * The worker's seal on a stored plan: HMAC-SHA256 over the canonical form of the whole
 * plan as stored (everything the executor acts on, and everything an approver is shown
 * of it: summary, impact, warnings, drift, the server dry run, undoOf), its cluster and
 * its expiry. Only workers hold the key, so a plan written to Redis by anyone else (or
 * altered there, in a field that writes or in one that is only read) does not verify.
 *
 * What an approver sees is bound by `shownDigest`: the app renders a plan's message,
 * thread report, confirm dialog and Undo from one `ShownPlan`, puts its digest in the
 * Apply button's value, and at the click refuses a stored plan whose shown digest
 * differs (src/chat/approvals/approve.ts). The sealed digest covers the shown digest, so
 * the approval the app signs names exactly what was displayed.
 *
 * A restart's time is not known when the plan is sealed: the patch carries the
 * APPLY_TIME marker (src/remediation/restart-time.ts), which the seal covers like any
 * other value, the allowlist accepts as the only value there, and the executor
 * replaces with the time of the apply. So what is approved is exactly what is
 * written, with "now" for the restart time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { keyKind } from './key-kind.js';
import { planSealSchema, type PlanSeal, type StoredPlan } from './stored-plan.js';

/** Deterministic JSON: object keys sorted, undefined members dropped (as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * The seal's format. v1 sealed only the fields that decide the write; v2 seals the
 * shown digest as well. A plan sealed by another version is refused with that said
 * (docs/operations.md, upgrade notes), never applied.
 */
export const SEAL_VERSION = 2;

/** A plan as a renderer receives it: from the notify job (a result) or the store (an Undo). */
export type ShownPlan = Pick<StoredPlan, 'plan' | 'cluster' | 'dryRun' | 'undoOf'>;

/**
 * Everything shown about a plan: the whole plan object (id, kind, target, summary,
 * impact, warnings, drift, patch, pods, ReplicaSet, DeviceTaintRule, preconditions,
 * inverse), its cluster, the server dry run shown beside it, and undoOf. The whole
 * object rather than a list of fields, so a field a renderer starts to read is covered
 * without anyone remembering to add it here.
 */
function shownFields(shown: ShownPlan): unknown {
  return {
    v: SEAL_VERSION,
    cluster: shown.cluster,
    plan: shown.plan,
    dryRun: shown.dryRun ?? null,
    undoOf: shown.undoOf ?? null,
  };
}

/** sha256 (hex) of what is shown of a plan: what an Apply or Undo button's value names. */
export function shownDigest(shown: ShownPlan): string {
  return createHash('sha256')
    .update(canonicalJson(shownFields(shown)))
    .digest('hex');
}

/** The fields a seal covers: what is shown (which includes everything the executor acts on) and the expiry. */
function sealedFields(stored: StoredPlan): unknown {
  return { v: SEAL_VERSION, shown: shownDigest(stored), expiresAt: stored.expiresAt };
}

/** sha256 (hex) of the canonical sealed fields: what an approval names. */
export function planDigest(stored: StoredPlan): string {
  return createHash('sha256')
    .update(canonicalJson(sealedFields(stored)))
    .digest('hex');
}

export { planSealSchema, type PlanSeal } from './stored-plan.js';

/** Seal keys by id; the first one seals, all of them verify (two during a rotation). */
export interface SealKeys {
  current: { id: string; secret: Buffer };
  accepted: ReadonlyMap<string, Buffer>;
}

function mac(secret: Buffer, digest: string): string {
  return createHmac('sha256', secret)
    .update(`rollout-doctor plan seal v${SEAL_VERSION}\n${digest}`)
    .digest('hex');
}

/** @example sealPlan(stored, keys) // { keyId: 'k1', mac: '…' } */
export function sealPlan(stored: StoredPlan, keys: SealKeys): PlanSeal {
  return { v: SEAL_VERSION, keyId: keys.current.id, mac: mac(keys.current.secret, planDigest(stored)) };
}

type SealVerdict = { ok: true; digest: string } | { ok: false; reason: string };

/** Why a plan sealed by another version is refused, in words for the thread and the clicker. */
export function outdatedSealReason(version: number | undefined): string {
  return `the plan was sealed by another rollout-doctor version (seal v${version ?? 1}, this one reads v${SEAL_VERSION}); plans made before an upgrade are not applied`;
}

export function verifySeal(stored: StoredPlan, seal: unknown, keys: SealKeys): SealVerdict {
  const parsed = planSealSchema.safeParse(seal);
  if (!parsed.success) return { ok: false, reason: 'the plan carries no valid seal' };
  // The version is not authenticated (only the MAC is): a seal of another version is
  // refused like any seal that does not verify, and the reason says which it claims.
  if (parsed.data.v !== SEAL_VERSION) return { ok: false, reason: outdatedSealReason(parsed.data.v) };
  const secret = keys.accepted.get(parsed.data.keyId);
  if (!secret) return { ok: false, reason: `the plan is sealed with unknown key "${parsed.data.keyId}"` };
  const digest = planDigest(stored);
  const expected = Buffer.from(mac(secret, digest), 'hex');
  const given = Buffer.from(parsed.data.mac, 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'the plan does not match its seal' };
  }
  return { ok: true, digest };
}

/**
 * Parses `id:base64secret[,id:base64secret]` (ROLLOUT_DOCTOR_PLAN_SEAL_KEY): the first
 * key seals, every key verifies. Secrets must be at least 32 bytes.
 */
export function parseSealKeys(value: string): SealKeys {
  const pairs = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const accepted = new Map<string, Buffer>();
  let current: SealKeys['current'] | undefined;
  for (const pair of pairs) {
    const at = pair.indexOf(':');
    const id = pair.slice(0, at);
    const secret = Buffer.from(pair.slice(at + 1), 'base64');
    if (at < 1 || !/^[A-Za-z0-9._-]{1,64}$/.test(id))
      throw new Error('a seal key needs the form id:base64secret');
    if (secret.length < 32) throw new Error(`seal key "${id}" is shorter than 32 bytes`);
    // An Ed25519 key pasted here would make the seal secret something the app holds
    // (its approval key), or something public.
    if (keyKind(pair.slice(at + 1)) !== undefined)
      throw new Error(`seal key "${id}" is an Ed25519 key, not a random secret`);
    accepted.set(id, secret);
    current ??= { id, secret };
  }
  if (!current) throw new Error('no seal key given');
  return { current, accepted };
}
