/**
 * Issue 40's example, built on the stepped simulator: 6 replicas, maxSurge 0,
 * maxUnavailable 1, a `pods` quota of 7 with 7 used. The controller deletes one old pod,
 * which stays Terminating (still counted by the quota) while the new ReplicaSet's create
 * is refused. The rollout finishes by itself: no deadlock, and no plan that takes serving
 * pods down; the terminating pod shows as Terminating.
 */
import { describe, expect, it } from 'vitest';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { startStepped } from '../../sim/stepped.js';
import { hasProblems } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';

/** A Ready node of 8 cpu; with `gpus`, that many GPUs and the label pool=gpu. */
const node = (name: string, gpus = 0): object => {
  const room = {
    cpu: '8',
    memory: '16Gi',
    pods: '110',
    ...(gpus > 0 ? { 'nvidia.com/gpu': String(gpus) } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(gpus > 0 ? { pool: 'gpu' } : {}) } },
    status: { capacity: room, allocatable: room, conditions: [{ type: 'Ready', status: 'True' }] },
  };
};

/** A pod of another namespace on `nodeName`: the read is cluster-wide only when it holds one. */
const proxyOn = (nodeName: string): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'proxy', namespace: 'kube-system' },
  spec: { nodeName, containers: [{ name: 'p', image: 'proxy:1' }] },
});

/** shop/web on 100m cpu: 6 replicas, maxSurge 0, maxUnavailable 1 unless `shape` says otherwise. */
const deployment = (
  image: string,
  shape: { replicas?: number; minReadySeconds?: number; maxSurge?: number; maxUnavailable?: number } = {},
): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: shape.replicas ?? 6,
    ...(shape.minReadySeconds ? { minReadySeconds: shape.minReadySeconds } : {}),
    selector: { matchLabels: { app: 'web' } },
    strategy: {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: shape.maxSurge ?? 0, maxUnavailable: shape.maxUnavailable ?? 1 },
    },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image, resources: { requests: { cpu: '100m' } } }] },
    },
  },
});

describe('a rollout caught mid-step by a quota the old pods fill', () => {
  it('reads as moving, offers nothing that takes serving pods down, and shows the terminating pod as Terminating', () => {
    const sim = startStepped([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      node('node-a'),
      node('node-b'),
      proxyOn('node-b'),
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'agent', namespace: 'shop' },
        spec: { nodeName: 'node-a', containers: [{ name: 'a', image: 'agent:1' }] },
      },
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'pods', namespace: 'shop' },
        spec: { hard: { pods: '7' } },
      },
      deployment('web:1'),
    ]);
    try {
      const ready = (): boolean => {
        const d = sim.get('Deployment', 'shop', 'web') as {
          status?: { availableReplicas?: number; updatedReplicas?: number };
        };
        return d.status?.availableReplicas === 6 && d.status.updatedReplicas === 6;
      };
      expect(sim.advance(600, ready)).toBe(true);
      sim.apply(deployment('web:2'));
      // Until the controller has deleted an old pod and the quota has refused the new one.
      const refused = (): boolean =>
        sim.list('Event', 'shop').some((e) => (e as { reason?: string }).reason === 'FailedCreate') &&
        sim
          .list('Pod', 'shop')
          .some((p) => (p as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp);
      expect(sim.advance(60, refused)).toBe(true);
      const snapshot = assembleSnapshot(
        { kind: 'Deployment', namespace: 'shop', name: 'web' },
        sim.objects() as unknown as KubeObject[],
        {
          capturedAt: sim.now(),
        },
      );
      const diagnosis = diagnose(snapshot);
      const codes = diagnosis.findings.map((f) => f.code);
      expect(codes).not.toContain('RolloutSurgeDeadlock');
      expect(codes).not.toContain('QuotaExceeded');
      expect(codes).toContain('RolloutProgressing');
      expect(diagnosis.remediations.map((p) => p.kind)).toEqual([]);
      const shown = diagnosis.findings
        .flatMap((f) => f.evidence)
        .flatMap((e) => (e.type === 'pods' ? e.pods : []));
      const terminating = snapshot.pods.find((p) => p.metadata.deletionTimestamp)?.metadata.name;
      expect(shown.find((p) => p.name === terminating)?.phase).toBe('Terminating');
      // And the simulator agrees: it finishes by itself.
      expect(sim.advance(600, ready)).toBe(true);
    } finally {
      sim.stop();
    }
  });
});

/**
 * A surge rollout caught while a new pod waits out minReadySeconds and the next new pod
 * waits for the GPU an old pod holds (4 one-GPU nodes, 3 replicas, maxSurge 2,
 * maxUnavailable 0). Once the Ready pod is available the controller lets an old pod go
 * and the waiting pod takes its GPU. Read from a dump of the namespace alone (other
 * namespaces' pods not read, so the model cannot be built on every node), this was
 * called "can never finish", with plans that take serving pods down.
 */

