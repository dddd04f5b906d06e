/**
 * exclude-node's exclusion by a shared node label, and what bounds it (issue 41). Several
 * nodes crashing on one node-group image are kept off by `label NotIn [image]`: the
 * admission policy admits that write and its Undo in the shape the builder writes (on
 * the builder's own patch, applied as the API server applies it), but never on a
 * DaemonSet (its controller deletes its pod from every node the label matches at once)
 * nor on a Deployment that replaces every pod at once (Recreate), and a Deployment kept
 * off nodes by a label is not switched to Recreate. The builder writes hostnames there
 * instead, within the 3-node bound. One exclusion write only adds names or only removes
 * them: it never swaps which nodes are kept off.
 */
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { Affinity } from '../../src/diagnosis/k8s.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { excludeLabelValues } from '../../src/remediation/affinity-merge.js';
import { buildExcludeNodePlans } from '../../src/remediation/builders/exclude-node.js';
import { MAX_EXCLUDED_NODES } from '../../src/remediation/exclusion-bound.js';
import { denials, policy } from '../support/admission-eval.js';
import { crashScenario, type CrashScenarioOptions } from '../support/crash-fixtures.js';

const workload = policy('rollout-doctor-worker-deployments');
const SHAPE =
  'the required node affinity may change only by adding or only by removing NotIn exclusions (kubernetes.io/hostname, or another node label except on a DaemonSet) in each term, at most 3 nodes by name or values of a label';
const NO_RECREATE =
  'a Deployment whose pods are kept off nodes by a node label (a NotIn on a key other than kubernetes.io/hostname) may not be switched to Recreate';
const IMAGE_KEY = 'eks.amazonaws.com/nodegroup-image';
const NEW_AMI = 'ami-0f3c9e1b27d45a861';
const OLD_AMI = 'ami-07b2d84c6e19f3a20';
const POOL = Array.from({ length: 10 }, (_, i) => `ip-10-0-1-${i + 11}.eu-west-1.compute.internal`);

const poolNode = (ami: string, osImage: string): NonNullable<CrashScenarioOptions['oddNode']> => ({
  osImage,
  kernelVersion: '6.8.0-1019-aws',
  labels: { 'eks.amazonaws.com/nodegroup': 'inference', [IMAGE_KEY]: ami },
});

/** A node group half-way through an image upgrade: the pods crash on the `crashing` new-image nodes. */
function upgrade(crashing: number, strategy?: Deployment['spec']['strategy']) {
  const scenario = crashScenario({
    placement: POOL,
    crashing: Array.from({ length: crashing }, (_, i) => i),
    oddNode: poolNode(NEW_AMI, 'Ubuntu 24.04.1 LTS'),
    evenNode: poolNode(OLD_AMI, 'Ubuntu 22.04.5 LTS'),
    deployment: { resources: { requests: { cpu: '1' } }, ...(strategy ? { strategy } : {}) },
  });
  const ctx = new AnalysisContext(scenario.snapshot);
  const [finding] = crashLoopOnNode.analyze(ctx);
  if (!finding) throw new Error('expected a CrashLoopOnNode finding');
  const why: string[] = [];
  const plans = buildExcludeNodePlans(ctx, finding, undefined, (_kind, reason) => why.push(reason));
  return { ...scenario, plans, why };
}

const required = (terms: unknown[]): Affinity =>
  ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  }) as Affinity;
const notIn = (key: string, values: string[]) => ({ key, operator: 'NotIn', values });
const RECREATE = { type: 'Recreate' } as const;

function withAffinity(kind: 'Deployment' | 'DaemonSet', affinity: Affinity | undefined, recreate = false) {
  const { deployment } = crashScenario();
  const object = structuredClone(deployment) as Omit<Deployment, 'kind'> & { kind: string };
  object.kind = kind;
  if (recreate) object.spec.strategy = RECREATE;
  if (affinity) object.spec.template.spec.affinity = affinity;
  else delete object.spec.template.spec.affinity;
  return object;
}

