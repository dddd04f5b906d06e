/**
 * Server-side apply (PATCH with `application/apply-patch+yaml`), reduced to what `helm
 * install|upgrade` (helm 4 applies on the server by default) and `kubectl apply
 * --server-side` need:
 * - no object yet: the applied configuration is created;
 * - an object: the configuration is merged over it (strategic merge for built-in kinds, JSON
 *   merge for custom resources), and the fields this manager applied last time but no longer
 *   names are removed;
 * - the manager's Apply entry in managedFields records the fields it applied (lists count as
 *   one field, as managed-fields.ts does for updates).
 * Not modelled: conflicts with other managers (every apply acts as `--force-conflicts`),
 * granular ownership inside lists, and `x-kubernetes-list-type` map semantics beyond the
 * strategic merge keys.
 */
import { ApiError, badRequest } from '../errors.js';
import { applyMergePatch } from '../patch/json-merge.js';
import { applyStrategicPatch, StrategicPatchError } from '../patch/strategic.js';
import { apiVersionOf, isCustomResource, type ResourceType } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { simNow } from '../clock.js';
import { createObject, updateObject } from '../writes.js';

type Tree = Record<string, unknown>;
const isRecord = (v: unknown): v is Tree => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Identity fields: part of every apply, owned by nobody. */
const IDENTITY = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata.namespace']);

/** The leaf paths the configuration sets (a list is one leaf). */
function paths(config: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (isRecord(config) && Object.keys(config).length > 0) {
    for (const [key, value] of Object.entries(config)) paths(value, [...at, key], out);
  } else if (at.length > 0 && !IDENTITY.has(at.join('.'))) {
    out.push(at);
  }
  return out;
}

function toFields(list: readonly string[][]): Tree {
  const tree: Tree = {};
  for (const path of list) {
    let node = tree;
    for (const token of path) {
      const key = `f:${token}`;
      node[key] = isRecord(node[key]) ? node[key] : {};
      node = node[key] as Tree;
    }
  }
  return tree;
}

function fromFields(tree: Tree, at: string[] = [], out: string[][] = []): string[][] {
  const children = Object.keys(tree).filter((k) => k.startsWith('f:'));
  if (children.length === 0 && at.length > 0) out.push(at);
  for (const key of children) fromFields((tree[key] ?? {}) as Tree, [...at, key.slice(2)], out);
  return out;
}

function removePath(obj: Tree, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in obj)) return;
  if (rest.length === 0) {
    delete obj[head];
    return;
  }
  const child = obj[head];
  if (!isRecord(child)) return;
  removePath(child, rest);
  if (Object.keys(child).length === 0) delete obj[head];
}

interface Entry {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: Tree;
  [key: string]: unknown;
}

function withApplyEntry(
  obj: SimObject,
  manager: string,
  applied: readonly string[][],
  apiVersion: string,
): void {
  const meta = obj.metadata as SimObject['metadata'] & { managedFields?: Entry[] };
  const others = (meta.managedFields ?? []).filter(
    (e) => !(e.manager === manager && e.operation === 'Apply' && !e.subresource),
  );
  const time = new Date(simNow()).toISOString().replace(/\.\d+Z$/, 'Z');
  meta.managedFields = [
    ...others,
    { manager, operation: 'Apply', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1: toFields(applied) },
  ];
}

export interface ApplyResult {
  readonly object: SimObject;
  readonly created: boolean;
}

/** Applies `config` for `manager`: creates the object or merges into it. */
export function serverSideApply(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  config: unknown,
  options: { dryRun: boolean; fieldManager?: string; skipQuota?: boolean },
): ApplyResult {
  const manager = options.fieldManager;
  if (!manager) {
    throw new ApiError(
      422,
      'Invalid',
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  }
  if (!isRecord(config)) throw badRequest('the apply configuration is not an object');
  const meta = isRecord(config['metadata']) ? config['metadata'] : {};
  if (meta['name'] !== undefined && meta['name'] !== name) {
    throw badRequest(
      `the name of the object (${String(meta['name'])}) does not match the name on the URL (${name})`,
    );
  }
  const applied = paths(config);
  const apiVersion = typeof config['apiVersion'] === 'string' ? config['apiVersion'] : apiVersionOf(rt);
  const live = store.get(rt.kind, rt.namespaced ? namespace : undefined, name);
  if (!live) {
    const fresh = structuredClone(config) as SimObject;
    fresh.metadata = { ...fresh.metadata, name };
    withApplyEntry(fresh, manager, applied, apiVersion);
    const createOptions = { dryRun: options.dryRun, ...(options.skipQuota ? { skipQuota: true } : {}) };
    return { object: createObject(store, rt, fresh, namespace, createOptions), created: true };
  }
  const liveMeta = live.metadata as SimObject['metadata'] & { managedFields?: Entry[] };
  const before = (liveMeta.managedFields ?? []).find(
    (e) => e.manager === manager && e.operation === 'Apply' && !e.subresource,
  );
  let merged: SimObject;
  try {
    merged = (
      isCustomResource(rt)
        ? applyMergePatch(structuredClone(live), config)
        : applyStrategicPatch(rt.kind, live, config)
    ) as SimObject;
  } catch (err) {
    if (err instanceof StrategicPatchError) throw badRequest(err.message);
    throw err;
  }
  const now = new Set(applied.map((p) => p.join('\u0000')));
  for (const path of fromFields(before?.fieldsV1 ?? {})) {
    if (!now.has(path.join('\u0000'))) removePath(merged, path);
  }
  merged.metadata.resourceVersion = live.metadata.resourceVersion;
  withApplyEntry(merged, manager, applied, apiVersion);
  return {
    object: updateObject(store, rt, merged, namespace, name, { dryRun: options.dryRun }),
    created: false,
  };
}
