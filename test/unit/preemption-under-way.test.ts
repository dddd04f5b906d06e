/**
 * A rollout the cluster is already resolving is not stuck (issue 29.2): the new
 * template raised the priority, the scheduler nominated the surge pod to the GPU node
 * and is evicting the lower-priority old pod there. No deadlock and no fix that takes
 * a serving replica down; the look-alikes (a nomination without a victim, a victim of
 * equal priority, preemptionPolicy Never, a victim stuck Terminating) stay deadlocks.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

const NOW = '2026-11-22T03:00:00Z';

/** Incident A with the surge pod at priority 1000 nominated to tracker-node, and the old pod at `victimPriority`. */
function preempting(
  options: {
    victimPriority?: number;
    marked?: boolean;
    /** When the old pod's deletion deadline is; null: not terminating. */
    terminatingSince?: string | null;
    policy?: string;
    message?: string;
  } = {},
): DeploymentSnapshot {
  const snapshot = seedIncidentA();
  const { parts } = snapshot;
  const [pending] = parts.newPods as [Pod];
  pending.spec.priority = 1000;
  if (options.policy) pending.spec.preemptionPolicy = options.policy;
  pending.status = { ...pending.status, nominatedNodeName: 'tracker-node' };
  const [old] = parts.oldPods as [Pod];
  old.spec.priority = options.victimPriority ?? 0;
  if (options.terminatingSince !== null) {
    old.metadata.deletionTimestamp = options.terminatingSince ?? '2026-11-22T03:00:25Z';
  }
  if (options.marked !== false) {
    old.status = {
      ...old.status,
      conditions: [
        ...(old.status?.conditions ?? []),
        {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'PreemptionByScheduler',
          message: 'default-scheduler: preempting to accommodate a higher priority pod',
        },
      ],
    };
  }
  if (options.message) {
    const condition = pending.status.conditions?.find((c) => c.type === 'PodScheduled');
    if (condition) condition.message = options.message;
  }
  return { ...snapshot, capturedAt: NOW };
}

describe('preemption under way', () => {
  it('a lower-priority old pod the scheduler marked is going: PreemptionUnderWay, no deadlock, no plan', () => {
    const diagnosis = diagnose(preempting());
    expect(diagnosis.findings.map((f) => f.code)).toEqual(['PreemptionUnderWay']);
    const [first] = diagnosis.findings;
    expect(first?.severity).toBe('info');
    expect(first?.summary).toContain(
      'on tracker-node: it preempted vision/object-tracker-6d4cf56db6-x2kqp (priority 0)',
    );
    expect(diagnosis.remediations).toEqual([]);
  });

  it("the scheduler's own wording names the terminating victim when no condition does", () => {
    const diagnosis = diagnose(
      preempting({
        marked: false,
        message:
          "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: not eligible due to a terminating pod on the nominated node.",
      }),
    );
    expect(diagnosis.findings.map((f) => f.code)).toEqual(['PreemptionUnderWay']);
  });

  it.each([
    [
      'a nomination without a terminating victim (1.34+ nominates without preempting)',
      { marked: false, terminatingSince: null },
    ],
    ['a victim of equal priority (a pod never preempts its equals)', { victimPriority: 1000 }],
    ['preemptionPolicy Never', { policy: 'Never' }],
    ['a victim stuck Terminating long past its deadline', { terminatingSince: '2026-11-22T02:00:00Z' }],
  ])('look-alike: %s is no preemption under way', (_name, options) => {
    const diagnosis = diagnose(preempting(options));
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('PreemptionUnderWay');
  });

  it('look-alike: a lower-priority victim terminating on another node is no preemption for this pod: the GPU deadlock stands', () => {
    // The old pod holds tracker-node's GPU and is not going; a preemption elsewhere (gpu-a100-1) frees nothing here.
    const snapshot = preempting({ marked: false, terminatingSince: null });
    const old = snapshot.pods.find((p) => p.spec.nodeName === 'tracker-node');
    if (!old) throw new Error('fixture: the old pod');
    const elsewhere = structuredClone(old);
    elsewhere.metadata = {
      ...elsewhere.metadata,
      name: 'batch-job-7f9c',
      namespace: 'batch',
      uid: 'batch-job-7f9c-uid',
      ownerReferences: [],
      deletionTimestamp: '2026-11-22T03:00:25Z',
    };
    elsewhere.spec = { ...elsewhere.spec, nodeName: 'gpu-a100-1', priority: 0 };
    elsewhere.status = {
      ...elsewhere.status,
      conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }],
    };
    const diagnosis = diagnose({ ...snapshot, otherPods: [...snapshot.otherPods, elsewhere] });
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('PreemptionUnderWay');
    expect(diagnosis.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(diagnosis.findings[0]?.severity).not.toBe('info');
  });

  it('a nomination alone leaves the surge deadlock standing', () => {
    const diagnosis = diagnose(preempting({ marked: false, terminatingSince: null }));
    expect(diagnosis.findings[0]?.code).toBe('RolloutSurgeDeadlock');
  });
});
