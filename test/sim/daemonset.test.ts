/**
 * The simulator's DaemonSet controller against upstream behaviour (pkg/controller/daemon):
 * node eligibility and the controller's tolerations, pods pinned by matchFields, the
 * maxSurge + hostPort deadlock with the scheduler's real wording, maxUnavailable and
 * surge rollouts, OnDelete, API defaults and validation, history pruning.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { ControllerRevision, DaemonSet } from '../../sim/controllers/workload-types.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import { api, imagePatch, isReady, node, revisionOf } from './workloads.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const BASE = '/apis/apps/v1/namespaces/ns/daemonsets';
const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } };

const daemonSet = (spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): object => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'ns' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: {
      metadata: { labels: { app: 'agent' } },
      spec: { containers: [{ name: 'c', image: 'agent:1' }], ...podSpec },
    },
    ...spec,
  },
});

async function start(...objects: object[]): Promise<Simulator> {
  sim = await startSimulator({
    scenario: [NAMESPACE, node('n1'), node('n2'), node('n3'), ...objects],
    timeScale: 50,
  });
  return sim;
}

const ds = (s: Simulator, ns = 'ns', name = 'agent'): DaemonSet => s.get('DaemonSet', ns, name) as DaemonSet;
const live = (s: Simulator, ns = 'ns'): Pod[] => s.list('Pod', ns) as Pod[];
const pinnedTo = (p: Pod): string | undefined =>
  p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0]
    ?.matchFields?.[0]?.values?.[0];
const rolledOut = (s: Simulator, desired: number, ns?: string, name?: string): boolean => {
  const d = ds(s, ns, name);
  return (
    d.status?.observedGeneration === d.metadata.generation &&
    d.status?.updatedNumberScheduled === desired &&
    d.status?.numberAvailable === desired &&
    live(s, ns).length === desired
  );
};

describe('DaemonSet controller', () => {
  it('runs one pod on each node it wants, pinned by matchFields, with the tolerations the controller adds', async () => {
    const s = await start(
      node('gpu', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      node('full', { taints: [{ key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' }] }),
      node('other', {}, { pool: 'other' }),
      daemonSet(
        {},
        {
          hostNetwork: true,
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'DoesNotExist' }] }],
              },
            },
          },
        },
      ),
    );
    await s.waitFor(() => rolledOut(s, 4));
    const pods = live(s);
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['full', 'n1', 'n2', 'n3']);
    for (const p of pods) {
      expect(pinnedTo(p)).toBe(p.spec.nodeName);
      expect(
        p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
      ).toHaveLength(1);
    }
    expect(pods[0]?.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    const revisions = s.list('ControllerRevision', 'ns') as ControllerRevision[];
    expect(revisions).toHaveLength(1);
    const hash = revisions[0]?.metadata.labels?.['controller-revision-hash'];
    expect(revisions[0]?.metadata.name).toBe(`agent-${hash ?? ''}`);
    expect(pods[0]?.metadata.labels).toEqual({
      app: 'agent',
      'pod-template-generation': '1',
      'controller-revision-hash': hash,
    });
    expect(ds(s).status).toEqual({
      currentNumberScheduled: 4,
      numberMisscheduled: 0,
      desiredNumberScheduled: 4,
      numberReady: 4,
      updatedNumberScheduled: 4,
      numberAvailable: 4,
      observedGeneration: 1,
    });
    // A node that joins gets its pod; one that now has an untolerated taint keeps it
    // (NoSchedule stops new pods only) but no longer counts as desired.
    s.apply(node('n4'));
    s.apply(node('n3', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }));
    await s.waitFor(() => live(s).some((p) => p.spec.nodeName === 'n4' && isReady(p)));
    await s.waitFor(
      () => ds(s).status?.desiredNumberScheduled === 4 && ds(s).status?.numberMisscheduled === 1,
    );
    expect(live(s).some((p) => p.spec.nodeName === 'n3')).toBe(true);
  });

  it('maxSurge with a hostPort deadlocks: the surge pod stays Pending with the real FailedScheduling wording and the old pod stays', async () => {
    sim = await startSimulator({ scenario: 'sim/scenarios/node-agent-surge.yaml', timeScale: 50 });
    const s = sim;
    const path = '/apis/apps/v1/namespaces/telemetry/daemonsets/node-agent';
    await s.waitFor(() => rolledOut(s, 3, 'telemetry', 'node-agent'));
    const old = new Set(live(s, 'telemetry').map((p) => p.metadata.uid));
    const image = 'registry.example.com/telemetry/node-agent:1.9.0';
    expect((await api(s, 'PATCH', path, imagePatch('agent', image))).status).toBe(200);
    const failed = (): KubeEvent[] =>
      (s.list('Event', 'telemetry') as KubeEvent[]).filter((e) => e.reason === 'FailedScheduling');
    await s.waitFor(() => failed().length === 1);
    // The scheduler retries after 60 s: a second attempt proves time went by with nothing moving.
    await s.waitFor(() => (failed()[0]?.count ?? 0) >= 2);
    await s.settle();
    const pods = live(s, 'telemetry');
    const surge = pods.filter((p) => !old.has(p.metadata.uid));
    expect(surge).toHaveLength(1);
    expect(pods.filter((p) => old.has(p.metadata.uid) && isReady(p))).toHaveLength(3);
    const [pending] = surge;
    expect(pending?.spec.nodeName).toBeUndefined();
    expect(pending?.status?.phase).toBe('Pending');
    expect(failed()[0]?.involvedObject.name).toBe(pending?.metadata.name);
    expect(failed()[0]?.message).toBe(
      "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    expect(ds(s, 'telemetry', 'node-agent').status).toMatchObject({
      desiredNumberScheduled: 3,
      numberAvailable: 3,
      observedGeneration: 2,
    });
    // omitempty, as apps/v1 serves it: no pod is up to date.
    expect(ds(s, 'telemetry', 'node-agent').status?.updatedNumberScheduled).toBeUndefined();
    // With maxSurge 100% every node gets its surge pod, and every one of them waits the same way.
    const all = { spec: { updateStrategy: { rollingUpdate: { maxSurge: '100%' } } } };
    expect((await api(s, 'PATCH', path, all)).status).toBe(200);
    await s.waitFor(() => live(s, 'telemetry').filter((p) => !p.spec.nodeName).length === 3);
    await s.waitFor(() => failed().length === 3);
    expect(
      new Set(
        live(s, 'telemetry')
          .filter((p) => !p.spec.nodeName)
          .map(pinnedTo),
      ),
    ).toEqual(new Set(['node-a', 'node-b', 'node-c']));
    // The fix: no surge, one node at a time.
    const fix = { spec: { updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } } };
    expect((await api(s, 'PATCH', path, fix)).status).toBe(200);
    await s.waitFor(() => rolledOut(s, 3, 'telemetry', 'node-agent'));
    expect(
      live(s, 'telemetry').every((p) => p.spec.containers[0]?.image === image && !old.has(p.metadata.uid)),
    ).toBe(true);
  });

  it('without surge replaces at most maxUnavailable nodes at a time, deleting the old pod first', async () => {
    const s = await start(daemonSet());
    await s.waitFor(() => rolledOut(s, 3));
    s.readiness.hold();
    expect((await api(s, 'PATCH', `${BASE}/agent`, imagePatch('c', 'agent:2'))).status).toBe(200);
    await s.waitFor(() => s.readiness.waiting() === 1);
    await s.settle();
    const pods = live(s);
    expect(pods).toHaveLength(3);
    expect(pods.filter((p) => p.spec.containers[0]?.image === 'agent:2')).toHaveLength(1);
    expect(ds(s).status).toMatchObject({
      updatedNumberScheduled: 1,
      numberAvailable: 2,
      numberUnavailable: 1,
    });
    s.readiness.release();
    await s.waitFor(() => rolledOut(s, 3));
  });

  it('with maxSurge starts the new pod beside the old one and deletes the old one once the new one is available', async () => {
    const s = await start(
      daemonSet({
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      }),
    );
    await s.waitFor(() => rolledOut(s, 3));
    s.readiness.hold();
    expect((await api(s, 'PATCH', `${BASE}/agent`, imagePatch('c', 'agent:2'))).status).toBe(200);
    await s.waitFor(() => s.readiness.waiting() === 1);
    await s.settle();
    let pods = live(s);
    expect(pods).toHaveLength(4);
    const fresh = pods.find((p) => p.spec.containers[0]?.image === 'agent:2');
    expect(pods.filter((p) => p.spec.nodeName === fresh?.spec.nodeName)).toHaveLength(2);
    s.readiness.release(1);
    await s.waitFor(() => live(s).filter((p) => p.spec.nodeName === fresh?.spec.nodeName).length === 1);
    pods = live(s);
    expect(pods.find((p) => p.spec.nodeName === fresh?.spec.nodeName)?.metadata.uid).toBe(
      fresh?.metadata.uid,
    );
    s.readiness.release();
    await s.waitFor(() => rolledOut(s, 3));
  });

  it('OnDelete replaces a pod only when it is deleted', async () => {
    const s = await start(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    await s.waitFor(() => rolledOut(s, 3));
    const before = new Set(live(s).map((p) => p.metadata.uid));
    expect((await api(s, 'PATCH', `${BASE}/agent`, imagePatch('c', 'agent:2'))).status).toBe(200);
    await s.waitFor(() => ds(s).status?.observedGeneration === 2);
    await s.settle();
    expect(new Set(live(s).map((p) => p.metadata.uid))).toEqual(before);
    expect(ds(s).status?.updatedNumberScheduled).toBeUndefined();
    const victim = live(s)[0];
    expect((await api(s, 'DELETE', `/api/v1/namespaces/ns/pods/${victim?.metadata.name ?? ''}`)).status).toBe(
      200,
    );
    await s.waitFor(() => ds(s).status?.updatedNumberScheduled === 1 && ds(s).status?.numberAvailable === 3);
  });

  it('defaults the update strategy and template generation as the API server does, and refuses surge with unavailability', async () => {
    const s = await start();
    const created = await api(s, 'POST', BASE, daemonSet());
    expect(created.status).toBe(201);
    const spec = (created.json as unknown as DaemonSet).spec;
    expect(spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    expect(spec.revisionHistoryLimit).toBe(10);
    const generation = (): string | undefined =>
      ds(s).metadata.annotations?.['deprecated.daemonset.template.generation'];
    expect(generation()).toBe('1');
    expect((await api(s, 'PATCH', `${BASE}/agent`, { spec: { minReadySeconds: 1 } })).status).toBe(200);
    expect(generation()).toBe('1');
    expect((await api(s, 'PATCH', `${BASE}/agent`, imagePatch('c', 'agent:2'))).status).toBe(200);
    expect([generation(), ds(s).metadata.generation]).toEqual(['2', 3]);
    const both = await api(s, 'PATCH', `${BASE}/agent`, {
      spec: { updateStrategy: { rollingUpdate: { maxSurge: 1 } } },
    });
    expect(both.status).toBe(422);
    expect(both.json['message']).toBe(
      'DaemonSet.apps "agent" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    );
    const neither = await api(s, 'PATCH', `${BASE}/agent`, {
      spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 0 } } },
    });
    expect(neither.status).toBe(422);
    expect(neither.json['message']).toBe(
      'DaemonSet.apps "agent" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    );
  });

  it('keeps revisionHistoryLimit old revisions, never one a pod still runs', async () => {
    const s = await start(daemonSet({ revisionHistoryLimit: 1, updateStrategy: { type: 'OnDelete' } }));
    await s.waitFor(() => rolledOut(s, 3));
    const first = revisionOf(live(s)[0]);
    for (const image of ['agent:2', 'agent:3', 'agent:4']) {
      expect((await api(s, 'PATCH', `${BASE}/agent`, imagePatch('c', image))).status).toBe(200);
      await s.waitFor(() => ds(s).status?.observedGeneration === ds(s).metadata.generation);
    }
    await s.settle();
    const kept = new Map(
      (s.list('ControllerRevision', 'ns') as ControllerRevision[]).map((r) => [
        r.revision,
        r.metadata.labels?.['controller-revision-hash'],
      ]),
    );
    // The current revision (4) and the one the OnDelete pods still run (1); 2 and 3 went.
    expect([...kept.keys()].sort()).toEqual([1, 4]);
    expect(kept.get(1)).toBe(first);
  });
});
