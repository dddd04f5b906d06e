import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { ObjectMeta, Pod } from '../../src/diagnosis/k8s.js';

let sim: Simulator;

const node = (name: string, labels: Record<string, string> = {}): object => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});

const pod = (name: string, labels: Record<string, string>, nodeName?: string): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'team', labels },
  spec: { containers: [{ name: 'c', image: 'x:1' }], ...(nodeName ? { nodeName } : {}) },
});

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'team' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'web', image: 'web:1' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'pool', operator: 'In', values: ['a', 'b'] },
                    { key: 'x', operator: 'Exists' },
                  ],
                },
                { matchExpressions: [{ key: 'pool', operator: 'In', values: ['c'] }] },
              ],
            },
          },
        },
      },
    },
  },
};

beforeAll(async () => {
  sim = await startSimulator({
    scenario: [
      node('n1', { pool: 'a', x: '1' }),
      node('n2', { pool: 'c' }),
      pod('p1', { app: 'a', tier: 'front' }, 'n1'),
      pod('p2', { app: 'b', tier: 'back' }, 'n2'),
      pod('p3', { app: 'c' }),
    ],
    controllers: false,
  });
});
afterAll(async () => {
  await sim.close();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': contentType },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const names = (json: Record<string, unknown>): string[] =>
  ((json['items'] as { metadata: { name: string } }[]) ?? []).map((i) => i.metadata.name).sort();

describe('discovery', () => {
  it('serves /api, /apis, resource lists and /version', async () => {
    expect((await call('GET', '/api')).json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = (await call('GET', '/apis')).json as { groups: { name: string }[] };
    expect(apis.groups.map((g) => g.name)).toEqual(expect.arrayContaining(['apps', 'events.k8s.io']));
    const apps = (await call('GET', '/apis/apps/v1')).json as { resources: { name: string }[] };
    expect(apps.resources.map((r) => r.name)).toEqual(
      expect.arrayContaining(['deployments', 'replicasets', 'deployments/status']),
    );
    const core = (await call('GET', '/api/v1')).json as {
      resources: { name: string; namespaced: boolean }[];
    };
    expect(core.resources.find((r) => r.name === 'nodes')?.namespaced).toBe(false);
    expect(core.resources.map((r) => r.name)).toEqual(
      expect.arrayContaining(['pods/log', 'events', 'persistentvolumeclaims']),
    );
    // resource.k8s.io/v1 is served: a 1.34 server, not 1.31 (nothing in src/ reads it).
    expect((await call('GET', '/version')).json).toMatchObject({ major: '1', minor: '34' });
  });
});

describe('server-side tables (kubectl get)', () => {
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  async function table(query: string): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${sim.url}/api/v1/namespaces/team/pods${query}`, { headers: { Accept: TABLE } });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
  const objects = (json: Record<string, unknown>): unknown[] =>
    (json['rows'] as { object: unknown }[]).map((r) => r.object);

  it('includeObject: Metadata (the default) a PartialObjectMetadata, Object the whole object, None null', async () => {
    for (const query of ['', '?includeObject=Metadata']) {
      const rows = objects((await table(query)).json);
      expect(rows).toHaveLength(3);
      expect(rows[0]).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
      expect(rows[0]).not.toHaveProperty('spec');
    }
    const full = objects((await table('?includeObject=Object')).json);
    expect(full[0]).toMatchObject({ kind: 'Pod', apiVersion: 'v1', spec: { containers: [{ name: 'c' }] } });
    expect(objects((await table('?includeObject=None')).json)).toEqual([null, null, null]);
  });

  it('refuses an unknown includeObject with 400, as kube-apiserver does', async () => {
    const bad = await table('?includeObject=Everything');
    expect(bad.status).toBe(400);
    expect(bad.json['message']).toBe('unrecognized includeObject value: "Everything"');
  });
});

describe('list and selectors', () => {
  it('filters by every label selector operator', async () => {
    const q = async (sel: string): Promise<string[]> =>
      names(
        (await call('GET', `/api/v1/namespaces/team/pods?labelSelector=${encodeURIComponent(sel)}`)).json,
      );
    expect(await q('app=a')).toEqual(['p1']);
    expect(await q('app==b')).toEqual(['p2']);
    expect(await q('app!=a')).toEqual(['p2', 'p3']);
    expect(await q('app in (a,c)')).toEqual(['p1', 'p3']);
    expect(await q('app notin (a,c)')).toEqual(['p2']);
    expect(await q('tier')).toEqual(['p1', 'p2']);
    expect(await q('!tier')).toEqual(['p3']);
    expect(await q('tier,app!=b')).toEqual(['p1']);
  });

  it('filters by field selectors and rejects unknown fields with 400', async () => {
    expect(names((await call('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2')).json)).toEqual(['p2']);
    expect(
      names((await call('GET', '/api/v1/namespaces/team/pods?fieldSelector=metadata.name%3Dp3')).json),
    ).toEqual(['p3']);
    expect(names((await call('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3D')).json)).toEqual(['p3']);
    const bad = await call('GET', '/api/v1/pods?fieldSelector=spec.bogus%3Dx');
    expect(bad.status).toBe(400);
  });

  it('selects ResourceSlices by spec.nodeName and spec.driver, as kubelets and drivers list them', async () => {
    const slice = (name: string, driver: string, where: object): object => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name },
      spec: { driver, pool: { name: 'p', generation: 1, resourceSliceCount: 1 }, devices: [], ...where },
    });
    for (const s of [
      slice('s-n1', 'gpu.example.com', { nodeName: 'n1' }),
      slice('s-n2', 'gpu.example.com', { nodeName: 'n2' }),
      slice('s-all', 'net.example.com', { allNodes: true }),
    ])
      expect((await call('POST', '/apis/resource.k8s.io/v1/resourceslices', s)).status).toBe(201);
    const q = async (selector: string): Promise<string[]> =>
      names(
        (
          await call(
            'GET',
            `/apis/resource.k8s.io/v1/resourceslices?fieldSelector=${encodeURIComponent(selector)}`,
          )
        ).json,
      );
    expect(await q('spec.nodeName=n1')).toEqual(['s-n1']);
    expect(await q('spec.nodeName=')).toEqual(['s-all']);
    expect(await q('spec.driver=gpu.example.com,spec.nodeName!=n1')).toEqual(['s-n2']);
    expect(
      (await call('GET', '/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.pool.name%3Dp')).status,
    ).toBe(400);
  });

  it('cuts a generateName past 58 characters, so the name stays within 63', async () => {
    const prefix = `${'x'.repeat(70)}-`;
    const res = await call('POST', '/api/v1/namespaces/team/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: prefix },
    });
    const name = (res.json['metadata'] as { name: string }).name;
    expect(name).toMatch(new RegExp(`^${prefix.slice(0, 58)}[bcdfghjklmnpqrstvwxz2456789]{5}$`));
  });

  it('pages with limit and continue', async () => {
    const first = await call('GET', '/api/v1/namespaces/team/pods?limit=2');
    expect(names(first.json)).toEqual(['p1', 'p2']);
    const meta = first.json['metadata'] as { continue?: string; remainingItemCount?: number };
    expect(meta.continue).toBeTruthy();
    const second = await call(
      'GET',
      `/api/v1/namespaces/team/pods?limit=2&continue=${encodeURIComponent(meta.continue ?? '')}`,
    );
    expect(names(second.json)).toEqual(['p3']);
    expect((second.json['metadata'] as { continue?: string }).continue).toBeUndefined();
  });

  it('answers NotFound with a Status worded like the API server', async () => {
    const res = await call('GET', '/apis/apps/v1/namespaces/team/deployments/nope');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: 'deployments.apps "nope" not found',
    });
  });
});

describe('writes', () => {
  it('creates with API-server defaults, bumps generation only on spec change, and rejects stale updates with 409', async () => {
    const created = await call('POST', '/apis/apps/v1/namespaces/team/deployments', deployment);
    expect(created.status).toBe(201);
    const d = created.json as unknown as Deployment;
    expect(d.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });
    expect(d.spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
    expect(d.metadata).toMatchObject({ generation: 1 });
    expect(d.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const labelsOnly = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/team/deployments/web',
      { metadata: { labels: { team: 'x' } } },
      'application/merge-patch+json',
    );
    expect((labelsOnly.json as unknown as Deployment).metadata.generation).toBe(1);
    const stale = { ...d, spec: { ...d.spec, replicas: 3 } };
    const conflict = await call('PUT', '/apis/apps/v1/namespaces/team/deployments/web', stale);
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({
      reason: 'Conflict',
      message: expect.stringContaining('the object has been modified'),
    });
    const fresh = { ...(labelsOnly.json as unknown as Deployment), spec: { ...d.spec, replicas: 3 } };
    const ok = await call('PUT', '/apis/apps/v1/namespaces/team/deployments/web', fresh);
    expect(ok.status).toBe(200);
    expect((ok.json as unknown as Deployment).metadata.generation).toBe(2);
    expect(Number((ok.json as unknown as Deployment).metadata.resourceVersion)).toBeGreaterThan(
      Number(d.metadata.resourceVersion),
    );
  });

  it('defaults probes on create as the API server does (1s timeout, 10s period, thresholds 1 and 3, GET / over HTTP)', async () => {
    const probed = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probed', namespace: 'team' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'x:1',
            livenessProbe: { httpGet: { port: 8080 }, initialDelaySeconds: 5 },
            readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 2 },
            startupProbe: { exec: { command: ['true'] }, failureThreshold: 30 },
          },
        ],
      },
    };
    const created = await call('POST', '/api/v1/namespaces/team/pods', probed);
    expect(created.status).toBe(201);
    const [c] = (created.json as unknown as Pod).spec.containers;
    const defaults = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
    expect(c?.livenessProbe).toEqual({
      ...defaults,
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      initialDelaySeconds: 5,
    });
    expect(c?.readinessProbe).toEqual({ ...defaults, tcpSocket: { port: 8080 }, periodSeconds: 2 });
    expect(c?.startupProbe).toEqual({ ...defaults, exec: { command: ['true'] }, failureThreshold: 30 });
  });

  it('replaces nodeSelectorTerms and matchExpressions as whole lists in a strategic merge patch', async () => {
    const terms = [
      { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['n9'] }] },
    ];
    const res = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/team/deployments/web',
      {
        spec: {
          template: {
            spec: {
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
                },
              },
            },
          },
        },
      },
      'application/strategic-merge-patch+json',
    );
    expect(res.status).toBe(200);
    const d = res.json as unknown as Deployment;
    expect(
      d.spec.template.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
        ?.nodeSelectorTerms,
    ).toEqual(terms);
    expect(d.spec.template.spec.containers).toHaveLength(1);
  });

  it('merges containers by name and handles $retainKeys and null deletes on strategy', async () => {
    const res = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/team/deployments/web',
      {
        spec: {
          strategy: { $retainKeys: ['type'], type: 'Recreate' },
          template: { spec: { containers: [{ name: 'web', image: 'web:2' }] } },
        },
      },
      'application/strategic-merge-patch+json',
    );
    expect(res.status).toBe(200);
    const d = res.json as unknown as Deployment;
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    expect(d.spec.template.spec.containers).toEqual([
      expect.objectContaining({ name: 'web', image: 'web:2', imagePullPolicy: 'IfNotPresent' }),
    ]);
    const back = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/team/deployments/web',
      { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } } } },
      'application/strategic-merge-patch+json',
    );
    expect((back.json as unknown as Deployment).spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: '25%' },
    });
  });

  it('rejects Recreate with leftover rollingUpdate and maxSurge=maxUnavailable=0 with 422', async () => {
    const recreate = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/team/deployments/web',
      { spec: { strategy: { type: 'Recreate' } } },
      'application/merge-patch+json',
    );
    expect(recreate.status).toBe(422);
    expect(recreate.json['message']).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'',
    );
    const zero = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/team/deployments/web',
      { spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } } },
      'application/merge-patch+json',
    );
    expect(zero.status).toBe(422);
  });

  it('applies JSON patches, answers 422 when a test operation fails, and never stores a dry run', async () => {
    const path = '/apis/apps/v1/namespaces/team/deployments/web';
    const before = (await call('GET', path)).json as unknown as Deployment;
    const failed = await call(
      'PATCH',
      path,
      [
        { op: 'test', path: '/spec/replicas', value: 99 },
        { op: 'replace', path: '/spec/replicas', value: 5 },
      ],
      'application/json-patch+json',
    );
    expect(failed.status).toBe(422);
    const dry = await call(
      'PATCH',
      `${path}?dryRun=All`,
      [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/replicas', value: 5 },
      ],
      'application/json-patch+json',
    );
    expect(dry.status).toBe(200);
    expect((dry.json as unknown as Deployment).spec.replicas).toBe(5);
    const after = (await call('GET', path)).json as unknown as Deployment;
    expect(after.spec.replicas).toBe(3);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const real = await call(
      'PATCH',
      path,
      [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/replicas', value: 5 },
      ],
      'application/json-patch+json',
    );
    expect((real.json as unknown as Deployment).spec.replicas).toBe(5);
    const dryCreate = await call('POST', '/api/v1/namespaces/team/configmaps?dryRun=All', {
      metadata: { name: 'cm' },
      data: { a: 'b' },
    });
    expect(dryCreate.status).toBe(201);
    expect(sim.get('ConfigMap', 'team', 'cm')).toBeUndefined();
    expect(sim.requests.some((r) => r.verb === 'create' && r.dryRun)).toBe(true);
  });

  it('deletes with garbage collection of owned objects', async () => {
    const owner = sim.apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner', namespace: 'team' },
    }) as { metadata: { uid: string } };
    sim.apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'child',
        namespace: 'team',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }],
      },
    });
    const res = await call('DELETE', '/api/v1/namespaces/team/configmaps/owner');
    expect(res.status).toBe(200);
    expect(sim.get('ConfigMap', 'team', 'child')).toBeUndefined();
  });
});

describe('watch', () => {
  it('streams ADDED for current state, then changes, filtered by label selector', async () => {
    const controller = new AbortController();
    const res = await fetch(`${sim.url}/api/v1/namespaces/team/pods?watch=1&labelSelector=app%3Dwatched`, {
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    sim.apply(pod('w1', { app: 'watched' }));
    sim.apply(pod('other', { app: 'x' }));
    await fetch(`${sim.url}/api/v1/namespaces/team/pods/w1`, { method: 'DELETE' });
    const events: { type: string; object: Pod }[] = [];
    let buffer = '';
    while (events.length < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += new TextDecoder().decode(value);
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) events.push(JSON.parse(l) as { type: string; object: Pod });
    }
    controller.abort();
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'w1'],
      ['DELETED', 'w1'],
    ]);
  });
});

async function watchEvents<T>(
  path: string,
  headers: Record<string, string>,
  count: number,
  act: () => Promise<void>,
): Promise<{ type: string; object: T }[]> {
  const controller = new AbortController();
  const res = await fetch(`${sim.url}${path}`, { signal: controller.signal, headers });
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  await act();
  const events: { type: string; object: T }[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += new TextDecoder().decode(value);
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const l of lines) if (l.trim()) events.push(JSON.parse(l) as { type: string; object: T });
  }
  controller.abort();
  return events;
}

describe('watch as a Table (kubectl get -w)', () => {
  it('sends each event as a one-row Table, the column definitions only on the first', async () => {
    interface Table {
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[]; object: { kind: string; metadata: { name: string } } }[];
    }
    const events = await watchEvents<Table>(
      '/api/v1/namespaces/team/pods?watch=1&labelSelector=app%3Dtabled',
      { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
      3,
      async () => {
        sim.apply(pod('t1', { app: 'tabled' }));
        sim.apply(pod('t2', { app: 'tabled' }));
        await fetch(`${sim.url}/api/v1/namespaces/team/pods/t1`, { method: 'DELETE' });
      },
    );
    expect(events.map((e) => [e.type, e.object.kind, e.object.rows.map((r) => r.cells[0])])).toEqual([
      ['ADDED', 'Table', ['t1']],
      ['ADDED', 'Table', ['t2']],
      ['DELETED', 'Table', ['t1']],
    ]);
    expect(events[0]?.object.columnDefinitions.map((c) => c.name).slice(0, 3)).toEqual([
      'Name',
      'Ready',
      'Status',
    ]);
    expect(events.slice(1).map((e) => e.object.columnDefinitions)).toEqual([[], []]);
    expect(events[0]?.object.rows[0]?.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      metadata: { name: 't1' },
    });
  });
});

describe('resource.k8s.io objects as the API server keeps them', () => {
  const RULES = '/apis/resource.k8s.io/v1/devicetaintrules';
  const merge = 'application/merge-patch+json';
  interface Rule {
    metadata: { generation?: number };
    spec: { taint: { effect: string; timeAdded?: string } };
    status?: unknown;
  }

  it('DeviceTaintRule: generation, taint.timeAdded, the supported effects, status only through /status', async () => {
    const created = await call('POST', RULES, {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceTaintRule',
      metadata: { name: 'gpu-0-bad' },
      spec: {
        deviceSelector: { driver: 'gpu.example.com', pool: 'n1', device: 'gpu-0' },
        taint: { key: 'example.com/bad', effect: 'NoSchedule' },
      },
    });
    expect(created.status).toBe(201);
    const rule = created.json as unknown as Rule;
    expect(rule.metadata.generation).toBe(1);
    expect(rule.spec.taint.timeAdded).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const none = await call('PATCH', `${RULES}/gpu-0-bad`, { spec: { taint: { effect: 'None' } } }, merge);
    expect(none.status).toBe(200);
    expect((none.json as unknown as Rule).metadata.generation).toBe(2);
    expect((none.json as unknown as Rule).spec.taint.timeAdded).toBeDefined();
    const bogus = await call(
      'PATCH',
      `${RULES}/gpu-0-bad`,
      { spec: { taint: { effect: 'PreferNoSchedule' } } },
      merge,
    );
    expect(bogus.status).toBe(422);
    expect(String(bogus.json['message'])).toContain(
      'spec.taint.effect: Unsupported value: "PreferNoSchedule"',
    );
    const conditions = { conditions: [{ type: 'EvictionInProgress', status: 'False' }] };
    const sneaked = await call('PATCH', `${RULES}/gpu-0-bad`, { status: conditions }, merge);
    expect((sneaked.json as unknown as Rule).status).toBeUndefined();
    const viaStatus = await call('PATCH', `${RULES}/gpu-0-bad/status`, { status: conditions }, merge);
    expect((viaStatus.json as unknown as Rule).status).toEqual(conditions);
  });

  it('ResourceClaim: the spec is immutable and the status changes only through /status', async () => {
    const claims = '/apis/resource.k8s.io/v1/namespaces/team/resourceclaims';
    const request = { name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } };
    expect(
      (
        await call('POST', claims, {
          apiVersion: 'resource.k8s.io/v1',
          kind: 'ResourceClaim',
          metadata: { name: 'shared-gpu' },
          spec: { devices: { requests: [request] } },
        })
      ).status,
    ).toBe(201);
    const respec = await call(
      'PATCH',
      `${claims}/shared-gpu`,
      { spec: { devices: { requests: [{ ...request, name: 'other' }] } } },
      merge,
    );
    expect(respec.status).toBe(422);
    const allocation = { devices: { results: [{ request: 'gpu', driver: 'd', pool: 'p', device: 'x' }] } };
    const sneaked = await call('PATCH', `${claims}/shared-gpu`, { status: { allocation } }, merge);
    expect(sneaked.status).toBe(200);
    expect(sneaked.json['status']).toBeUndefined();
    const viaStatus = await call('PATCH', `${claims}/shared-gpu/status`, { status: { allocation } }, merge);
    expect(viaStatus.json['status']).toEqual({ allocation });
  });

  it('keeps an object with finalizers after DELETE, marked; kubectl shows such a claim as "deleted"', async () => {
    const claims = '/apis/resource.k8s.io/v1/namespaces/team/resourceclaims';
    await call('POST', claims, {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'kept', finalizers: ['example.com/keep'] },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
    });
    expect((await call('DELETE', `${claims}/kept`)).status).toBe(200);
    const res = await fetch(`${sim.url}${claims}/kept`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    const table = (await res.json()) as { rows: { cells: unknown[]; object: { metadata: ObjectMeta } }[] };
    expect(table.rows[0]?.object.metadata.deletionTimestamp).toBeDefined();
    expect(table.rows[0]?.cells[1]).toBe('deleted');
    // Removing the last finalizer lets it go.
    await call('PATCH', `${claims}/kept`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect((await call('GET', `${claims}/kept`)).status).toBe(404);
  });
});

describe('fault injection', () => {
  it('answers injected 403, 429 with Retry-After and 500 for matching requests, `times` then gone', async () => {
    sim.addFault({ match: { verb: 'list', resource: 'events', namespace: 'team' }, status: 403, times: 1 });
    const denied = await call('GET', '/api/v1/namespaces/team/events');
    expect(denied.status).toBe(403);
    expect(denied.json['message']).toBe(
      'events is forbidden: User "system:serviceaccount:rollout-doctor:rollout-doctor" cannot list resource "events" in API group "" in the namespace "team"',
    );
    expect((await call('GET', '/api/v1/namespaces/team/events')).status).toBe(200);
    sim.addFault({ match: { resource: 'pods' }, status: 429, retryAfterSeconds: 2, times: 1 });
    const limited = await fetch(`${sim.url}/api/v1/namespaces/team/pods`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    sim.addFault({ match: { verb: 'get', name: 'p1' }, status: 500 });
    expect((await call('GET', '/api/v1/namespaces/team/pods/p1')).status).toBe(500);
    expect((await call('GET', '/api/v1/namespaces/team/pods/p1')).status).toBe(500);
    sim.clearFaults();
    expect((await call('GET', '/api/v1/namespaces/team/pods/p1')).status).toBe(200);
    sim.addFault({ match: { name: 'p2' }, reset: true, times: 1 });
    await expect(fetch(`${sim.url}/api/v1/namespaces/team/pods/p2`)).rejects.toThrow();
    const recorded = sim.requests.filter((r) => r.name === 'p1');
    expect(recorded.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(recorded[0]).toMatchObject({ verb: 'get', resource: 'pods', namespace: 'team' });
  });
});
