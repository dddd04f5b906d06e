import { describe, expect, it } from 'vitest';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import type { Finding } from '../../src/diagnosis/finding.js';
import type { Affinity } from '../../src/diagnosis/k8s.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { selectsNode } from '../../src/diagnosis/base/node-match.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { CoverageGap, DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { buildDeletePodsPlans } from '../../src/remediation/builders/delete-pods.js';
import { buildExcludeNodePlans } from '../../src/remediation/builders/exclude-node.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { planWarnings } from '../../src/remediation/plan-words.js';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashScenario, type CrashScenarioOptions } from '../support/crash-fixtures.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { selectWorkload } from '../../src/diagnosis/workloads/select-workload.js';
import { fullCoverage } from '../../src/diagnosis/snapshot/types.js';
import { asDeployment, makeDeployment, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const SEED_B: CrashScenarioOptions = { placement: ['node-a', 'node-b', 'node-c'], crashing: [1] };

function findingOf(snapshot: DeploymentSnapshot): Omit<Finding, 'remediations'> {
  const [finding] = crashLoopOnNode.analyze(new AnalysisContext(snapshot));
  if (!finding) throw new Error('expected a CrashLoopOnNode finding');
  return finding;
}

function onlyPlan(plans: RemediationPlan[]): RemediationPlan {
  expect(plans).toHaveLength(1);
  const [plan] = plans;
  if (!plan) throw new Error('no plan');
  return plan;
}

function apply(deployment: Deployment, plan: RemediationPlan, which: 'patch' | 'inverse'): Deployment {
  const patch = plan[which];
  expect(patch?.type).toBe('json');
  return applyJsonPatch(deployment, patch?.body) as Deployment;
}

/** The Deployment without its affinity and without the exclusion's record (issue 65.5). */
function withoutAffinity(d: Deployment): Deployment {
  const copy = structuredClone(d);
  delete copy.spec.template.spec.affinity;
  for (const key of Object.keys(copy.metadata.annotations ?? {}))
    if (key.startsWith('rollout-doctor.io/exclusion.')) delete copy.metadata.annotations?.[key];
  return copy;
}

/** The patch's operations on the affinity and the generation (the record's are tested in exclusion-record.test.ts). */
function affinityOps(plan: RemediationPlan): unknown[] {
  return (plan.patch?.body as { path: string }[]).filter(
    (op) => !op.path.startsWith('/metadata/annotations'),
  );
}

const RICH_AFFINITY: Affinity = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a', 'node-b', 'node-c'] }] },
      ],
    },
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 50,
        preference: {
          matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-1a'] }],
        },
      },
    ],
  },
  podAntiAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 100,
        podAffinityTerm: {
          labelSelector: { matchLabels: { app: 'detector' } },
          topologyKey: 'kubernetes.io/hostname',
        },
      },
    ],
  },
};

describe('exclude-node plan (seed B, no affinity yet)', () => {
  const { snapshot, deployment } = crashScenario(SEED_B);
  const plan = onlyPlan(buildExcludeNodePlans(new AnalysisContext(snapshot), findingOf(snapshot)));

  it('is a JSON patch guarded by the generation that adds a required NotIn on node-b', () => {
    expect(plan.kind).toBe('exclude-node');
    expect(affinityOps(plan)).toEqual([
      { op: 'test', path: '/metadata/generation', value: 2 },
      {
        op: 'add',
        path: '/spec/template/spec/affinity',
        value: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] },
                  ],
                },
              ],
            },
          },
        },
      },
    ]);
    expect(plan.preconditions).toEqual({
      uid: deployment.metadata.uid,
      generation: 2,
      fields: [{ path: '/spec/template/spec/affinity', value: undefined }],
    });
  });

  it("changes nothing but the affinity and the workload's own annotations (never the template's), and the inverse restores the Deployment exactly", () => {
    const patched = apply(deployment, plan, 'patch');
    expect(withoutAffinity(patched)).toEqual(deployment);
    const node = snapshot.nodes.find((n) => n.metadata.name === 'node-b');
    if (!node) throw new Error('fixture');
    expect(selectsNode(node, patched.spec.template.spec)).toBe(false);
    expect(apply(patched, plan, 'inverse')).toEqual(deployment);
  });

  it('refuses to apply once the Deployment spec changed (generation bumped)', () => {
    const changed = structuredClone(deployment);
    changed.metadata.generation = 3;
    expect(() => applyJsonPatch(changed, plan.patch?.body)).toThrow(/test failed/);
  });

  it('says how many nodes stay eligible and that every pod is replaced', () => {
    expect(plan.impact).toContain('2 of 3 eligible node(s) stay eligible:');
    expect(plan.impact).toContain('node-a, node-c');
    expect(plan.impact).toMatch(/replaces every pod, 3 replica/);
    expect(plan.warnings).toEqual([]);
    expect(plan.summary).toContain('node-b');
  });

  it('is offered by diagnose() together with delete-pods, linked to the finding', () => {
    const result = diagnose(snapshot);
    const finding = result.findings.find((f) => f.code === 'CrashLoopOnNode');
    const kinds = result.remediations.map((r) => r.kind);
    expect(kinds).toEqual(['exclude-node', 'delete-pods']);
    expect(finding?.remediations).toEqual(result.remediations.map((r) => r.id));
  });
});

