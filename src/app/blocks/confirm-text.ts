import type { RemediationPlan } from '../../remediation/plan.js';
import { plainText, type PlainText } from './mrkdwn.js';
import { LIMITS } from './text.js';

/**
 * Where the exact patch really is: the plan section of the same message (above the
 * buttons) shows the patch and the server's dry run; when the message had to drop
 * it, the full report posted in the thread lists every plan with its exact patch.
 */
export const PATCH_POINTER = 'Exact patch: above the buttons (or in the thread report if cut).';

/** Values found anywhere in `body` under objects shaped like a NotIn node-affinity term. */
function excludedHosts(body: unknown, out: string[] = []): string[] {
  if (Array.isArray(body)) for (const v of body) excludedHosts(v, out);
  else if (body !== null && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    if (o.operator === 'NotIn' && Array.isArray(o.values))
      for (const v of o.values) if (typeof v === 'string' && !out.includes(v)) out.push(v);
    for (const v of Object.values(o)) excludedHosts(v, out);
  }
  return out;
}

function strategyOf(plan: RemediationPlan): { type?: unknown; maxSurge?: unknown; maxUnavailable?: unknown } {
  const spec = (plan.patch?.body as { spec?: { strategy?: Record<string, unknown>; template?: unknown } })
    ?.spec;
  const s = spec?.strategy ?? {};
  const ru = (s.rollingUpdate ?? {}) as Record<string, unknown>;
  return { type: s.type, maxSurge: ru.maxSurge, maxUnavailable: ru.maxUnavailable };
}

function restarts(plan: RemediationPlan): boolean {
  return JSON.stringify(plan.patch?.body ?? null).includes('kubectl.kubernetes.io/restartedAt');
}

/** "a, b and 3 more": whole names only, as many as fit in `room` characters. */
function names(list: readonly string[], room: number): string {
  const shown: string[] = [];
  for (const name of list) {
    const rest = list.length - shown.length - 1;
    const next = [...shown, name].join(', ') + (rest > 0 ? ` and ${rest} more` : '');
    if (next.length > room) break;
    shown.push(name);
  }
  if (shown.length === 0) return `${list.length} of them`;
  const rest = list.length - shown.length;
  return shown.join(', ') + (rest > 0 ? ` and ${rest} more` : '');
}

/** The change in words, for a target phrase such as "deployment/web in ns shop". */
function changeInWords(plan: RemediationPlan, target: string, room: number): string {
  // The restart time is the moment of the apply (the patch carries a marker for it).
  const restart = restarts(plan) ? ` and restart ${target} now` : ` of ${target}`;
  switch (plan.kind) {
    case 'set-rolling-update': {
      const s = strategyOf(plan);
      return `Set the strategy to RollingUpdate with maxSurge ${String(s.maxSurge)}, maxUnavailable ${String(s.maxUnavailable)}${restart}.`;
    }
    case 'set-recreate':
      return `Set the strategy to Recreate (old pods stop before new ones start)${restart}.`;
    case 'rollout-restart':
      return `Restart ${target} now: its pods are replaced as its strategy allows.`;
    case 'exclude-node': {
      const head = `Keep ${target} off node `;
      return `${head}${names(excludedHosts(plan.patch?.body), room - head.length - 40)} (required node affinity).`;
    }
    case 'delete-pods': {
      const pods = plan.pods?.map((p) => p.name) ?? [];
      const head = `Delete ${pods.length} pod(s) of ${target}: `;
      return `${head}${names(pods, room - head.length - 1)}.`;
    }
  }
}

function firstSentence(text: string): string {
  const one = /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;
  return one.replace(/\s+/g, ' ').trim();
}

/**
 * The confirm dialog's text (plain_text, at most 300 characters): the change in
 * words, the impact's first sentence when it fits, and where the exact patch is.
 * Built from whole parts, never cut mid-word or mid-JSON; a target name too long to
 * fit is replaced by "this Deployment" (the dialog's title and the message name it).
 */
export function confirmDialogText(plan: RemediationPlan): PlainText {
  const max = LIMITS.confirmText;
  const room = max - PATCH_POINTER.length - 1;
  const { name, namespace } = plan.target;
  const targets = [`deployment/${name} in ns ${namespace}`, 'this Deployment'];
  for (const target of targets) {
    const change = changeInWords(plan, target, room);
    if (change.length > room) continue;
    const impact = `Impact: ${firstSentence(plan.impact)}`;
    const parts =
      change.length + impact.length + 1 <= room ? [change, impact, PATCH_POINTER] : [change, PATCH_POINTER];
    return plainText(parts.join(' '), max);
  }
  return plainText(`Apply ${plan.kind} to this Deployment. ${PATCH_POINTER}`, max);
}
