/**
 * List semantics: label and field selectors, paging with `limit`/`continue`
 * (continue tokens encode the last key returned), and the List envelope.
 */
import { badRequest } from '../errors.js';
import type { ResourceType } from '../resources.js';
import {
  checkFieldSelector,
  matchesFields,
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
} from '../selectors.js';
import type { SimObject, Store } from '../store.js';

export interface ListQuery {
  labelSelector: ReturnType<typeof parseLabelSelector>;
  fieldSelector: ReturnType<typeof parseFieldSelector>;
  namespace?: string;
}

/** Parses selectors from the query string; 400 on a bad selector. */
export function parseListQuery(rt: ResourceType, params: URLSearchParams, namespace?: string): ListQuery {
  try {
    const labelSelector = parseLabelSelector(params.get('labelSelector') ?? '');
    const fieldSelector = parseFieldSelector(params.get('fieldSelector') ?? '');
    checkFieldSelector(rt.kind, fieldSelector);
    let ns = namespace;
    const nsField = fieldSelector.find((f) => f.path === 'metadata.namespace' && !f.negate);
    if (ns === undefined && nsField) ns = nsField.value;
    return { labelSelector, fieldSelector, ...(ns !== undefined ? { namespace: ns } : {}) };
  } catch (err) {
    if (err instanceof SelectorError) throw badRequest(err.message);
    throw err;
  }
}

/** True when an object is selected by the query. */
export function selects(query: ListQuery, obj: SimObject): boolean {
  if (query.namespace !== undefined && obj.metadata.namespace !== query.namespace) return false;
  return matchesFields(query.fieldSelector, obj);
}

function keyOf(obj: SimObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

interface ContinueToken {
  rv: number;
  start: string;
}

function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<ContinueToken>;
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string')
      return { rv: parsed.rv, start: parsed.start };
  } catch {
    // fall through to the error below
  }
  throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
}

export interface ListResult {
  items: SimObject[];
  continueToken?: string;
  remaining?: number;
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? '') <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The node a pod list is restricted to by `spec.nodeName=X`, if any. */
function boundNode(rt: ResourceType, query: ListQuery): string | undefined {
  if (rt.kind !== 'Pod') return undefined;
  // `spec.nodeName=` (empty) selects unbound pods, which the node index does not hold.
  const node = query.fieldSelector.find((f) => f.path === 'spec.nodeName' && !f.negate)?.value;
  return node === '' ? undefined : node;
}

/**
 * Objects that may match, from the narrowest index: pods by node (as the real API
 * server's field index does, so `spec.nodeName=X` costs the same in any cluster size),
 * else by namespace and labels. `selects` still applies every requirement.
 */
function candidates(store: Store, rt: ResourceType, query: ListQuery): SimObject[] {
  const node = boundNode(rt, query);
  if (node !== undefined) return store.podsOnNode(node);
  return store.list(rt.kind, query.namespace, query.labelSelector);
}

/** Runs a list with optional paging. */
export function runList(
  store: Store,
  rt: ResourceType,
  query: ListQuery,
  params: URLSearchParams,
): ListResult {
  const limitText = params.get('limit');
  const limit = limitText ? Number(limitText) : 0;
  if (limitText && (!Number.isInteger(limit) || limit < 0)) throw badRequest(`invalid limit: ${limitText}`);
  const cont = params.get('continue');
  const start = cont ? decodeContinue(cont).start : undefined;
  if (limit <= 0 && start === undefined) {
    const items = candidates(store, rt, query).filter((o) => selects(query, o));
    items.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    return { items };
  }
  const useIndex =
    query.labelSelector.length > 0 || query.namespace !== undefined || boundNode(rt, query) !== undefined;
  if (useIndex) {
    const items = candidates(store, rt, query).filter((o) => selects(query, o));
    items.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const from = start === undefined ? 0 : items.findIndex((o) => keyOf(o) > start);
    const begin = from < 0 ? items.length : from;
    const page = limit > 0 ? items.slice(begin, begin + limit) : items.slice(begin);
    const rest = items.length - begin - page.length;
    const last = page[page.length - 1];
    return rest > 0 && last
      ? { items: page, continueToken: encodeContinue(store, keyOf(last)), remaining: rest }
      : { items: page };
  }
  const ordered = store.sortedKeys(rt.kind);
  const begin = start === undefined ? 0 : lowerBound(ordered, start);
  const page: SimObject[] = [];
  let i = begin;
  for (; i < ordered.length && (limit <= 0 || page.length < limit); i += 1) {
    const obj = store.getByKey(rt.kind, ordered[i] ?? '');
    if (obj && selects(query, obj)) page.push(obj);
  }
  const last = page[page.length - 1];
  if (i < ordered.length && last) {
    return { items: page, continueToken: encodeContinue(store, keyOf(last)), remaining: ordered.length - i };
  }
  return { items: page };
}

function encodeContinue(store: Store, start: string): string {
  return Buffer.from(JSON.stringify({ rv: store.resourceVersion, start })).toString('base64url');
}