describe("exclude-node's exclusion by a node label", () => {
  it("admits the builder's own label exclusion of 7 crashing nodes, and its Undo", () => {
    const { plans, deployment } = upgrade(7);
    const [plan] = plans;
    if (!plan?.patch || !plan.inverse) throw new Error('no exclude-node plan');
    const after = applyJsonPatch(deployment, plan.patch.body) as Deployment;
    expect(after.spec.template.spec.affinity).toEqual(
      required([{ matchExpressions: [notIn(IMAGE_KEY, [NEW_AMI])] }]),
    );
    expect(denials(workload, after, deployment)).toEqual([]);
    expect(denials(workload, applyJsonPatch(after, plan.inverse.body), after)).toEqual([]);
  });

  it('adds the label to every existing term, and that is admitted too', () => {
    const terms = [
      { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
      { matchExpressions: [{ key: 'eks.amazonaws.com/nodegroup', operator: 'In', values: ['inference'] }] },
    ];
    const before = withAffinity('Deployment', required(terms));
    const after = withAffinity('Deployment', excludeLabelValues(required(terms), IMAGE_KEY, [NEW_AMI]));
    expect(denials(workload, after, before)).toEqual([]);
    expect(denials(workload, before, after)).toEqual([]);
  });

  it('writes hostnames on a Recreate Deployment: 2 crashing nodes by name, 7 not at all (and says why)', () => {
    const two = upgrade(2, RECREATE);
    const [plan] = two.plans;
    if (!plan?.patch) throw new Error('no exclude-node plan');
    const after = applyJsonPatch(two.deployment, plan.patch.body) as Deployment;
    expect(after.spec.template.spec.affinity).toEqual(
      required([{ matchExpressions: [notIn('kubernetes.io/hostname', POOL.slice(0, 2))] }]),
    );
    expect(denials(workload, after, two.deployment)).toEqual([]);
    const seven = upgrade(7, RECREATE);
    expect(seven.plans).toEqual([]);
    expect(seven.why).toEqual([
      expect.stringContaining(`off 7 nodes by name, more than ${MAX_EXCLUDED_NODES}`),
    ]);
  });

  it.each<[string, ReturnType<typeof withAffinity>, ReturnType<typeof withAffinity>]>([
    [
      // A DaemonSet's controller deletes its pod at once from every node the label matches.
      'a label exclusion on a DaemonSet (kubernetes.io/os NotIn [linux] drains it from every node)',
      withAffinity('DaemonSet', undefined),
      withAffinity('DaemonSet', required([{ matchExpressions: [notIn('kubernetes.io/os', ['linux'])] }])),
    ],
    [
      'a label exclusion on a Recreate Deployment',
      withAffinity('Deployment', undefined, true),
      withAffinity('Deployment', required([{ matchExpressions: [notIn(IMAGE_KEY, [NEW_AMI])] }]), true),
    ],
    [
      'more than 3 values of a label',
      withAffinity('Deployment', undefined),
      withAffinity('Deployment', required([{ matchExpressions: [notIn(IMAGE_KEY, ['a', 'b', 'c', 'd'])] }])),
    ],
    [
      'two NotIn on one label in a term',
      withAffinity('Deployment', required([{ matchExpressions: [notIn(IMAGE_KEY, ['a'])] }])),
      withAffinity(
        'Deployment',
        required([{ matchExpressions: [notIn(IMAGE_KEY, ['a']), notIn(IMAGE_KEY, ['b'])] }]),
      ),
    ],
    [
      'a label exclusion with another expression',
      withAffinity('Deployment', undefined),
      withAffinity(
        'Deployment',
        required([
          {
            matchExpressions: [notIn(IMAGE_KEY, [NEW_AMI]), { key: 'gpu', operator: 'In', values: ['none'] }],
          },
        ]),
      ),
    ],
  ])('denies %s', (_what, before, after) => {
    expect(denials(workload, after, before)).toEqual([SHAPE]);
  });

  it('denies switching a Deployment kept off nodes by a label to Recreate, and only that', () => {
    const byImage = required([{ matchExpressions: [notIn(IMAGE_KEY, [NEW_AMI])] }]);
    expect(
      denials(workload, withAffinity('Deployment', byImage, true), withAffinity('Deployment', byImage)),
    ).toEqual([NO_RECREATE]);
    const byName = required([{ matchExpressions: [notIn('kubernetes.io/hostname', ['node-b'])] }]);
    expect(
      denials(workload, withAffinity('Deployment', byName, true), withAffinity('Deployment', byName)),
    ).toEqual([]);
  });
});

describe('an exclusion write only adds names or only removes them (no swap)', () => {
  const byName = (...names: string[]) =>
    withAffinity('Deployment', required([{ matchExpressions: [notIn('kubernetes.io/hostname', names)] }]));
  const byImage = (...values: string[]) =>
    withAffinity('Deployment', required([{ matchExpressions: [notIn(IMAGE_KEY, values)] }]));

  it('admits adding a name and removing one (an Undo)', () => {
    expect(denials(workload, byName('node-a', 'node-b'), byName('node-a'))).toEqual([]);
    expect(denials(workload, byName('node-a'), byName('node-a', 'node-b'))).toEqual([]);
    expect(denials(workload, byImage(NEW_AMI, OLD_AMI), byImage(NEW_AMI))).toEqual([]);
  });

  it.each([
    ['one hostname for another', byName('node-c'), byName('node-a')],
    [
      'two of three hostnames for others',
      byName('node-a', 'node-x', 'node-y'),
      byName('node-a', 'node-b', 'node-c'),
    ],
    ['one image for another', byImage(OLD_AMI), byImage(NEW_AMI)],
  ])('denies swapping %s in one write', (_what, after, before) => {
    expect(denials(workload, after, before)).toEqual([SHAPE]);
  });
});

describe("a DaemonSet's template generation annotation (the API server's own)", () => {
  const GEN = 'deprecated.daemonset.template.generation';
  const annotated = (
    kind: 'Deployment' | 'DaemonSet',
    affinity: Affinity | undefined,
    annotations: object,
  ) => {
    const object = withAffinity(kind, affinity);
    object.metadata.annotations = { ...object.metadata.annotations, ...annotations } as Record<
      string,
      string
    >;
    return object;
  };
  const byName = required([{ matchExpressions: [notIn('kubernetes.io/hostname', ['node-b'])] }]);

  it('admits the bump the server makes on a DaemonSet template change', () => {
    expect(
      denials(
        workload,
        annotated('DaemonSet', byName, { [GEN]: '2' }),
        annotated('DaemonSet', undefined, { [GEN]: '1' }),
      ),
    ).toEqual([]);
  });

  it.each([
    ['another annotation on a DaemonSet', annotated('DaemonSet', byName, { [GEN]: '2', team: 'x' })],
    ['that annotation on a Deployment', annotated('Deployment', byName, { [GEN]: '2' })],
  ])('denies %s', (_what, after) => {
    const kind = after.kind === 'DaemonSet' ? 'DaemonSet' : 'Deployment';
    expect(denials(workload, after, annotated(kind, undefined, { [GEN]: '1' }))).toContain(
      "the worker may not change the Deployment's labels, annotations (but its own node-exclusion record, rollout-doctor.io/exclusion.*), finalizers or owners",
    );
  });
});
