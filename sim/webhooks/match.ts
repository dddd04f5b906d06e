/**
 * Whether a request calls a webhook: k8s.io/apiserver/pkg/admission/plugin/webhook/generic
 * ShouldCallHook, in its order.
 * - namespaceSelector (predicates/namespace): a cluster-scoped request other than a
 *   Namespace always matches; a Namespace create or update is judged by its new labels,
 *   anything else by its namespace's stored labels (a namespace not found is a 404);
 * - objectSelector (predicates/object): the new object's labels or the old one's;
 * - rules (predicates/rules): operation, apiGroup, apiVersion, resource and subresource
 *   with their wildcards, scope (`Namespaced` never matches a Namespace itself);
 * - only then does a selector's error count, and matchConditions run (CEL over object,
 *   oldObject and request; `authorizer` is not modelled, so an expression using it fails):
 *   any false skips the webhook; an error skips it under failurePolicy Ignore and refuses
 *   the request (403) under Fail.
 * matchPolicy Equivalent finds nothing more than Exact here: the simulator serves each
 * resource in one version only.
 */
import { ApiError, reasonForCode } from '../errors.js';
import { matchesLabels, requirementsOf } from '../selectors.js';
import type { SimObject, Store } from '../store.js';
import { evaluate, toCel } from '../admission/cel.js';
import type { ValidatingWebhook, WebhookRule } from './config.js';
import type { AdmissionRequestV1, WebhookAttributes } from './review.js';

const exactOrWildcard = (items: readonly string[] | undefined, value: string): boolean =>
  (items ?? []).some((i) => i === '*' || i === value);

const isNamespaceResource = (a: WebhookAttributes): boolean =>
  a.group === '' && a.version === 'v1' && a.resource === 'namespaces';

function scopeMatches(scope: string | undefined, a: WebhookAttributes): boolean {
  if (scope === undefined || scope === '*') return true;
  const namespaced = a.namespace !== undefined && a.namespace !== '';
  if (scope === 'Namespaced') return !isNamespaceResource(a) && namespaced;
  if (scope === 'Cluster') return isNamespaceResource(a) || !namespaced;
  return false;
}

function resourceMatches(resources: readonly string[] | undefined, a: WebhookAttributes): boolean {
  const sub = a.subresource ?? '';
  return (resources ?? []).some((r) => {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const rsub = slash < 0 ? '' : r.slice(slash + 1);
    return (res === '*' || res === a.resource) && (rsub === '*' || rsub === sub);
  });
}

export function ruleMatches(rule: WebhookRule, a: WebhookAttributes): boolean {
  return (
    scopeMatches(rule.scope, a) &&
    exactOrWildcard(rule.operations, a.operation) &&
    exactOrWildcard(rule.apiGroups, a.group) &&
    exactOrWildcard(rule.apiVersions, a.version) &&
    resourceMatches(rule.resources, a)
  );
}

const labelsOf = (o: unknown): Record<string, string> | undefined =>
  (o as SimObject | null)?.metadata?.labels;

/** true, false, or the 404 of a namespace that is not there. */
function namespaceMatches(store: Store, hook: ValidatingWebhook, a: WebhookAttributes): boolean | ApiError {
  if ((a.namespace ?? '') === '' && !isNamespaceResource(a)) return true;
  const reqs = requirementsOf(hook.namespaceSelector);
  if (reqs.length === 0) return true;
  let labels: Record<string, string> | undefined;
  if (isNamespaceResource(a) && !a.subresource && a.operation !== 'DELETE') labels = labelsOf(a.object);
  else {
    const ns = store.get('Namespace', undefined, a.namespace ?? '');
    if (!ns)
      return new ApiError(404, 'NotFound', `namespaces "${a.namespace ?? ''}" not found`, {
        name: a.namespace ?? '',
        kind: 'namespaces',
      });
    labels = ns.metadata.labels;
  }
  return matchesLabels(reqs, labels ?? {});
}

function objectMatches(hook: ValidatingWebhook, a: WebhookAttributes): boolean {
  const reqs = requirementsOf(hook.objectSelector);
  if (reqs.length === 0) return true;
  const selects = (o: unknown): boolean =>
    o !== null && o !== undefined && matchesLabels(reqs, labelsOf(o) ?? {});
  return selects(a.object) || selects(a.oldObject);
}

/** matchConditions: true (all true), false (one false, or an error under Ignore), or an error message. */
function conditionsMatch(hook: ValidatingWebhook, request: AdmissionRequestV1): boolean | string {
  const conditions = hook.matchConditions ?? [];
  if (conditions.length === 0) return true;
  const context = {
    object: toCel(request.object ?? null),
    oldObject: toCel(request.oldObject ?? null),
    request: toCel(request),
  };
  const errors: string[] = [];
  for (const c of conditions) {
    try {
      const result = evaluate(c.expression, context);
      if (result === false) return false;
      if (result !== true) errors.push(`expression '${c.expression}' resulted in a non-boolean value`);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (errors.length === 0) return true;
  if ((hook.failurePolicy ?? 'Fail') === 'Ignore') return false;
  return errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
}

/** Whether to call `hook` for this request; an ApiError refuses the request outright. */
export function shouldCallHook(
  store: Store,
  hook: ValidatingWebhook,
  a: WebhookAttributes,
  request: AdmissionRequestV1,
): boolean | ApiError {
  const nsMatch = namespaceMatches(store, hook, a);
  if (nsMatch === false) return false;
  if (!objectMatches(hook, a)) return false;
  if (!(hook.rules ?? []).some((rule) => ruleMatches(rule, a))) return false;
  if (nsMatch instanceof ApiError) return nsMatch;
  const conditions = conditionsMatch(hook, request);
  if (typeof conditions === 'boolean') return conditions;
  const what = `${a.group ? `${a.resource}.${a.group}` : a.resource} "${a.name}"`;
  return new ApiError(403, reasonForCode(403), `${what} is forbidden: ${conditions}`, {
    name: a.name,
    ...(a.group ? { group: a.group } : {}),
    kind: a.resource,
  });
}
