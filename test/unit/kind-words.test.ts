/**
 * What a plan says a workload's controller does comes from the kind's module, never a
 * Deployment's words said of every kind (issue 55: "The ReplicaSet creates …" was said
 * of a StatefulSet's pods). Every kind module is asked.
 */
import { remadePods } from '../../src/diagnosis/workloads/remade-words.js';
import { planImpact } from '../../src/remediation/plan-words.js';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { WORKLOAD_KINDS } from '../../src/diagnosis/workload-ref.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { logKey } from '../../src/diagnosis/snapshot/types.js';
import { CRASH_LOG } from '../support/crash-fixtures.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';

type DeploymentCondition = NonNullable<NonNullable<Deployment['status']>['conditions']>[number];
import { makeDaemonSet } from '../support/daemonset-builders.js';
import { makeDeployment, makeNode } from '../support/k8s-builders.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

/** A StatefulSet whose pod on node-b alone crash-loops, node-b's kernel being the odd one out. */
function crashingOnOneNode(policy: 'OrderedReady' | 'Parallel') {
  const sts = makeStatefulSet('ledger', {
    policy,
    claims: false,
    status: { replicas: 3, readyReplicas: 2, currentReplicas: 3, updatedReplicas: 3 },
  });
  const revision = makeStsRevision(sts, 'ledger-6c8f7d9b5', 2);
  if (sts.status)
    sts.status = {
      ...sts.status,
      currentRevision: 'ledger-6c8f7d9b5',
      updateRevision: 'ledger-6c8f7d9b5',
      observedGeneration: 3,
    };
  const placement = ['node-a', 'node-b', 'node-c'];
  const pods = placement.map((node, i) =>
    makeStsPod(
      sts,
      revision,
      i,
      node,
      i === 1 ? { phase: 'CrashLoopBackOff', restarts: 14, exitCode: 1 } : { phase: 'Running' },
    ),
  );
  const nodes = placement.map((name) =>
    makeNode(
      name,
      name === 'node-b' ? { kernelVersion: '6.8.0-1009-aws', osImage: 'Ubuntu 24.04.1 LTS' } : {},
    ),
  );
  const logs = { [logKey(pods[1]?.metadata.name ?? '', 'ledger')]: CRASH_LOG };
  return makeStatefulSetSnapshot({ statefulSet: sts, controllerRevisions: [revision], pods, nodes, logs });
}

describe("a plan's words about the controller come from the kind's module", () => {
  it('delete-pods of a StatefulSet says the StatefulSet controller remakes the pod under its name', () => {
    // Parallel: with OrderedReady the stuck ordinal's own plan (the forced rollback) is offered for it.
    const diagnosis = diagnose(crashingOnOneNode('Parallel'));
    const plan = diagnosis.remediations.find(
      (p) => p.kind === 'delete-pods' && p.addresses === 'CrashLoopOnNode',
    );
    expect(plan, diagnosis.findings.map((f) => f.code).join(', ')).toBeDefined();
    expect(plan?.impact).not.toContain('ReplicaSet');
    expect(plan?.impact).toMatch(
      /^The StatefulSet controller creates 1 replacement under the same name at once \(podManagementPolicy Parallel\)/,
    ); // In Korean the same words: the controller, the policy and the nodes; nothing left in English.
    const ko = plan ? planImpact(plan, 'ko') : '';
    expect(ko).toMatch(
      /^StatefulSet 컨트롤러가 대체 파드 1개를 같은 이름으로 한 번에 만듭니다\(podManagementPolicy Parallel\)\. /,
    );
    expect(ko).toContain('node-b 노드에 둘 수 있습니다');
    expect(ko).not.toMatch(/creates|capacity|stale/);
  });

  it('a StatefulSet with OrderedReady remakes its pods one at a time, in ordinal order', () => {
    const sts = workloadKind('StatefulSet');
    expect(remadePods(sts.remadeBy(makeStatefulSet('ledger', { policy: 'OrderedReady' })), 2)).toBe(
      'The StatefulSet controller creates 2 replacements under the same names, one at a time in ordinal order, each only once every pod below it is Running and Ready (OrderedReady)',
    );
  });

  it('every kind module says how its controller remakes deleted pods, in its own words', () => {
    for (const kind of WORKLOAD_KINDS) {
      const module = workloadKind(kind);
      const words = remadePods(module.remadeBy({ metadata: {}, spec: {} } as never), 2);
      expect(words, kind).toMatch(/creates 2 replacements/);
      // A kind whose pods have no ReplicaSet never says one makes them.
      if (module.podOwner === 'itself') expect(words, kind).not.toContain('ReplicaSet');
    }
  });
});

describe('what kubectl does, as kubectl does it', () => {
  const stuck = (over: Partial<Deployment['spec']> = {}, conditions: DeploymentCondition[] = []) => {
    const d = makeDeployment('web', { replicas: 2 });
    d.spec = { ...d.spec, ...over };
    d.status = {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 1,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions,
    };
    return d;
  };
  const signals = (d: Deployment): string => {
    const kind = workloadKind('Deployment');
    return kind.misleadingSignals(d, kind.strategy(d), 2);
  };

  it("a Deployment's rollout status stops at the progress deadline, it does not wait forever (issue 55)", () => {
    const text = signals(stuck({ progressDeadlineSeconds: 300 }));
    expect(text).not.toContain('waits forever');
    expect(text).toContain('waits until the progress deadline passes (300 s without progress)');
    expect(text).toContain('then stops with "error: deployment "web" exceeded its progress deadline"');
    expect(signals(stuck())).toContain('(600 s without progress)');
  });

  it('past the deadline it has already stopped; paused, it has no deadline', () => {
    const exceeded = signals(
      stuck({}, [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }]),
    );
    expect(exceeded).toContain('already stops with "error: deployment "web" exceeded its progress deadline"');
    expect(signals(stuck({ paused: true }))).toContain(
      'waits with no deadline while the Deployment is paused',
    );
  });

  it('a StatefulSet or DaemonSet rollout status waits until its --timeout, which has no default: not "forever"', () => {
    const sts = makeStatefulSet('ledger');
    const ds = makeDaemonSet('agent');
    for (const [kind, object] of [
      ['StatefulSet', sts],
      ['DaemonSet', ds],
    ] as const) {
      const module = workloadKind(kind);
      const text = module.misleadingSignals(object as never, module.strategy(object as never), 3);
      expect(text, kind).not.toContain('forever');
      expect(text, kind).toContain('waits until its --timeout, with no end by default');
    }
  });
});
