/**
 * The simulator's deployment controller where scale-old-replicaset depends on it
 * (DESIGN.md §4): an old ReplicaSet scaled to 0 stays at 0, also when the replicas
 * change mid-rollout; proportional scaling spreads a change over the active
 * ReplicaSets only; and the scale subresource serves and patches a Scale.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { proportionalSizes } from '../../sim/controllers/deployment.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const node = (name: string): object => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: {},
  status: { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } },
});

const deploy = (name: string, replicas: number): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'ns' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: `${name}:1` }] },
    },
  },
});

async function patch(s: Simulator, path: string, contentType: string, body: unknown): Promise<Response> {
  return fetch(`${s.url}/apis/apps/v1/namespaces/ns/${path}`, {
    method: 'PATCH',
    headers: { 'Content-Type': contentType },
    body: JSON.stringify(body),
  });
}
const SMP = 'application/strategic-merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

const dep = (s: Simulator, name: string): Deployment => s.get('Deployment', 'ns', name) as Deployment;
const sets = (s: Simulator): ReplicaSet[] =>
  (s.list('ReplicaSet', 'ns') as ReplicaSet[]).sort(
    (a, b) =>
      Number(a.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0) -
      Number(b.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0),
  );
const sizes = (s: Simulator): number[] => sets(s).map((rs) => rs.spec.replicas ?? 0);

const image = (tag: string, extra: Record<string, unknown> = {}) => ({
  spec: { template: { spec: { containers: [{ name: 'c', image: `w:${tag}` }], ...extra } } },
});

/** Revision 1 rolled out to revision 2, then revision 3 stuck (its pods fit no node). */
async function stuckThirdRollout(replicas: number): Promise<Simulator> {
  sim = await startSimulator({ scenario: [node('n1'), deploy('w', replicas)], timeScale: 50 });
  const s = sim;
  const complete = (): boolean => {
    const d = dep(s, 'w');
    return (
      d.status?.observedGeneration === d.metadata.generation &&
      d.status?.updatedReplicas === replicas &&
      d.status.availableReplicas === replicas &&
      d.status.replicas === replicas
    );
  };
  await s.waitFor(complete);
  expect((await patch(s, 'deployments/w', SMP, image('2'))).status).toBe(200);
  await s.waitFor(() => complete() && sets(s).length === 2);
  expect((await patch(s, 'deployments/w', SMP, image('3', { nodeSelector: { disk: 'none' } }))).status).toBe(
    200,
  );
  await s.waitFor(() => sets(s).length === 3);
  await s.settle();
  return s;
}

describe('deployment controller: scaling events', () => {
  it('spreads a replicas change over the active ReplicaSets only; an old one at 0 stays at 0', async () => {
    const s = await stuckThirdRollout(4);
    // 25%/25% of 4: surge 1, unavailable 1. Revision 2 keeps 3, revision 3 got 2 (Pending).
    expect(sizes(s)).toEqual([0, 3, 2]);
    // Events written after `rv`: past 9 distinct ScalingReplicaSet messages client-go folds
    // the next ones into one "(combined from similar events): …" Event, so new messages
    // may arrive as updates of that Event rather than as new ones.
    type Ev = { reason?: string; message?: string; metadata: { resourceVersion?: string } };
    const scalingEvents = (rv = 0): string[] =>
      (s.list('Event', 'ns') as Ev[])
        .filter((e) => e.reason === 'ScalingReplicaSet' && Number(e.metadata.resourceVersion) > rv)
        .map((e) => e.message ?? '');
    const before = Math.max(
      0,
      ...(s.list('Event', 'ns') as Ev[]).map((e) => Number(e.metadata.resourceVersion)),
    );
    expect((await patch(s, 'deployments/w', SMP, { spec: { replicas: 8 } })).status).toBe(200);
    // 8 + surge 2 = 10 over the active ones by their max-replicas (5): 3→6, 2→4.
    await s.waitFor(() => sizes(s)[1] === 6 && sizes(s)[2] === 4);
    await s.settle();
    expect(sizes(s)).toEqual([0, 6, 4]);
    const first = sets(s)[0]?.metadata.name ?? '';
    const since = scalingEvents(before);
    expect(since.length).toBeGreaterThan(0);
    expect(since.filter((m) => m.includes(` ${first} `))).toEqual([]);
  });

  it('scales down proportionally too (replicas 4 → 2: sizes 3 and 2 become 2 and 1)', async () => {
    const s = await stuckThirdRollout(4);
    expect((await patch(s, 'deployments/w', SMP, { spec: { replicas: 2 } })).status).toBe(200);
    // 2 + surge 1 = 3: revision 2 round(3*3/5)=2, revision 3 gets the remaining 1.
    await s.waitFor(() => (sizes(s)[1] ?? 0) + (sizes(s)[2] ?? 0) <= 3);
    await s.settle();
    expect(sizes(s)).toEqual([0, 2, 1]);
  });

  it('an old ReplicaSet scaled to 0 mid-rollout stays at 0 when the replicas change', async () => {
    const s = await stuckThirdRollout(4);
    const old = sets(s)[1];
    const res = await patch(s, `replicasets/${old?.metadata.name ?? ''}/scale`, JSON_PATCH, [
      { op: 'test', path: '/metadata/uid', value: old?.metadata.uid },
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 0 },
    ]);
    expect(res.status).toBe(200);
    // The new ReplicaSet is now the only active one: it takes the replicas.
    await s.waitFor(() => sizes(s)[2] === 4);
    expect((await patch(s, 'deployments/w', SMP, { spec: { replicas: 6 } })).status).toBe(200);
    await s.waitFor(() => sizes(s)[2] === 6);
    await s.settle();
    expect(sizes(s)).toEqual([0, 0, 6]);
  });
});

