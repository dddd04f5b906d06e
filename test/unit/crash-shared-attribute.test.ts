/**
 * A crash on one node whose separating attribute is shared by nodes the rollout has not
 * reached yet (issue 52.3): the crash follows the pods there. The exclusion is by that
 * attribute, a node label where one selects exactly those nodes (a pool label too), by
 * name where it is a nodeInfo field (said so: a node added later with it is not kept
 * off), and the finding and the plan warn that the other nodes crash too. Without such
 * nodes the exclusion stays the crashing node's name.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Deployment } from '../../src/diagnosis/k8s.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashScenario, type CrashScenarioOptions } from '../support/crash-fixtures.js';

const POOL = 'cloud.google.com/gke-nodepool';
const KERNEL = '6.8.0-1009-aws';

/** node-b crashes; node-d (no pod yet) has what node-b has; node-e has what the healthy nodes have. */
function scenario(odd: CrashScenarioOptions['oddNode'], even: CrashScenarioOptions['evenNode'] = {}) {
  return crashScenario({
    placement: ['node-a', 'node-b', 'node-c'],
    crashing: [1],
    oddNodes: ['node-b', 'node-d'],
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

describe('a crash on one node whose attribute other nodes share', () => {
  it('a kernel (nodeInfo, not a label): both nodes excluded by name, and the plan says why and what it misses', () => {
    const { snapshot, deployment } = scenario({ kernelVersion: KERNEL, osImage: 'Ubuntu 24.04.1 LTS' });
    const result = diagnose(snapshot);
    const finding = result.findings.find((f) => f.code === 'CrashLoopOnNode');
    const note = finding?.evidence.find((e) => e.type === 'note' && e.text.includes('node-d'));
    expect(note).toMatchObject({
      type: 'note',
      text: expect.stringMatching(
        /^node-d shares kernelVersion 6\.8\.0-1009-aws with node-b.*crash there too/,
      ),
    });
    const plan = result.remediations.find((r) => r.kind === 'exclude-node');
    expect(exclusion(deployment, plan)).toEqual([
      {
        matchExpressions: [
          { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b', 'node-d'] },
        ],
      },
    ]);
    expect(plan?.summary).toContain('node-b, node-d');
    expect(plan?.warnings.join(' ')).toMatch(/kernelVersion is not a node label.*added later/);
    expect(plan?.warnings.join(' ')).toMatch(/node-d .*no pod of this template yet/);
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
          { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b', 'node-d'] },
        ],
      },
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
