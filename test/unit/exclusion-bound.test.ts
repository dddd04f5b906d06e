/**
 * Repeated node exclusions cannot pile up (issue 41): a workload is kept off at most
 * MAX_EXCLUDED_NODES nodes by name. The exclude-node builder offers no plan past it
 * (and says why), and the admission policy denies the write past it, on the builder's
 * own patch applied as the API server applies it; a count the user set above it is
 * left alone (other writes pass) but never grown, and an Undo that lowers it passes.
 */
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { Affinity } from '../../src/diagnosis/k8s.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { buildExcludeNodePlans } from '../../src/remediation/builders/exclude-node.js';
import { excludeNodeFromAffinity } from '../../src/remediation/affinity-merge.js';
import { excludedByName, MAX_EXCLUDED_NODES } from '../../src/remediation/exclusion-bound.js';
import { denials, policy } from '../support/admission-eval.js';
import { crashScenario } from '../support/crash-fixtures.js';

const workload = policy('rollout-doctor-worker-deployments');
const SHAPE =
  'the required node affinity may change only by adding or only by removing NotIn exclusions (kubernetes.io/hostname, or another node label except on a DaemonSet) in each term, at most 3 nodes by name or values of a label';

/** A required affinity that already keeps the pods off `names` (nodes long gone). */
const offNodes = (names: string[]): Affinity => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: names }] },
      ],
    },
  },
});
const gone = (n: number): string[] => Array.from({ length: n }, (_, i) => `gone-${i + 1}`);

/** node-b crash-loops; the Deployment already excludes `excluded` other nodes. */
function scenario(excluded: number): { snapshot: DeploymentSnapshot; deployment: Deployment } {
  return crashScenario({
    placement: ['node-a', 'node-b', 'node-c'],
    crashing: [1],
    spareNodes: ['node-d'],
    deployment: { podSpec: { affinity: offNodes(gone(excluded)) } },
  });
}

function plansFor(excluded: number) {
  const { snapshot, deployment } = scenario(excluded);
  const ctx = new AnalysisContext(snapshot);
  const [finding] = crashLoopOnNode.analyze(ctx);
  if (!finding) throw new Error('expected a CrashLoopOnNode finding');
  const why: string[] = [];
  const plans = buildExcludeNodePlans(ctx, finding, undefined, (_kind, reason) => why.push(reason));
  return { plans, why, deployment };
}

describe('the exclusion bound', () => {
  it('is the same number in the builder and in the policy', () => {
    expect(SHAPE).toContain(`at most ${MAX_EXCLUDED_NODES} nodes by name`);
    const text = workload.spec.validations.map((v) => v.expression).join('\n');
    expect(text).toContain(`size(e.values) <= ${MAX_EXCLUDED_NODES} ||`);
  });

  it(`offers the exclusion up to ${MAX_EXCLUDED_NODES} nodes, and the policy admits its patch and its Undo`, () => {
    const { plans, deployment } = plansFor(MAX_EXCLUDED_NODES - 1);
    const [plan] = plans;
    if (!plan?.patch || !plan.inverse) throw new Error('no exclude-node plan');
    const after = applyJsonPatch(deployment, plan.patch.body) as Deployment;
    expect(excludedByName(after.spec.template.spec.affinity)).toBe(MAX_EXCLUDED_NODES);
    expect(denials(workload, after, deployment)).toEqual([]);
    const undone = applyJsonPatch(after, plan.inverse.body) as Deployment;
    expect(denials(workload, undone, after)).toEqual([]);
  });

  it('admits a plan that keeps the pods off several crashing nodes at once (the builder names them all)', () => {
    const { snapshot, deployment } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c', 'node-d'],
      crashing: [1, 2],
      spareNodes: ['node-e'],
    });
    const ctx = new AnalysisContext(snapshot);
    const [finding] = crashLoopOnNode.analyze(ctx);
    if (!finding) throw new Error('expected a CrashLoopOnNode finding');
    const [plan] = buildExcludeNodePlans(ctx, finding);
    if (!plan?.patch || !plan.inverse) throw new Error('no exclude-node plan');
    const after = applyJsonPatch(deployment, plan.patch.body) as Deployment;
    expect(excludedByName(after.spec.template.spec.affinity)).toBe(2);
    expect(denials(workload, after, deployment)).toEqual([]);
    expect(denials(workload, applyJsonPatch(after, plan.inverse.body), after)).toEqual([]);
  });

  it(`offers no plan past ${MAX_EXCLUDED_NODES} nodes, and says why`, () => {
    const { plans, why } = plansFor(MAX_EXCLUDED_NODES);
    expect(plans).toEqual([]);
    expect(why).toEqual([
      `it would keep the workload off ${MAX_EXCLUDED_NODES + 1} nodes by name, more than ${MAX_EXCLUDED_NODES}: a crash on that many nodes has a cause they share, which another exclusion only hides (undo an earlier exclusion, or fix the cause)`,
    ]);
  });

  it('denies the write past the bound', () => {
    const { deployment } = scenario(MAX_EXCLUDED_NODES);
    const grown = structuredClone(deployment);
    grown.spec.template.spec.affinity = excludeNodeFromAffinity(
      deployment.spec.template.spec.affinity,
      'node-b',
    );
    expect(denials(workload, grown, deployment)).toEqual([SHAPE]);
  });

  it('leaves a larger count the user set alone: other writes pass, it never grows, an Undo lowers it', () => {
    const { deployment } = scenario(5);
    const restarted = structuredClone(deployment);
    restarted.spec.template.metadata = {
      ...restarted.spec.template.metadata,
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-25T10:00:00Z' },
    };
    expect(denials(workload, restarted, deployment)).toEqual([]);
    const grown = structuredClone(deployment);
    grown.spec.template.spec.affinity = excludeNodeFromAffinity(
      deployment.spec.template.spec.affinity,
      'node-b',
    );
    expect(denials(workload, grown, deployment)).toEqual([SHAPE]);
    const lowered = structuredClone(deployment);
    lowered.spec.template.spec.affinity = offNodes(gone(4));
    expect(denials(workload, lowered, deployment)).toEqual([]);
  });
});
