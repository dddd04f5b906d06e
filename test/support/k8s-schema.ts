/**
 * Offline schema check of rendered manifests, in the spirit of kubeconform: every field
 * of an object must exist in the Kubernetes type and hold the right JSON type. The types
 * come from @kubernetes/client-node's generated models (attributeTypeMap, generated from
 * the Kubernetes OpenAPI spec). kubectl cannot do this without an API server: even
 * `kubectl create --dry-run=client --validate=false` asks the server's discovery to map
 * kinds, and `--validate` fetches the server's OpenAPI.
 */
import * as k8s from '@kubernetes/client-node';

interface Attribute {
  readonly baseName: string;
  readonly type: string;
}

function attributesOf(model: string): readonly Attribute[] | undefined {
  const candidate = (k8s as Record<string, unknown>)[model] as
    { getAttributeTypeMap?: () => Attribute[] } | undefined;
  return candidate?.getAttributeTypeMap?.();
}

/** apps/v1 Deployment → V1Deployment; admissionregistration.k8s.io/v1beta1 X → V1beta1X. */
export function modelName(apiVersion: string, kind: string): string {
  const version = apiVersion.split('/').at(-1) ?? '';
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

function check(value: unknown, type: string, path: string, out: string[]): void {
  if (type === 'any') return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) out.push(`${path}: expected a list`);
    else value.forEach((v, i) => check(v, array[1] ?? 'any', `${path}[${i}]`, out));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      out.push(`${path}: expected a map`);
    else for (const [k, v] of Object.entries(value)) check(v, map[1] ?? 'any', `${path}.${k}`, out);
    return;
  }
  const primitive: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    Date: (v) => typeof v === 'string',
    number: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean',
    IntOrString: (v) => typeof v === 'string' || Number.isInteger(v),
  };
  const isPrimitive = primitive[type];
  if (isPrimitive) {
    if (!isPrimitive(value)) out.push(`${path}: expected ${type}, got ${JSON.stringify(value)}`);
    return;
  }
  const attributes = attributesOf(type);
  if (!attributes) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    out.push(`${path}: expected an object (${type})`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const attribute = attributes.find((a) => a.baseName === key);
    if (!attribute) out.push(`${path}.${key}: no such field in ${type}`);
    else check(v, attribute.type, `${path}.${key}`, out);
  }
}

/**
 * What is wrong with a manifest by the Kubernetes schema ([] when nothing), or
 * undefined when client-node has no type for its kind (a CRD such as HTTPRoute).
 */
export function schemaProblems(object: { apiVersion?: unknown; kind?: unknown }): string[] | undefined {
  const model = modelName(String(object.apiVersion), String(object.kind));
  if (!attributesOf(model)) return undefined;
  const out: string[] = [];
  check(object, model, `${String(object.kind)}`, out);
  return out;
}
