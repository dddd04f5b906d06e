/**
 * What kube-apiserver's own validation of an apps/v1 workload refuses, after mutating
 * admission and before any validating webhook sees the object
 * (pkg/apis/apps/validation/validation.go and the registries' ValidateUpdate,
 * pkg/registry/apps/<kind>/strategy.go): the apply then fails as a whole, nothing is
 * stored and no rollout starts. The kind modules say which of these rules hold for them
 * (`apiRefusal`); an Argo Rollout is a custom resource, which the API server checks
 * against its schema only. Messages read as the API server's, their values shown as JSON
 * (the API server prints Go values). Where several rules refuse, the API server says them
 * all at once ("[a, b]"), and so does `allRefusals`. Pure.
 */
import { semanticEqual } from '../base/semantic-equal.js';
import { matchesLabelSelector } from '../base/pod-constraints.js';
import { isQuantity, quantityMilli } from '../base/quantity.js';
import type { LabelSelector, PodTemplateSpec } from '../k8s.js';

/**
 * One refusal: the rule, the path the API server names and its message (what kubectl
 * prints after "The Deployment "web" is invalid: ", values as JSON).
 * - selectorEmpty: no selector, or one with no label and no expression;
 * - selectorMismatch: the selector does not select the template's own labels;
 * - immutable: an update changes the selector (apps/v1 keeps it for the object's life);
 * - forbidden: a StatefulSet update changes a spec field other than those it may;
 * - invalidStrategy: maxSurge or maxUnavailable is not an int-or-percent the API takes,
 *   or a combination it refuses (strategyRefusal);
 * - invalidResources: a container's requests and limits break the API's rules
 *   (resource-validation.ts).
 */
export type ApiRefusal =
  | {
      rule: 'selectorEmpty' | 'selectorMismatch' | 'immutable' | 'invalidStrategy' | 'invalidResources';
      path: string;
      message: string;
    }
  | { rule: 'forbidden'; path: 'spec'; message: string; fields: string[] };

