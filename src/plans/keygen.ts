/**
 * Fresh keys for the plan seal and approval signatures, as the values the processes
 * read: `ROLLOUT_DOCTOR_PLAN_SEAL_KEY` (workers only), `ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY`
 * (app only) and `ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS` (workers). Used by
 * `rollout-doctor keygen`, the demo and the tests, so all three make keys one way.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export type PlanKeyEnv = {
  ROLLOUT_DOCTOR_PLAN_SEAL_KEY: string;
  ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: string;
  ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: string;
};

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** @example generatePlanKeys({ seal: 's-2026-11', approval: 'a-2026-11' }) */
export function generatePlanKeys(ids: { seal: string; approval: string }): PlanKeyEnv {
  for (const id of [ids.seal, ids.approval]) {
    if (!KEY_ID.test(id)) throw new Error(`key id "${id}" must be 1-64 of A-Z a-z 0-9 . _ -`);
  }
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    ROLLOUT_DOCTOR_PLAN_SEAL_KEY: `${ids.seal}:${randomBytes(32).toString('base64')}`,
    ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: `${ids.approval}:${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`,
    ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: `${ids.approval}:${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`,
  };
}

/** The app's share of the keys (it must never hold the seal key). */
export function appKeyEnv(keys: PlanKeyEnv): Pick<PlanKeyEnv, 'ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY'> {
  return { ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: keys.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY };
}

/** A worker's share of the keys (it must never hold the signing key). */
export function workerKeyEnv(
  keys: PlanKeyEnv,
): Pick<PlanKeyEnv, 'ROLLOUT_DOCTOR_PLAN_SEAL_KEY' | 'ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS'> {
  return {
    ROLLOUT_DOCTOR_PLAN_SEAL_KEY: keys.ROLLOUT_DOCTOR_PLAN_SEAL_KEY,
    ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: keys.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS,
  };
}
