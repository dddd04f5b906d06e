/**
 * What guards the workload, read by the real collector from an in-memory API (issue 52
 * item 2): the namespace's PodDisruptionBudgets, the HorizontalPodAutoscalers that target
 * the workload, the PersistentVolumes bound to its claims (a StatefulSet's per-pod claims
 * too) and the StorageClasses they name. Each read refused or failed leaves its member
 * absent and a gap naming the grant, never "none"; and the volumes, which follow the
 * claims, come back during the third round, so the sequential depth stays where it was.
 */
import { describe, expect, it } from 'vitest';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/errors.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { unreadGuardLines } from '../../src/diagnosis/guards/guard-gaps.js';
import type { HorizontalPodAutoscaler, PodDisruptionBudget } from '../../src/diagnosis/k8s-policy.js';
import type { PersistentVolume, StorageClass } from '../../src/diagnosis/k8s-storage.js';
import { sequentialDepth } from '../../bench/lib/stats.js';
import { makeDeployment, makeNode, makePod, makePvc, makeReplicaSet } from '../support/k8s-builders.js';
import { makeStatefulSet, makeStsPod, makeStsRevision } from '../support/statefulset-builders.js';

const list = <T>(items: T[]) => ({ items, metadata: { resourceVersion: '1000' } });
const DELAY_MS = 15;

interface Recorded {
  key: string;
  receivedAt: number;
  finishedAt: number;
}

/**
 * An API that answers `answers[key]` (key "verb resource" or "verb resource/name") after
 * DELAY_MS, a number as that HTTP error, and fails the test on any read it was not told of.
 */
function fakeApi(answers: Record<string, unknown>): { client: KubeClient; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const client: KubeClient = {
    server: 'https://in-memory',
    context: 'test',
    namespace: 'shop',
    async call<T>(call: ApiCall): Promise<T> {
      const key = `${call.verb} ${call.resource}${call.name ? `/${call.name}` : ''}`;
      const receivedAt = performance.now();
      await new Promise((r) => setTimeout(r, DELAY_MS));
      calls.push({ key, receivedAt, finishedAt: performance.now() });
      if (!(key in answers)) throw new Error(`unexpected read: ${key}`);
      const answer = answers[key];
      if (typeof answer === 'number') {
        throw new KubeApiError(`${key}: ${answer}`, answer, {
          verb: call.verb,
          resource: call.resource,
          ...(call.namespace ? { namespace: call.namespace } : {}),
        });
      }
      return answer as T;
    },
    text: () => Promise.reject(new Error('no logs here')),
    watch: () => Promise.reject(new Error('no watch here')),
  };
  return { client, calls };
}

const pdb = (name: string, app: string): PodDisruptionBudget => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, namespace: 'shop' },
  spec: { minAvailable: 1, selector: { matchLabels: { app } } },
  status: { expectedPods: 1, currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0 },
});
const hpa = (
  name: string,
  kind: string,
  target: string,
  apiVersion = 'apps/v1',
): HorizontalPodAutoscaler => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name, namespace: 'shop' },
  spec: { scaleTargetRef: { apiVersion, kind, name: target }, minReplicas: 1, maxReplicas: 4 },
});
const localPv = (name: string, node: string, claim: string): PersistentVolume => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: {
    storageClassName: 'local',
    local: { path: '/mnt/disks/1' },
    claimRef: { namespace: 'shop', name: claim },
    nodeAffinity: {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] },
        ],
      },
    },
  },
  status: { phase: 'Bound' },
});
const storageClass = (name: string, mode: string, isDefault = false): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: {
    name,
    ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
  },
  provisioner: 'kubernetes.io/no-provisioner',
  volumeBindingMode: mode,
});

/** shop/db: one replica mounting db-data (RWO, bound to pv-db-data on node-a), Running there. */
function dbCluster(overrides: Record<string, unknown> = {}) {
  const deployment = makeDeployment('db', {
    namespace: 'shop',
    podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db-data' } }] },
  });
  const rs = makeReplicaSet(deployment, '5c7d9f8b6d');
  const pod = makePod(rs, 'q2w3e', 'node-a', { phase: 'Running' });
  const claim = {
    ...makePvc('db-data', 'shop'),
    spec: { ...makePvc('db-data', 'shop').spec, storageClassName: 'local' },
  };
  return fakeApi({
    'get deployments/db': deployment,
    'list replicasets': list([rs]),
    'list pods': list([pod]),
    'list events': list([]),
    'list nodes': list([makeNode('node-a'), makeNode('node-b')]),
    'list resourcequotas': list([]),
    'get persistentvolumeclaims/db-data': claim,
    'list poddisruptionbudgets': list([pdb('db', 'db'), pdb('cache', 'cache')]),
    'list horizontalpodautoscalers': list([
      hpa('db', 'Deployment', 'db'),
      hpa('db-rollout', 'Rollout', 'db', 'argoproj.io/v1alpha1'),
      hpa('web', 'Deployment', 'web'),
    ]),
    'list storageclasses': list([
      storageClass('local', 'WaitForFirstConsumer'),
      storageClass('standard', 'Immediate', true),
    ]),
    'get persistentvolumes/pv-db-data': localPv('pv-db-data', 'node-a', 'db-data'),
    ...overrides,
  });
}

