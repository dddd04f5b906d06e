/**
 * A crash whose separating attribute is shared by nodes the rollout has not reached yet
 * (issue 52.3): with two crashing nodes that share it (and healthy ones without it) the
 * crash follows the pods there. The exclusion is by that attribute, a node label where one
 * selects exactly those nodes (a pool label too), by name where it is a nodeInfo field
 * (said so: a node added later with it is not kept off), and the finding and the plan warn
 * that the other nodes crash too. One crashing node proves no group (round 7a s7311-00568:
 * one crash in zone-b excluded two zone-b nodes that never ran a pod): the crashing node
 * alone is excluded and the others are named as suspects.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { planWarnings } from '../../src/remediation/plan-words.js';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashScenario, type CrashScenarioOptions } from '../support/crash-fixtures.js';

const POOL = 'cloud.google.com/gke-nodepool';
const KERNEL = '6.8.0-1009-aws';

/**
 * node-b and node-c crash; node-d (no pod yet) has what they have; node-e has what the
 * healthy nodes (node-a, node-f) have.
 */
function scenario(odd: CrashScenarioOptions['oddNode'], even: CrashScenarioOptions['evenNode'] = {}) {
  return crashScenario({
    placement: ['node-a', 'node-b', 'node-c', 'node-f'],
    crashing: [1, 2],
    oddNodes: ['node-b', 'node-c', 'node-d'],
    spareNodes: ['node-d', 'node-e'],
    ...(odd ? { oddNode: odd } : {}),
    evenNode: even,
  });
}

function exclusion(deployment: Deployment, plan: RemediationPlan | undefined): unknown {
  if (!plan?.patch) throw new Error('no exclude-node plan');
  const after = applyJsonPatch(deployment, plan.patch.body) as Deployment;
  return after.spec.template.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms;
}

describe('a crash on two nodes whose attribute other nodes share', () => {
  it('a kernel (nodeInfo, not a label): the three nodes excluded by name, and the plan says why and what it misses', () => {
    const { snapshot, deployment } = scenario({ kernelVersion: KERNEL, osImage: 'Ubuntu 24.04.1 LTS' });
    const result = diagnose(snapshot);
    const finding = result.findings.find((f) => f.code === 'CrashLoopOnNode');
    const note = finding?.evidence.find((e) => e.type === 'note' && e.text.includes('node-d'));
    expect(note).toMatchObject({
      type: 'note',
      text: expect.stringMatching(
        /^node-d shares kernelVersion 6\.8\.0-1009-aws with node-b, node-c.*crash there too/,
      ),
    });
    const plan = result.remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      {
        matchExpressions: [
          { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b', 'node-c', 'node-d'] },
        ],
      },
    ]);
    expect(plan?.summary).toContain('node-b, node-c, node-d');
    expect(plan?.warnings.join(' ')).toMatch(/kernelVersion is not a node label.*added later/);
    expect(plan?.warnings.join(' ')).toMatch(/node-d .*no pod of this template yet/);
    if (!plan) throw new Error('no exclude-node plan');
    expect(planWarnings(plan, 'ko')).toEqual([
      'node-d 노드는 파드가 실패하는 node-b, node-c 노드와 같은 kernelVersion 6.8.0-1009-aws 값을 가지고 있고, 아직 이 템플릿의 파드가 없습니다: 롤아웃이 그 노드에 이르면 거기서도 파드가 실패하므로 함께 제외합니다.',
      'kernelVersion은(는) 노드 레이블이 아니므로(노드의 status.nodeInfo 또는 conditions) 제외는 노드를 이름으로 지정합니다: 나중에 kernelVersion 6.8.0-1009-aws 값으로 추가되는 노드는 제외되지 않으므로, 그 노드에서도 파드가 실패합니다.',
    ]);
  });

  it('a pool label that selects exactly those nodes: excluded by the label', () => {
    const { snapshot, deployment } = scenario(
      { kernelVersion: KERNEL, labels: { [POOL]: 'pool-new' } },
      { labels: { [POOL]: 'pool-old' } },
    );
    const result = diagnose(snapshot);
    const plan = result.remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      { matchExpressions: [{ key: POOL, operator: 'NotIn', values: ['pool-new'] }] },
    ]);
    expect(plan?.impact).toContain('including node-d');
  });

  it('a pool label that also holds a healthy node is not used: the names instead', () => {
    const { snapshot, deployment } = scenario(
      { kernelVersion: KERNEL, labels: { [POOL]: 'pool-x' } },
      { labels: { [POOL]: 'pool-x' } },
    );
    const plan = diagnose(snapshot).remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      {
        matchExpressions: [
          { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b', 'node-c', 'node-d'] },
        ],
      },
    ]);
  });
});

describe('a crash on one node whose attribute other nodes share: a suspicion, not a group', () => {
  /** node-b alone crashes; node-d (no pod yet) has what node-b has. */
  function single(odd: CrashScenarioOptions['oddNode'], even: CrashScenarioOptions['evenNode'] = {}) {
    return crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      oddNodes: ['node-b', 'node-d'],
      spareNodes: ['node-d', 'node-e'],
      ...(odd ? { oddNode: odd } : {}),
      evenNode: even,
    });
  }

  it('a kernel: only node-b excluded; node-d named as a suspect in the finding and the plan', () => {
    const { snapshot, deployment } = single({ kernelVersion: KERNEL, osImage: 'Ubuntu 24.04.1 LTS' });
    const result = diagnose(snapshot);
    const finding = result.findings.find((f) => f.code === 'CrashLoopOnNode');
    const notes = finding?.evidence.flatMap((e) => (e.type === 'note' ? [e.text] : [])) ?? [];
    expect(notes.join(' ')).toMatch(
      /^node-d shares kernelVersion 6\.8\.0-1009-aws with node-b.*suspect, not excluded/,
    );
    expect(notes.join(' ')).not.toMatch(/crash there too/);
    const plan = result.remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
    ]);
    expect(plan?.warnings.join(' ')).toMatch(
      /Only the crashing node node-b is excluded\. node-d .*stays eligible/,
    );
    if (!plan) throw new Error('no exclude-node plan');
    expect(planWarnings(plan, 'ko')).toContain(
      '파드가 실패하는 node-b 노드만 제외합니다. node-d 노드도 같은 kernelVersion 6.8.0-1009-aws 값을 가지고 있지만 아직 이 템플릿의 파드가 없습니다: 실패하는 노드 하나로는 증명할 수 없는 의심이므로 배치 대상으로 남겨 둡니다. 그 노드에서도 파드가 실패하면 함께 제외하세요.',
    );
  });

  it('a pool label that selects exactly node-b and node-d: still node-b alone, by name', () => {
    const { snapshot, deployment } = single(
      { kernelVersion: KERNEL, labels: { [POOL]: 'pool-new' } },
      { labels: { [POOL]: 'pool-old' } },
    );
    const plan = diagnose(snapshot).remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
    ]);
  });

  it('no other node shares it: the crashing node alone, by name, no warning about others', () => {
    const { snapshot, deployment } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      spareNodes: ['node-e'],
    });
    const result = diagnose(snapshot);
    const plan = result.remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
    ]);
    expect(plan?.warnings.join(' ')).not.toMatch(/no pod of this template yet/);
    const finding = result.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.evidence.some((e) => e.type === 'note' && e.text.includes('crash there too'))).toBe(
      false,
    );
  });
});