describe('exclude-node plan with an existing affinity and tolerations', () => {
  const scenario = crashScenario({
    ...SEED_B,
    deployment: {
      podSpec: {
        affinity: RICH_AFFINITY,
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'vision', effect: 'NoSchedule' }],
      },
    },
  });
  const plan = onlyPlan(
    buildExcludeNodePlans(new AnalysisContext(scenario.snapshot), findingOf(scenario.snapshot)),
  );

  it('tests the current affinity, then replaces it with the complete merged affinity', () => {
    const body = affinityOps(plan) as { op: string; path: string; value?: Affinity }[];
    expect(body.map((op) => op.op)).toEqual(['test', 'test', 'replace']);
    expect(body[1]).toEqual({ op: 'test', path: '/spec/template/spec/affinity', value: RICH_AFFINITY });
    const merged = body[2]?.value;
    expect(merged?.podAntiAffinity).toEqual(RICH_AFFINITY.podAntiAffinity);
    expect(merged?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual(
      RICH_AFFINITY.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    );
    const terms =
      merged?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    expect(terms).toHaveLength(2);
    for (const term of terms) {
      expect(term.matchExpressions).toContainEqual({
        key: 'kubernetes.io/hostname',
        operator: 'NotIn',
        values: ['node-b'],
      });
    }
    expect(terms[1]?.matchFields).toEqual(
      RICH_AFFINITY.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[1]
        ?.matchFields,
    );
    expect(plan.preconditions.fields).toEqual([
      { path: '/spec/template/spec/affinity', value: RICH_AFFINITY },
    ]);
  });

  it('keeps tolerations and every other field, and undo restores the affinity exactly', () => {
    const patched = apply(scenario.deployment, plan, 'patch');
    expect(patched.spec.template.spec.tolerations).toEqual(
      scenario.deployment.spec.template.spec.tolerations,
    );
    expect(withoutAffinity(patched)).toEqual(withoutAffinity(scenario.deployment));
    expect(apply(patched, plan, 'inverse')).toEqual(scenario.deployment);
  });

  it('does not apply when someone changed the affinity meanwhile', () => {
    const changed = structuredClone(scenario.deployment);
    changed.spec.template.spec.affinity = {};
    expect(() => applyJsonPatch(changed, plan.patch?.body)).toThrow(/test failed/);
  });
});

