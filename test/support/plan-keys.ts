import { parsePublicKeys, parseSigningKey } from '../../src/trust/approval-signature.js';
import { appKeyEnv, generatePlanKeys, workerKeyEnv } from '../../src/trust/keygen.js';
import { parseSealKeys } from '../../src/trust/plan-seal.js';
import { notifyKeys } from '../../src/queue/notify-signature.js';

/**
 * Ephemeral keys for tests: a worker seal key, an app approval key pair and a worker
 * notify key pair, as the env values production takes (`env`, `appEnv`, `workerEnv`)
 * and parsed.
 */
export function ephemeralPlanKeys(
  ids: { seal: string; approval: string; notify?: string } = { seal: 's1', approval: 'a1' },
) {
  const env = generatePlanKeys(ids);
  const signing = parseSigningKey(env.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY);
  const notifySigning = parseSigningKey(env.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY);
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
    notify: {
      signing: notifySigning,
      /** What the app verifies with: the workers' keys and its own (notifyKeys). */
      keys: notifyKeys(parsePublicKeys(env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS), signing),
    },
  };
}

/** One key set for a whole test file's app and workers. */
export const testKeys = ephemeralPlanKeys();
