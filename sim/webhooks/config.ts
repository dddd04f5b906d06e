/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration as the API server stores
 * it: the v1 defaults (pkg/apis/admissionregistration/v1/defaults.go: failurePolicy Fail,
 * matchPolicy Equivalent, empty namespace and object selectors, timeoutSeconds 10, a
 * rule's scope `*`, a service's port 443) and the create/update validation of
 * pkg/apis/admissionregistration/validation (ValidateValidatingWebhookConfiguration with
 * k8s.io/apiserver/pkg/util/webhook/validation.go for url and service), worded as they
 * word it. CEL matchConditions are checked for a name and an expression that parses.
 */
import type { LabelSelector } from '../../src/diagnosis/k8s.js';
import type { SimObject } from '../store.js';
import { parseCel } from '../admission/cel.js';
import { pruneUnknownFields } from './fields.js';

type Cause = { field: string; message: string };

export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface ValidatingWebhook {
  name: string;
  clientConfig: {
    url?: string;
    service?: { namespace: string; name: string; path?: string; port?: number };
    caBundle?: string;
  };
  rules?: WebhookRule[];
  failurePolicy?: 'Fail' | 'Ignore';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: { name: string; expression: string }[];
}

export const KIND = 'ValidatingWebhookConfiguration';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The webhooks of a stored configuration (entries that are not objects are left out). */
export function webhooksOf(config: SimObject): ValidatingWebhook[] {
  return list(config['webhooks']).filter(isObj) as unknown as ValidatingWebhook[];
}

/**
 * SetDefaults_ValidatingWebhook, SetDefaults_Rule and SetDefaults_ServiceReference, in
 * place, after dropping the fields the type lacks (fields.ts), as decoding drops them.
 */
export function defaultWebhookConfiguration(o: SimObject): void {
  pruneUnknownFields(o);
  for (const hook of list(o['webhooks']).filter(isObj)) {
    hook['failurePolicy'] ??= 'Fail';
    hook['matchPolicy'] ??= 'Equivalent';
    hook['namespaceSelector'] ??= {};
    hook['objectSelector'] ??= {};
    hook['timeoutSeconds'] ??= 10;
    for (const rule of list(hook['rules']).filter(isObj)) rule['scope'] ??= '*';
    const service = isObj(hook['clientConfig']) ? hook['clientConfig']['service'] : undefined;
    if (isObj(service)) service['port'] ??= 443;
  }
}