const tracker = (image: string): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'tracker', namespace: 'vision' },
  spec: {
    replicas: 3,
    minReadySeconds: 60,
    selector: { matchLabels: { app: 'tracker' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } },
    template: {
      metadata: { labels: { app: 'tracker' } },
      spec: {
        nodeSelector: { pool: 'gpu' },
        containers: [
          { name: 't', image, resources: { requests: { cpu: '1' }, limits: { 'nvidia.com/gpu': '1' } } },
        ],
      },
    },
  },
});

type SimPod = {
  metadata: { namespace?: string; deletionTimestamp?: string; labels?: Record<string, string> };
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string }[] };
};

/** The Deployment's rollout is done: every replica updated and available, and no other left. */
function rolledOut(
  sim: ReturnType<typeof startStepped>,
  namespace: string,
  name: string,
  replicas: number,
): boolean {
  const d = sim.get('Deployment', namespace, name) as {
    status?: { availableReplicas?: number; updatedReplicas?: number; replicas?: number };
  };
  return (
    d.status?.availableReplicas === replicas &&
    d.status.updatedReplicas === replicas &&
    d.status.replicas === replicas
  );
}

describe('a surge rollout waiting out minReadySeconds, read from a dump of its namespace', () => {
  it('reads as moving, not "can never finish", and offers nothing that takes serving pods down', () => {
    const sim = startStepped([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
      ...['gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'].map((name) => node(name, 1)),
      proxyOn('gpu-1'),
      tracker('tracker:1'),
    ]);
    try {
      const done = (): boolean => rolledOut(sim, 'vision', 'tracker', 3);
      expect(sim.advance(600, done)).toBe(true);
      sim.apply(tracker('tracker:2'));
      const pods = (): SimPod[] => sim.list('Pod', 'vision') as unknown as SimPod[];
      const ready = (p: SimPod): boolean =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
      // One new pod Ready (not available yet: minReadySeconds), one waiting for a GPU.
      const caught = (): boolean =>
        pods().some((p) => !p.spec.nodeName) &&
        pods().filter((p) => p.spec.nodeName && ready(p)).length === 4;
      expect(sim.advance(60, caught)).toBe(true);
      const namespaceOnly = sim
        .objects()
        .filter((o) => o.kind !== 'Pod' || (o as unknown as SimPod).metadata.namespace === 'vision');
      for (const objects of [namespaceOnly, sim.objects()]) {
        const snapshot = assembleSnapshot(
          { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
          objects as unknown as KubeObject[],
          { capturedAt: sim.now() },
        );
        const diagnosis = diagnose(snapshot);
        const codes = diagnosis.findings.map((f) => f.code);
        expect(codes).not.toContain('RolloutSurgeDeadlock');
        expect(codes).toContain('RolloutProgressing');
        expect(diagnosis.remediations.map((p) => p.kind)).toEqual([]);
      }
      // And the simulator agrees: it finishes by itself.
      expect(sim.advance(600, done)).toBe(true);
    } finally {
      sim.stop();
    }
  });
});

/**
 * A rolling update with room to spare, caught while its first new pod waits out
 * minReadySeconds: no finding spoke of it, and the report said "No problem found" to
 * someone asking why the rollout was not done.
 */
const shopWeb = (image: string): object =>
  deployment(image, { replicas: 4, minReadySeconds: 30, maxSurge: 1, maxUnavailable: 0 });

describe('a rolling update mid-way with room to spare', () => {
  it('says it is moving and what it waits for, as a note; a finished rollout gets no such note', () => {
    const sim = startStepped([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      node('node-a'),
      node('node-b'),
      proxyOn('node-b'),
      shopWeb('web:1'),
    ]);
    const diagnosed = () =>
      diagnose(
        assembleSnapshot(
          { kind: 'Deployment', namespace: 'shop', name: 'web' },
          sim.objects() as unknown as KubeObject[],
          { capturedAt: sim.now() },
        ),
      );
    try {
      const done = (): boolean => rolledOut(sim, 'shop', 'web', 4);
      expect(sim.advance(600, done)).toBe(true);
      expect(diagnosed().findings.map((f) => f.code)).toEqual([]);
      sim.apply(shopWeb('web:2'));
      const pods = (): SimPod[] => sim.list('Pod', 'shop') as unknown as SimPod[];
      // The surge pod is Ready and waits out minReadySeconds; the old four still serve.
      const caught = (): boolean =>
        pods().filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .length === 5;
      expect(sim.advance(60, caught)).toBe(true);
      const diagnosis = diagnosed();
      expect(diagnosis.findings.map((f) => [f.code, f.severity])).toEqual([['RolloutProgressing', 'info']]);
      expect(diagnosis.findings[0]?.summary).toMatch(/^The rollout is moving/);
      expect(diagnosis.remediations).toEqual([]);
      expect(hasProblems(diagnosis)).toBe(false);
      expect(renderText(diagnosis)).toContain('No problem found; notes:');
      expect(sim.advance(600, done)).toBe(true);
    } finally {
      sim.stop();
    }
  });
});