describe('scale subresource', () => {
  it('serves a Scale and applies a JSON patch to it; a failed test is a 422 and changes nothing', async () => {
    sim = await startSimulator({ scenario: [node('n1'), deploy('w', 2)], timeScale: 50 });
    const s = sim;
    await s.waitFor(() => sets(s).length === 1 && (sets(s)[0]?.status?.replicas ?? 0) === 2);
    const rs = sets(s)[0];
    const name = rs?.metadata.name ?? '';
    const scale = (await (
      await fetch(`${s.url}/apis/apps/v1/namespaces/ns/replicasets/${name}/scale`)
    ).json()) as {
      kind: string;
      metadata: { uid?: string };
      spec: { replicas: number };
      status: { selector: string };
    };
    expect(scale).toMatchObject({
      kind: 'Scale',
      metadata: { uid: rs?.metadata.uid },
      spec: { replicas: 2 },
    });
    expect(scale.status.selector).toBe(
      `app=w,pod-template-hash=${rs?.metadata.labels?.['pod-template-hash'] ?? ''}`,
    );

    const failed = await patch(s, `replicasets/${name}/scale`, JSON_PATCH, [
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 0 },
    ]);
    expect(failed.status).toBe(422);
    const otherUid = await patch(s, `replicasets/${name}/scale`, JSON_PATCH, [
      { op: 'test', path: '/metadata/uid', value: 'f1c2e3d4-0000-4000-a000-00000000000f' },
      { op: 'replace', path: '/spec/replicas', value: 0 },
    ]);
    expect(otherUid.status).toBe(422);
    expect(sets(s)[0]?.spec.replicas).toBe(2);
    const uidChange = await patch(s, `replicasets/${name}/scale`, JSON_PATCH, [
      { op: 'replace', path: '/metadata/uid', value: 'f1c2e3d4-0000-4000-a000-00000000000f' },
    ]);
    expect(uidChange.status).toBe(409);
  });
});