const DB = { kind: 'Deployment', namespace: 'shop', name: 'db' } as const;

describe('the guards of a Deployment with a local volume', () => {
  it('reads every budget of the namespace, the autoscaler that targets it, its volume and class', async () => {
    const { client, calls } = dbCluster();
    const snapshot = await collectSnapshot(client, DB);
    expect(snapshot.guards?.podDisruptionBudgets?.map((p) => p.metadata.name)).toEqual(['db', 'cache']);
    // Not the Rollout of the same name, not another Deployment's.
    expect(snapshot.guards?.horizontalPodAutoscalers?.map((h) => h.metadata.name)).toEqual(['db']);
    expect(snapshot.guards?.persistentVolumes?.map((v) => v.metadata.name)).toEqual(['pv-db-data']);
    // The class the claim names; not the default, which no claim here takes.
    expect(snapshot.guards?.storageClasses?.map((c) => c.metadata.name)).toEqual(['local']);
    expect(snapshot.guards?.analysisRuns).toEqual([]);
    expect(unreadGuardLines(snapshot.coverage)).toEqual([]);
    // The volume is asked for by the name its claim is bound to, after the claim.
    const claim = calls.find((c) => c.key === 'get persistentvolumeclaims/db-data');
    const volume = calls.find((c) => c.key === 'get persistentvolumes/pv-db-data');
    expect(volume && claim && volume.receivedAt >= claim.finishedAt).toBe(true);
  });

  it('keeps the depth of a diagnosis: the volume comes back during the third round', async () => {
    const { client, calls } = dbCluster();
    await collectSnapshot(client, DB);
    // Deployment → its objects, claim, budgets, autoscalers, classes → nodes' pods and the volume.
    expect(sequentialDepth(calls)).toBe(3);
    expect(calls.filter((c) => c.key.startsWith('list pods')).length).toBeGreaterThan(1);
  });

  it('a refused budget list is unknown, named with the grant that settles it, never "none"', async () => {
    const { client } = dbCluster({ 'list poddisruptionbudgets': 403, 'list horizontalpodautoscalers': 500 });
    const snapshot = await collectSnapshot(client, DB);
    expect(snapshot.guards?.podDisruptionBudgets).toBeUndefined();
    expect(snapshot.guards?.horizontalPodAutoscalers).toBeUndefined();
    expect(snapshot.guards?.persistentVolumes).toHaveLength(1);
    expect(snapshot.coverage.gaps).toContainEqual({
      about: 'podDisruptionBudgets',
      what: 'PodDisruptionBudgets in shop',
      reason: 'forbidden',
      settle: 'grant list on poddisruptionbudgets.policy in shop',
    });
    expect(unreadGuardLines(snapshot.coverage)).toEqual([
      'PodDisruptionBudgets: not read (forbidden): grant list on poddisruptionbudgets.policy in shop',
      'HorizontalPodAutoscalers: not read (the read failed): kubectl get horizontalpodautoscalers -n shop -o yaml, and diagnose from the dump',
    ]);
    // The workload itself is still diagnosed: a guard is a secondary read.
    expect(snapshot.pods).toHaveLength(1);
  });

  it('a refused volume read or a claim that could not be read leaves the volumes unknown', async () => {
    const refused = await collectSnapshot(dbCluster({ 'get persistentvolumes/pv-db-data': 403 }).client, DB);
    expect(refused.guards?.persistentVolumes).toBeUndefined();
    expect(unreadGuardLines(refused.coverage)).toEqual([
      'PersistentVolumes: not read (forbidden): grant get on persistentvolumes (cluster-wide)',
    ]);
    const noClaim = await collectSnapshot(
      dbCluster({ 'get persistentvolumeclaims/db-data': 403 }).client,
      DB,
    );
    expect(noClaim.guards?.persistentVolumes).toBeUndefined();
    expect(noClaim.coverage.gaps).toContainEqual(
      expect.objectContaining({ about: 'persistentVolumes', what: expect.stringContaining('db-data') }),
    );
  });

  it('look-alike: a claim not bound yet has no volume to read, and that is known, not a gap', async () => {
    const pending = {
      ...makePvc('db-data', 'shop'),
      spec: { accessModes: ['ReadWriteOnce'] },
      status: { phase: 'Pending' },
    };
    const { client, calls } = dbCluster({ 'get persistentvolumeclaims/db-data': pending });
    const snapshot = await collectSnapshot(client, DB);
    expect(snapshot.guards?.persistentVolumes).toEqual([]);
    // No class named: the default class is the one that will bind it.
    expect(snapshot.guards?.storageClasses?.map((c) => c.metadata.name)).toEqual(['standard']);
    expect(calls.map((c) => c.key)).not.toContain('get persistentvolumes/pv-db-data');
  });

  it('a workload with no claims reads no volume or class, and has none', async () => {
    const deployment = makeDeployment('web', { namespace: 'shop' });
    const rs = makeReplicaSet(deployment, '6b8c9d7f5e');
    const { client, calls } = fakeApi({
      'get deployments/web': deployment,
      'list replicasets': list([rs]),
      'list pods': list([makePod(rs, 'a1b2c', 'node-a', { phase: 'Running' })]),
      'list events': list([]),
      'list resourcequotas': list([]),
      'list poddisruptionbudgets': list([]),
      'list horizontalpodautoscalers': list([]),
      'list nodes': list([makeNode('node-a')]),
    });
    const snapshot = await collectSnapshot(client, { kind: 'Deployment', namespace: 'shop', name: 'web' });
    expect(snapshot.guards).toEqual({
      podDisruptionBudgets: [],
      horizontalPodAutoscalers: [],
      persistentVolumes: [],
      storageClasses: [],
      analysisRuns: [],
    });
    expect(calls.map((c) => c.key)).not.toContain('list storageclasses');
  });
});

