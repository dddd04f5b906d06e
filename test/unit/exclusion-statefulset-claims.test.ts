/**
 * A StatefulSet's exclusion warns that its pods keep their claims when they move (a
 * claim on a node-local volume holds the pod to the node it leaves), in English and in
 * Korean, with the claims and the command to check them as written.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { planWarnings } from '../../src/remediation/plan-words.js';
import { makeNode } from '../support/k8s-builders.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

/** db-1 crash-loops on node-b (another kernel); db-0 and db-2 run on node-a and node-c. */
function crashOnOneNode(claims: boolean) {
  const sts = makeStatefulSet('db', {
    claims,
    status: {
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'db-7c9d8f6b5',
      updateRevision: 'db-7c9d8f6b5',
      observedGeneration: 3,
    },
  });
  const rev = makeStsRevision(sts, '7c9d8f6b5', 1);
  const nodes = [
    makeNode('node-a'),
    makeNode('node-b', { kernelVersion: '6.8.0-1009-aws' }),
    makeNode('node-c'),
  ];
  const pods = [
    makeStsPod(sts, rev, 0, 'node-a', { phase: 'Running' }),
    makeStsPod(sts, rev, 1, 'node-b', { phase: 'CrashLoopBackOff', restarts: 9, exitCode: 1 }),
    makeStsPod(sts, rev, 2, 'node-c', { phase: 'Running' }),
  ];
  return makeStatefulSetSnapshot({ statefulSet: sts, controllerRevisions: [rev], pods, nodes });
}

describe('exclude-node on a StatefulSet with volume claims', () => {
  it('warns that the moved pod keeps its claim, in both languages', () => {
    const diagnosis = diagnose(crashOnOneNode(true));
    const exclude = diagnosis.remediations.find((p) => p.kind === 'exclude-node');
    if (!exclude)
      throw new Error(`expected an exclude-node plan: ${diagnosis.findings.map((f) => f.code).join(', ')}`);
    const command =
      'kubectl get pv -o custom-columns=NAME:.metadata.name,CLAIM:.spec.claimRef.name,NODE:.spec.nodeAffinity';
    expect(exclude.warnings).toContain(
      `The pods of a StatefulSet keep their claims (data-db-1) when they move: a claim bound to a node-local volume (a local PersistentVolume, node-attached storage, a disk of another zone) holds its pod to node-b, so after the exclusion that pod stays Pending until its data moves. Check the PersistentVolumes' nodeAffinity first (${command}).`,
    );
    expect(planWarnings(exclude, 'ko')).toContain(
      `StatefulSet 파드는 옮겨 가도 자기 클레임(data-db-1)을 그대로 가집니다: 노드 로컬 볼륨(로컬 PersistentVolume, 노드에 붙은 스토리지, 다른 존의 디스크)에 바인딩된 클레임은 파드를 node-b 노드에 묶어 두므로, 제외한 뒤 그 파드는 데이터를 옮길 때까지 Pending으로 남습니다. 먼저 PersistentVolume의 nodeAffinity를 확인하세요(${command}).`,
    );
  });

  it('says nothing of claims where the StatefulSet has none', () => {
    const exclude = diagnose(crashOnOneNode(false)).remediations.find((p) => p.kind === 'exclude-node');
    if (!exclude) throw new Error('expected an exclude-node plan');
    expect(exclude.warnings.join(' ')).not.toContain('claims');
  });
});
