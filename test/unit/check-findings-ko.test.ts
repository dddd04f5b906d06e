/**
 * check's findings in Korean beyond the surge deadlock (issue 65.2): a new pod pinned by
 * its local volume to a full node, a blue-green Rollout whose preview pod needs what the
 * active pod keeps, and a rollout that finishes once a node group grows (or may, with
 * nodes of a size not known). Each judged from a dump (dumpSource), its headline and
 * explanation read through the catalogue in Korean; English stays predict.ts's own.
 */
import { describe, expect, it } from 'vitest';
import { checkOne, type CheckResult } from '../../src/check/check.js';
import { dumpSource } from '../../src/check/dump-source.js';
import { checkExplanation, checkSummary } from '../../src/check/words.js';
import { checkEvidenceLines } from '../../src/check/evidence-words.js';
import { makeStyle } from '../../src/report/format.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';
import { trackerMidUpdate } from '../support/rollout-builders.js';
import { trackerManifest as deployment } from '../support/check-manifests.js';
import { POOL_LABEL, autoscalerStatus, nodeGroup } from '../support/scale-up-cluster.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

function node(name: string, resources: Record<string, string>, labels: Record<string, string> = {}): Json {
  const all = { cpu: '8', memory: '32Gi', pods: '110', ...resources };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    status: { capacity: all, allocatable: all, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A pod of another team on `nodeName`, asking for `requests`. */
function other(name: string, nodeName: string, requests: Record<string, string>, namespace = 'other'): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { nodeName, containers: [{ name: 'a', image: 'a:1', resources: { requests, limits: requests } }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

const NAMESPACES = ['vision', 'other', 'kube-system'].map((name) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
}));

async function judge(object: WorkloadObject, objects: Json[], isNew = true): Promise<CheckResult> {
  const kind = object.kind as 'Deployment';
  // A pod in vision too, so the dump lists its pods: every node's are read.
  const seen = other(
    'web-0',
    String(objects.find((o) => o['kind'] === 'Node')?.['metadata']['name']),
    {},
    'vision',
  );
  return checkOne(
    { kind, object, ...(isNew ? { isNew } : {}) },
    dumpSource([...NAMESPACES, seen, ...objects] as KubeObject[]),
    'vision',
  );
}

const gpu = { resources: { limits: { 'nvidia.com/gpu': '1' } } };

/** Korean headline and explanation of the result's first finding, and its code. */
function korean(r: CheckResult): { code: string; summary: string; explanation: string; english: string } {
  const f = r.findings[0];
  if (!f) throw new Error('no finding');
  expect(checkSummary(f, 'en')).toBe(f.summary);
  return {
    code: f.code,
    summary: checkSummary(f, 'ko'),
    explanation: checkExplanation(f, 'ko'),
    english: f.summary,
  };
}

/** The result's notes as terminal lines in `lang`. */
function notes(r: CheckResult, lang: 'en' | 'ko'): string[] {
  return r.findings
    .flatMap((f) => f.evidence)
    .filter((e) => e.type === 'note')
    .flatMap((e) => checkEvidenceLines(e, makeStyle(false), lang));
}

const gpuNode = () => node('gpu-a', { 'nvidia.com/gpu': '1' }, { [POOL_LABEL]: 'gpu-pool' });
const trainer = () => other('train-a', 'gpu-a', { 'nvidia.com/gpu': '1' });

describe('check: a node group that grows, in Korean', () => {
  it('finishes after a scale-up: how many nodes, like which group', async () => {
    const r = await judge(deployment(gpu), [
      gpuNode(),
      trainer(),
      autoscalerStatus(nodeGroup('gpu-pool', 1, 3)),
    ]);
    expect(r.verdict).toBe('finishes');
    const k = korean(r);
    expect(k.code).toBe('ScaleUpNeeded');
    expect(k.summary).toBe(
      'deployment/tracker 롤아웃은 클러스터에 노드가 1개 추가되면 끝납니다: 지금 있는 노드에는 새 파드가 들어갈 자리가 없지만, 다음 그룹의 노드와 같은 노드가 1개 더 있으면 들어갑니다: gpu-pool(클러스터 오토스케일러 노드 그룹, 현재 노드 1개).',
    );
    expect(k.explanation).toContain(
      '새 노드는 보통 몇 분 안에 합류합니다. 클러스터 오토스케일러는 새 노드를 최대 15분까지 기다립니다(--max-node-provision-time).',
    );
    expect(k.english).toMatch(/^The rollout of deployment\/tracker finishes once the cluster adds a node/);
    expect(notes(r, 'ko')).toEqual([
      '참고: 클러스터 오토스케일러 노드 그룹(gpu-pool): 노드 1개, 2개 더 추가 가능. 새 노드는 gpu-a 노드와 같습니다',
    ]);
    expect(notes(r, 'en')).toEqual([
      'Note: cluster autoscaler node group gpu-pool: 1 node(s), room for 2 more; a new node is like gpu-a',
    ]);
  });

  it('a group at its maximum: the verdict stands, with what the group could not add, in Korean', async () => {
    const r = await judge(deployment(gpu), [
      gpuNode(),
      trainer(),
      autoscalerStatus(nodeGroup('gpu-pool', 1, 1)),
    ]);
    expect(r.verdict).toBe('never-finishes');
    const held = notes(r, 'ko').filter((l) => l.includes('gpu-pool'));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatch(
      /^참고: 클러스터 오토스케일러 노드 그룹\(gpu-pool\)은 지금 노드를 추가하지 않습니다: /,
    );
  });

  it('not known where a group may add nodes of a size not known', async () => {
    const r = await judge(deployment(gpu), [
      gpuNode(),
      trainer(),
      autoscalerStatus(nodeGroup('spare-pool', 0, 3)),
    ]);
    expect(r.verdict).toBe('unknown');
    const k = korean(r);
    expect(k.summary).toBe(
      'deployment/tracker 롤아웃이 끝날지 알 수 없습니다: 지금 있는 노드에는 새 파드가 들어갈 자리가 없고, 크기를 알 수 없는 노드를 추가할 수 있는 그룹이 있습니다: 클러스터 오토스케일러 노드 그룹(spare-pool).',
    );
    expect(k.explanation).toContain('어느 쪽이라고도 장담하지 않습니다.');
  });
});

describe('check: a new pod pinned by its volume, in Korean', () => {
  it('names the pod, the claim, the volume and the node, and what it lacks there', async () => {
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'local-a' },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        local: { path: '/mnt' },
        claimRef: { namespace: 'vision', name: 'data' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-a'] }] },
            ],
          },
        },
      },
      status: { phase: 'Bound' },
    };
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'vision' },
      spec: {
        volumeName: 'local-a',
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '10Gi' } },
      },
      status: { phase: 'Bound' },
    };
    const pinned = deployment({ resources: { requests: { cpu: '2' } } }, [
      { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
    ]);
    const r = await judge(pinned, [
      node('node-a', { cpu: '2' }),
      node('node-b', {}),
      other('busy', 'node-a', { cpu: '1' }),
      pv,
      pvc,
    ]);
    expect(r.verdict).toBe('never-finishes');
    const k = korean(r);
    expect(k.code).toBe('Unschedulable');
    expect(k.summary).toMatch(
      /^deployment\/tracker 롤아웃이 끝나지 않습니다: 새 파드\(tracker-\S+\)가 마운트하는 PVC\(data\)는 PV\(local-a\)에 바인딩되어 있고, 이 볼륨은 node-a 노드에서만 쓸 수 있습니다\. 그 노드에는 새 파드에 필요한 2 cpu 여유가 없습니다\. 기존 파드가 모두 없어져도 마찬가지이고, 전략을 바꿔도 해결되지 않습니다\.$/,
    );
    expect(k.explanation).toContain(
      '볼륨의 노드 어피니티(PersistentVolume local-a의 spec.nodeAffinity, 로컬 볼륨)',
    );
    expect(k.english).toContain('mounts claim data, bound to volume local-a, which only node-a may use');
  });
});

