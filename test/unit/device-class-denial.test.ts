/**
 * The DeviceClasses are listed for any template asking for an extended resource, on
 * the chance that DRA backs it. A namespace-scoped user is refused that list; the
 * refusal is reported only where a class could decide something (unknown is not
 * empty), never as noise for a GPU a device plugin serves.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { AccessProblem, DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';
import { draSeed } from '../support/dra-builders.js';

const REFUSED: AccessProblem = {
  verb: 'list',
  resource: 'deviceclasses',
  status: 403,
  message:
    'deviceclasses.resource.k8s.io is forbidden: User "jane" cannot list resource "deviceclasses" in API group "resource.k8s.io" at the cluster scope',
};

function refused(snapshot: DeploymentSnapshot): DeploymentSnapshot {
  return { ...snapshot, accessProblems: [...snapshot.accessProblems, REFUSED] };
}

function nodesUnread(snapshot: DeploymentSnapshot): DeploymentSnapshot {
  return {
    ...snapshot,
    nodes: [],
    nodesComplete: false,
    coverage: { ...snapshot.coverage, nodes: 'unread' },
    accessProblems: [
      ...snapshot.accessProblems,
      { verb: 'list', resource: 'nodes', status: 403, message: 'nodes is forbidden' },
    ],
  };
}

function deniedKinds(snapshot: DeploymentSnapshot): string[] {
  return diagnose(snapshot)
    .findings.filter((f) => f.code === 'AccessDenied')
    .map((f) => f.summary);
}

describe('a refused DeviceClass list', () => {
  it('is not reported when the only node the template may use advertises the GPU (a device plugin serves it)', () => {
    const summaries = deniedKinds(refused(seedIncidentA()));
    expect(summaries).toEqual([]);
  });

  it('is not reported with the nodes unread either: the old pod holds its GPU without a DRA claim, the scheduler counts it as Insufficient', () => {
    const summaries = deniedKinds(refused(nodesUnread(seedIncidentA())));
    expect(summaries).toEqual(['cannot list nodes (cluster-wide): grant list on nodes']);
  });

  it('is reported when a node the template may use does not advertise the GPU (DRA may serve it there)', () => {
    const snapshot = seedIncidentA();
    const tracker = snapshot.nodes.find((n) => n.metadata.name === 'tracker-node');
    if (tracker?.status?.allocatable) delete tracker.status.allocatable['nvidia.com/gpu'];
    expect(deniedKinds(refused(snapshot))).toEqual([
      'cannot list deviceclasses (cluster-wide): grant list on deviceclasses',
    ]);
  });

  it('is reported when a node the template may use advertises the GPU as 0 (no device plugin device there: DRA may serve it, as the simulator does)', () => {
    const snapshot = seedIncidentA();
    const tracker = snapshot.nodes.find((n) => n.metadata.name === 'tracker-node');
    if (tracker?.status?.allocatable) tracker.status.allocatable['nvidia.com/gpu'] = '0';
    expect(deniedKinds(refused(snapshot))).toEqual([
      'cannot list deviceclasses (cluster-wide): grant list on deviceclasses',
    ]);
  });

  it('is reported with the nodes unread when the scheduler speaks of claims, not of the GPU', () => {
    const { snapshot } = draSeed({ mode: 'extended' });
    const withoutDra: DeploymentSnapshot = { ...snapshot };
    delete withoutDra.dra;
    expect(deniedKinds(refused(nodesUnread(withoutDra)))).toContain(
      'cannot list deviceclasses (cluster-wide): grant list on deviceclasses',
    );
  });

  it('is reported whenever the template lists resource claims', () => {
    const { snapshot } = draSeed();
    expect(deniedKinds(refused(snapshot))).toContain(
      'cannot list deviceclasses (cluster-wide): grant list on deviceclasses',
    );
  });
});
