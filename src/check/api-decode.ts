/**
 * What the API server cannot decode into a workload's Go types, before any validation:
 * a value of the wrong type (`value: 8080` for an env var, `version: 1.0` as a label,
 * `gpu: yes` in a nodeSelector, which YAML reads as a boolean) is refused by every client,
 * and a field the API does not have (`resource:` for `resources:`) is refused by
 * `kubectl apply`'s default strict field validation (since 1.27) and dropped without it.
 * Either way the object check would judge is not the one the cluster gets, so the
 * manifest is bad input at its line (exit 2), as a malformed quantity is.
 *
 * The API's shape comes from @kubernetes/client-node's generated models (client-node 2.0
 * is generated from the release-1.36 OpenAPI; a field a release had and 1.36 dropped is
 * listed in FORMER_FIELDS, and a field newer than a cluster passes: this check refuses
 * only what no release has), loaded only when a Deployment, DaemonSet or StatefulSet is
 * judged. An Argo Rollout is a custom resource
 * whose schema the cluster holds: not judged here.
 */
import { closestNames } from '../text/closest-names.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';

/** Each model's JSON fields and their types, as client-node generates them. */
type Model = ReadonlyMap<string, { type: string; format: string }>;
type ApiShape = ReadonlyMap<string, Model>;

interface Attribute {
  baseName: string;
  type: string;
  format: string;
}

let loaded: Promise<ApiShape> | undefined;

/** The models, imported once (about 0.2 s: most commands never need them). */
export function apiShape(): Promise<ApiShape> {
  loaded ??= import('@kubernetes/client-node/dist/gen/models/all.js').then((models) => {
    const shape = new Map<string, Model>();
    for (const [name, value] of Object.entries(models as Record<string, unknown>)) {
      const map = (value as { getAttributeTypeMap?: () => Attribute[] } | undefined)?.getAttributeTypeMap;
      if (typeof map !== 'function') continue;
      shape.set(name, new Map(map().map((a) => [a.baseName, { type: a.type, format: a.format }])));
    }
    return shape;
  });
  return loaded;
}

const ROOTS: Partial<Record<WorkloadKind, string>> = {
  Deployment: 'V1Deployment',
  DaemonSet: 'V1DaemonSet',
  StatefulSet: 'V1StatefulSet',
};

/** Maps of resource amounts: a Quantity takes a number as well as a string. */
const QUANTITY_MAPS = new Set(['limits', 'requests', 'overhead', 'capacity', 'allocatable', 'hard', 'used']);
/** Single Quantity fields the models type as string (a resourceFieldRef's `divisor: 1`). */
const QUANTITY_FIELDS = new Set(['sizeLimit', 'storage', 'divisor']);

/**
 * Fields a released Kubernetes has that the models' release dropped, by model: 1.35's
 * PodSpec.workloadRef (alpha, gate GenericWorkload), replaced in 1.36 by schedulingGroup.
 */
const FORMER_FIELDS: Readonly<Record<string, readonly string[]>> = { V1PodSpec: ['workloadRef'] };

type Path = readonly (string | number)[];
interface DecodeProblem {
  path: Path;
  problem: string;
}

const STRING_MAP = '{ [key: string]: string; }';

function kindOfValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `a string (${JSON.stringify(value)})`;
  return `a ${typeof value} (${String(value)})`;
}

/** "spec.template.spec.containers[0].env[1].value", as check names fields. */
export function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Why a value does not decode, or undefined where it does (types only; fields below). */
function typeMismatch(value: unknown, type: string, format: string, quantity: boolean): string | undefined {
  if (type === 'any') return undefined;
  if (type === 'string' || type === 'Date')
    return typeof value === 'string' || (quantity && typeof value === 'number') ? undefined : 'a string';
  if (type === 'number') {
    const whole = format === 'int32' || format === 'int64';
    return typeof value === 'number' && (!whole || Number.isInteger(value))
      ? undefined
      : whole
        ? 'a whole number'
        : 'a number';
  }
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : 'true or false';
  if (type === 'IntOrString')
    return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
      ? undefined
      : 'a whole number or a string';
  if (type.startsWith('Array<')) return Array.isArray(value) ? undefined : 'a list';
  return typeof value === 'object' && !Array.isArray(value) ? undefined : 'a mapping';
}

const QUOTE_HINT: Record<string, string> = {
  boolean: ' (YAML reads yes, no, on, off, true and false unquoted as booleans: quote it)',
  number: ' (a number where the API takes text: quote it)',
};

interface Walk {
  shape: ApiShape;
  unknown: { path: Path; known: string[] }[];
}

/** The first value of the wrong type under `path`, collecting unknown fields on the way. */
function walk(value: unknown, type: string, format: string, path: Path, w: Walk): DecodeProblem | undefined {
  if (value === null || value === undefined) return undefined;
  const last = path[path.length - 1];
  const quantity = typeof last === 'string' && QUANTITY_FIELDS.has(last);
  const want = typeMismatch(value, type, format, quantity);
  if (want) {
    const hint = want === 'a string' ? (QUOTE_HINT[typeof value] ?? '') : '';
    return { path, problem: `${pathText(path)} is ${kindOfValue(value)} where the API takes ${want}${hint}` };
  }
  const items = /^Array<(.+)>$/.exec(type)?.[1];
  if (items && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = walk(item, items, '', [...path, i], w);
      if (found) return found;
    }
    return undefined;
  }
  if (type === STRING_MAP) {
    // A resource map's amounts are Quantities: a number is one too.
    const amounts = typeof last === 'string' && QUANTITY_MAPS.has(last);
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (amounts && typeof item === 'number') continue;
      const found = walk(item, 'string', '', [...path, key], w);
      if (found) return found;
    }
    return undefined;
  }
  const model = w.shape.get(type);
  if (!model || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const field =
      model.get(key) ?? (FORMER_FIELDS[type]?.includes(key) ? { type: 'any', format: '' } : undefined);
    if (!field) {
      w.unknown.push({ path: [...path, key], known: [...model.keys(), ...(FORMER_FIELDS[type] ?? [])] });
      continue;
    }
    const found = walk(item, field.type, field.format, [...path, key], w);
    if (found) return found;
  }
  return undefined;
}

/**
 * Why the API server cannot take `object` as a `kind`, or undefined: the first value of
 * the wrong type (the decoder stops there), else the first field the API does not have.
 */
export function decodeProblem(
  shape: ApiShape,
  kind: WorkloadKind,
  object: unknown,
): DecodeProblem | undefined {
  const root = ROOTS[kind];
  if (!root || !shape.has(root)) return undefined;
  const w: Walk = { shape, unknown: [] };
  const mismatch = walk(object, root, '', [], w);
  if (mismatch) return { ...mismatch, problem: `${kind} ${mismatch.problem}: the API server refuses it` };
  const [first] = w.unknown;
  if (!first) return undefined;
  const name = String(first.path[first.path.length - 1]);
  const [near] = closestNames(name, first.known);
  const guess = near ? ` (did you mean ${near}?)` : '';
  return {
    path: first.path,
    problem: `${kind} ${pathText(first.path)} is not a field of the API${guess}: kubectl apply refuses it with its default strict validation, and without it the field is dropped`,
  };
}
