/**
 * The simulator's resourceclaim controller and claim deletion against upstream
 * (pkg/controller/resourceclaim/controller.go): generateName `<pod>-<claim>-` cut in
 * proportion past 57 characters, the template's labels and annotations, and the
 * `resource.kubernetes.io/delete-protection` finalizer holding a deleted claim (and its
 * device) until no pod uses it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const NS = 'ml';

const scenario = (): object[] => [
  {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'gpu-1', labels: { 'kubernetes.io/hostname': 'gpu-1' } },
    status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } },
  },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: 'gpu.example.com' },
    spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
  },
  {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: 'gpu-1-slice' },
    spec: {
      driver: 'gpu.example.com',
      nodeName: 'gpu-1',
      pool: { name: 'gpu-1', generation: 1, resourceSliceCount: 1 },
      devices: [{ name: 'gpu-0' }],
    },
  },
  {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: { name: 'one-gpu', namespace: NS },
    spec: {
      metadata: { labels: { team: 'ml' }, annotations: { 'example.com/owner': 'ml-platform' } },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
    },
  },
];

const podWith = (name: string, claim: string): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: NS },
  spec: {
    resourceClaims: [{ name: claim, resourceClaimTemplateName: 'one-gpu' }],
    containers: [{ name: 'c', image: 'trainer:1', resources: { claims: [{ name: claim }] } }],
  },
});

const claims = (s: Simulator): ResourceClaim[] => s.list('ResourceClaim', NS) as ResourceClaim[];
const pod = (s: Simulator, name: string): Pod | undefined => s.get('Pod', NS, name) as Pod | undefined;
const claimOfPod = (s: Simulator, name: string): ResourceClaim | undefined => {
  const claimName = pod(s, name)?.status?.resourceClaimStatuses?.[0]?.resourceClaimName;
  return claimName ? (s.get('ResourceClaim', NS, claimName) as ResourceClaim | undefined) : undefined;
};

describe('resourceclaim controller (simulator)', () => {
  it('names a claim by generateName, cut in proportion past 57 characters, with the template metadata', async () => {
    const longPod = `trainer-${'a'.repeat(50)}`;
    const longClaim = `accelerator-${'b'.repeat(20)}`;
    sim = await startSimulator({ scenario: [...scenario(), podWith(longPod, longClaim)], timeScale: 50 });
    const s = sim;
    await s.waitFor(() => claimOfPod(s, longPod) !== undefined);
    const claim = claimOfPod(s, longPod);
    // upstream: pod[0:len(pod)*57/len(base)] + "-" + claim[0:len(claim)*57/len(base)], no trailing hyphen
    const base = `${longPod}-${longClaim}-`.length;
    const generateName = `${longPod.slice(0, Math.floor((longPod.length * 57) / base))}-${longClaim.slice(0, Math.floor((longClaim.length * 57) / base))}`;
    expect((claim?.metadata as { generateName?: string }).generateName).toBe(generateName);
    expect(claim?.metadata.name).toMatch(new RegExp(`^${generateName}[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    expect(claim?.metadata.name?.length).toBeLessThanOrEqual(63);
    expect(claim?.metadata.labels).toEqual({ team: 'ml' });
    expect(claim?.metadata.annotations).toEqual({
      'example.com/owner': 'ml-platform',
      'resource.kubernetes.io/pod-claim-name': longClaim,
    });
    expect(claim?.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: longPod,
        uid: pod(s, longPod)?.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('keeps a deleted claim, allocated, while its pod uses it; it goes with the pod, and only then is the device free', async () => {
    sim = await startSimulator({ scenario: [...scenario(), podWith('first', 'gpu')], timeScale: 50 });
    const s = sim;
    await s.waitFor(() => (claimOfPod(s, 'first')?.status?.reservedFor ?? []).length === 1);
    const name = claimOfPod(s, 'first')?.metadata.name ?? '';
    const res = await fetch(`${s.url}/apis/resource.k8s.io/v1/namespaces/${NS}/resourceclaims/${name}`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(200);
    await s.settle();
    const held = s.get('ResourceClaim', NS, name) as ResourceClaim | undefined;
    expect(held?.metadata.deletionTimestamp).toBeDefined();
    expect(held?.metadata.finalizers).toEqual(['resource.kubernetes.io/delete-protection']);
    expect(held?.status?.allocation?.devices?.results?.[0]?.device).toBe('gpu-0');
    // kubectl get shows it as kube-apiserver's printer does.
    const table = (await (
      await fetch(`${s.url}/apis/resource.k8s.io/v1/namespaces/${NS}/resourceclaims/${name}`, {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      })
    ).json()) as { rows: { cells: unknown[] }[] };
    expect(table.rows[0]?.cells[1]).toBe('deleted,allocated,reserved');
    // A second pod cannot have gpu-0 while the deleted claim still holds it.
    s.apply(podWith('second', 'gpu'));
    await s.waitFor(() => claimOfPod(s, 'second') !== undefined);
    await s.settle();
    expect(pod(s, 'second')?.spec.nodeName).toBeUndefined();
    // The pod goes: its reservation, the allocation, the finalizer and the claim go too.
    await fetch(`${s.url}/api/v1/namespaces/${NS}/pods/first`, { method: 'DELETE' });
    await s.waitFor(() => s.get('ResourceClaim', NS, name) === undefined);
    await s.waitFor(() => pod(s, 'second')?.spec.nodeName === 'gpu-1');
    expect(claims(s).map((c) => c.metadata.name)).toEqual([claimOfPod(s, 'second')?.metadata.name]);
  });

  it('creates the claim again when a waiting pod loses it', async () => {
    sim = await startSimulator({
      scenario: [...scenario(), podWith('first', 'gpu'), podWith('second', 'gpu')],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => claimOfPod(s, 'first') !== undefined && claimOfPod(s, 'second') !== undefined);
    await s.settle();
    const waiting = ['first', 'second'].find((p) => !pod(s, p)?.spec.nodeName) ?? '';
    const lost = claimOfPod(s, waiting)?.metadata.name ?? '';
    await fetch(`${s.url}/apis/resource.k8s.io/v1/namespaces/${NS}/resourceclaims/${lost}`, {
      method: 'DELETE',
    });
    await s.waitFor(() => {
      const again = claimOfPod(s, waiting);
      return again !== undefined && again.metadata.name !== lost;
    });
  });
});

describe('a claim template that does not exist (yet)', () => {
  it('warns FailedResourceClaimCreation on the pod as the controller words it, and creates the claim once the template exists', async () => {
    const [node, ns, cls, slice, template] = scenario();
    const waiting = {
      ...(podWith('first', 'gpu') as { spec: { resourceClaims: object[] } }),
    } as { spec: { resourceClaims: object[] } };
    waiting.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'one-gpu' }];
    sim = await startSimulator({ scenario: [node, ns, cls, slice, waiting] as object[], timeScale: 50 });
    const s = sim;
    const warned = (): KubeEvent | undefined =>
      (s.list('Event', NS) as KubeEvent[]).find((e) => e.reason === 'FailedResourceClaimCreation');
    await s.waitFor(() => warned() !== undefined);
    expect(warned()).toMatchObject({
      type: 'Warning',
      message:
        'PodResourceClaim gpu: resource claim template "one-gpu": resourceclaimtemplate.resource.k8s.io "one-gpu" not found',
      involvedObject: { kind: 'Pod', name: 'first' },
      source: { component: 'resource_claim' },
    });
    expect((s.list('Event', NS) as KubeEvent[]).some((e) => e.reason === 'FailedScheduling')).toBe(false);
    s.apply(template as object);
    await s.waitFor(() => pod(s, 'first')?.spec.nodeName === 'gpu-1');
    expect(claimOfPod(s, 'first')?.status?.allocation?.devices?.results?.[0]?.device).toBe('gpu-0');
  });
});

describe('preemption for a pod with claims (simulator)', () => {
  it('evicts no pod where the claim still cannot be allocated once the victims are gone', async () => {
    const withCpu = (o: object, cpu: string, priority: number, claim = true): object => {
      const p = structuredClone(o) as {
        spec: { priority?: number; resourceClaims?: unknown; containers: { resources?: object }[] };
      };
      p.spec.priority = priority;
      if (!claim) delete p.spec.resourceClaims;
      for (const c of p.spec.containers)
        c.resources = { requests: { cpu }, ...(claim ? { claims: [{ name: 'gpu' }] } : {}) };
      return p;
    };
    const small = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'gpu-1', labels: { 'kubernetes.io/hostname': 'gpu-1' } },
      status: { allocatable: { cpu: '4', memory: '32Gi', pods: '110' } },
    };
    sim = await startSimulator({
      scenario: [
        small,
        ...scenario().slice(1),
        withCpu(podWith('holder', 'gpu'), '1', 1000),
        withCpu(podWith('filler', 'gpu'), '3', 0, false),
      ],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => ['holder', 'filler'].every((n) => pod(s, n)?.spec.nodeName === 'gpu-1'));
    s.apply(withCpu(podWith('wants', 'gpu'), '2', 500));
    const failed = (): KubeEvent | undefined =>
      (s.list('Event', NS) as KubeEvent[]).find(
        (e) => e.reason === 'FailedScheduling' && e.involvedObject.name === 'wants',
      );
    await s.waitFor(() => failed() !== undefined);
    await s.settle();
    expect((s.list('Event', NS) as KubeEvent[]).some((e) => e.reason === 'Preempted')).toBe(false);
    expect(pod(s, 'filler')?.spec.nodeName).toBe('gpu-1');
    expect(failed()?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. still not schedulable, preemption: 0/1 nodes are available: 1 cannot allocate all claims.',
    );
  });
});

describe('kubelet device health (simulator)', () => {
  const report = (health: string): object => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kube-sim', namespace: 'kube-system' },
    data: { 'devices.yaml': JSON.stringify([{ device: 'gpu.example.com/gpu-1/gpu-0', health }]) },
  });
  const healthOf = (s: Simulator): string | undefined =>
    pod(s, 'first')?.status?.containerStatuses?.[0]?.allocatedResourcesStatus?.[0]?.resources?.[0]?.health;

  it("rewrites a running pod's allocatedResourcesStatus when the driver reports a new health", async () => {
    sim = await startSimulator({
      scenario: [...scenario(), report('Healthy'), podWith('first', 'gpu')],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => healthOf(s) === 'Healthy' && pod(s, 'first')?.status?.phase === 'Running');
    const restarts = pod(s, 'first')?.status?.containerStatuses?.[0]?.restartCount;
    s.apply(report('Unhealthy'));
    await s.waitFor(() => healthOf(s) === 'Unhealthy');
    expect(pod(s, 'first')?.status?.containerStatuses?.[0]).toMatchObject({
      restartCount: restarts,
      allocatedResourcesStatus: [
        {
          name: 'claim:gpu',
          resources: [{ resourceID: 'gpu.example.com/gpu-1/gpu-0', health: 'Unhealthy' }],
        },
      ],
    });
  });
});

describe('kubelet device health for a claim with two requests (simulator)', () => {
  it('lists every device of the claim under the container request, by the CDI id the driver gives', async () => {
    const [node, ns, cls, slice] = scenario();
    const twoGpus = {
      ...(slice as { spec: object }),
      spec: { ...(slice as { spec: object }).spec, devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }] },
    };
    const claim = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'pair', namespace: NS },
      spec: {
        devices: {
          requests: [
            { name: 'main', exactly: { deviceClassName: 'gpu.example.com' } },
            { name: 'spare', exactly: { deviceClassName: 'gpu.example.com' } },
          ],
        },
      },
    };
    const user = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user', namespace: NS },
      spec: {
        resourceClaims: [{ name: 'gpus', resourceClaimName: 'pair' }],
        containers: [
          { name: 'c', image: 'trainer:1', resources: { claims: [{ name: 'gpus', request: 'main' }] } },
        ],
      },
    };
    const report = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-sim', namespace: 'kube-system' },
      data: {
        'devices.yaml': JSON.stringify([
          { device: 'gpu.example.com/gpu-1/gpu-0', health: 'Healthy', cdi: 'example.com/gpu=gpu-0' },
          { device: 'gpu.example.com/gpu-1/gpu-1', health: 'Unhealthy', cdi: 'example.com/gpu=gpu-1' },
        ]),
      },
    };
    sim = await startSimulator({
      scenario: [node, ns, cls, twoGpus, claim, report, user] as object[],
      timeScale: 50,
    });
    const s = sim;
    const statusOf = () => pod(s, 'user')?.status?.containerStatuses?.[0]?.allocatedResourcesStatus;
    await s.waitFor(() => statusOf() !== undefined);
    expect(statusOf()).toEqual([
      {
        name: 'claim:gpus/main',
        resources: [
          { resourceID: 'example.com/gpu=gpu-0', health: 'Healthy' },
          { resourceID: 'example.com/gpu=gpu-1', health: 'Unhealthy' },
        ],
      },
    ]);
  });
});