describe('replicaset controller: pod-deletion-cost', () => {
  it('scaling down deletes the pod with the lowest controller.kubernetes.io/pod-deletion-cost first', async () => {
    // A ReplicaSet of its own, so no Deployment controller scales it back meanwhile.
    const rsObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'w-5d8f7c9b6d',
        namespace: 'ns',
        labels: { app: 'w', 'pod-template-hash': '5d8f7c9b6d' },
      },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'w', 'pod-template-hash': '5d8f7c9b6d' } },
        template: {
          metadata: { labels: { app: 'w', 'pod-template-hash': '5d8f7c9b6d' } },
          spec: { containers: [{ name: 'c', image: 'w:1' }] },
        },
      },
    };
    sim = await startSimulator({ scenario: [node('n1'), rsObject], timeScale: 50 });
    const s = sim;
    // Ready, not only Running: the ReplicaSet controller deletes a pod that is not Ready
    // before any Ready one whatever its deletion cost (upstream ActivePodsWithRanks), so
    // a pod still starting on a loaded machine would go first and the test would flake.
    const ready = () =>
      (
        s.list('Pod', 'ns') as {
          metadata: { name?: string; deletionTimestamp?: string };
          status?: { phase?: string; conditions?: { type: string; status: string }[] };
        }[]
      ).filter(
        (p) =>
          !p.metadata.deletionTimestamp &&
          p.status?.phase === 'Running' &&
          (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
      );
    await s.waitFor(() => ready().length === 3);
    const rs = sets(s)[0];
    // The newest pod would go first by default; mark the oldest-named one instead.
    const names = ready()
      .map((p) => p.metadata.name ?? '')
      .sort();
    const chosen = names[1] ?? '';
    const res = await fetch(`${s.url}/api/v1/namespaces/ns/pods/${chosen}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({
        metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-2147483648' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(
      (
        await patch(s, `replicasets/${rs?.metadata.name ?? ''}/scale`, JSON_PATCH, [
          { op: 'replace', path: '/spec/replicas', value: 2 },
        ])
      ).status,
    ).toBe(200);
    await s.waitFor(() => ready().length === 2);
    expect(
      ready()
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(names.filter((n) => n !== chosen));
  });
});

describe('deployment controller: sync() of paused Deployments and Recreate (upstream syncDeployment and scale())', () => {
  const pause = (s: Simulator, extra: Record<string, unknown> = {}) =>
    patch(s, 'deployments/w', SMP, { spec: { paused: true, ...extra } });

  it('a paused Deployment still scales: a replicas change is spread proportionally over the active ReplicaSets', async () => {
    const s = await stuckThirdRollout(4);
    expect(sizes(s)).toEqual([0, 3, 2]);
    expect((await pause(s)).status).toBe(200);
    await s.settle();
    expect((await patch(s, 'deployments/w', SMP, { spec: { replicas: 8 } })).status).toBe(200);
    await s.waitFor(() => sizes(s)[1] === 6 && sizes(s)[2] === 4);
    await s.settle();
    expect(sizes(s)).toEqual([0, 6, 4]);
  });

  it('a paused Deployment creates no ReplicaSet for a new template; its only active ReplicaSet takes a replicas change', async () => {
    sim = await startSimulator({ scenario: [node('n1'), deploy('w', 2)], timeScale: 50 });
    const s = sim;
    await s.waitFor(() => (dep(s, 'w').status?.availableReplicas ?? 0) === 2);
    expect((await pause(s)).status).toBe(200);
    expect((await patch(s, 'deployments/w', SMP, image('2'))).status).toBe(200);
    expect((await patch(s, 'deployments/w', SMP, { spec: { replicas: 3 } })).status).toBe(200);
    await s.waitFor(() => sizes(s)[0] === 3);
    await s.settle();
    expect(sizes(s)).toEqual([3]);
  });

  it('Recreate scales nothing proportionally: a replicas change (a scaling event, so sync()) with two active ReplicaSets leaves both as they are', async () => {
    const s = await stuckThirdRollout(4);
    expect(
      (
        await patch(s, 'deployments/w', SMP, {
          spec: { replicas: 8, strategy: { type: 'Recreate', rollingUpdate: null } },
        })
      ).status,
    ).toBe(200);
    await s.settle();
    expect(dep(s, 'w').status?.observedGeneration).toBe(dep(s, 'w').metadata.generation);
    expect(sizes(s)).toEqual([0, 3, 2]);
  });
});

describe('proportionalSizes (getReplicaSetFraction)', () => {
  const rs = (
    name: string,
    replicas: number,
    created: string,
    annotations: Record<string, string> = {},
  ): ReplicaSet =>
    ({
      metadata: { name, creationTimestamp: created, annotations },
      spec: { replicas, selector: {}, template: { spec: { containers: [] } } },
    }) as unknown as ReplicaSet;

  it('without a max-replicas annotation and with status.replicas 0 the fraction is 0: the leftover goes to the largest', () => {
    const old = rs('old', 2, '2026-01-01T00:00:00Z');
    const fresh = rs('new', 1, '2026-01-02T00:00:00Z');
    // replicas 1 + surge 1 = 2 allowed, 3 now: remove 1, all of it from the largest (old).
    const sizesOf = proportionalSizes(1, 1, fresh, [old], 0);
    expect([sizesOf.get(old), sizesOf.get(fresh)]).toEqual([1, 1]);
  });

  it('falls back to status.replicas when the annotation is absent, and uses the annotation when present', () => {
    const old = rs('old', 3, '2026-01-01T00:00:00Z');
    const fresh = rs('new', 2, '2026-01-02T00:00:00Z');
    const byStatus = proportionalSizes(8, 2, fresh, [old], 5);
    expect([byStatus.get(old), byStatus.get(fresh)]).toEqual([6, 4]);
    const annotated = (r: ReplicaSet): ReplicaSet => ({
      ...r,
      metadata: { ...r.metadata, annotations: { 'deployment.kubernetes.io/max-replicas': '5' } },
    });
    const a = annotated(old);
    const b = annotated(fresh);
    const byAnnotation = proportionalSizes(8, 2, b, [a], 0);
    expect([byAnnotation.get(a), byAnnotation.get(b)]).toEqual([6, 4]);
  });
});
