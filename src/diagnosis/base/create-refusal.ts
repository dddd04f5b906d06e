/**
 * Why the API server refused to create a pod, read from the error a controller got
 * back (a ReplicaSet's `FailedCreate` event, "Error creating: <error>", or its
 * `ReplicaFailure` condition, the raw error). The wordings are upstream's:
 *
 * - ResourceQuota (plugin/pkg/admission/resourcequota/controller.go, checkRequest):
 *   `exceeded quota: <quota>, requested: <r>=<n>,…, used: <r>=<n>,…, limited: <r>=<n>,…`
 *   naming only the exceeded resources; `failed quota: <quota>: must specify …` when a
 *   container does not ask for a resource the quota tracks; `status unknown for quota: <quota>`.
 * - PodSecurity admission (k8s.io/pod-security-admission/admission):
 *   `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set …), …`.
 * - A validating webhook (k8s.io/apiserver/pkg/admission/plugin/webhook/errors):
 *   `admission webhook "<name>" denied the request: <message>`; one that cannot be
 *   reached with failurePolicy Fail: `Internal error occurred: failed calling webhook "<name>": …`.
 * - A ValidatingAdmissionPolicy: `ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request: <message>`.
 * - LimitRanger (plugin/pkg/admission/limitranger): `maximum cpu usage per Container is 2, but limit is 4`,
 *   `minimum memory usage per Pod is …`, `… max limit to request ratio per Container is …`.
 * - ServiceAccount admission: `error looking up service account <ns>/<name>: serviceaccount "<name>" not found`.
 * Each refusal is wrapped `pods "<name>" is forbidden: <reason>` (admission.NewForbidden),
 * except a webhook that could not be called. Client-go folds repeated events into
 * `(combined from similar events): …`. Pure.
 */

export type CreateRefusal =
  | {
      kind: 'quota-exceeded';
      quota: string;
      /** Per exceeded resource, as the message prints them ("requests.nvidia.com/gpu" → "1"). */
      requested: Record<string, string>;
      used: Record<string, string>;
      limited: Record<string, string>;
    }
  | { kind: 'quota-unspecified'; quota: string; detail: string }
  | { kind: 'quota-unknown'; quota: string }
  | { kind: 'pod-security'; policy: string; violations: string[]; containers: string[] }
  | { kind: 'webhook'; webhook: string; detail: string }
  | { kind: 'webhook-unreachable'; webhook: string; detail: string }
  | { kind: 'admission-policy'; policy: string; binding?: string; detail: string }
  | { kind: 'limit-range'; detail: string }
  | { kind: 'service-account'; serviceAccount: string; detail: string }
  | { kind: 'other'; detail: string };

const PREFIXES = [/^\(combined from similar events\):\s*/, /^Error creating:\s*/];
const FORBIDDEN = /^[a-z.]+ "[^"]*" is forbidden:\s*/;

/** The reason itself, without the event's and the 403's wrapping. */
function refusalReason(message: string): string {
  let text = message.trim();
  for (const prefix of PREFIXES) text = text.replace(prefix, '');
  return text.replace(FORBIDDEN, '').trim();
}

/** A `r=n,r=n` list as printed by quota's prettyPrint. */
function resourceList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

const QUOTA = /^exceeded quota: ([^,]+), requested: (.*?), used: (.*?), limited: (.*?)$/s;

/** The refusal in `message`, classified. */
export function classifyRefusal(message: string): CreateRefusal {
  const reason = refusalReason(message);
  const quota = QUOTA.exec(reason);
  if (quota) {
    return {
      kind: 'quota-exceeded',
      quota: quota[1] ?? '',
      requested: resourceList(quota[2] ?? ''),
      used: resourceList(quota[3] ?? ''),
      limited: resourceList(quota[4] ?? ''),
    };
  }
  const unspecified = /^failed quota: ([^:]+): (.*)$/s.exec(reason);
  if (unspecified)
    return { kind: 'quota-unspecified', quota: unspecified[1] ?? '', detail: unspecified[2] ?? '' };
  const unknown = /^status unknown for quota: (.+)$/s.exec(reason);
  if (unknown) return { kind: 'quota-unknown', quota: (unknown[1] ?? '').trim() };
  const pss = /^violates PodSecurity "([^"]+)": (.*)$/s.exec(reason);
  if (pss) {
    const violations = splitTopLevel(pss[2] ?? '');
    const containers = [
      ...new Set(
        [...(pss[2] ?? '').matchAll(/containers? ((?:"[^"]+"(?:, )?)+)/g)].flatMap((m) =>
          [...(m[1] ?? '').matchAll(/"([^"]+)"/g)].map((c) => c[1] ?? ''),
        ),
      ),
    ];
    return { kind: 'pod-security', policy: pss[1] ?? '', violations, containers };
  }
  const webhook = /admission webhook "([^"]+)" denied the request:?\s*(.*)$/s.exec(reason);
  if (webhook) return { kind: 'webhook', webhook: webhook[1] ?? '', detail: (webhook[2] ?? '').trim() };
  const unreachable = /failed calling webhook "([^"]+)":\s*(.*)$/s.exec(reason);
  if (unreachable)
    return {
      kind: 'webhook-unreachable',
      webhook: unreachable[1] ?? '',
      detail: (unreachable[2] ?? '').trim(),
    };
  const policy =
    /^ValidatingAdmissionPolicy '([^']+)'(?: with binding '([^']+)')? denied request:\s*(.*)$/s.exec(reason);
  if (policy) {
    return {
      kind: 'admission-policy',
      policy: policy[1] ?? '',
      ...(policy[2] ? { binding: policy[2] } : {}),
      detail: (policy[3] ?? '').trim(),
    };
  }
  if (
    /(?:maximum|minimum) [\w./-]+ usage per (?:Container|Pod|PersistentVolumeClaim) is|max limit to request ratio per/.test(
      reason,
    )
  )
    return { kind: 'limit-range', detail: reason };
  const sa = /error looking up service account [^/\s]+\/([^:\s]+):/.exec(reason);
  if (sa) return { kind: 'service-account', serviceAccount: sa[1] ?? '', detail: reason };
  return { kind: 'other', detail: reason };
}

/** `a (x, y), b (z)` → [`a (x, y)`, `b (z)`]: commas outside parentheses and quotes only. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '(') depth += 1;
    else if (!quoted && c === ')') depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && c === ',') {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p !== '');
}