const quoted = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));
const invalid = (field: string, value: unknown, detail: string): Cause => ({
  field,
  message: `Invalid value: ${quoted(value)}: ${detail}`,
});
const required = (field: string, detail = ''): Cause => ({
  field,
  message: detail ? `Required value: ${detail}` : 'Required value',
});
const notSupported = (field: string, value: unknown, supported: readonly string[]): Cause => ({
  field,
  message: `Unsupported value: ${quoted(value)}: supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
});
const strings = (v: unknown): string[] => list(v).map(String);

function ruleCauses(rule: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  const operations = strings(rule['operations']);
  if (operations.length === 0) causes.push(required(`${at}.operations`));
  if (operations.length > 1 && operations.includes('*'))
    causes.push(
      invalid(`${at}.operations`, operations, "if '*' is present, must not specify other operations"),
    );
  const supportedOps = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
  operations.forEach((op, i) => {
    if (!supportedOps.includes(op)) causes.push(notSupported(`${at}.operations[${i}]`, op, supportedOps));
  });
  for (const [key, what] of [
    ['apiGroups', 'API groups'],
    ['apiVersions', 'API versions'],
  ] as const) {
    const values = strings(rule[key]);
    if (values.length === 0) causes.push(required(`${at}.${key}`));
    if (values.length > 1 && values.includes('*'))
      causes.push(invalid(`${at}.${key}`, values, `if '*' is present, must not specify other ${what}`));
  }
  const resources = strings(rule['resources']);
  if (resources.length === 0) causes.push(required(`${at}.resources`));
  resources.forEach((r, i) => {
    if (r === '') causes.push(required(`${at}.resources[${i}]`));
  });
  if (resources.length > 1 && resources.includes('*/*'))
    causes.push(
      invalid(`${at}.resources`, resources, "if '*/*' is present, must not specify other resources"),
    );
  if (resources.includes('*') && resources.some((r) => r !== '*' && !r.includes('/')))
    causes.push(
      invalid(
        `${at}.resources`,
        resources,
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  const scopes = ['*', 'Cluster', 'Namespaced'];
  if (rule['scope'] !== undefined && !scopes.includes(String(rule['scope'])))
    causes.push(notSupported(`${at}.scope`, rule['scope'], scopes));
  return causes;
}

function urlCauses(url: string, at: string): Cause[] {
  const form = '; desired format: https://host[/path]';
  let u: URL;
  try {
    u = new URL(url);
  } catch (err) {
    return [
      required(at, `url must be a valid URL: ${err instanceof Error ? err.message : String(err)}${form}`),
    ];
  }
  const causes: Cause[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') causes.push(invalid(at, scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') causes.push(invalid(at, u.host, `host must be specified${form}`));
  if (u.username !== '' || u.password !== '')
    causes.push(invalid(at, u.username, 'user information is not permitted in the URL'));
  if (u.hash !== '') causes.push(invalid(at, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search !== '')
    causes.push(invalid(at, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return causes;
}

function serviceCauses(service: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  if (!service['name']) causes.push(required(`${at}.name`));
  if (!service['namespace']) causes.push(required(`${at}.namespace`));
  const port = service['port'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    causes.push(invalid(`${at}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const path = service['path'];
  if (typeof path === 'string' && path !== '' && path !== '/' && !path.startsWith('/'))
    causes.push(invalid(`${at}.path`, path, "must start with a '/'"));
  return causes;
}

function hookCauses(hook: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  const name = typeof hook['name'] === 'string' ? hook['name'] : '';
  if (name === '') causes.push(required(`${at}.name`));
  else if (name.split('.').length < 3)
    causes.push(
      invalid(`${at}.name`, name, 'should be a domain with at least three segments separated by dots'),
    );
  list(hook['rules']).forEach((rule, i) =>
    causes.push(...ruleCauses(isObj(rule) ? rule : {}, `${at}.rules[${i}]`)),
  );
  const failurePolicy = hook['failurePolicy'];
  if (failurePolicy !== undefined && failurePolicy !== 'Fail' && failurePolicy !== 'Ignore')
    causes.push(notSupported(`${at}.failurePolicy`, failurePolicy, ['Fail', 'Ignore']));
  const matchPolicy = hook['matchPolicy'];
  if (matchPolicy !== undefined && matchPolicy !== 'Equivalent' && matchPolicy !== 'Exact')
    causes.push(notSupported(`${at}.matchPolicy`, matchPolicy, ['Equivalent', 'Exact']));
  const sideEffects = hook['sideEffects'];
  if (sideEffects === undefined)
    causes.push(required(`${at}.sideEffects`, 'must specify one of None, NoneOnDryRun'));
  else if (sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun')
    causes.push(notSupported(`${at}.sideEffects`, sideEffects, ['None', 'NoneOnDryRun']));
  const timeout = hook['timeoutSeconds'];
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1))
    causes.push(
      invalid(`${at}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'),
    );
  const cc = isObj(hook['clientConfig']) ? hook['clientConfig'] : {};
  if ((cc['url'] === undefined) === (cc['service'] === undefined))
    causes.push(required(`${at}.clientConfig`, 'exactly one of url or service is required'));
  else if (typeof cc['url'] === 'string') causes.push(...urlCauses(cc['url'], `${at}.clientConfig.url`));
  else causes.push(...serviceCauses(isObj(cc['service']) ? cc['service'] : {}, `${at}.clientConfig.service`));
  list(hook['matchConditions']).forEach((c, i) => {
    const condition = isObj(c) ? c : {};
    const where = `${at}.matchConditions[${i}]`;
    if (!condition['name']) causes.push(required(`${where}.name`));
    const expression = condition['expression'];
    if (typeof expression !== 'string' || expression === '') causes.push(required(`${where}.expression`));
    else {
      const error = parseCel(expression);
      if (error) causes.push(invalid(`${where}.expression`, expression, `compilation failed: ${error}`));
    }
  });
  const versions = strings(hook['admissionReviewVersions']);
  if (versions.length === 0)
    causes.push(required(`${at}.admissionReviewVersions`, 'must specify one of v1, v1beta1'));
  else if (!versions.some((v) => v === 'v1' || v === 'v1beta1'))
    causes.push(
      invalid(`${at}.admissionReviewVersions`, versions, 'must include at least one of v1, v1beta1'),
    );
  return causes;
}

/** The validation causes of a ValidatingWebhookConfiguration (empty when valid). */
export function webhookConfigurationCauses(o: SimObject): Cause[] {
  const causes: Cause[] = [];
  const seen = new Set<string>();
  list(o['webhooks']).forEach((h, i) => {
    const hook = isObj(h) ? h : {};
    causes.push(...hookCauses(hook, `webhooks[${i}]`));
    const name = typeof hook['name'] === 'string' ? hook['name'] : '';
    if (name !== '' && seen.has(name))
      causes.push({ field: `webhooks[${i}].name`, message: `Duplicate value: "${name}"` });
    seen.add(name);
  });
  return causes;
}