describe('check: an Argo Rollout that keeps its stable pods, in Korean', () => {
  async function judgeRollout(strategy: Json): Promise<CheckResult> {
    const s = trackerMidUpdate(strategy) as ReturnType<typeof trackerMidUpdate> & {
      rollout: Json;
      replicaSets: Json[];
    };
    const live = s.rollout;
    const stable = s.replicaSets.find((r) => String(r['metadata']['name']).endsWith('a1'));
    const manifest = structuredClone(live);
    delete manifest['status'];
    manifest['spec']['template']['spec']['containers'][0]['image'] = 'registry.example/tracker:2.0';
    const objects = [...NAMESPACES, live, stable, s.pods[0], ...s.nodes] as unknown as KubeObject[];
    return checkOne(
      { kind: 'Rollout', object: manifest as unknown as WorkloadObject },
      dumpSource(objects),
      'vision',
    );
  }

  it('blue-green: every stable pod stays until promotion, and no field changes that', async () => {
    const k = korean(await judgeRollout({ blueGreen: { activeService: 'tracker' } }));
    expect(k.summary).toBe(
      'rollout/tracker 롤아웃이 끝나지 않습니다: 블루-그린 배포에서는 새 리비전이 승격될 때까지 안정 파드가 모두 남는데, 그 옆에 새 파드가 들어갈 여유(1 nvidia.com/gpu)가 있는 노드가 없습니다. 전략을 바꿔도 해결되지 않습니다.',
    );
    expect(k.explanation).toContain('블루-그린 배포는 승격한 뒤에야 안정 파드를 내립니다.');
    expect(k.english).toContain('with blue-green every stable pod stays');
  });

  it('a traffic-routed canary: the same, in its words', async () => {
    const k = korean(
      await judgeRollout({ canary: { trafficRouting: { nginx: { stableIngress: 'tracker' } } } }),
    );
    expect(k.summary).toContain(
      '트래픽 라우팅을 쓰는 카나리 배포에서는 새 리비전이 승격될 때까지 안정 파드가 모두 남는데',
    );
    expect(k.explanation).toContain('트래픽 라우팅을 쓰는 카나리 배포는 승격한 뒤에야');
  });
});
