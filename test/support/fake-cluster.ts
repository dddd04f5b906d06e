/**
 * A worker's cluster side without a cluster, for tests about the app, queues and Slack:
 * every Deployment diagnoses as a surge deadlock with one set-recreate plan, applying
 * records the plan id and succeeds, and the rollout completes at once.
 */
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { ClusterDeps } from '../../src/worker/runtime.js';

export function recreatePlan(namespace: string, name: string): RemediationPlan {
  return {
    id: `set-recreate-${namespace}-${name}`,
    kind: 'set-recreate',
    target: { kind: 'Deployment', namespace, name },
    summary: 'Switch to Recreate',
    impact: 'outage',
    warnings: [],
    patch: {
      type: 'strategic-merge',
      body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } },
    },
    preconditions: { uid: 'uid-1', generation: 2, fields: [] },
    inverse: null,
    addresses: 'RolloutSurgeDeadlock',
  };
}

export function surgeDiagnosis(namespace: string, name: string): Diagnosis {
  const plan = recreatePlan(namespace, name);
  return {
    target: plan.target,
    capturedAt: '2026-11-20T10:00:00Z',
    observed: { uid: 'uid-1', generation: 2, resourceVersion: '100' },
    findings: [
      {
        code: 'RolloutSurgeDeadlock',
        severity: 'critical',
        summary: 'the new pod needs the GPU the old pod holds',
        evidence: [{ type: 'note', text: 'one eligible node' }],
        remediations: [plan.id],
      },
    ],
    remediations: [plan],
    analyzerErrors: [],
  };
}

/** @param applied receives the id of every plan the worker applies. */
export function fakeClusterDeps(applied: string[]): ClusterDeps {
  return {
    collect: async (ref) => ({ target: ref }) as unknown as DeploymentSnapshot,
    diagnose: (snapshot) => surgeDiagnosis(snapshot.target.namespace, snapshot.target.name),
    dryRun: async () => ({ ok: true, changes: [] }),
    scan: async () => ({ scanned: 0, entries: [] }),
    apply: async (plan) => {
      applied.push(plan.id);
      return { status: 'applied', changes: [], generation: 3, resourceVersion: '101' };
    },
    watch: async () => ({ outcome: 'complete', summary: 'rollout complete' }),
    currentFinding: async () => undefined,
    inverse: () => null,
  };
}
