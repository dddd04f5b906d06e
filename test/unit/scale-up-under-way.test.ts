/**
 * A rollout whose pending pod the cluster autoscaler is adding a node for is moving, not
 * stuck (src/diagnosis/scheduling/scale-up.ts): the scheduler keeps writing "no room"
 * until the node is Ready. It was called "can never finish", with plans that take
 * serving pods down, while the autoscaler was growing the pool.
 */
import { describe, expect, it } from 'vitest';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import type { KubeEvent } from '../../src/diagnosis/k8s.js';
import { scaleUpUnderWay } from '../../src/diagnosis/scheduling/scale-up.js';
import { diagnose } from '../../src/engine/diagnose.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';
import { edgeIngress, PORTS_MESSAGE, unschedulablePod } from '../support/rollout-scenarios.js';

const TRIGGERED = 'pod triggered scale-up: [{edge-pool-asg 3->4 (max: 6)}]';
const NOT_TRIGGERED = "pod didn't trigger scale-up: 1 max node group size reached";

/** The snapshot with autoscaler events on its pending pod, each `minutesAgo` before the capture. */
function withAutoscaler(
  snapshot: DeploymentSnapshot,
  ...said: { reason: string; message: string; minutesAgo: number }[]
): DeploymentSnapshot {
  const pending = snapshot.pods.find((p) => !p.spec.nodeName);
  if (!pending) throw new Error('no pending pod');
  const events: KubeEvent[] = said.map(({ reason, message, minutesAgo }) => {
    const at = new Date(Date.parse(snapshot.capturedAt) - minutesAgo * 60_000).toISOString();
    return {
      ...makeEvent(
        {
          kind: 'Pod',
          name: pending.metadata.name,
          namespace: pending.metadata.namespace,
          uid: pending.metadata.uid,
        },
        reason,
        message,
        { type: 'Normal', component: 'cluster-autoscaler' },
      ),
      firstTimestamp: at,
      lastTimestamp: at,
    };
  });
  return { ...snapshot, events: [...snapshot.events, ...events] };
}

describe('a scale-up under way', () => {
  it('is the autoscaler trigger, its latest word on the pod, within the time it waits for a node', () => {
    const base = edgeIngress();
    const pod = base.pods.find((p) => !p.spec.nodeName);
    if (!pod) throw new Error('no pending pod');
    const of = (s: DeploymentSnapshot) => scaleUpUnderWay(s, pod);
    expect(of(base)).toBeUndefined();
    expect(
      of(withAutoscaler(base, { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 2 })),
    ).toEqual({
      at: expect.any(String) as string,
      message: TRIGGERED,
    });
    // Given up: the autoscaler waits 15 minutes for a node, then says no more.
    expect(
      of(withAutoscaler(base, { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 20 })),
    ).toBeUndefined();
    // A later "didn't trigger" wins over an earlier trigger; an earlier one does not.
    const later = withAutoscaler(
      base,
      { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 6 },
      { reason: 'NotTriggerScaleUp', message: NOT_TRIGGERED, minutesAgo: 1 },
    );
    expect(of(later)).toBeUndefined();
    const earlier = withAutoscaler(
      base,
      { reason: 'NotTriggerScaleUp', message: NOT_TRIGGERED, minutesAgo: 6 },
      { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 1 },
    );
    expect(of(earlier)?.message).toBe(TRIGGERED);
  });

  it('makes the rollout moving: no deadlock, a note that names the node coming, no plan that takes pods down', () => {
    expect(diagnose(edgeIngress()).findings[0]?.code).toBe('RolloutSurgeDeadlock');
    const d = diagnose(
      withAutoscaler(edgeIngress(), { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 3 }),
    );
    const codes = d.findings.map((f) => f.code);
    expect(codes).not.toContain('RolloutSurgeDeadlock');
    expect(codes).toEqual(['RolloutProgressing']);
    expect(d.findings[0]?.summary).toMatch(/the cluster autoscaler adds a node for pending pod ingress-/);
    expect(d.remediations).toEqual([]);
  });

  it('once the autoscaler gave up or said it cannot, the deadlock is called as before', () => {
    for (const said of [
      { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 25 },
      { reason: 'NotTriggerScaleUp', message: NOT_TRIGGERED, minutesAgo: 1 },
    ]) {
      expect(diagnose(withAutoscaler(edgeIngress(), said)).findings[0]?.code).toBe('RolloutSurgeDeadlock');
    }
  });

  it('a pod no rollout makes (the replicas raised) is not called Unschedulable while its node comes', () => {
    const deployment = makeDeployment('ingress', {
      namespace: 'vision',
      replicas: 4,
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
    });
    const rs = makeReplicaSet(deployment, '7b9f8c5d4f', { revision: 1, replicas: 4 });
    const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
    const running = ['edge-1', 'edge-2', 'edge-3'].map((n, i) =>
      makePod(rs, `p${i}`, n, { phase: 'Running' }),
    );
    const { pod, event } = unschedulablePod(
      makePod(rs, 'p3', undefined, { phase: 'Pending' }),
      PORTS_MESSAGE,
    );
    const scaled = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [...running, pod],
      events: [event],
      nodes,
    });
    expect(diagnose(scaled).findings.map((f) => f.code)).toContain('Unschedulable');
    const coming = withAutoscaler(scaled, { reason: 'TriggeredScaleUp', message: TRIGGERED, minutesAgo: 3 });
    expect(diagnose(coming).findings.map((f) => f.code)).not.toContain('Unschedulable');
  });
});
