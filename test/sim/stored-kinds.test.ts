/**
 * A real `kubectl get -o yaml` dump, whatever kinds it holds (sim/stored-kinds.ts): kinds
 * the simulator does not simulate are stored and served under the resource their CRD
 * declares or the one the API machinery would guess; custom resources get a CRD and no
 * strategic merge patch (415, as the API server answers); several scenario files make
 * one cluster (the demo's).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { guessResource } from '../../sim/stored-kinds.js';
import { demoScenarioFiles, demoScenarioObjects } from '../../scripts/demo-scenario.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const DUMP = `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata:
    name: web
    namespace: shop
    uid: 5f1d2c1e-0000-4000-8000-000000000001
    resourceVersion: "81234"
  spec:
    maxReplicas: 10
    minReplicas: 2
    scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  status: {currentReplicas: 2, desiredReplicas: 2}
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: web, namespace: shop}
  spec:
    minAvailable: 1
    selector: {matchLabels: {app: web}}
- apiVersion: v1
  kind: ResourceQuota
  metadata: {name: compute, namespace: shop}
  spec: {hard: {pods: "20"}}
  status: {hard: {pods: "20"}, used: {pods: "3"}}
- apiVersion: monitoring.coreos.com/v1
  kind: ServiceMonitor
  metadata: {name: web, namespace: shop}
  spec:
    endpoints: [{port: http}]
    selector: {matchLabels: {app: web}}
- apiVersion: cert-manager.io/v1
  kind: ClusterIssuer
  metadata: {name: letsencrypt}
  spec: {acme: {server: "https://acme.example.invalid/directory"}}
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: widgets.example.com}
  spec:
    group: example.com
    names: {kind: Widget, plural: widgets, singular: widget, shortNames: [wd]}
    scope: Namespaced
    versions:
    - name: v1
      served: true
      storage: true
      subresources: {status: {}}
      additionalPrinterColumns:
      - {name: Size, type: integer, jsonPath: .spec.size}
      - {name: Color, type: string, jsonPath: .spec.color}
- apiVersion: example.com/v1
  kind: Widget
  metadata: {name: w1, namespace: shop}
  spec: {size: 3, color: blue}
`;

async function call(
  s: Simulator,
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
  accept?: string,
) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { 'Content-Type': type, ...(accept ? { Accept: accept } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function fromDump(): Promise<Simulator> {
  const dir = await mkdtemp(join(tmpdir(), 'sim-dump-'));
  try {
    const file = join(dir, 'dump.yaml');
    await writeFile(file, DUMP);
    return await startSimulator({ scenario: file, controllers: false });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const resources = (json: Record<string, unknown>) =>
  json['resources'] as { name: string; kind: string; namespaced: boolean; shortNames?: string[] }[];

describe('a dump of any kinds', () => {
  it('guesses plurals as k8s.io/apimachinery does (UnsafeGuessKindToResource)', () => {
    expect(guessResource('HorizontalPodAutoscaler').plural).toBe('horizontalpodautoscalers');
    expect(guessResource('Ingress').plural).toBe('ingresses');
    expect(guessResource('NetworkPolicy').plural).toBe('networkpolicies');
    expect(guessResource('Endpoints').plural).toBe('endpoints');
  });

  it('serves the kinds it does not simulate under derived discovery entries', async () => {
    const s = await fromDump();
    sim = s;
    const groups = ((await call(s, 'GET', '/apis')).json['groups'] as { name: string }[]).map((g) => g.name);
    expect(groups).toEqual(
      expect.arrayContaining([
        'autoscaling',
        'policy',
        'monitoring.coreos.com',
        'cert-manager.io',
        'example.com',
      ]),
    );
    expect(resources((await call(s, 'GET', '/apis/autoscaling/v2')).json)).toContainEqual(
      expect.objectContaining({
        name: 'horizontalpodautoscalers',
        kind: 'HorizontalPodAutoscaler',
        namespaced: true,
      }),
    );
    expect(resources((await call(s, 'GET', '/apis/cert-manager.io/v1')).json)).toContainEqual(
      expect.objectContaining({ name: 'clusterissuers', namespaced: false }),
    );
    // From the dump's CRD: its names, short names and status subresource.
    expect(resources((await call(s, 'GET', '/apis/example.com/v1')).json).map((r) => r.name)).toEqual([
      'widgets',
      'widgets/status',
    ]);
    const hpa = await call(s, 'GET', '/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web');
    expect(hpa.json).toMatchObject({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { uid: '5f1d2c1e-0000-4000-8000-000000000001' },
      status: { desiredReplicas: 2 },
    });
    // A custom kind without a CRD in the dump gets one, as the cluster it came from has.
    const crds = (await call(s, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).json;
    expect((crds['items'] as { metadata: { name: string } }[]).map((c) => c.metadata.name).sort()).toEqual([
      'clusterissuers.cert-manager.io',
      'servicemonitors.monitoring.coreos.com',
      'widgets.example.com',
    ]);
    // The quota is served as stored, status included.
    expect((await call(s, 'GET', '/api/v1/namespaces/shop/resourcequotas/compute')).json).toMatchObject({
      status: { used: { pods: '3' } },
    });
  });

  it('creates, patches, lists as a Table and deletes them; strategic merge only for built-in kinds', async () => {
    const s = await fromDump();
    sim = s;
    const monitors = '/apis/monitoring.coreos.com/v1/namespaces/shop/servicemonitors';
    const created = await call(s, 'POST', monitors, {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: { name: 'api' },
      spec: { endpoints: [{ port: 'metrics' }] },
    });
    expect(created.status).toBe(201);
    const merge = await call(
      s,
      'PATCH',
      `${monitors}/api`,
      { spec: { jobLabel: 'app' } },
      'application/merge-patch+json',
    );
    expect(merge.status).toBe(200);
    expect(merge.json).toMatchObject({ spec: { jobLabel: 'app', endpoints: [{ port: 'metrics' }] } });
    const smp = await call(
      s,
      'PATCH',
      `${monitors}/api`,
      { spec: {} },
      'application/strategic-merge-patch+json',
    );
    expect(smp.status).toBe(415);
    expect(smp.json).toMatchObject({
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
    const pdb = await call(
      s,
      'PATCH',
      '/apis/policy/v1/namespaces/shop/poddisruptionbudgets/web',
      { spec: { minAvailable: 2 } },
      'application/strategic-merge-patch+json',
    );
    expect(pdb.status).toBe(200);
    const list = await call(s, 'GET', monitors);
    expect((list.json['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toEqual([
      'api',
      'web',
    ]);
    const table = await call(
      s,
      'GET',
      '/apis/example.com/v1/namespaces/shop/widgets',
      undefined,
      'application/json',
      'application/json;as=Table;v=v1;g=meta.k8s.io',
    );
    expect((table.json['columnDefinitions'] as { name: string }[]).map((c) => c.name)).toEqual([
      'Name',
      'Size',
      'Color',
    ]);
    expect((table.json['rows'] as { cells: unknown[] }[])[0]?.cells).toEqual(['w1', 3, 'blue']);
    expect((await call(s, 'DELETE', `${monitors}/api`)).status).toBe(200);
    expect((await call(s, 'GET', `${monitors}/api`)).status).toBe(404);
  });

  it('refuses a kind it serves under another group: both cannot be stored', async () => {
    await expect(
      startSimulator({
        scenario: [
          { apiVersion: 'app.k8s.io/v1beta1', kind: 'Application', metadata: { name: 'a', namespace: 'x' } },
        ],
      }),
    ).rejects.toThrow('the simulator serves kind Application as argoproj.io/v1alpha1');
  });
});

describe('several scenario files', () => {
  it('keep the first copy of an object two files declare', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-merge-'));
    try {
      const cm = (value: string) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: shop}\ndata: {from: ${value}}\n`;
      await writeFile(join(dir, 'a.yaml'), cm('a'));
      await writeFile(
        join(dir, 'b.yaml'),
        `${cm('b')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: only-b, namespace: shop}\n`,
      );
      const s = await startSimulator({
        scenario: [join(dir, 'a.yaml'), join(dir, 'b.yaml')],
        controllers: false,
      });
      sim = s;
      expect((s.get('ConfigMap', 'shop', 'shared') as { data: object }).data).toEqual({ from: 'a' });
      expect(s.get('ConfigMap', 'shop', 'only-b')).toBeDefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('make one cluster, the demo’s: both seed incidents, shared objects once', async () => {
    const s = await startSimulator({ scenario: demoScenarioFiles(), controllers: false });
    sim = s;
    expect(s.get('Deployment', 'vision', 'vision-object-tracker')).toBeDefined();
    expect(s.get('Deployment', 'shop', 'checkout')).toBeDefined();
    const objects = await demoScenarioObjects();
    expect(s.list('Deployment').length).toBe(
      objects.filter((o) => (o as { kind: string }).kind === 'Deployment').length,
    );
  });
});