describe('exclude-node: what was not read is named, never counted as no room', () => {
  // Seed B as the collector sees it live: a template that may go anywhere, nothing
  // Pending, so only the nodes its pods run on were read (nodes 'partial', no gap).
  function seedB(podsReadOn: string[], gaps: CoverageGap[] = []): DeploymentSnapshot {
    const { snapshot } = crashScenario(SEED_B);
    return {
      ...snapshot,
      nodesComplete: false,
      coverage: { ...snapshot.coverage, nodes: 'partial', podsReadOn, gaps },
    };
  }
  const planOf = (snapshot: DeploymentSnapshot): RemediationPlan =>
    onlyPlan(buildExcludeNodePlans(new AnalysisContext(snapshot), findingOf(snapshot)));

  it('the pods on the nodes that stay were read and hold every replica: no warning', () => {
    const plan = planOf(seedB(['node-a', 'node-c']));
    expect(plan.warnings).toEqual([]);
    expect(plan.impact).toContain(
      "2 of 3 node(s) its pods run on stay eligible (the template may use any node; the cluster's other nodes were not read)",
    );
  });

  it('none of their pods read: room unknown, not "room for 0", and the node list not called capped', () => {
    const plan = planOf(seedB([]));
    expect(plan.warnings).toEqual([
      'The pods on node-a, node-c were not read: whether the 3 replica(s) fit there after the exclusion is unknown.',
    ]);
    expect(plan.warnings.join(' ')).not.toMatch(/room for 0|capped/);
    expect(planWarnings(plan, 'ko')).toEqual([
      'node-a, node-c 노드의 파드는 읽지 않았습니다. 그래서 제외한 뒤 레플리카 3개가 그곳에 들어갈지는 알 수 없습니다.',
    ]);
  });

  it('a dump without other namespaces\' pods says exactly that, not that the good nodes "were not read" (issue 29.7)', () => {
    const plan = planOf(
      seedB(
        [],
        [
          {
            about: 'neighbours',
            what: 'pods of other namespaces',
            reason: 'not-in-dump',
            settle: 'kubectl get pods -A -o yaml',
          },
        ],
      ),
    );
    expect(plan.warnings).toEqual([
      "Other namespaces' pods on node-a, node-c are not in the dump: whether the 3 replica(s) fit there after the exclusion is unknown.",
    ]);
  });

  it("a dump with every namespace's pods counts other workloads on the nodes that stay (workload selection keeps them)", () => {
    const { deployment, replicaSet, pods, nodes } = crashScenario({
      ...SEED_B,
      deployment: { resources: { requests: { cpu: '1' } } },
    });
    const batch = makeDeployment('batch', { namespace: 'jobs', resources: { requests: { cpu: '7' } } });
    const batchRs = makeReplicaSet(batch, '6d9f7c8b5');
    const neighbours = ['node-a', 'node-c'].map((node, i) =>
      makePod(batchRs, ['g7x2m', 'k4p9w'][i] ?? 'x', node, { phase: 'Running' }),
    );
    const snapshot = asDeployment(
      selectWorkload(
        'Deployment',
        deployment,
        { revisions: [replicaSet], pods: [...pods, ...neighbours], events: [], pvcs: [], nodes, neighbours },
        { capturedAt: '2026-11-22T03:00:00Z', coverage: fullCoverage() },
      ),
    );
    expect(snapshot.otherPods.map((p) => p.spec.nodeName).sort()).toEqual(['node-a', 'node-c']);
    // 7 of 8 cpu taken on node-a and node-c: one more 1-cpu pod fits on each.
    const plan = planOf(snapshot);
    expect(plan.warnings).toEqual([
      expect.stringMatching(/have room for 2 of 3 replica\(s\).*1 will stay Pending/),
    ]);
    expect(planWarnings(plan, 'ko')).toEqual([
      '제외한 뒤 배치할 수 있는 노드에는 레플리카 3개 중 2개가 들어갈 자리만 있습니다(다른 워크로드의 요청 포함): 1개는 노드를 추가할 때까지 Pending으로 남습니다.',
    ]);
  });

  it('a real gap in the node list is named with its reason', () => {
    const plan = planOf(
      seedB(
        ['node-a', 'node-c'],
        [{ about: 'nodes', what: 'nodes past the first 500', reason: 'capped', settle: 'narrow it' }],
      ),
    );
    expect(plan.warnings).toEqual([
      'Not read: nodes past the first 500 (past the cap on listed nodes). Eligibility counts cover only the nodes read.',
    ]);
    expect(plan.impact).toContain(
      '2 of 3 eligible node(s) read stay eligible (not read: nodes past the first 500, past the cap on listed nodes)',
    );
  });
});

