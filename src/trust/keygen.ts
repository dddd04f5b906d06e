/**
 * Fresh keys for the plan seal, approval and notify signatures, as the values the
 * processes read: `ROLLOUT_DOCTOR_PLAN_SEAL_KEY` and `ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY`
 * (workers only), `ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS` (workers),
 * `ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY` (app only) and
 * `ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS` (app). Used by `rollout-doctor keygen`, the demo
 * and the tests, so all of them make keys one way.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { SigningKey } from './approval-signature.js';
import { quoted } from '../text/clean.js';

type PlanKeyEnv = {
  ROLLOUT_DOCTOR_PLAN_SEAL_KEY: string;
  ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: string;
  ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: string;
  ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: string;
  ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: string;
};

/**
 * The keys `rollout-doctor keygen` prints, in its order, each with who holds it: its
 * help, its output and the CLI's command list all count and name them from here.
 */
export const PLAN_KEY_HOLDERS: readonly (readonly [keyof PlanKeyEnv, string])[] = [
  ['ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY', 'app only'],
  ['ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS', 'app'],
  ['ROLLOUT_DOCTOR_PLAN_SEAL_KEY', 'workers only'],
  ['ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY', 'workers only'],
  ['ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS', 'workers'],
];

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

function ed25519Pair(id: string): { signing: string; public: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    signing: `${id}:${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`,
    public: `${id}:${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`,
  };
}

/** @example generatePlanKeys({ seal: 's-2026-11', approval: 'a-2026-11', notify: 'n-2026-11' }) */
export function generatePlanKeys(ids: { seal: string; approval: string; notify?: string }): PlanKeyEnv {
  const notifyId = ids.notify ?? `${ids.approval}-notify`;
  for (const id of [ids.seal, ids.approval, notifyId]) {
    if (!KEY_ID.test(id)) throw new Error(`key id ${quoted(id)} must be 1-64 of A-Z a-z 0-9 . _ -`);
  }
  const approval = ed25519Pair(ids.approval);
  const notify = ed25519Pair(notifyId);
  return {
    ROLLOUT_DOCTOR_PLAN_SEAL_KEY: `${ids.seal}:${randomBytes(32).toString('base64')}`,
    ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: approval.signing,
    ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: approval.public,
    ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: notify.signing,
    ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: notify.public,
  };
}

/** The app's share of the keys (it must never hold the seal key or a worker's notify key). */
export function appKeyEnv(
  keys: PlanKeyEnv,
): Pick<PlanKeyEnv, 'ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY' | 'ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS'> {
  return {
    ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: keys.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY,
    ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: keys.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
  };
}

/** A worker's share of the keys (it must never hold the approval signing key). */
export function workerKeyEnv(
  keys: PlanKeyEnv,
): Pick<
  PlanKeyEnv,
  'ROLLOUT_DOCTOR_PLAN_SEAL_KEY' | 'ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS' | 'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY'
> {
  return {
    ROLLOUT_DOCTOR_PLAN_SEAL_KEY: keys.ROLLOUT_DOCTOR_PLAN_SEAL_KEY,
    ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: keys.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS,
    ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: keys.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY,
  };
}

const der = (k: KeyObject): string => k.export({ format: 'der', type: 'spki' }).toString('base64');

/** Does `key` sign what one of `accepted` verifies (same id, same public key)? */
function accepts(accepted: ReadonlyMap<string, KeyObject>, key: SigningKey): boolean {
  const known = accepted.get(key.keyId);
  return known !== undefined && der(known) === der(createPublicKey(key.privateKey));
}

/**
 * The id under which `publicKeys` holds the public half of `key`, if it does: a
 * process's own signing key among the public keys it verifies the other side with is
 * a pasting mistake (the approval and notify keys swapped), caught at start.
 */
export function ownKeyAmong(publicKeys: ReadonlyMap<string, KeyObject>, key: SigningKey): string | undefined {
  const own = der(createPublicKey(key.privateKey));
  return [...publicKeys].find(([, k]) => der(k) === own)?.[0];
}

/**
 * Why an app and a worker configured side by side (one process, as `npm run demo`
 * starts them) could not work together: the worker would refuse every approval, or
 * the app every result. Empty when they can. Separate processes cannot see each
 * other's keys; there a mismatch shows as refusals audited `tampered` or logged.
 */
export function keyPairProblems(
  app: { approvalSigningKey: SigningKey; notifyPublicKeys: ReadonlyMap<string, KeyObject> },
  worker: { approvalPublicKeys: ReadonlyMap<string, KeyObject>; notifySigningKey: SigningKey },
): string[] {
  const problems: string[] = [];
  if (!accepts(worker.approvalPublicKeys, app.approvalSigningKey))
    problems.push(
      `ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS of the worker does not hold the public half of the app's approval key "${app.approvalSigningKey.keyId}": every approval would be refused`,
    );
  if (!accepts(app.notifyPublicKeys, worker.notifySigningKey))
    problems.push(
      `ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS of the app does not hold the public half of the worker's notify key "${worker.notifySigningKey.keyId}": every result would be refused`,
    );
  return problems;
}
