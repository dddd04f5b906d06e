/**
 * What each plan kind may change, checked before any write and independently of
 * where the plan came from (Redis is shared, not trusted; a builder may have a bug).
 *
 * The check is by effect, not by shape: the patch is applied in memory to the live
 * Deployment the executor just read (the real write carries that object's
 * resourceVersion, so the server patches exactly this object), and the result must
 * equal the live object once the kind's allowed fields are cleared on both sides.
 * Whatever cannot be evaluated exactly is refused: strategic-merge directives
 * (`$patch`, `$retainKeys`, `$setElementOrder/...`, ...), lists outside the allowed
 * fields (their merge depends on schema keys), JSON patch `move`/`copy`, malformed
 * pointers.
 */
import type { Patch, RemediationKind } from './plan.js';
import { jsonEqual, parsePointer } from './json-pointer.js';

export const RESTARTED_AT_TOKENS = [
  'spec',
  'template',
  'metadata',
  'annotations',
  'kubectl.kubernetes.io/restartedAt',
];
const STRATEGY_TOKENS = ['spec', 'strategy'];
const REQUIRED_NODE_AFFINITY_TOKENS = [
  'spec',
  'template',
  'spec',
  'affinity',
  'nodeAffinity',
  'requiredDuringSchedulingIgnoredDuringExecution',
];

/** The Deployment fields each kind may change; delete-pods changes no Deployment field. */
export const ALLOWED_FIELDS: Record<RemediationKind, readonly (readonly string[])[]> = {
  'set-rolling-update': [STRATEGY_TOKENS, RESTARTED_AT_TOKENS],
  'set-recreate': [STRATEGY_TOKENS, RESTARTED_AT_TOKENS],
  'rollout-restart': [RESTARTED_AT_TOKENS],
  'exclude-node': [REQUIRED_NODE_AFFINITY_TOKENS],
  'delete-pods': [],
};

export type AllowlistVerdict = { ok: true } | { ok: false; reason: string };

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

class Refused extends Error {}

/** Removes each allowed field, then the objects on its path left empty (absent and {} read the same). */
function withoutAllowed(document: Json, allowed: readonly (readonly string[])[]): Json {
  const copy = clone(document);
  for (const tokens of allowed) {
    const chain: Record<string, Json>[] = [];
    let current: Json = copy;
    for (const token of tokens.slice(0, -1)) {
      if (!isObject(current)) break;
      chain.push(current);
      current = current[token];
    }
    const last = tokens[tokens.length - 1] ?? '';
    if (chain.length === tokens.length - 1 && isObject(current)) {
      chain.push(current);
      delete current[last];
    }
    for (let i = chain.length - 1; i > 0; i -= 1) {
      const child = chain[i];
      if (child && Object.keys(child).length === 0) delete chain[i - 1]?.[tokens[i - 1] ?? ''];
    }
  }
  return copy;
}

function insideAllowed(tokens: readonly string[], allowed: readonly (readonly string[])[]): boolean {
  return allowed.some((a) => a.length <= tokens.length && a.every((t, i) => tokens[i] === t));
}

/** RFC 7386 merge; for strategic merge the caller has refused directives and lists outside allowed fields. */
function mergeInto(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergeInto(result[key], value);
  }
  return result;
}

function refuseDirectivesAndLists(
  body: Json,
  tokens: string[],
  allowed: readonly (readonly string[])[],
): void {
  if (Array.isArray(body)) {
    if (!insideAllowed(tokens, allowed)) throw new Refused(`a list at /${tokens.join('/')}`);
    body.forEach((item, i) => refuseDirectivesAndLists(item, [...tokens, String(i)], allowed));
    return;
  }
  if (!isObject(body)) return;
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('$')) throw new Refused(`strategic-merge directive "${key}"`);
    refuseDirectivesAndLists(value, [...tokens, key], allowed);
  }
}

function strictTokens(pointer: unknown): string[] {
  if (typeof pointer !== 'string') throw new Refused('a JSON patch op without a string path');
  if (/~[^01]|~$/.test(pointer)) throw new Refused(`invalid escape in JSON pointer "${pointer}"`);
  try {
    return parsePointer(pointer);
  } catch {
    throw new Refused(`invalid JSON pointer "${pointer}"`);
  }
}

function applyJsonOp(document: Json, op: Record<string, Json>): Json {
  if (op.op === 'test') {
    strictTokens(op.path);
    return document;
  }
  if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'remove') {
    throw new Refused(`JSON patch op "${String(op.op)}"`);
  }
  const tokens = strictTokens(op.path);
  if (tokens.length === 0) throw new Refused('a JSON patch op on the whole object');
  const root = clone(document);
  const parent = tokens.slice(0, -1).reduce<Json>((node, t) => (isObject(node) ? node[t] : undefined), root);
  const last = tokens[tokens.length - 1] ?? '';
  if (!isObject(parent))
    throw new Refused(`JSON patch path ${String(op.path)} does not name an object member`);
  if (op.op === 'remove' || op.op === 'replace') {
    if (!Object.hasOwn(parent, last)) throw new Refused(`JSON patch ${op.op} of absent ${String(op.path)}`);
  }
  if (op.op === 'remove') delete parent[last];
  else {
    if (!Object.hasOwn(op, 'value')) throw new Refused(`JSON patch ${op.op} without a value`);
    parent[last] = clone(op.value);
  }
  return root;
}

function applyInMemory(live: Json, patch: Patch, allowed: readonly (readonly string[])[]): Json {
  if (patch.type === 'json') {
    if (!Array.isArray(patch.body)) throw new Refused('a JSON patch that is not a list of ops');
    return patch.body.reduce<Json>((doc, op) => {
      if (!isObject(op)) throw new Refused('a JSON patch op that is not an object');
      return applyJsonOp(doc, op);
    }, live);
  }
  if (!isObject(patch.body)) throw new Refused(`a ${patch.type} patch whose body is not an object`);
  // A merge patch replaces lists whole, which mergeInto does too; a strategic merge
  // merges some lists by key, which only matters inside the allowed fields.
  if (patch.type === 'strategic-merge') refuseDirectivesAndLists(patch.body, [], allowed);
  return mergeInto(live, patch.body);
}

/**
 * Whether `patch`, applied to `live`, changes only what `kind` may change.
 *
 * @example checkPatchAllowed('rollout-restart', plan.patch, liveDeployment) // { ok: true }
 */
export function checkPatchAllowed(
  kind: RemediationKind,
  patch: Patch | null,
  live: unknown,
): AllowlistVerdict {
  const allowed = ALLOWED_FIELDS[kind];
  if (kind === 'delete-pods') {
    return patch === null ? { ok: true } : { ok: false, reason: 'a delete-pods plan carries a patch' };
  }
  if (patch === null) return { ok: false, reason: `a ${kind} plan without a patch` };
  try {
    const after = applyInMemory(live, patch, allowed);
    if (!jsonEqual(withoutAllowed(live, allowed), withoutAllowed(after, allowed))) {
      return { ok: false, reason: `the patch changes fields a ${kind} plan may not change` };
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: `the patch holds ${error.message}` };
    throw error;
  }
}
