/**
 * Scenario loading: plain Kubernetes YAML (multi-document, or a `List`) or parsed
 * objects, stored as if created through the API (defaults, uid, timestamps) but
 * keeping any status given, so nodes arrive with capacity and conditions.
 */
import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { applyDefaults, prepareCreate, prepareUpdate } from './defaults.js';
import { recordUpdate } from './managed-fields.js';
import { ScenarioError } from './scenario-error.js';
import type { SimObject, Store } from './store.js';
import { registerStoredKinds, typeForKind } from './stored-kinds.js';
import { asSimObject, ensureNamespace } from './writes.js';

export { ScenarioError } from './scenario-error.js';

const objectSchema = z
  .object({
    apiVersion: z.string().optional(),
    kind: z.string().min(1),
    metadata: z.object({ name: z.string().min(1), namespace: z.string().optional() }).passthrough(),
  })
  .passthrough();

/**
 * Reads a scenario file into a flat object list (List items expanded). A file with no
 * object at all (empty, only comments or `---`) is refused: a simulator serving an
 * empty cluster from a mistyped or truncated file would only look like one that works.
 */
export async function readScenarioFile(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ScenarioError(`cannot read scenario ${path}: ${code}`);
  }
  const objects = parseScenarioText(text);
  if (objects.length === 0) {
    throw new ScenarioError(
      `scenario ${path} holds no Kubernetes objects (empty, or only comments and ---): nothing to simulate`,
    );
  }
  return objects;
}

function keyOf(object: unknown): string {
  const o = object as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  return `${String(o.kind)}/${String(o.metadata?.namespace ?? '')}/${String(o.metadata?.name)}`;
}

/**
 * Several scenario files as one cluster (`npm run sim -- --scenario A --scenario B`, the
 * demo's combined cluster): their objects in file order, the first occurrence kept when
 * two files declare the same object (a shared Namespace, say).
 */
export async function readScenarioFiles(paths: readonly string[]): Promise<unknown[]> {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const path of paths) {
    for (const object of await readScenarioFile(path)) {
      const key = keyOf(object);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(object);
    }
  }
  return out;
}

/** Parses multi-document YAML into a flat object list. */
export function parseScenarioText(text: string): unknown[] {
  const out: unknown[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0)
      throw new ScenarioError(`scenario YAML: ${doc.errors[0]?.message ?? 'parse error'}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    out.push(value);
  }
  return flatten(out);
}

function flatten(objects: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const o of objects) {
    const items = (o as { kind?: unknown; items?: unknown }).items;
    if (
      (o as { kind?: unknown }).kind === 'List' ||
      (typeof (o as { kind?: unknown }).kind === 'string' &&
        String((o as { kind: string }).kind).endsWith('List') &&
        Array.isArray(items))
    ) {
      out.push(...flatten(Array.isArray(items) ? items : []));
    } else out.push(o);
  }
  return out;
}

/**
 * Stores an object directly (no faults, no validation beyond shape): replaces an
 * existing one of the same kind/namespace/name. Returns the stored object.
 */
export function applyDirect(store: Store, input: unknown, copy = true): SimObject {
  const parsed = objectSchema.parse(input);
  const rt = typeForKind(store, parsed.kind);
  if (!rt) throw new ScenarioError(`scenario: unsupported kind ${parsed.kind}`);
  const obj = asSimObject(parsed, rt, copy);
  if (rt.namespaced) {
    obj.metadata.namespace ??= 'default';
    ensureNamespace(store, obj.metadata.namespace);
  } else delete obj.metadata.namespace;
  const old = store.get(rt.kind, obj.metadata.namespace, obj.metadata.name);
  const keepUid = obj.metadata.uid;
  const keepCreated = obj.metadata.creationTimestamp;
  if (old) prepareUpdate(rt, obj, old);
  else prepareCreate(rt, obj);
  if (keepUid) obj.metadata.uid = keepUid;
  if (keepCreated) obj.metadata.creationTimestamp = keepCreated;
  applyDefaults(obj);
  // A real API server records who wrote every object since 1.18: a seeded Deployment
  // that says nothing (managedFields absent, not []) reads as created by kubectl, so
  // ownership and drift see what they would on a cluster rather than a bare object.
  if (!old && rt.kind === 'Deployment' && !('managedFields' in obj.metadata)) {
    recordUpdate(obj, { metadata: {} } as SimObject, 'kubectl-create', parsed.apiVersion ?? 'apps/v1');
  }
  if (rt.kind === 'Namespace') {
    obj.metadata.labels = {
      'kubernetes.io/metadata.name': obj.metadata.name,
      ...(obj.metadata.labels ?? {}),
    };
    obj['status'] ??= { phase: 'Active' };
  }
  return store.put(obj);
}

/**
 * Loads every object of a scenario into the store, namespaces and CRDs first. Kinds
 * the simulator does not simulate are stored as they are (sim/stored-kinds.ts); only
 * what cannot be stored is refused (no kind or name; an unknown kind without
 * apiVersion). The store takes ownership of the objects (no deep copy: 100,000 pods
 * load in seconds).
 */
export function loadScenario(store: Store, objects: readonly unknown[]): void {
  for (const o of objects) {
    const shape = objectSchema.safeParse(o);
    if (!shape.success) {
      const issue = shape.error.issues[0];
      throw new ScenarioError(
        `scenario: an object is not a Kubernetes object (${issue ? `${issue.path.join('.') || 'object'}: ${issue.message}` : 'invalid'})`,
      );
    }
  }
  const crds = registerStoredKinds(store, objects);
  const sorted = [...crds, ...objects].sort((a, b) => rank(a) - rank(b));
  for (const o of sorted) applyDirect(store, o, false);
}

function rank(o: unknown): number {
  const kind = (o as { kind?: unknown }).kind;
  const order = [
    'Namespace',
    'CustomResourceDefinition',
    'Node',
    'PriorityClass',
    'ConfigMap',
    'Secret',
    'PersistentVolume',
    'PersistentVolumeClaim',
    'Deployment',
    'ReplicaSet',
    'Pod',
  ];
  const i = order.indexOf(typeof kind === 'string' ? kind : '');
  return i < 0 ? order.length : i;
}
