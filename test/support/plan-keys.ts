import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { parsePrivateKey, parsePublicKeys } from '../../src/plans/approval-signature.js';
import { parseSealKeys } from '../../src/plans/plan-seal.js';

/**
 * Ephemeral keys for tests and the demo: a worker seal key and an app approval key
 * pair, as the env values production takes (ROLLOUT_DOCTOR_PLAN_SEAL_KEY,
 * ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY, ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS) and parsed.
 */
export function ephemeralPlanKeys(ids = { seal: 's1', approval: 'a1' }) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const env = {
    sealKey: `${ids.seal}:${randomBytes(32).toString('base64')}`,
    signingKey: `${ids.approval}:${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`,
    publicKeys: `${ids.approval}:${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`,
  };
  const signing = env.signingKey.slice(env.signingKey.indexOf(':') + 1);
  return {
    env,
    seal: parseSealKeys(env.sealKey),
    approval: {
      keyId: ids.approval,
      privateKey: parsePrivateKey(signing),
      publicKeys: parsePublicKeys(env.publicKeys),
    },
  };
}
