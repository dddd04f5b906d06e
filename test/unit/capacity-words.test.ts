/**
 * The capacity verdict says exactly how many new pods the nodes cannot hold once the
 * old pods are gone (forward/reconcile.ts capacityFinding): where the room holds some
 * of them, "N of its R new pods fit no node", never "a new pod fits no node", which
 * reads as no room at all.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { makeNode } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, PORTS_MESSAGE, rollout } from '../support/rollout-scenarios.js';

const HOST_PORT = [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' as const }];

/** Ingress pods holding hostPort 8080 on `nodes` edge nodes, `replicas` wanted, strategy maxSurge 1 / maxUnavailable 0. */
function ingress(nodes: number, replicas: number) {
  const names = Array.from({ length: nodes }, (_, i) => `edge-${i + 1}`);
  const parts = rollout('ingress', {
    oldNodes: names,
    replicas,
    ports: HOST_PORT,
    podSpec: { nodeSelector: { pool: 'edge' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
  });
  return pendingRolloutSnapshot(
    parts,
    names.map((n) => makeNode(n, { labels: { pool: 'edge' } })),
    PORTS_MESSAGE,
    { guards: { podDisruptionBudgets: [] } },
  );
}

describe('the capacity verdict counts the pods the room cannot hold', () => {
  it('4 replicas on 3 nodes with one port each: 1 of its 4 new pods fits no node', () => {
    const finding = diagnose(ingress(3, 4)).findings.find((f) => f.code === 'Unschedulable');
    expect(finding?.summary).toContain(
      "even with this workload's old pods gone, 1 of its 4 new pods fits no node",
    );
  });
});
