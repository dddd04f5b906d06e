import { describe, expect, it } from 'vitest';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { crashLoop } from '../../src/diagnosis/analyzers/crash-loop.js';
import type { Evidence, Finding } from '../../src/diagnosis/finding.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { selectsNode } from '../../src/diagnosis/base/node-match.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { logKey, type DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { checkPlanWithinKind } from '../../src/remediation/patch-allowlist.js';
import { renderText } from '../../src/report/text.js';
import { impactInWords, planImpact } from '../../src/remediation/plan-words.js';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashInInitContainer, crashScenario, type CrashScenarioOptions } from '../support/crash-fixtures.js';
import { makeDeployment, makePod, makeReplicaSet } from '../support/k8s-builders.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

function evidenceOf<T extends Evidence['type']>(
  finding: Omit<Finding, 'remediations'> | undefined,
  type: T,
): Extract<Evidence, { type: T }> {
  const found = finding?.evidence.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} evidence`);
  return found as Extract<Evidence, { type: T }>;
}

/** An EKS managed node group half-way through an AMI upgrade: Ubuntu 24.04 on the new nodes, 22.04 on the old. */
const POOL = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((i) => `ip-10-0-1-${i}.eu-west-1.compute.internal`);
const NEW_AMI = 'ami-0f3c9e1b27d45a861';
const OLD_AMI = 'ami-07b2d84c6e19f3a20';
const GLIBC_LOG =
  '2026-11-22T02:59:01Z INFO ranker 3.2.0 starting, loading NVML\n' +
  "/opt/ranker/bin/ranker: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1)\n";

function poolNode(ami: string, osImage: string): NonNullable<CrashScenarioOptions['oddNode']> {
  return {
    osImage,
    kernelVersion: '6.8.0-1019-aws',
    labels: {
      'eks.amazonaws.com/nodegroup': 'inference',
      'eks.amazonaws.com/nodegroup-image': ami,
      'node.kubernetes.io/instance-type': 'm6i.2xlarge',
    },
  };
}

function upgradePool(extra: Partial<CrashScenarioOptions> = {}): ReturnType<typeof crashScenario> {
  return crashScenario({
    placement: POOL,
    crashing: [0, 1, 2, 3, 4, 5, 6],
    oddNode: poolNode(NEW_AMI, 'Ubuntu 24.04.1 LTS'),
    evenNode: poolNode(OLD_AMI, 'Ubuntu 22.04.5 LTS'),
    crash: { exitCode: 1, log: GLIBC_LOG },
    deployment: { resources: { requests: { cpu: '3', memory: '4Gi' }, limits: { memory: '4Gi' } } },
    ...extra,
  });
}

describe('node dependence by separation, whatever the counts', () => {
  it('an OS-image upgrade crashing on 7 of 10 nodes is CrashLoopOnNode naming osImage and the node group', () => {
    const { snapshot } = upgradePool();
    expect(crashLoop.analyze(new AnalysisContext(snapshot))).toEqual([]);
    const findings = crashLoopOnNode.analyze(new AnalysisContext(snapshot));
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding?.summary).toMatch(
      /^detector crash-loops on the 7 nodes with osImage Ubuntu 24\.04\.1 LTS: container detector fails in 7 of 10 pods, last exit code 1 \(Error\); /,
    );
    expect(finding?.summary).toContain(
      `the same template runs Ready on the 3 with osImage Ubuntu 22.04.5 LTS (${POOL.slice(7).join(', ')}).`,
    );
    const diff = evidenceOf(finding, 'node-diff');
    expect(diff.badNodes).toEqual(POOL.slice(0, 7));
    expect(diff.goodNodes).toEqual(POOL.slice(7));
    expect(diff.separator).toEqual({
      fields: ['osImage'],
      bad: 'Ubuntu 24.04.1 LTS',
      good: 'Ubuntu 22.04.5 LTS',
    });
    expect(diff.differences.map((d) => d.field)).toEqual([
      'osImage',
      'label eks.amazonaws.com/nodegroup-image',
    ]);
    // The host's NVML library needs a newer glibc than the image has: the clue points at the OS image.
    expect(diff.clue).toMatchObject({ kind: 'glibc', source: 'log', pointsAt: 'osImage' });
    // Seven nodes crash the same way: one log excerpt, from the first of them.
    expect(finding?.evidence.filter((e) => e.type === 'log')).toEqual([
      expect.objectContaining({ pod: snapshot.pods[0]?.metadata.name, tail: GLIBC_LOG }),
    ]);
  });

  it('excludes by the separating image label, within the allowlist, where the remaining nodes hold every replica', () => {
    // 700m cpu per pod: the three healthy 8-cpu nodes hold all ten replicas.
    const { snapshot, deployment } = upgradePool({
      deployment: { resources: { requests: { cpu: '700m' } } },
    });
    const result = diagnose(snapshot);
    const plan = result.remediations.find((r) => r.kind === 'exclude-node');
    if (!plan) throw new Error('no exclude-node plan');
    expect(plan.summary).toContain(`off the nodes with eks.amazonaws.com/nodegroup-image=${NEW_AMI}`);
    // Its impact in Korean names the label it excludes by, and the English stays as stored.
    expect(planImpact(plan, 'ko')).toContain(
      `eks.amazonaws.com/nodegroup-image=${NEW_AMI} 레이블이 있는 노드는 지금과 앞으로 모두 제외합니다.`,
    );
    expect(plan.impact).toContain(
      `Every node with eks.amazonaws.com/nodegroup-image=${NEW_AMI} is excluded, now and later.`,
    );
    expect(plan.impactSaid && impactInWords(plan.impactSaid, 'en')).toBe(plan.impact);
    expect(checkPlanWithinKind(plan, deployment)).toEqual({ ok: true });
    const patched = applyJsonPatch(deployment, plan.patch?.body) as Deployment;
    expect(
      patched.spec.template.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
    ).toEqual({
      nodeSelectorTerms: [
        {
          matchExpressions: [
            { key: 'eks.amazonaws.com/nodegroup-image', operator: 'NotIn', values: [NEW_AMI] },
          ],
        },
      ],
    });
    const allowed = snapshot.nodes.filter((n) => selectsNode(n, patched.spec.template.spec));
    expect(allowed.map((n) => n.metadata.name)).toEqual(POOL.slice(7));
    expect(plan.proof?.steps.at(-1)).toBe('the rollout completes');
  });

  it('where the remaining nodes hold 6 of 10, the exclusion stalls with the crash still there: refused, saying why (issue 52)', () => {
    // 3 cpu per pod on 8-cpu nodes: two per node, six of the ten replicas; the rolling
    // update then keeps crashing old pods to stay within maxUnavailable.
    const result = diagnose(upgradePool().snapshot);
    expect(result.remediations.map((r) => r.kind)).not.toContain('exclude-node');
    expect(result.notOffered?.find((n) => n.kind === 'exclude-node')?.reason).toMatch(
      /run forward, pods still crash-loop on .* and no more serve, so it does not take the crash away/,
    );
  });

  it('adds the label NotIn to every required term of an existing affinity (terms are ORed)', () => {
    const terms = [
      { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
      { matchExpressions: [{ key: 'eks.amazonaws.com/nodegroup', operator: 'In', values: ['inference'] }] },
    ];
    const { snapshot, deployment } = upgradePool({
      deployment: {
        resources: { requests: { cpu: '700m' } },
        podSpec: {
          affinity: {
            nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
          },
        },
      },
    });
    const plan = diagnose(snapshot).remediations.find((r) => r.kind === 'exclude-node');
    if (!plan) throw new Error('no exclude-node plan');
    expect(checkPlanWithinKind(plan, deployment)).toEqual({ ok: true });
    const patched = applyJsonPatch(deployment, plan.patch?.body) as Deployment;
    const after =
      patched.spec.template.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
        ?.nodeSelectorTerms ?? [];
    expect(after).toHaveLength(2);
    for (const [i, term] of after.entries()) {
      expect(term.matchExpressions).toEqual([
        ...(terms[i]?.matchExpressions ?? []),
        { key: 'eks.amazonaws.com/nodegroup-image', operator: 'NotIn', values: [NEW_AMI] },
      ]);
    }
    expect(applyJsonPatch(patched, plan.inverse?.body)).toEqual(deployment);
  });

  it("counts other workloads' pods on the remaining nodes, and says so when their pods were not read", () => {
    const scenario = upgradePool();
    const other = makeDeployment('batch', {
      namespace: 'jobs',
      resources: { requests: { cpu: '4' } },
    });
    const rs = makeReplicaSet(other, '6d9f7c8b5');
    scenario.snapshot.otherPods = POOL.slice(7).map((node, i) =>
      makePod(rs, ['g7x2m', 'k4p9w', 'r5t8z'][i] ?? 'b2b2b', node, { phase: 'Running' }),
    );
    // Room for 3 of 10, all of it held by the 3 healthy old pods: run forward, the
    // exclusion's rollout stalls with the crashing pods still there (issue 52: a plan
    // that finishes nothing is not shown, and the finding says why).
    const crowded = diagnose(scenario.snapshot);
    expect(crowded.remediations.find((r) => r.kind === 'exclude-node')).toBeUndefined();
    expect(crowded.notOffered?.find((n) => n.kind === 'exclude-node')?.reason).toMatch(
      /run forward, pods still crash-loop on .* and no more serve/,
    );

    const partial: DeploymentSnapshot = {
      ...upgradePool().snapshot,
      coverage: { ...scenario.snapshot.coverage, podsReadOn: POOL.slice(0, 8) },
    };
    const unknown = diagnose(partial).remediations.find((r) => r.kind === 'exclude-node');
    expect(unknown?.warnings).toContainEqual(
      expect.stringMatching(
        /has room for 2 of 10 .* the pods on .* were not read, so the room there is unknown/,
      ),
    );
  });

  it('look-alike: the 3 healthy pods started 2 minutes ago (not crashed yet) is CrashLoop, too early to blame the image', () => {
    const scenario = upgradePool();
    for (const pod of scenario.pods.slice(7)) {
      const status = pod.status?.containerStatuses?.[0];
      if (status) status.state = { running: { startedAt: '2026-11-22T02:58:00Z' } };
    }
    expect(crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(scenario.snapshot));
    expect(evidenceOf(finding, 'note').text).toContain('started less than 10 minutes ago');
    expect(diagnose(scenario.snapshot).remediations.filter((r) => r.kind === 'exclude-node')).toEqual([]);
  });

  it('look-alike: crashing on most nodes where only a team label sets the healthy ones apart is CrashLoop', () => {
    const team = (name: string): NonNullable<CrashScenarioOptions['oddNode']> => ({
      labels: { 'example.com/team': name },
    });
    const { snapshot } = upgradePool({ oddNode: team('search'), evenNode: team('ranking') });
    expect(crashLoopOnNode.analyze(new AnalysisContext(snapshot))).toEqual([]);
    expect(crashLoop.analyze(new AnalysisContext(snapshot))).toHaveLength(1);
    // The same label with the crashing nodes in the minority still names it.
    const few = upgradePool({ crashing: [0, 1], oddNode: team('search'), evenNode: team('ranking') });
    const diff = evidenceOf(crashLoopOnNode.analyze(new AnalysisContext(few.snapshot))[0], 'node-diff');
    expect(diff.separator?.fields).toEqual(['label example.com/team']);
  });

  it('look-alike: the whole pool crashes, on both images, is CrashLoop without exclude-node', () => {
    const { snapshot } = upgradePool({ crashing: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(crashLoopOnNode.analyze(new AnalysisContext(snapshot))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('on every node it runs on');
    expect(diagnose(snapshot).remediations.filter((r) => r.kind === 'exclude-node')).toEqual([]);
  });

  it('look-alike: a healthy pod next to a crashing one on a 24.04 node defeats node blame', () => {
    const scenario = upgradePool();
    scenario.snapshot.pods.push(makePod(scenario.replicaSet, 'n6c4d', POOL[2], { phase: 'Running' }));
    expect(crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(scenario.snapshot));
    expect(evidenceOf(finding, 'note').text).toContain(`same node as crashing ones (${POOL[2] ?? ''})`);
    expect(diagnose(scenario.snapshot).remediations.filter((r) => r.kind === 'exclude-node')).toEqual([]);
  });
});

describe('ranking and clues', () => {
  it('a node-problem-detector KernelDeadlock=True on the crashing node is the first difference and the separator', () => {
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      oddNode: {
        kernelVersion: '6.8.0-1009-aws',
        labels: { 'node.kubernetes.io/instance-type': 'm5.2xlarge' },
      },
      evenNode: { labels: { 'node.kubernetes.io/instance-type': 'm6i.2xlarge' } },
      // No clue in the log: the ranking alone picks the separator.
      crash: {
        log: 'level=info msg="starting detector"\nlevel=fatal msg="context deadline exceeded" op=warmup\n',
      },
    });
    for (const node of snapshot.nodes) {
      const bad = node.metadata.name === 'node-b';
      node.status?.conditions?.push(
        bad
          ? {
              type: 'KernelDeadlock',
              status: 'True',
              reason: 'DockerHung',
              message: 'kernel: INFO: task docker:20744 blocked for more than 120 seconds.',
            }
          : {
              type: 'KernelDeadlock',
              status: 'False',
              reason: 'KernelHasNoDeadlock',
              message: 'kernel has no deadlock',
            },
      );
    }
    const [finding] = crashLoopOnNode.analyze(new AnalysisContext(snapshot));
    const diff = evidenceOf(finding, 'node-diff');
    expect(diff.differences.map((d) => d.field)).toEqual([
      'condition KernelDeadlock',
      'kernelVersion',
      'label node.kubernetes.io/instance-type',
    ]);
    expect(diff.separator?.fields).toEqual(['condition KernelDeadlock']);
    expect(finding?.summary).toContain(
      'crash-loops only on node node-b, with condition KernelDeadlock True and kernelVersion 6.8.0-1009-aws: container detector fails in 1 of 3 pods, last exit code 1 (Error); the same template runs Ready on the 2 with condition KernelDeadlock False and kernelVersion 5.15.0-105-generic (node-a, node-c).',
    );
  });

  it('an AVX2 clue in the log tail sits next to the cpu-cpuid.AVX2 difference, in the evidence and the text report', () => {
    const cpu = (avx2: boolean): Record<string, string> => ({
      'feature.node.kubernetes.io/cpu-cpuid.AVX': 'true',
      'feature.node.kubernetes.io/cpu-cpuid.SSE42': 'true',
      ...(avx2
        ? {
            'feature.node.kubernetes.io/cpu-cpuid.ADX': 'true',
            'feature.node.kubernetes.io/cpu-cpuid.AVX2': 'true',
            'feature.node.kubernetes.io/cpu-cpuid.FMA3': 'true',
          }
        : {}),
    });
    const log =
      '2026-11-22 02:59:01.204 I ranker/main.cc:41] ranker 1.9.0\n' +
      "2026-11-22 02:59:01.311 F ranker/simd.cc:17] The TensorFlow library was compiled to use AVX2 instructions, but these aren't available on your machine.\n";
    const scenario = crashScenario({
      placement: ['node-a', 'node-b', 'node-c', 'node-d'],
      crashing: [1, 3],
      oddNode: { labels: { ...cpu(false), 'node.kubernetes.io/instance-type': 'c4.2xlarge' } },
      evenNode: { labels: { ...cpu(true), 'node.kubernetes.io/instance-type': 'c5.2xlarge' } },
      crash: { exitCode: 134, reason: 'Error', log },
    });
    const [finding] = crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot));
    const diff = evidenceOf(finding, 'node-diff');
    // ADX sorts first among the CPU features the old nodes lack; the clue names AVX2.
    expect(diff.differences.map((d) => d.field).slice(0, 3)).toEqual([
      'label feature.node.kubernetes.io/cpu-cpuid.ADX',
      'label feature.node.kubernetes.io/cpu-cpuid.AVX2',
      'label feature.node.kubernetes.io/cpu-cpuid.FMA3',
    ]);
    expect(diff.clue).toMatchObject({
      kind: 'cpu-instructions',
      source: 'log',
      container: 'detector',
      pointsAt: 'label feature.node.kubernetes.io/cpu-cpuid.AVX2',
    });
    expect(diff.clue?.text).toContain('compiled to use AVX2 instructions');
    expect(finding?.summary).toContain(
      'crash-loops only on nodes node-b, node-d, without label feature.node.kubernetes.io/cpu-cpuid.AVX2: container detector fails in 2 of 4 pods, last exit code 134 (Error); the same template runs Ready on the 2 with feature.node.kubernetes.io/cpu-cpuid.AVX2=true (node-a, node-c).',
    );

    const text = renderText(diagnose(scenario.snapshot)).split('\n');
    const row = text.findIndex((l) =>
      /label feature\.node\.kubernetes\.io\/cpu-cpuid\.AVX2\s+\(none\)\s+true/.test(l),
    );
    expect(row).toBeGreaterThan(0);
    expect(text[row + 1]).toMatch(
      /\^ clue \(previous log of detector-7c9d8f5b6-\w+\/detector\): .*AVX2 instructions/,
    );
  });

  it('seed B: an illegal instruction on nodes without CPU feature labels leads the headline, not the kernel that happens to differ', () => {
    const scenario = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      oddNode: { kernelVersion: '5.4.0-1103-gcp', osImage: 'Ubuntu 20.04.6 LTS' },
      crash: {
        exitCode: 132,
        reason: 'Error',
        message:
          'illegal instruction (core dumped): checkout-server uses AVX-512 instructions not supported by this CPU',
        log: 'SIGILL: illegal instruction\n',
      },
    });
    const [finding] = crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot));
    const diff = evidenceOf(finding, 'node-diff');
    expect(diff.clue?.kind).toBe('cpu-instructions');
    expect(diff.clue?.pointsAt).toBeUndefined();
    // The kernel still separates the nodes (the evidence says so) ...
    expect(diff.separator?.fields).toEqual(['kernelVersion']);
    // ... but the clue, not the kernel, opens the headline.
    expect(finding?.summary).toBe(
      "detector crash-loops only on node node-b, failing with an illegal instruction (AVX-512, not supported by that node's CPU): " +
        'container detector fails in 1 of 3 pods, last exit code 132 (Error); the same template runs Ready on node-a, node-c.',
    );
    expect(finding?.explanation).toContain(
      'The nodes also differ (with kernelVersion 5.4.0-1103-gcp and osImage Ubuntu 20.04.6 LTS where it fails), which the clue does not point at.',
    );
  });

  it('an exec format error in the termination message points at the architecture', () => {
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      oddNode: { arch: 'arm64', kernelVersion: '6.1.0-arm64' },
      crash: { exitCode: 1, message: 'exec /usr/local/bin/detector: exec format error', log: '' },
    });
    const diff = evidenceOf(crashLoopOnNode.analyze(new AnalysisContext(snapshot))[0], 'node-diff');
    expect(diff.clue).toMatchObject({
      kind: 'exec-format',
      source: 'termination-message',
      pointsAt: 'architecture',
    });
  });
});

describe('the failing container is named', () => {
  it('an injected init container crash-looping on one node is called an init container, not the application', () => {
    const scenario = crashScenario();
    const pod = scenario.pods[1];
    if (!pod) throw new Error('fixture');
    crashInInitContainer(pod, 'istio-init', { injected: true });
    const name = pod.metadata.name ?? '';
    scenario.snapshot.logs = {
      [logKey(name, 'istio-init')]:
        '2026-11-22T02:59:01.112Z info Running iptables-restore with the following input\n' +
        "iptables-restore: unable to initialize table 'nat'\n",
    };
    const [finding] = crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot));
    expect(finding?.summary).toContain(
      "only on node node-b, with kernelVersion 6.8.0-1009-aws and osImage Ubuntu 24.04.1 LTS: init container istio-init, injected at admission (not in the Deployment's pod template) fails in 1 of 3 pods",
    );
    expect(evidenceOf(finding, 'crash-table').containers).toEqual([
      { name: 'istio-init', kind: 'init', injected: true },
    ]);
    expect(evidenceOf(finding, 'crash-table').rows.find((r) => r.node === 'node-b')?.container).toBe(
      'istio-init',
    );
    expect(evidenceOf(finding, 'log')).toMatchObject({ pod: name, container: 'istio-init' });
    expect(renderText(diagnose(scenario.snapshot))).toContain(
      'Crashing: init container istio-init (injected at admission, not in the pod template)',
    );
  });

  it('an injected native sidecar (a restartable init container) is called a sidecar', () => {
    const scenario = crashScenario();
    const pod = scenario.pods[1];
    if (!pod) throw new Error('fixture');
    crashInInitContainer(pod, 'istio-proxy', { injected: true });
    const sidecar = pod.spec.initContainers?.find((c) => c.name === 'istio-proxy');
    if (sidecar) sidecar.restartPolicy = 'Always';
    const [finding] = crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot));
    expect(evidenceOf(finding, 'crash-table').containers).toEqual([
      { name: 'istio-proxy', kind: 'sidecar', injected: true },
    ]);
    expect(finding?.summary).toContain(
      'sidecar container istio-proxy (a restartable init container), injected at admission',
    );
  });

  it('an init container of the template that crashes everywhere is CrashLoop naming the init container', () => {
    const scenario = crashScenario({ placement: ['node-a', 'node-b'], crashing: [] });
    for (const pod of scenario.pods) {
      scenario.deployment.spec.template.spec.initContainers = [
        { name: 'migrate', image: 'registry.example/vision/migrate:2.3.1' },
      ];
      crashInInitContainer(pod, 'migrate', { image: 'registry.example/vision/migrate:2.3.1' });
    }
    const [finding] = crashLoop.analyze(new AnalysisContext(scenario.snapshot));
    expect(finding?.summary).toContain('init container migrate fails in 2 of 2 pods');
    expect(finding?.summary).not.toContain('injected');
  });
});
