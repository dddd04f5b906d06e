/**
 * Server-side field validation of a ValidatingWebhookConfiguration, the one kind the
 * simulator knows every field of (admissionregistration.k8s.io/v1 types.go). A field the
 * type lacks (`failurPolicy` for `failurePolicy`, which would leave the default Fail in
 * force) is what the API server's decoder reports, by the request's `fieldValidation`:
 * - Strict (kubectl's default): 400, `… cannot be handled as a ValidatingWebhookConfiguration:
 *   strict decoding error: unknown field "webhooks[0].failurPolicy"`;
 * - Warn (the API's default): a `unknown field "…"` warning, and the field is dropped;
 * - Ignore: dropped.
 * Server-side apply refuses such a field whatever fieldValidation says (its typed
 * conversion: `.webhooks[0].failurPolicy: field not declared in schema`). Unknown fields
 * are never stored (`pruneUnknownFields`). metadata is ObjectMeta's business and is not
 * checked here.
 */
import { ApiError, badRequest } from '../errors.js';

/** A field's type: a leaf, a map with open keys, an object of known fields, or a list of one. */
type Shape = 'leaf' | 'map' | { [field: string]: Shape } | [Shape];

const SELECTOR: Shape = {
  matchLabels: 'map',
  matchExpressions: [{ key: 'leaf', operator: 'leaf', values: 'leaf' }],
};

const WEBHOOK: Shape = {
  name: 'leaf',
  clientConfig: {
    url: 'leaf',
    service: { namespace: 'leaf', name: 'leaf', path: 'leaf', port: 'leaf' },
    caBundle: 'leaf',
  },
  rules: [{ operations: 'leaf', apiGroups: 'leaf', apiVersions: 'leaf', resources: 'leaf', scope: 'leaf' }],
  failurePolicy: 'leaf',
  matchPolicy: 'leaf',
  namespaceSelector: SELECTOR,
  objectSelector: SELECTOR,
  sideEffects: 'leaf',
  timeoutSeconds: 'leaf',
  admissionReviewVersions: 'leaf',
  matchConditions: [{ name: 'leaf', expression: 'leaf' }],
};

const CONFIGURATION: Shape = { apiVersion: 'leaf', kind: 'leaf', metadata: 'map', webhooks: [WEBHOOK] };

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

// Strategic merge patch directives ($patch, $setElementOrder/…, $retainKeys, …) are not fields.
const isDirective = (key: string): boolean => key.startsWith('$');

function walk(value: unknown, shape: Shape, path: string, found: string[], prune: boolean): void {
  if (shape === 'leaf' || shape === 'map') return;
  if (Array.isArray(shape)) {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, shape[0], `${path}[${i}]`, found, prune));
    return;
  }
  if (!isObj(value)) return;
  for (const key of Object.keys(value)) {
    if (isDirective(key)) continue;
    const child = shape[key];
    const at = path === '' ? key : `${path}.${key}`;
    if (child === undefined) {
      found.push(at);
      if (prune) delete value[key];
    } else walk(value[key], child, at, found, prune);
  }
}

/** The paths of the fields `value` (an object, a patch or an apply configuration) has that the type lacks. */
export function unknownFields(value: unknown): string[] {
  const found: string[] = [];
  walk(value, CONFIGURATION, '', found, false);
  return found;
}

/** Drops, in place, the fields the type lacks: they are never stored. */
export function pruneUnknownFields(value: unknown): void {
  walk(value, CONFIGURATION, '', [], true);
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The request's fieldValidation (absent: Warn); anything else is a 400 as the API server answers it. */
export function fieldValidationOf(params: URLSearchParams): FieldValidation {
  const value = params.get('fieldValidation') ?? 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw badRequest(`fieldValidation parameter unsupported: ${value}. Valid values are: Ignore, Warn, Strict`);
}

/**
 * What the decoder says of `body` (the object, the patch or the apply configuration):
 * throws the refusal, or returns the warnings to add.
 */
export function checkFields(
  body: unknown,
  validation: FieldValidation,
  how: 'decode' | 'patch' | 'apply',
  name: string,
): string[] {
  const unknown = unknownFields(body);
  if (unknown.length === 0) return [];
  if (how === 'apply') {
    const list = unknown.map((f) => `.${f}: field not declared in schema`).join(', ');
    throw badRequest(
      `failed to create typed patch object (/${name}; admissionregistration.k8s.io/v1, Kind=ValidatingWebhookConfiguration): ${list}`,
    );
  }
  if (validation === 'Ignore') return [];
  const texts = unknown.map((f) => `unknown field "${f}"`);
  if (validation === 'Warn') return texts;
  const strict = `strict decoding error: ${texts.join(', ')}`;
  throw new ApiError(
    400,
    'BadRequest',
    how === 'decode'
      ? `ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: ${strict}`
      : strict,
  );
}
