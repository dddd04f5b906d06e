/**
 * The collector keeps the first 1,500 events of a namespace (scan the first 10,000):
 * in a busy namespace the events about our pods may come after the cap. A pod that
 * is not Ready while its status says nothing is explained only by its events, so a
 * capped list is IncompleteEvidence there, as a refused one is, never "no problem".
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { fullCoverage, type Coverage } from '../../src/diagnosis/snapshot/types.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet, makeSnapshot } from '../support/k8s-builders.js';

function silentRollout(coverage: Coverage) {
  const deployment = makeDeployment('web', {
    namespace: 'shop',
    generation: 3,
    status: {
      observedGeneration: 3,
      replicas: 2,
      updatedReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 1,
    },
  });
  const oldRs = makeReplicaSet(deployment, 'aaaa1111', { revision: 1 });
  const newRs = makeReplicaSet(deployment, 'bbbb2222', { revision: 2 });
  return makeSnapshot({
    deployment,
    replicaSets: [newRs, oldRs],
    // The new pod runs and is not Ready, and its status gives no reason.
    pods: [
      makePod(oldRs, 'x1', 'node-a', { phase: 'Running' }),
      makePod(newRs, 'y2', 'node-b', { phase: 'Running', ready: false }),
    ],
    nodes: [makeNode('node-a'), makeNode('node-b')],
    coverage,
  });
}

describe('events of a busy namespace past the cap', () => {
  it('is IncompleteEvidence naming the capped read for a pod only events explain', () => {
    const snapshot = silentRollout({
      ...fullCoverage(),
      events: 'partial',
      gaps: [
        {
          about: 'events',
          what: 'events in shop past the first 1500',
          reason: 'capped',
          settle: 'kubectl get events -n shop',
        },
      ],
    });
    const findings = diagnose(snapshot).findings;
    expect(findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(findings[0]?.summary).toContain('events in shop past the first 1500 could not be read (capped)');
  });

  it('look-alike: every event read and none about the pod: nothing is claimed missing', () => {
    expect(diagnose(silentRollout(fullCoverage())).findings.map((f) => f.code)).not.toContain(
      'IncompleteEvidence',
    );
  });
});
