/**
 * Legacy discovery documents (/api, /apis, /api/v1, /apis/<g>/<v>, /version), the
 * path kubectl takes when the server does not offer aggregated discovery.
 */
import { ALL_SERVED, servedTypes, VERBS, type Served } from '../resources.js';
import { groupVersions } from './request-info.js';

/**
 * The release whose behaviour the simulator writes: resource.k8s.io/v1 (GA in 1.34),
 * DynamicResources' PostFilter text before "preemption:" (1.34-1.36), FailedScheduling
 * without the pre-1.30 "..", and the taint named in "untolerated taint {k: v}" (1.34.2
 * drops it, hence .1). Kubelets of 1.31 (the seed nodes) are within the supported skew.
 * DeviceTaintRule at resource.k8s.io/v1 (1.37) is served too, for the discovery path
 * that looks for it. Nothing in src/ reads this version.
 */
const SERVER_VERSION = {
  major: '1',
  minor: '34',
  gitVersion: 'v1.34.1-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-01T00:00:00Z',
  goVersion: 'go1.24.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function resourceList(group: string, version: string, served: Served): unknown {
  const resources: unknown[] = [];
  for (const r of servedTypes(served).filter((x) => x.group === group && x.version === version)) {
    resources.push({
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: VERBS,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
      storageVersionHash: Buffer.from(`${group}/${r.plural}`).toString('base64').slice(0, 11),
    });
    for (const sub of r.subresources ?? []) {
      const subKind = sub === 'scale' ? 'Scale' : sub === 'log' ? 'Pod' : r.kind;
      const verbs = sub === 'log' ? ['get'] : ['get', 'patch', 'update'];
      resources.push({
        name: `${r.plural}/${sub}`,
        singularName: '',
        namespaced: r.namespaced,
        ...(sub === 'scale' ? { group: 'autoscaling', version: 'v1' } : {}),
        kind: subKind,
        verbs,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

function apiGroup(group: string, served: Served): unknown {
  const versions = groupVersions(served)
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: `${group}/${gv.version}`, version: gv.version }));
  return { name: group, versions, preferredVersion: versions[0] };
}

/** The discovery document at `path`, or undefined when there is none. */
export function discoveryDocument(path: string, serverAddress: string, served: Served = ALL_SERVED): unknown {
  if (path === '/version') return SERVER_VERSION;
  if (path === '/healthz' || path === '/readyz' || path === '/livez') return 'ok';
  if (path === '/api') {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }
  if (path === '/apis') {
    const groups = [...new Set(groupVersions(served).map((gv) => gv.group))].filter((g) => g !== '');
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => apiGroup(g, served)) };
  }
  const core = /^\/api\/([^/]+)$/.exec(path);
  if (core?.[1] === 'v1') return resourceList('', 'v1', served);
  const named = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (named) {
    const [, group = '', version] = named;
    const known = groupVersions(served).filter((gv) => gv.group === group);
    if (known.length === 0) return undefined;
    if (version === undefined)
      return { kind: 'APIGroup', apiVersion: 'v1', ...(apiGroup(group, served) as object) };
    if (!known.some((gv) => gv.version === version)) return undefined;
    return resourceList(group, version, served);
  }
  return undefined;
}
