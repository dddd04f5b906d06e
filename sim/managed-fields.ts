/**
 * managedFields bookkeeping for non-apply writes (PATCH and PUT with `fieldManager`),
 * as the API server does it for an Update operation: the fields the write changed
 * (metadata labels and annotations, spec) join the writer's Update entry, and leave
 * every other manager's set (ownership moves to the last writer of a field). Lists
 * count as one field. A write that changes nothing leaves managedFields alone.
 */
import type { SimObject } from './store.js';
import { simNow } from './clock.js';

type Tree = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fieldsV1 paths (as token lists) at which `after` differs from `before`. */
function changed(before: unknown, after: unknown, at: string[], out: string[][]): void {
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      changed(before[key], after[key], [...at, key], out);
    }
    return;
  }
  if (isRecord(after) && before === undefined) {
    for (const key of Object.keys(after)) changed(undefined, after[key], [...at, key], out);
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push(at);
}

function add(tree: Tree, path: string[]): void {
  let node = tree;
  for (const token of path) {
    const key = `f:${token}`;
    const next = isRecord(node[key]) ? (node[key] as Tree) : {};
    node[key] = next;
    node = next;
  }
}

/** Removes the path and anything under it; prunes maps left empty. */
function remove(tree: Tree, path: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const key = `f:${head}`;
  const child = tree[key];
  if (!isRecord(child)) return;
  if (rest.length === 0 || Object.keys(child).filter((k) => k !== '.').length === 0) {
    delete tree[key];
    return;
  }
  remove(child, rest);
  if (Object.keys(child).filter((k) => k !== '.').length === 0) delete tree[key];
}

interface Entry {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: Tree;
  [key: string]: unknown;
}

/** Updates `next.metadata.managedFields` for a write by `manager` that turned `old` into `next`. */
export function recordUpdate(next: SimObject, old: SimObject, manager: string, apiVersion: string): void {
  const paths: string[][] = [];
  for (const part of ['labels', 'annotations'] as const) {
    changed(old.metadata[part], next.metadata[part], ['metadata', part], paths);
  }
  changed(old['spec'], next['spec'], ['spec'], paths);
  if (paths.length === 0) return;
  const meta = next.metadata as SimObject['metadata'] & { managedFields?: Entry[] };
  const entries = structuredClone(meta.managedFields ?? []);
  let mine = entries.find((e) => e.manager === manager && e.operation === 'Update' && !e.subresource);
  if (!mine) {
    mine = { manager, operation: 'Update', apiVersion, fieldsType: 'FieldsV1', fieldsV1: {} };
    entries.push(mine);
  }
  const own: Tree = mine.fieldsV1 ?? {};
  mine.fieldsV1 = own;
  mine.time = new Date(simNow()).toISOString().replace(/\.\d+Z$/, 'Z');
  for (const path of paths) {
    add(own, path);
    for (const other of entries) if (other !== mine && other.fieldsV1) remove(other.fieldsV1, path);
  }
  meta.managedFields = entries.filter((e) => e === mine || Object.keys(e.fieldsV1 ?? {}).length > 0);
}