describe('exclude-node warnings and refusals', () => {
  const oneSelfAntiAffinity: Affinity = {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app: 'detector' } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  };

  it('warns that a replica stays Pending with a one-per-node anti-affinity and too few nodes left', () => {
    const { snapshot } = crashScenario({
      ...SEED_B,
      deployment: { podSpec: { affinity: oneSelfAntiAffinity } },
    });
    const plan = onlyPlan(buildExcludeNodePlans(new AnalysisContext(snapshot), findingOf(snapshot)));
    expect(plan.impact).toContain('2 of 3');
    expect(plan.warnings).toEqual([expect.stringContaining('1 replica(s) will stay Pending')]);
  });

  it('warns that the surge pod has no node when eligible nodes equal replicas under a one-per-node anti-affinity', () => {
    const { snapshot } = crashScenario({
      ...SEED_B,
      spareNodes: ['node-d'],
      deployment: { podSpec: { affinity: oneSelfAntiAffinity } },
    });
    const plan = onlyPlan(buildExcludeNodePlans(new AnalysisContext(snapshot), findingOf(snapshot)));
    expect(plan.impact).toContain('3 of 4');
    expect(plan.warnings).toEqual([expect.stringContaining('surge pod has no free node')]);
  });

  it('proposes nothing when the exclusion would leave no eligible node (nodeSelector pinned to the bad node)', () => {
    const scenario = crashScenario(SEED_B);
    // Healthy pods were scheduled before the selector changed; now only node-b carries the label.
    scenario.deployment.spec.template.spec.nodeSelector = { 'kubernetes.io/hostname': 'node-b' };
    expect(
      buildExcludeNodePlans(new AnalysisContext(scenario.snapshot), findingOf(scenario.snapshot)),
    ).toEqual([]);
    const [deletePods] = buildDeletePodsPlans(
      new AnalysisContext(scenario.snapshot),
      findingOf(scenario.snapshot),
    );
    expect(deletePods?.warnings).toEqual([expect.stringContaining('can only land on node-b again')]);
  });

  it('never proposes exclude-node when no healthy pod of the template runs elsewhere', () => {
    const good = crashScenario(SEED_B);
    const forged = findingOf(good.snapshot);
    const everywhere = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [0, 1, 2] });
    expect(buildExcludeNodePlans(new AnalysisContext(everywhere.snapshot), forged)).toEqual([]);
    expect(buildDeletePodsPlans(new AnalysisContext(everywhere.snapshot), forged)).toEqual([]);
  });

  it('proposes nothing when the bad node has no kubernetes.io/hostname label to exclude on', () => {
    const { snapshot } = crashScenario(SEED_B);
    const nodeB = snapshot.nodes.find((n) => n.metadata.name === 'node-b');
    delete nodeB?.metadata.labels?.['kubernetes.io/hostname'];
    expect(buildExcludeNodePlans(new AnalysisContext(snapshot), findingOf(snapshot))).toEqual([]);
  });

  it('excludes both bad nodes in one plan when two of five crash-loop', () => {
    const { snapshot, deployment } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c', 'node-d', 'node-e'],
      crashing: [1, 3],
    });
    const plan = onlyPlan(buildExcludeNodePlans(new AnalysisContext(snapshot), findingOf(snapshot)));
    const patched = apply(deployment, plan, 'patch');
    const allowed = snapshot.nodes
      .filter((n) => selectsNode(n, patched.spec.template.spec))
      .map((n) => n.metadata.name);
    expect(allowed).toEqual(['node-a', 'node-c', 'node-e']);
    expect(plan.impact).toContain('3 of 5');
  });
});

describe('delete-pods plan', () => {
  it('names the crashing pods on the bad node with their uids, and carries no patch', () => {
    const { snapshot, pods } = crashScenario(SEED_B);
    const plan = onlyPlan(buildDeletePodsPlans(new AnalysisContext(snapshot), findingOf(snapshot)));
    const podB = pods[1];
    expect(plan.kind).toBe('delete-pods');
    expect(plan.patch).toBeNull();
    expect(plan.inverse).toBeNull();
    expect(plan.pods).toEqual([{ name: podB?.metadata.name, uid: podB?.metadata.uid }]);
    expect(plan.impact).toContain('exclude-node');
  });
});
