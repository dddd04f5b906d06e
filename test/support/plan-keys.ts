import { parsePublicKeys, parseSigningKey } from '../../src/plans/approval-signature.js';
import { appKeyEnv, generatePlanKeys, workerKeyEnv } from '../../src/plans/keygen.js';
import { parseSealKeys } from '../../src/plans/plan-seal.js';

/**
 * Ephemeral keys for tests: a worker seal key and an app approval key pair, as the
 * env values production takes (`env`, `appEnv`, `workerEnv`) and parsed.
 */
export function ephemeralPlanKeys(ids = { seal: 's1', approval: 'a1' }) {
  const env = generatePlanKeys(ids);
  const signing = parseSigningKey(env.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY);
  return {
    env,
    appEnv: appKeyEnv(env),
    workerEnv: workerKeyEnv(env),
    seal: parseSealKeys(env.ROLLOUT_DOCTOR_PLAN_SEAL_KEY),
    approval: {
      keyId: signing.keyId,
      privateKey: signing.privateKey,
      publicKeys: parsePublicKeys(env.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS),
    },
  };
}

/** One key set for a whole test file's app and workers. */
export const testKeys = ephemeralPlanKeys();
