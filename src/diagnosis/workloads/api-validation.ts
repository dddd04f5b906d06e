/**
 * What kube-apiserver's own validation of an apps/v1 workload refuses, before any
 * admission webhook sees the object (pkg/apis/apps/validation/validation.go and the
 * registries' ValidateUpdate, pkg/registry/apps/<kind>/strategy.go): the apply then fails
 * as a whole, nothing is stored and no rollout starts. The kind modules say which of
 * these rules hold for them (`refusedUpdate`); an Argo Rollout is a custom resource,
 * which the API server checks against its schema only. Pure.
 */
import { semanticEqual } from '../base/semantic-equal.js';
import { matchesLabelSelector } from '../base/pod-constraints.js';
import { isQuantity, quantityMilli } from '../base/quantity.js';
import type { LabelSelector, PodTemplateSpec } from '../k8s.js';

/**
 * One refusal: the rule, the path the API server names and its message as kubectl prints
 * it (after "The Deployment "web" is invalid: ").
 * - selectorEmpty: no selector, or one with no label and no expression;
 * - selectorMismatch: the selector does not select the template's own labels;
 * - immutable: an update changes the selector (apps/v1 keeps it for the object's life);
 * - forbidden: a StatefulSet update changes a spec field other than those it may.
 */
export type ApiRefusal =
  | { rule: 'selectorEmpty' | 'selectorMismatch' | 'immutable'; path: string; message: string }
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
): ApiRefusal | undefined {
  const { selector } = spec;
  if (isEmptySelector(selector))
    return {
      rule: 'selectorEmpty',
      path: 'spec.selector',
      message: selector
        ? `spec.selector: Invalid value: ${JSON.stringify(selector)}: empty selector is invalid for ${kind.toLowerCase()}`
        : 'spec.selector: Required value',
    };
  const labels = spec.template.metadata?.labels ?? {};
  if (!matchesLabelSelector(labels, selector as LabelSelector))
    return {
      rule: 'selectorMismatch',
      path: 'spec.template.metadata.labels',
      message: `spec.template.metadata.labels: Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``,
    };
  if (old && !semanticEqual(selector, old.selector))
    return {
      rule: 'immutable',
      path: 'spec.selector',
      message: `spec.selector: Invalid value: ${JSON.stringify(selector)}: field is immutable`,
    };
  return undefined;
}

/** The StatefulSet spec fields an update may change (ValidateStatefulSetUpdate copies them over before comparing). */
const STATEFULSET_UPDATABLE = new Set([
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
]);

const STATEFULSET_FORBIDDEN =
  "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** A storage size's milli-units (Semantic.DeepEqual compares quantities by amount: "10Gi" is "10240Mi"). */
function amount(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  return isQuantity(value) ? quantityMilli(value) : value;
}

/**
 * A claim template as the API server stores it, for comparing with a manifest's: the
 * defaults it writes (apiVersion, kind, volumeMode, an empty status) left out and
 * storage sizes compared by amount. Only what `written` sets is compared: a field the
 * stored template has and the manifest leaves out is not taken as a change.
 */
function claimTemplateDiffers(written: unknown, stored: unknown): boolean {
  const w = (written ?? {}) as { metadata?: { name?: string }; spec?: Record<string, unknown> };
  const s = (stored ?? {}) as { metadata?: { name?: string }; spec?: Record<string, unknown> };
  if ((w.metadata?.name ?? '') !== (s.metadata?.name ?? '')) return true;
  const wSpec = w.spec ?? {};
  const sSpec = s.spec ?? {};
  for (const [field, value] of Object.entries(wSpec)) {
    if (field === 'resources') {
      const sizes = (r: unknown) => (r as { requests?: Record<string, unknown> } | undefined)?.requests ?? {};
      const wr = sizes(value);
      const sr = sizes(sSpec.resources);
      for (const name of new Set([...Object.keys(wr), ...Object.keys(sr)]))
        if (amount(wr[name]) !== amount(sr[name])) return true;
      continue;
    }
    if (field === 'volumeMode' && value === 'Filesystem' && sSpec[field] === undefined) continue;
    if (!semanticEqual(value, sSpec[field])) return true;
  }
  return false;
}

/**
 * ValidateStatefulSetUpdate: every spec field but the updatable ones must stay as stored.
 * `spec` is the object as the apply stores it; the fields compared are serviceName,
 * podManagementPolicy (OrderedReady when unset), the selector and volumeClaimTemplates.
 */
export function statefulSetUpdateRefusal(
  spec: Record<string, unknown>,
  old: Record<string, unknown>,
): ApiRefusal | undefined {
  const changed: string[] = [];
  const policy = (s: Record<string, unknown>) => s.podManagementPolicy ?? 'OrderedReady';
  const fixed = new Set(
    [...Object.keys(spec), ...Object.keys(old)].filter((f) => !STATEFULSET_UPDATABLE.has(f)),
  );
  for (const field of fixed) {
    const differs =
      field === 'podManagementPolicy'
        ? policy(spec) !== policy(old)
        : field === 'volumeClaimTemplates'
          ? claimTemplatesDiffer(spec[field], old[field])
          : !semanticEqual(spec[field], old[field]);
    if (differs) changed.push(`spec.${field}`);
  }
  if (changed.length === 0) return undefined;
  return { rule: 'forbidden', path: 'spec', message: STATEFULSET_FORBIDDEN, fields: changed.sort() };
}

function claimTemplatesDiffer(written: unknown, stored: unknown): boolean {
  const w = Array.isArray(written) ? written : [];
  const s = Array.isArray(stored) ? stored : [];
  return w.length !== s.length || w.some((t, i) => claimTemplateDiffers(t, s[i]));
}
