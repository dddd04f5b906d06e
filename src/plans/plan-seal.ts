/**
 * The worker's seal on a stored plan: HMAC-SHA256 over the canonical form of exactly
 * the fields that decide the write (cluster, target, kind, patch, pods, the ReplicaSet of
 * scale-old-replicaset, the DeviceTaintRule of taint-device, preconditions, inverse, expiry, id, undoOf). Only workers hold the key, so a plan written to Redis
 * by anyone else (or altered there) does not verify. Summary, impact, warnings and the
 * dry-run text are display only and stay outside the seal.
 *
 * A restart's time is not known when the plan is sealed: the patch carries the
 * APPLY_TIME marker (src/remediation/restart-time.ts), which the seal covers like any
 * other value, the allowlist accepts as the only value there, and the executor
 * replaces with the time of the apply. So what is approved is exactly what is
 * written, with "now" for the restart time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { StoredPlan } from './store.js';

/** Deterministic JSON: object keys sorted, undefined members dropped (as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The fields a seal covers; everything the executor acts on. */
export function sealedFields(stored: StoredPlan): unknown {
  const { plan } = stored;
  return {
    v: 1,
    id: plan.id,
    cluster: stored.cluster,
    kind: plan.kind,
    target: {
      apiGroup: 'apps',
      kind: plan.target.kind,
      namespace: plan.target.namespace,
      name: plan.target.name,
      uid: plan.preconditions.uid,
    },
    patch: plan.patch,
    pods: plan.pods ?? null,
    // scale-old-replicaset: the ReplicaSet written and what must still hold of it.
    // Present only on that kind, so the digests of the other kinds do not change.
    ...(plan.replicaSet ? { replicaSet: plan.replicaSet } : {}),
    // taint-device and its Undo: the DeviceTaintRule written (the rule's whole body derives from it).
    ...(plan.deviceTaint ? { deviceTaint: plan.deviceTaint } : {}),
    preconditions: plan.preconditions,
    inverse: plan.inverse,
    expiresAt: stored.expiresAt,
    undoOf: stored.undoOf ?? null,
  };
}

/** sha256 (hex) of the canonical sealed fields: what an approval names. */
export function planDigest(stored: StoredPlan): string {
  return createHash('sha256')
    .update(canonicalJson(sealedFields(stored)))
    .digest('hex');
}

export const planSealSchema = z.object({
  keyId: z.string().min(1).max(64),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PlanSeal = z.infer<typeof planSealSchema>;

/** Seal keys by id; the first one seals, all of them verify (two during a rotation). */
export interface SealKeys {
  current: { id: string; secret: Buffer };
  accepted: ReadonlyMap<string, Buffer>;
}

function mac(secret: Buffer, digest: string): string {
  return createHmac('sha256', secret).update(`rollout-doctor plan seal v1\n${digest}`).digest('hex');
}

/** @example sealPlan(stored, keys) // { keyId: 'k1', mac: '…' } */
export function sealPlan(stored: StoredPlan, keys: SealKeys): PlanSeal {
  return { keyId: keys.current.id, mac: mac(keys.current.secret, planDigest(stored)) };
}

export type SealVerdict = { ok: true; digest: string } | { ok: false; reason: string };

export function verifySeal(stored: StoredPlan, seal: unknown, keys: SealKeys): SealVerdict {
  const parsed = planSealSchema.safeParse(seal);
  if (!parsed.success) return { ok: false, reason: 'the plan carries no valid seal' };
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
    accepted.set(id, secret);
    current ??= { id, secret };
  }
  if (!current) throw new Error('no seal key given');
  return { current, accepted };
}
