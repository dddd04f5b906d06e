/**
 * RFC 6901 JSON pointers, for plan preconditions and JSON patches:
 * "/spec/strategy/rollingUpdate/maxSurge".
 */

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join('');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`invalid JSON pointer "${pointer}": must start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A field as people read it: "spec.strategy.rollingUpdate.maxSurge", a key with a dot
 * or slash in brackets ("spec.template.metadata.annotations[kubectl.kubernetes.io/restartedAt]")
 * and array indexes in brackets ("spec.template.spec.containers[0].image"). Anything
 * that is not a pointer (an object's name) is returned as it is.
 */
export function readablePath(path: string): string {
  if (!path.startsWith('/')) return path;
  return parsePointer(path)
    .map((t, i) => (/[./]/.test(t) || /^(0|[1-9][0-9]*)$/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`))
    .join('');
}

/** The value at the pointer, or undefined when any step is missing. */
export function getAt(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      const index = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : Number.NaN;
      current = current[index];
    } else if (current !== null && typeof current === 'object') {
      current = Object.hasOwn(current, token) ? (current as Record<string, unknown>)[token] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** Deep equality for JSON values (key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  const otherKeys = Object.keys(right).filter((k) => right[k] !== undefined);
  return keys.length === otherKeys.length && keys.every((k) => jsonEqual(left[k], right[k]));
}

/** One operation of a JSON patch (RFC 6902) as the plans write them. */
export interface JsonPatchOp {
  op: 'test' | 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}
