/**
 * The secrets that keep the app and the workers apart: each side refuses to start with
 * the other side's key in its environment.
 */
import type { Env } from './env-fields.js';

/**
 * Each side's secret that the other side must never hold: a process refuses to start
 * with the other's key in its environment, so a copied .env cannot join the halves.
 */
export const FOREIGN_SECRETS = Object.freeze({
  app: Object.freeze([
    'ROLLOUT_DOCTOR_PLAN_SEAL_KEY',
    'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY',
    'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY',
    // The Git token pushes and opens pull requests: workers only (docs/propose-in-git.md).
    'ROLLOUT_DOCTOR_GIT_TOKEN',
    'ROLLOUT_DOCTOR_GIT_TOKEN_FILE',
  ]),
  worker: Object.freeze(['ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY']),
});

export function foreignSecretProblems(env: Env, side: keyof typeof FOREIGN_SECRETS): string[] {
  const holder = side === 'app' ? 'only workers hold it' : 'only the app holds it';
  return FOREIGN_SECRETS[side]
    .filter((name) => (env[name] ?? '').trim() !== '')
    .map((name) => `${name} must not be set for the ${side}: ${holder}`);
}
