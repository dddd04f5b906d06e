/**
 * ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) enforced on API writes, as the
 * API server's validating admission plugin does it (k8s.io/apiserver/pkg/admission/plugin/
 * policy/validating), with the CEL evaluator the simulator already uses (@marcbachmann/cel-js):
 * - a binding (spec.policyName) whose validationActions hold Deny makes its policy judge
 *   requests; Warn and Audit only actions are not enforced here;
 * - the request must match the policy's matchConstraints (resourceRules: apiGroups,
 *   apiVersions, operations, resources with subresources as `plural/sub` and `*`;
 *   excludeResourceRules; namespaceSelector and objectSelector by matchLabels) and the
 *   binding's matchResources, then every matchCondition must be true;
 * - each validation whose expression is not true denies: 422 Invalid (or the reason it
 *   names) with "ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied
 *   request: <message>";
 * - an expression that fails to evaluate, or a policy that is missing or uses paramKind
 *   (not modelled), follows failurePolicy (Fail, the default, denies; Ignore admits).
 * CEL sees object, oldObject (null on CREATE and DELETE respectively), request (operation,
 * userInfo, name, namespace, resource, subResource, kind, dryRun), namespaceObject and
 * variables; JSON integers are CEL ints, as the API server converts them.
 */
import { evaluate, toCel } from './cel.js';
import { ApiError } from '../errors.js';
import type { SimObject, Store } from '../store.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionRequest {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly user: { readonly username: string; readonly groups: readonly string[] };
  readonly dryRun: boolean;
  /** The object after the write (null for DELETE) and before it (null for CREATE). */
  readonly object: unknown;
  readonly oldObject: unknown;
}

interface Rule {
  apiGroups?: string[];
  apiVersions?: string[];
  operations?: string[];
  resources?: string[];
}
interface Selector {
  matchLabels?: Record<string, string>;
}
interface MatchResources {
  resourceRules?: Rule[];
  excludeResourceRules?: Rule[];
  namespaceSelector?: Selector;
  objectSelector?: Selector;
}
interface PolicySpec {
  failurePolicy?: 'Fail' | 'Ignore';
  paramKind?: unknown;
  matchConstraints?: MatchResources;
  matchConditions?: { name: string; expression: string }[];
  variables?: { name: string; expression: string }[];
  validations?: { expression: string; message?: string; messageExpression?: string; reason?: string }[];
}

const has = (list: readonly string[] | undefined, value: string): boolean =>
  (list ?? []).includes('*') || (list ?? []).includes(value);

function resourceMatches(patterns: readonly string[] | undefined, resource: string, sub?: string): boolean {
  return (patterns ?? []).some((p) => {
    const [pr, ps] = p.split('/');
    if (p === '*/*') return true;
    if (ps === undefined) return sub === undefined && (pr === '*' || pr === resource);
    return (pr === '*' || pr === resource) && (ps === '*' || ps === sub);
  });
}

function ruleMatches(rule: Rule, r: AdmissionRequest): boolean {
  return (
    has(rule.apiGroups, r.group) &&
    has(rule.apiVersions, r.version) &&
    has(rule.operations, r.operation) &&
    resourceMatches(rule.resources, r.resource, r.subresource)
  );
}

function labelsMatch(selector: Selector | undefined, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v);
}

function matches(
  m: MatchResources | undefined,
  r: AdmissionRequest,
  store: Store,
  requireRules: boolean,
): boolean {
  if (!m) return !requireRules;
  if (requireRules || m.resourceRules) {
    if (!(m.resourceRules ?? []).some((rule) => ruleMatches(rule, r))) return false;
  }
  if ((m.excludeResourceRules ?? []).some((rule) => ruleMatches(rule, r))) return false;
  const obj = (r.object ?? r.oldObject) as SimObject | null;
  if (!labelsMatch(m.objectSelector, obj?.metadata?.labels)) return false;
  if (m.namespaceSelector?.matchLabels && r.namespace !== undefined) {
    const ns = store.get('Namespace', undefined, r.namespace);
    if (!labelsMatch(m.namespaceSelector, ns?.metadata.labels)) return false;
  }
  return true;
}

function denied(
  policy: string,
  binding: string,
  message: string,
  reason = 'Invalid',
  r: AdmissionRequest,
): ApiError {
  const what = `${r.group ? `${r.resource}.${r.group}` : r.resource} "${r.name}"`;
  const text = `ValidatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: ${message}`;
  if (reason === 'Forbidden') return new ApiError(403, 'Forbidden', `${what} is forbidden: ${text}`);
  const kind = r.group ? `${r.kind}.${r.group}` : r.kind;
  return new ApiError(422, 'Invalid', `${kind} "${r.name}" is invalid: : ${text}`);
}

/** Throws the denial of the first policy that refuses the request; returns when all admit it. */
export function admitByPolicies(store: Store, r: AdmissionRequest): void {
  const bindings = store.list('ValidatingAdmissionPolicyBinding');
  if (bindings.length === 0) return;
  const request = toCel({
    operation: r.operation,
    userInfo: { username: r.user.username, groups: [...r.user.groups] },
    name: r.name,
    namespace: r.namespace ?? '',
    resource: { group: r.group, version: r.version, resource: r.resource },
    subResource: r.subresource ?? '',
    kind: { group: r.group, version: r.version, kind: r.kind },
    dryRun: r.dryRun,
  });
  const nsObject =
    r.namespace !== undefined ? (store.get('Namespace', undefined, r.namespace) ?? null) : null;
  const base = {
    object: toCel(r.object ?? null),
    oldObject: toCel(r.oldObject ?? null),
    request,
    namespaceObject: toCel(nsObject),
  };
  for (const binding of bindings) {
    const bspec = (binding['spec'] ?? {}) as {
      policyName?: string;
      validationActions?: string[];
      matchResources?: MatchResources;
      paramRef?: unknown;
    };
    if (!(bspec.validationActions ?? []).includes('Deny')) continue;
    const policy = store.get('ValidatingAdmissionPolicy', undefined, bspec.policyName ?? '');
    const bindingName = binding.metadata.name;
    if (!policy) continue; // an unknown policy name binds nothing (the API server ignores it)
    const spec = (policy['spec'] ?? {}) as PolicySpec;
    if (!matches(spec.matchConstraints, r, store, true)) continue;
    if (!matches(bspec.matchResources, r, store, false)) continue;
    const fail = (message: string): void => {
      if ((spec.failurePolicy ?? 'Fail') === 'Fail')
        throw denied(policy.metadata.name, bindingName, message, 'Invalid', r);
    };
    if (spec.paramKind !== undefined) {
      fail('policy paramKind is not supported by the simulator');
      continue;
    }
    try {
      const variables: Record<string, unknown> = {};
      const context = { ...base, variables };
      for (const v of spec.variables ?? []) variables[v.name] = evaluate(v.expression, context);
      if (!(spec.matchConditions ?? []).every((c) => evaluate(c.expression, context) === true)) continue;
      for (const v of spec.validations ?? []) {
        if (evaluate(v.expression, context) === true) continue;
        let message = v.message ?? `failed expression: ${v.expression}`;
        if (v.messageExpression) {
          const m = evaluate(v.messageExpression, context);
          if (typeof m === 'string' && m.trim() !== '') message = m;
        }
        throw denied(policy.metadata.name, bindingName, message, v.reason ?? 'Invalid', r);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      fail(`expression error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