const isEmptySelector = (s: LabelSelector | undefined): boolean =>
  s === undefined ||
  s === null ||
  (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

/**
 * ValidateDeploymentSpec, ValidateDaemonSetSpec and ValidateStatefulSetSpec on the
 * selector, then the registry's ValidateImmutableField on an update (Semantic.DeepEqual:
 * nil and empty are the same).
 */
export function selectorRefusal(
  kind: string,
  spec: { selector?: LabelSelector; template: PodTemplateSpec },
  old: { selector?: LabelSelector } | undefined,
  options: { required: boolean },
): ApiRefusal | undefined {
  const { selector } = spec;
  const labels = spec.template.metadata?.labels ?? {};
  // A DaemonSet's spec does not require one: without it, it selects nothing and the mismatch below says so.
  const empty = isEmptySelector(selector) && (Boolean(selector) || options.required);
  return allRefusals([
    empty
      ? {
          rule: 'selectorEmpty',
          path: 'spec.selector',
          message: selector
            ? `spec.selector: Invalid value: ${JSON.stringify(selector)}: empty selector is invalid for ${kind.toLowerCase()}`
            : 'spec.selector: Required value',
        }
      : !selector || !matchesLabelSelector(labels, selector)
        ? {
            rule: 'selectorMismatch',
            path: 'spec.template.metadata.labels',
            message: `spec.template.metadata.labels: Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``,
          }
        : undefined,
    // The registry's ValidateUpdate, after the spec's own rules.
    old && !semanticEqual(selector, old.selector)
      ? {
          rule: 'immutable',
          path: 'spec.selector',
          message: `spec.selector: Invalid value: ${JSON.stringify(selector)}: field is immutable`,
        }
      : undefined,
  ]);
}

/**
 * The refusals in the order the API server finds them, as one: the first one's rule (what
 * the finding explains) with every message, bracketed and joined with ", " as the API
 * server aggregates a field.ErrorList where there are several.
 */
export function allRefusals(found: readonly (ApiRefusal | undefined)[]): ApiRefusal | undefined {
  const refusals = found.filter((r): r is ApiRefusal => r !== undefined);
  const [first] = refusals;
  if (!first || refusals.length === 1) return first;
  return { ...first, message: `[${refusals.map((r) => r.message).join(', ')}]` };
}

/**
 * The StatefulSet spec fields ValidateStatefulSetUpdate keeps as stored, as the API knows
 * them: every field but replicas, ordinals, template, updateStrategy, revisionHistoryLimit
 * (allowed by newer servers; older ones refuse it, which is not said here),
 * persistentVolumeClaimRetentionPolicy and minReadySeconds. A field the schema does not
 * know is dropped or refused as unknown, never compared.
 */
const STATEFULSET_FIXED = ['selector', 'serviceName', 'podManagementPolicy', 'volumeClaimTemplates'] as const;

const STATEFULSET_FORBIDDEN =
  "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** Quantities by amount in milli-units (Semantic.DeepEqual compares them so: "10Gi" is "10240Mi"). */
function amounts(list: unknown): Record<string, unknown> {
  if (typeof list !== 'object' || list === null) return {};
  return Object.fromEntries(
    Object.entries(list).map(([name, value]) => [
      name,
      (typeof value === 'string' || typeof value === 'number') && isQuantity(value)
        ? quantityMilli(value)
        : value,
    ]),
  );
}

type ClaimTemplate = {
  metadata?: Record<string, unknown>;
  spec?: Record<string, unknown> & { resources?: { requests?: unknown; limits?: unknown } };
};

/**
 * A claim template as written, to compare with the stored one: what the API server adds
 * left out (apiVersion, kind, an empty status, creationTimestamp, volumeMode Filesystem)
 * and quantities by amount. The list is replaced whole by an apply (no merge key), so a
 * field the manifest drops is a change.
 */
function asWritten(template: unknown): unknown {
  const { metadata = {}, spec = {} } = (template ?? {}) as ClaimTemplate;
  const { creationTimestamp: _created, ...meta } = metadata;
  const { volumeMode, resources, ...rest } = spec;
  return {
    metadata: meta,
    spec: {
      ...rest,
      ...(volumeMode !== undefined && volumeMode !== 'Filesystem' ? { volumeMode } : {}),
      resources: { requests: amounts(resources?.requests), limits: amounts(resources?.limits) },
    },
  };
}

/**
 * ValidateStatefulSetUpdate: the fixed fields of the object as the apply stores it
 * (`spec`) against the stored ones, by Semantic.DeepEqual (a string left empty is the
 * string not set; podManagementPolicy unset is OrderedReady).
 */
export function statefulSetUpdateRefusal(
  spec: Record<string, unknown>,
  old: Record<string, unknown>,
): ApiRefusal | undefined {
  const read = (s: Record<string, unknown>, field: (typeof STATEFULSET_FIXED)[number]): unknown => {
    const value = s[field];
    if (field === 'podManagementPolicy') return value === undefined || value === '' ? 'OrderedReady' : value;
    if (field === 'volumeClaimTemplates') return (Array.isArray(value) ? value : []).map(asWritten);
    return value === '' ? undefined : value;
  };
  const changed = STATEFULSET_FIXED.filter((f) => !semanticEqual(read(spec, f), read(old, f))).map(
    (f) => `spec.${f}`,
  );
  if (changed.length === 0) return undefined;
  return { rule: 'forbidden', path: 'spec', message: STATEFULSET_FORBIDDEN, fields: changed.sort() };
}

type IntOrPercent = number | string | undefined;

const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** ValidatePositiveIntOrPercent: an int >= 0 or "N%" (unset: nothing to say). */
function formErrors(value: IntOrPercent, path: string): string[] {
  if (value === undefined || value === null) return [];
  const shown = JSON.stringify(value);
  if (typeof value === 'string')
    return /^[0-9]+%$/.test(value) ? [] : [`${path}: Invalid value: ${shown}: ${PERCENT_MESSAGE}`];
  return value < 0 ? [`${path}: Invalid value: ${shown}: must be greater than or equal to 0`] : [];
}

/** IsNotMoreThan100Percent: a percentage above 100. */
function over100(value: IntOrPercent, path: string): string[] {
  return typeof value === 'string' && /^[0-9]+%$/.test(value) && Number(value.slice(0, -1)) > 100
    ? [`${path}: Invalid value: ${JSON.stringify(value)}: must not be greater than 100%`]
    : [];
}

/** getIntOrPercentValue: the number, a percentage's number, 0 for what does not parse. */
function valueOf(v: IntOrPercent): number {
  if (typeof v === 'number') return v;
  const n = typeof v === 'string' ? Number.parseInt(v.replace(/%$/, ''), 10) : 0;
  return Number.isFinite(n) ? n : 0;
}

type Strategy = { type?: string; rollingUpdate?: { maxSurge?: IntOrPercent; maxUnavailable?: IntOrPercent } };

/** validateRollingUpdateStatefulSet on maxUnavailable: not 0, at most 100%. */
function statefulSetErrors(u: IntOrPercent, path: string): string[] {
  if (u === undefined) return [];
  const zero = valueOf(u) === 0 ? [`${path}: Invalid value: ${JSON.stringify(u)}: cannot be 0`] : [];
  return [...formErrors(u, path), ...zero, ...over100(u, path)];
}

/** ValidateRollingUpdateDeployment: not both 0, maxUnavailable at most 100%. */
function deploymentErrors(
  surge: IntOrPercent,
  unavailable: IntOrPercent,
  path: (f: string) => string,
): string[] {
  const both =
    valueOf(unavailable) === 0 && valueOf(surge) === 0
      ? [
          `${path('maxUnavailable')}: Invalid value: ${JSON.stringify(unavailable)}: may not be 0 when \`maxSurge\` is 0`,
        ]
      : [];
  return [
    ...formErrors(unavailable, path('maxUnavailable')),
    ...formErrors(surge, path('maxSurge')),
    ...both,
    ...over100(unavailable, path('maxUnavailable')),
  ];
}

/** ValidateRollingUpdateDaemonSet: each at most 100%, exactly one of them non-zero. */
function daemonSetErrors(
  surge: IntOrPercent,
  unavailable: IntOrPercent,
  path: (f: string) => string,
): string[] {
  const [u, g] = [valueOf(unavailable) !== 0, valueOf(surge) !== 0];
  const one =
    u && g
      ? [
          `${path('maxSurge')}: Invalid value: ${JSON.stringify(surge)}: may not be set when maxUnavailable is non-zero`,
        ]
      : !u && !g
        ? [`${path('maxUnavailable')}: Required value: cannot be 0 when maxSurge is 0`]
        : [];
  return [
    ...formErrors(unavailable, path('maxUnavailable')),
    ...formErrors(surge, path('maxSurge')),
    ...over100(unavailable, path('maxUnavailable')),
    ...over100(surge, path('maxSurge')),
    ...one,
  ];
}

/**
 * The strategy's own rules (pkg/apis/apps/validation): a Deployment's
 * ValidateRollingUpdateDeployment, a DaemonSet's ValidateRollingUpdateDaemonSet and a
 * StatefulSet's validateRollingUpdateStatefulSet, each with what is unset defaulted first
 * (25%/25%; a DaemonSet's 1/0), as the API server validates the object defaulted. Values
 * shown as JSON.
 */
export function strategyRefusal(kind: string, strategy: Strategy | undefined): ApiRefusal | undefined {
  const rolling = strategy?.rollingUpdate;
  if (!rolling || (strategy?.type !== undefined && strategy.type !== 'RollingUpdate')) return undefined;
  const field = kind === 'Deployment' ? 'spec.strategy' : 'spec.updateStrategy';
  const path = (f: string): string => `${field}.rollingUpdate.${f}`;
  const deployment = kind === 'Deployment';
  const surge = rolling.maxSurge ?? (deployment ? '25%' : 0);
  const unavailable = rolling.maxUnavailable ?? (deployment ? '25%' : 1);
  const errors =
    kind === 'StatefulSet'
      ? statefulSetErrors(rolling.maxUnavailable, path('maxUnavailable'))
      : deployment
        ? deploymentErrors(surge, unavailable, path)
        : daemonSetErrors(surge, unavailable, path);
  const [first] = errors;
  if (!first) return undefined;
  return {
    rule: 'invalidStrategy',
    path: first.slice(0, first.indexOf(':')),
    message: errors.length === 1 ? first : `[${errors.join(', ')}]`,
  };
}
