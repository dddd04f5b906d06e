/**
 * The ValidatingAdmissionWebhook plugin (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * validating/dispatcher.go Dispatch): for a write, every webhook of every
 * ValidatingWebhookConfiguration (by configuration name, then in order) that matches
 * (match.ts) is called at once (call.ts), and
 * - every warning it returns goes to the response (server/warnings.ts), refused or not;
 * - a call that failed is ignored under failurePolicy Ignore and refuses the request
 *   under Fail: 500 `Internal error occurred: failed calling webhook "…": …`;
 * - `allowed: false` refuses it as webhook/errors ToStatusErr words it: the webhook's
 *   code (below 400 becomes 400), reason and details, the message
 *   `admission webhook "<name>" denied the request: <message|reason>` (or `… without
 *   explanation`);
 * - of several refusals the first webhook's is answered.
 * The admission kinds themselves (webhook configurations, admission policies and their
 * bindings) are never sent to webhooks (rules.IsExemptAdmissionConfigurationResource).
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { SimObject, Store } from '../store.js';
import type { WarningRecorder } from '../server/warnings.js';
import { callHook, type CallOutcome } from './call.js';
import { KIND, webhooksOf, type ValidatingWebhook } from './config.js';
import { shouldCallHook } from './match.js';
import {
  admissionRequest,
  type AdmissionRequestV1,
  type WebhookAttributes,
  type WebhookVerdict,
} from './review.js';

const EXEMPT = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/** Whether any webhook is configured at all (no configuration: nothing to wait for). */
export function hasValidatingWebhooks(store: Store): boolean {
  return store.list(KIND).length > 0;
}

function rejection(hook: ValidatingWebhook, verdict: WebhookVerdict): ApiError {
  const result = verdict.status ?? {};
  const code = (result.code ?? 0) < 400 ? 400 : (result.code ?? 400);
  const deniedBy = `admission webhook "${hook.name}" denied the request`;
  const message = result.message
    ? `${deniedBy}: ${result.message}`
    : result.reason
      ? `${deniedBy}: ${result.reason}`
      : `${deniedBy} without explanation`;
  return new ApiError(code, result.reason ?? '', message, result.details as ApiError['details']);
}

/** Runs the validating webhooks for one write; throws the refusal, records the warnings. */
export async function dispatchValidatingWebhooks(
  store: Store,
  a: WebhookAttributes,
  warnings: WarningRecorder,
): Promise<void> {
  if (a.group === 'admissionregistration.k8s.io' && EXEMPT.has(a.kind)) return;
  // By name, in byte order as Go sorts strings (the configuration manager's order).
  const byName = (x: SimObject, y: SimObject): number =>
    x.metadata.name < y.metadata.name ? -1 : x.metadata.name > y.metadata.name ? 1 : 0;
  const configs = [...store.list(KIND)].sort(byName);
  const base = admissionRequest(a);
  const relevant: { hook: ValidatingWebhook; request: AdmissionRequestV1 }[] = [];
  for (const config of configs) {
    for (const hook of webhooksOf(config)) {
      const request = { ...base, uid: randomUUID() };
      const call = shouldCallHook(store, hook, a, request);
      if (call instanceof ApiError) throw call;
      if (call) relevant.push({ hook, request });
    }
  }
  if (relevant.length === 0) return;
  const outcomes: CallOutcome[] = await Promise.all(
    relevant.map(({ hook, request }) => callHook(store, hook, request)),
  );
  let refusal: ApiError | undefined;
  outcomes.forEach((outcome, i) => {
    const hook = relevant[i]?.hook;
    if (!hook) return;
    if (outcome.kind === 'verdict') {
      for (const w of outcome.verdict.warnings) warnings.add(w);
      if (!outcome.verdict.allowed) refusal ??= rejection(hook, outcome.verdict);
    } else if (outcome.kind === 'refused') refusal ??= outcome.error;
    else if ((hook.failurePolicy ?? 'Fail') !== 'Ignore')
      refusal ??= new ApiError(500, 'InternalError', `Internal error occurred: ${outcome.message}`, {
        causes: [{ message: outcome.message }],
      });
  });
  if (refusal) throw refusal;
}