describe("a StatefulSet's per-pod claims", () => {
  it('lists them by the set’s matchLabels and reads the volume each is bound to', async () => {
    const sts = {
      ...makeStatefulSet('ledger', { replicas: 2 }),
      metadata: { ...makeStatefulSet('ledger').metadata, namespace: 'shop' },
    };
    const revision = makeStsRevision(sts, '7f9c8b6d5', 3);
    // Each pod mounts its own claim, as the controller writes it (updateStorage).
    const pods = [0, 1].map((i) => {
      const pod = makeStsPod(sts, revision, i, `node-${i}`, { phase: 'Running' });
      pod.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: `data-ledger-${i}` } }];
      return pod;
    });
    const claim = (i: number) => ({
      ...makePvc(`data-ledger-${i}`, 'shop'),
      metadata: { ...makePvc(`data-ledger-${i}`, 'shop').metadata, labels: { app: 'ledger' } },
    });
    // A claim of the same labels that no pod of the set mounts is not one of its claims.
    const stray = {
      ...makePvc('backup-ledger', 'shop'),
      metadata: { name: 'backup-ledger', namespace: 'shop' },
    };
    const { client, calls } = fakeApi({
      'get statefulsets/ledger': sts,
      'list controllerrevisions': list([revision]),
      'list pods': list(pods),
      'list events': list([]),
      'list resourcequotas': list([]),
      'list poddisruptionbudgets': list([]),
      'list horizontalpodautoscalers': list([]),
      'list storageclasses': list([storageClass('standard', 'Immediate', true)]),
      'list persistentvolumeclaims': list([claim(0), claim(1), stray]),
      'get persistentvolumes/pv-data-ledger-0': localPv('pv-data-ledger-0', 'node-0', 'data-ledger-0'),
      'get persistentvolumes/pv-data-ledger-1': localPv('pv-data-ledger-1', 'node-1', 'data-ledger-1'),
      'list nodes': list([makeNode('node-0'), makeNode('node-1')]),
    });
    const snapshot = await collectSnapshot(client, {
      kind: 'StatefulSet',
      namespace: 'shop',
      name: 'ledger',
    });
    expect(snapshot.pvcs.map((p) => p.metadata.name).sort()).toEqual(['data-ledger-0', 'data-ledger-1']);
    expect(snapshot.guards?.persistentVolumes?.map((v) => v.metadata.name).sort()).toEqual([
      'pv-data-ledger-0',
      'pv-data-ledger-1',
    ]);
    expect(snapshot.guards?.storageClasses?.map((c) => c.metadata.name)).toEqual(['standard']);
    expect(calls.map((c) => c.key)).not.toContain('get persistentvolumes/pv-backup-ledger');
  });
});
