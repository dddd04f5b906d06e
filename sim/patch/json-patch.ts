/**
 * JSON patch (RFC 6902) with JSON pointers (RFC 6901): add, remove, replace, move,
 * copy and test. Errors carry the wording of the Go library the API server uses.
 */
import { isDeepStrictEqual } from 'node:util';

/** A JSON patch could not be applied (the API server answers 422). */
export class JsonPatchError extends Error {}

export interface JsonPatchOp {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer: "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function resolveParent(
  doc: unknown,
  tokens: string[],
  op: string,
  path: string,
): { parent: Container; key: string } {
  let cur: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(token)];
    else if (cur !== null && typeof cur === 'object') cur = (cur as Record<string, unknown>)[token];
    else cur = undefined;
    if (cur === undefined || cur === null || typeof cur !== 'object') {
      throw new JsonPatchError(
        `${op} operation does not apply: doc is missing path: "${path}": missing value`,
      );
    }
  }
  const key = tokens[tokens.length - 1];
  if (key === undefined)
    throw new JsonPatchError(`${op} operation does not apply: cannot operate on the root`);
  return { parent: cur as Container, key };
}

function arrayIndex(arr: unknown[], key: string, allowEnd: boolean, op: string, path: string): number {
  if (key === '-' && allowEnd) return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key))
    throw new JsonPatchError(`${op} operation does not apply: invalid index "${key}" in "${path}"`);
  const i = Number(key);
  if (i > arr.length || (!allowEnd && i === arr.length)) {
    throw new JsonPatchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return i;
}

function getAt(doc: unknown, path: string, op: string): unknown {
  let cur: unknown = doc;
  for (const token of parsePointer(path)) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(token) ? cur[Number(token)] : undefined;
    else if (cur !== null && typeof cur === 'object') {
      cur = Object.prototype.hasOwnProperty.call(cur, token)
        ? (cur as Record<string, unknown>)[token]
        : undefined;
    } else cur = undefined;
    if (cur === undefined)
      throw new JsonPatchError(
        `${op} operation does not apply: doc is missing path: "${path}": missing value`,
      );
  }
  return cur;
}

function add(doc: unknown, path: string, value: unknown, op = 'add'): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = resolveParent(doc, tokens, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, op, path), 0, value);
  else parent[key] = value;
  return doc;
}

function remove(doc: unknown, path: string, op = 'remove'): unknown {
  const tokens = parsePointer(path);
  const { parent, key } = resolveParent(doc, tokens, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false, op, path), 1);
  else {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) {
      throw new JsonPatchError(
        `${op} operation does not apply: doc is missing path: "${path}": missing value`,
      );
    }
    delete parent[key];
  }
  return doc;
}

/** Applies the operations to a deep copy of `doc`; throws JsonPatchError on failure. */
export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops))
    throw new JsonPatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let result: unknown = structuredClone(doc);
  for (const raw of ops as JsonPatchOp[]) {
    if (
      raw === null ||
      typeof raw !== 'object' ||
      typeof raw.op !== 'string' ||
      typeof raw.path !== 'string'
    ) {
      throw new JsonPatchError('invalid JSON patch operation');
    }
    const { op, path } = raw;
    switch (op) {
      case 'add':
        result = add(result, path, structuredClone(raw.value));
        break;
      case 'remove':
        result = remove(result, path);
        break;
      case 'replace':
        getAt(result, path, 'replace');
        result = add(remove(result, path, 'replace'), path, structuredClone(raw.value), 'replace');
        break;
      case 'move': {
        const value = getAt(result, raw.from ?? '', 'move');
        result = add(remove(result, raw.from ?? '', 'move'), path, value, 'move');
        break;
      }
      case 'copy':
        result = add(result, path, structuredClone(getAt(result, raw.from ?? '', 'copy')), 'copy');
        break;
      case 'test': {
        let current: unknown;
        try {
          current = getAt(result, path, 'test');
        } catch {
          current = undefined;
        }
        if (current === undefined && raw.value === null) break;
        if (!isDeepStrictEqual(current, raw.value))
          throw new JsonPatchError(`testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new JsonPatchError(`Unexpected kind: ${op}`);
    }
  }
  return result;
}
