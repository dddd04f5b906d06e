/**
 * A surge deadlock whose unavailable budget the failing new pods hold (forward/
 * crashing-revision.ts budgetHeldByFailing): the Deployment controller counts a bound new
 * pod that is not available like a Pending one (rolling.go reconcileOldReplicaSets,
 * newRSUnavailablePodCount), so where that pod, were it available, would let an old pod
 * go, the failure is the verdict and the Pending pod beside it a note. round 7b
 * s909-00074: "false deadlock beside a crash loop", with a strategy plan that changed
 * nothing. The other arm: with nothing failing the same Pending pod is the deadlock.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';
import { PORTS_MESSAGE } from '../support/rollout-scenarios.js';

/** 2 replicas on hostPort 8080, maxSurge 2 / maxUnavailable 0: old pods on edge-1 and edge-2, new ones on edge-3 and Pending. */
function edge(third: 'crashes' | 'pending') {
  const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n));
  const spec = {
    namespace: 'vision',
    replicas: 2,
    image: 'registry.example/ingress:1.1',
    ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
    strategy: { type: 'RollingUpdate' as const, rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } },
  };
  const deployment = makeDeployment('ingress', spec);
  const oldTemplate = structuredClone(deployment.spec.template);
  if (oldTemplate.spec.containers[0]) oldTemplate.spec.containers[0].image = 'registry.example/ingress:1.0';
  const oldRs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 1, replicas: 2, template: oldTemplate });
  const newRs = makeReplicaSet(deployment, '7b9f8c5d4f', { revision: 2, replicas: 2 });
  newRs.status = { replicas: 2, readyReplicas: 0, availableReplicas: 0, observedGeneration: 1 };
  oldRs.status = { replicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 };
  const old = ['edge-1', 'edge-2'].map((n, i) => makePod(oldRs, `o${i}`, n, { phase: 'Running' }));
  const other: Pod =
    third === 'crashes'
      ? makePod(newRs, 'c3', 'edge-3', { phase: 'CrashLoopBackOff', restarts: 9, exitCode: 1 })
      : makePod(newRs, 'c3', undefined, { phase: 'Pending' });
  const pending = makePod(newRs, 'p4', undefined, { phase: 'Pending' });
  const waiting = third === 'crashes' ? [pending] : [pending, other];
  const events = waiting.map((p) =>
    makeEvent(
      { kind: 'Pod', name: p.metadata.name ?? '', namespace: 'vision', uid: p.metadata.uid ?? '' },
      'FailedScheduling',
      PORTS_MESSAGE,
      { type: 'Warning' },
    ),
  );
  return makeSnapshot({
    deployment,
    replicaSets: [newRs, oldRs],
    pods: [...old, other, pending],
    nodes,
    events,
  });
}

describe('a surge deadlock beside new pods that fail on their own', () => {
  it('the failing new pod holds the budget: the failure is the verdict, the waiting pod a note, no strategy plan', () => {
    const d = diagnose(edge('crashes'));
    const codes = d.findings.map((f) => f.code);
    expect(codes).not.toContain('RolloutSurgeDeadlock');
    const failure = d.findings.find((f) => f.code === 'CrashLoop' || f.code === 'CrashLoopOnNode');
    expect(JSON.stringify(failure?.evidence)).toContain('the controller already counts the failing new pod');
    expect(d.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
  });

  it('nothing failing (both new pods wait for the ports): the same wait is the deadlock', () => {
    const d = diagnose(edge('pending'));
    expect(d.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });
});
