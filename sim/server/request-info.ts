/**
 * Turns a request path and method into the API server's request attributes:
 * verb, resource, namespace, name and subresource, or a discovery request.
 */
import { ALL_SERVED, findResource, servedTypes, type ResourceType, type Served } from '../resources.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourceRequest {
  type: 'resource';
  verb: Verb;
  rt: ResourceType;
  group: string;
  version: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

export interface DiscoveryRequest {
  type: 'discovery';
  path: string;
}

export type RequestInfo = ResourceRequest | DiscoveryRequest | { type: 'unknown'; path: string };

function verbFor(method: string, hasName: boolean, watch: boolean): Verb | undefined {
  switch (method) {
    case 'GET':
      if (hasName) return 'get';
      return watch ? 'watch' : 'list';
    case 'POST':
      return hasName ? undefined : 'create';
    case 'PUT':
      return hasName ? 'update' : undefined;
    case 'PATCH':
      return hasName ? 'patch' : undefined;
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/** Parses `/api/v1/...` and `/apis/<group>/<version>/...` paths. */
export function parseRequest(method: string, url: URL, served: Served = ALL_SERVED): RequestInfo {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const parts = path.split('/').filter((p) => p !== '');
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length <= 2) return { type: 'discovery', path };
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length <= 3) return { type: 'discovery', path };
    group = parts[1] ?? '';
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return path === '/version' || path === '/healthz' || path === '/readyz' || path === '/livez'
      ? { type: 'discovery', path }
      : { type: 'unknown', path };
  }
  let namespace: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    findResource(group, version, rest[2] ?? '', served)?.namespaced
  ) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural = '', name, subresource] = rest;
  const rt = findResource(group, version, plural, served);
  if (!rt || rest.length > 3) return { type: 'unknown', path };
  const watchParam = url.searchParams.get('watch');
  const verb = verbFor(method, name !== undefined, watchParam === '1' || watchParam === 'true');
  if (!verb) return { type: 'unknown', path };
  return {
    type: 'resource',
    verb,
    rt,
    group,
    version,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}

/** All group/versions served, for discovery. */
export function groupVersions(served: Served = ALL_SERVED): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of servedTypes(served))
    seen.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  return [...seen.values()];
}
