/**
 * A plan's patch applied to a copy of the object it writes, as the API server applies
 * it, so the forward model runs the object the executor would leave (engine/plan-proof.ts).
 * Pure. Merge and strategic-merge bodies: maps merge, `null` removes, lists are replaced
 * whole (every list our plans send is atomic in a strategic merge: nodeSelectorTerms,
 * matchExpressions), and the directives `$patch: replace | delete` and `$retainKeys` are
 * honoured. JSON patches: add, remove, replace and test (a failed test throws, as the
 * server refuses the write); move and copy are not sent by any plan and throw.
 */
import { getAt, parsePointer } from './json-pointer.js';
import { APPLY_TIME } from './restart-time.js';
import type { Patch } from './plan.js';

type Json = unknown;

export class PatchApplyError extends Error {}

/** The object after the patch; `now` stands in for the APPLY_TIME marker (the executor writes the apply's time). */
export function applyPatch(document: Json, patch: Patch, now: string): Json {
  const body = replaceMarker(patch.body, now);
  if (patch.type === 'json') return applyJsonPatch(structuredClone(document), body);
  return merge(structuredClone(document), body, patch.type === 'strategic-merge');
}

function replaceMarker(value: Json, now: string): Json {
  if (value === APPLY_TIME) return now;
  if (Array.isArray(value)) return value.map((v) => replaceMarker(v, now));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceMarker(v, now)]));
  return value;
}

function isMap(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function merge(target: Json, patch: Json, strategic: boolean): Json {
  if (!isMap(patch)) return patch;
  if (strategic && patch.$patch === 'replace') {
    const { $patch: _directive, ...rest } = patch;
    return merge({}, rest, strategic);
  }
  if (strategic && patch.$patch === 'delete') return undefined;
  const base: Record<string, Json> = isMap(target) ? { ...target } : {};
  const retain =
    strategic && Array.isArray(patch.$retainKeys) ? new Set(patch.$retainKeys.map(String)) : undefined;
  for (const [key, value] of Object.entries(patch)) {
    if (strategic && key.startsWith('$')) continue;
    if (value === null) delete base[key];
    else {
      const merged = merge(base[key], value, strategic);
      if (merged === undefined) delete base[key];
      else base[key] = merged;
    }
  }
  if (retain) for (const key of Object.keys(base)) if (!retain.has(key)) delete base[key];
  return base;
}

function applyJsonPatch(document: Json, ops: Json): Json {
  if (!Array.isArray(ops)) throw new PatchApplyError('a JSON patch is a list of operations');
  let doc = document;
  for (const op of ops) {
    if (!isMap(op) || typeof op.op !== 'string' || typeof op.path !== 'string')
      throw new PatchApplyError('a JSON patch operation needs op and path');
    if (op.op === 'test') {
      if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value))
        throw new PatchApplyError(`test failed at ${op.path}`);
    } else if (op.op === 'add' || op.op === 'replace') doc = setAt(doc, op.path, op.value, op.op);
    else if (op.op === 'remove') doc = removeAt(doc, op.path);
    else throw new PatchApplyError(`unsupported JSON patch operation ${op.op}`);
  }
  return doc;
}

function parentOf(doc: Json, path: string): { parent: Json; key: string } {
  const tokens = parsePointer(path);
  const key = tokens.pop();
  if (key === undefined) throw new PatchApplyError('the root cannot be patched');
  let parent: Json = doc;
  for (const token of tokens) {
    parent = Array.isArray(parent) ? parent[Number(token)] : isMap(parent) ? parent[token] : undefined;
    if (parent === undefined) throw new PatchApplyError(`no such path ${path}`);
  }
  return { parent, key };
}

function setAt(doc: Json, path: string, value: Json, op: 'add' | 'replace'): Json {
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (op === 'add') parent.splice(index, 0, structuredClone(value));
    else parent[index] = structuredClone(value);
  } else if (isMap(parent)) {
    if (op === 'replace' && !(key in parent)) throw new PatchApplyError(`no such path ${path}`);
    parent[key] = structuredClone(value);
  } else throw new PatchApplyError(`no such path ${path}`);
  return doc;
}

function removeAt(doc: Json, path: string): Json {
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (isMap(parent) && key in parent) delete parent[key];
  else throw new PatchApplyError(`no such path ${path}`);
  return doc;
}
