/**
 * The simulator's StatefulSet controller against upstream behaviour
 * (pkg/controller/statefulset): ordered creation, identity, revisions, the rollout that
 * a bad revision blocks even after a revert (until its pod is deleted), partition,
 * Parallel, maxUnavailable at v1.34, scale, OnDelete.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { ControllerRevision, StatefulSet } from '../../sim/controllers/workload-types.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { api, imagePatch, node, podsByName, restarts, revisionOf } from './workloads.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const BASE = '/apis/apps/v1/namespaces/ns/statefulsets';
const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } };

const statefulSet = (spec: Record<string, unknown> = {}): object => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'ns' },
  spec: {
    replicas: 3,
    serviceName: 'web',
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'web:1' }] },
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

const sts = (s: Simulator, ns = 'ns', name = 'web'): StatefulSet =>
  s.get('StatefulSet', ns, name) as StatefulSet;
const ready = (s: Simulator, ns?: string, name?: string): number =>
  sts(s, ns, name).status?.readyReplicas ?? 0;

describe('StatefulSet controller', () => {
  it('creates <name>-<ordinal> pods one at a time, each only once its predecessor is Ready, with identity, claims and a ControllerRevision', async () => {
    const s = await start(
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'std', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
        provisioner: 'pd.csi.storage.gke.io',
      },
      statefulSet({
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      }),
    );
    s.readiness.hold();
    await s.waitFor(() => s.readiness.waiting() === 1);
    await s.settle();
    expect([...podsByName(s, 'ns').keys()]).toEqual(['web-0']);
    s.readiness.release(1);
    await s.waitFor(() => s.readiness.waiting() === 1 && podsByName(s, 'ns').has('web-1'));
    await s.settle();
    expect([...podsByName(s, 'ns').keys()].sort()).toEqual(['web-0', 'web-1']);
    s.readiness.release();
    await s.waitFor(() => ready(s) === 3);
    const status = sts(s).status;
    const revisions = s.list('ControllerRevision', 'ns') as ControllerRevision[];
    expect(revisions).toHaveLength(1);
    const revision = revisions[0];
    expect(revision?.revision).toBe(1);
    expect(revision?.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(revision?.metadata.labels).toEqual({
      app: 'web',
      'controller.kubernetes.io/hash': revision?.metadata.name.slice('web-'.length),
    });
    expect(status).toMatchObject({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      currentRevision: revision?.metadata.name,
      updateRevision: revision?.metadata.name,
    });
    const web1 = s.get('Pod', 'ns', 'web-1') as Pod & { spec: { hostname?: string; subdomain?: string } };
    expect(web1.metadata.labels).toEqual({
      app: 'web',
      'controller-revision-hash': revision?.metadata.name,
      'statefulset.kubernetes.io/pod-name': 'web-1',
      'apps.kubernetes.io/pod-index': '1',
    });
    expect([web1.spec.hostname, web1.spec.subdomain]).toEqual(['web-1', 'web']);
    expect(web1.spec.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } }]);
    const claim = s.get('PersistentVolumeClaim', 'ns', 'data-web-1') as {
      metadata: { labels?: Record<string, string>; ownerReferences?: unknown };
      spec: { volumeName?: string };
      status?: { phase?: string };
    };
    expect(claim.metadata.labels).toEqual({ app: 'web' });
    expect(claim.metadata.ownerReferences).toBeUndefined();
    expect(claim.status?.phase).toBe('Bound');
    expect(s.get('PersistentVolume', undefined, claim.spec.volumeName ?? '')).toBeDefined();
  });

  it('defaults and revisions a StatefulSet as kube-apiserver and kube-controller-manager 1.34 do (upstream testdata)', async () => {
    // pkg/controller/statefulset/testdata/compatibility_set_1.34.0.json and
    // compatibility_revision_1.34.0.json: the set as sent, what the API serves, and the
    // revision the controller writes for it (its name is HashControllerRevision of the data).
    const s = await start({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default' },
    });
    const claim = {
      metadata: { name: 'test', labels: { key: 'value' }, annotations: { key: 'value' } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    const created = await api(s, 'POST', '/apis/apps/v1/namespaces/default/statefulsets', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'test', labels: { sslabel: 'value' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'foo' } },
        template: {
          metadata: { labels: { app: 'foo' }, annotations: { test: 'value' } },
          spec: { containers: [{ name: 'test', image: 'test' }] },
        },
        volumeClaimTemplates: [claim],
      },
    });
    expect(created.status).toBe(201);
    expect(created.json['spec']).toEqual({
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      podManagementPolicy: 'OrderedReady',
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'foo' } },
      serviceName: '',
      template: {
        metadata: { annotations: { test: 'value' }, labels: { app: 'foo' } },
        spec: {
          containers: [
            {
              image: 'test',
              imagePullPolicy: 'Always',
              name: 'test',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
      updateStrategy: { rollingUpdate: { partition: 0 }, type: 'RollingUpdate' },
      volumeClaimTemplates: [
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: claim.metadata,
          spec: { ...claim.spec, volumeMode: 'Filesystem' },
          status: { phase: 'Pending' },
        },
      ],
    });
    await s.waitFor(() => s.get('ControllerRevision', 'default', 'test-776999688b') !== undefined);
    const revision = s.get('ControllerRevision', 'default', 'test-776999688b') as ControllerRevision;
    expect(JSON.stringify(revision.data)).toBe(
      '{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"test":"value"},"labels":{"app":"foo"}},"spec":{"containers":[{"image":"test","imagePullPolicy":"Always","name":"test","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}',
    );
    expect(revision.metadata.labels).toEqual({ app: 'foo', 'controller.kubernetes.io/hash': '776999688b' });
    await s.waitFor(() => ready(s, 'default', 'test') === 1);
    expect(sts(s, 'default', 'test').status).toEqual({
      observedGeneration: 1,
      replicas: 1,
      readyReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      currentRevision: 'test-776999688b',
      updateRevision: 'test-776999688b',
      collisionCount: 0,
      availableReplicas: 1,
    });
  });

  it('a crash-looping pod of a bad release blocks the rollout, still after the template is reverted, until that pod is deleted', async () => {
    sim = await startSimulator({ scenario: 'sim/scenarios/statefulset-bad-release.yaml', timeScale: 100 });
    const s = sim;
    const path = '/apis/apps/v1/namespaces/payments/statefulsets/ledger';
    await s.waitFor(() => ready(s, 'payments', 'ledger') === 3);
    const good = sts(s, 'payments', 'ledger').status?.currentRevision;
    const before = podsByName(s, 'payments');
    expect(
      (await api(s, 'PATCH', path, imagePatch('ledger', 'registry.example.com/payments/ledger:3.5.0')))
        .status,
    ).toBe(200);
    await s.waitFor(() => restarts(s, 'payments', 'ledger-2') >= 3);
    const bad = sts(s, 'payments', 'ledger').status?.updateRevision;
    expect(bad).not.toBe(good);
    let pods = podsByName(s, 'payments');
    expect(revisionOf(pods.get('ledger-2'))).toBe(bad);
    expect(pods.get('ledger-2')?.status?.containerStatuses?.[0]?.lastState?.terminated?.exitCode).toBe(1);
    // ledger-1 is never touched while ledger-2 is not Running and Ready.
    for (const name of ['ledger-0', 'ledger-1']) {
      expect(pods.get(name)?.metadata.uid).toBe(before.get(name)?.metadata.uid);
      expect(revisionOf(pods.get(name))).toBe(good);
    }
    expect(sts(s, 'payments', 'ledger').status).toMatchObject({
      readyReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 1,
      currentRevision: good,
      updateRevision: bad,
    });

    // Revert: the old revision becomes the update revision again (renumbered 3)...
    expect(
      (await api(s, 'PATCH', path, imagePatch('ledger', 'registry.example.com/payments/ledger:3.4.1')))
        .status,
    ).toBe(200);
    await s.waitFor(() => sts(s, 'payments', 'ledger').status?.updateRevision === good);
    const stuck = restarts(s, 'payments', 'ledger-2');
    await s.waitFor(() => restarts(s, 'payments', 'ledger-2') >= stuck + 1);
    // ...but the controller waits on ledger-2 and recreates only Failed or Succeeded pods.
    pods = podsByName(s, 'payments');
    expect(revisionOf(pods.get('ledger-2'))).toBe(bad);
    expect(sts(s, 'payments', 'ledger').status).toMatchObject({
      readyReplicas: 2,
      updateRevision: good,
      currentRevision: good,
    });
    const revisions = new Map(
      (s.list('ControllerRevision', 'payments') as ControllerRevision[]).map((r) => [
        r.metadata.name,
        r.revision,
      ]),
    );
    expect(revisions).toEqual(
      new Map([
        [good, 3],
        [bad, 2],
      ]),
    );

    // The forced rollback: delete the stuck pod; it comes back at the good revision.
    expect((await api(s, 'DELETE', '/api/v1/namespaces/payments/pods/ledger-2')).status).toBe(200);
    await s.waitFor(() => ready(s, 'payments', 'ledger') === 3);
    expect(revisionOf(s.get('Pod', 'payments', 'ledger-2') as Pod)).toBe(good);
    expect(sts(s, 'payments', 'ledger').status).toMatchObject({ updatedReplicas: 3, currentReplicas: 3 });
  });

  it('partition keeps the lower ordinals at the current revision on purpose', async () => {
    const s = await start(
      statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }),
    );
    await s.waitFor(() => ready(s) === 3);
    const before = podsByName(s, 'ns');
    expect((await api(s, 'PATCH', `${BASE}/web`, imagePatch('c', 'web:2'))).status).toBe(200);
    await s.waitFor(() => sts(s).status?.updatedReplicas === 1 && ready(s) === 3);
    await s.settle();
    const pods = podsByName(s, 'ns');
    const status = sts(s).status;
    expect(revisionOf(pods.get('web-2'))).toBe(status?.updateRevision);
    for (const name of ['web-0', 'web-1']) {
      expect(pods.get(name)?.metadata.uid).toBe(before.get(name)?.metadata.uid);
      expect(revisionOf(pods.get(name))).toBe(status?.currentRevision);
    }
    expect(status?.currentRevision).not.toBe(status?.updateRevision);
    expect(
      (
        await api(s, 'PATCH', `${BASE}/web`, {
          spec: { updateStrategy: { rollingUpdate: { partition: 0 } } },
        })
      ).status,
    ).toBe(200);
    await s.waitFor(() => sts(s).status?.updatedReplicas === 3 && ready(s) === 3);
    expect(sts(s).status?.currentRevision).toBe(sts(s).status?.updateRevision);
  });

  it('Parallel starts every pod without waiting for the others to be Ready', async () => {
    const s = await start(statefulSet({ podManagementPolicy: 'Parallel' }));
    s.readiness.hold();
    await s.waitFor(() => s.readiness.waiting() === 3);
    expect([...podsByName(s, 'ns').keys()].sort()).toEqual(['web-0', 'web-1', 'web-2']);
    s.readiness.release();
    await s.waitFor(() => ready(s) === 3);
  });

  it('at v1.34 the API drops rollingUpdate.maxUnavailable (MaxUnavailableStatefulSet is off) and pods are replaced one at a time', async () => {
    const s = await start();
    const created = await api(
      s,
      'POST',
      BASE,
      statefulSet({
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
      }),
    );
    expect(created.status).toBe(201);
    expect((created.json as unknown as StatefulSet).spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0 },
    });
    await s.waitFor(() => ready(s) === 3);
    s.readiness.hold();
    expect((await api(s, 'PATCH', `${BASE}/web`, imagePatch('c', 'web:2'))).status).toBe(200);
    await s.waitFor(() => s.readiness.waiting() === 1);
    await s.settle();
    const update = sts(s).status?.updateRevision;
    const updated = [...podsByName(s, 'ns').values()].filter((p) => revisionOf(p) === update);
    expect(updated.map((p) => p.metadata.name)).toEqual(['web-2']);
    expect(podsByName(s, 'ns').size).toBe(3);
    s.readiness.release();
    await s.waitFor(() => sts(s).status?.updatedReplicas === 3 && ready(s) === 3);
  });

  it('scales through the scale subresource, removing the highest ordinal first and only once the one before is gone', async () => {
    const s = await start(statefulSet());
    await s.waitFor(() => ready(s) === 3);
    const scale = await api(s, 'GET', `${BASE}/web/scale`);
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 3 },
      status: { replicas: 3, selector: 'app=web' },
    });
    // A finalizer keeps web-2 Terminating: OrderedReady waits for it before touching web-1.
    const hold = { metadata: { finalizers: ['example.com/hold'] } };
    expect((await api(s, 'PATCH', '/api/v1/namespaces/ns/pods/web-2', hold)).status).toBe(200);
    const patched = await api(
      s,
      'PATCH',
      `${BASE}/web/scale`,
      { spec: { replicas: 1 } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    await s.waitFor(() => !!podsByName(s, 'ns').get('web-2')?.metadata.deletionTimestamp);
    await s.settle();
    expect([...podsByName(s, 'ns').keys()].sort()).toEqual(['web-0', 'web-1', 'web-2']);
    const release = { metadata: { finalizers: null } };
    expect((await api(s, 'PATCH', '/api/v1/namespaces/ns/pods/web-2', release)).status).toBe(200);
    await s.waitFor(() => podsByName(s, 'ns').size === 1);
    expect([...podsByName(s, 'ns').keys()]).toEqual(['web-0']);
    const deletions = (s.list('Event', 'ns') as { reason?: string; message?: string }[])
      .filter((e) => e.reason === 'SuccessfulDelete')
      .map((e) => e.message);
    expect(deletions).toEqual([
      'delete Pod web-2 in StatefulSet web successful',
      'delete Pod web-1 in StatefulSet web successful',
    ]);
  });

  it('OnDelete replaces a pod only when it is deleted', async () => {
    const s = await start(statefulSet({ updateStrategy: { type: 'OnDelete' } }));
    await s.waitFor(() => ready(s) === 3);
    const before = podsByName(s, 'ns');
    expect((await api(s, 'PATCH', `${BASE}/web`, imagePatch('c', 'web:2'))).status).toBe(200);
    await s.waitFor(() => sts(s).status?.observedGeneration === 2);
    await s.settle();
    for (const [name, pod] of podsByName(s, 'ns'))
      expect(pod.metadata.uid).toBe(before.get(name)?.metadata.uid);
    expect((await api(s, 'DELETE', '/api/v1/namespaces/ns/pods/web-0')).status).toBe(200);
    await s.waitFor(() => sts(s).status?.updatedReplicas === 1 && ready(s) === 3);
    expect(revisionOf(s.get('Pod', 'ns', 'web-0') as Pod)).toBe(sts(s).status?.updateRevision);
  });

  it('refuses updates to fields other than the mutable ones, with the API server wording', async () => {
    const s = await start(statefulSet());
    const res = await api(s, 'PATCH', `${BASE}/web`, { spec: { serviceName: 'other' } });
    expect(res.status).toBe(422);
    expect(res.json['message']).toBe(
      "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  });
});
