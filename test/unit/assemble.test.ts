import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assembleSnapshot, newestTimestamp } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { WorkloadNotFoundError } from '../../src/kube/errors.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
  asDeployment,
} from '../support/k8s-builders.js';

const ref: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
const objects = (...items: object[]): KubeObject[] => items as KubeObject[];

describe('assembleSnapshot from the incident A dump', () => {
  const dump = loadObjects(
    readFileSync(new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url), 'utf8'),
  );
  const snapshot = asDeployment(assembleSnapshot(ref, dump));

  it('takes the Deployment, its ReplicaSets newest revision first, and their pods', () => {
    expect(snapshot.deployment.metadata.name).toBe('vision-object-tracker');
    expect(
      snapshot.replicaSets.map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']),
    ).toEqual(['3', '2', '1']);
    expect(snapshot.pods.map((p) => [p.metadata.name, p.status?.phase])).toEqual([
      ['vision-object-tracker-5c6b7d8f9-x7k2p', 'Running'],
      ['vision-object-tracker-7d9f8b6c5d-q4w8z', 'Pending'],
    ]);
  });

  it('keeps the events of those objects, the selected node only, and dates the snapshot from the dump', () => {
    expect(snapshot.events.map((e) => e.reason).sort()).toEqual(['FailedScheduling', 'ScalingReplicaSet']);
    expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['gpu-node-1']);
    expect(snapshot.nodesComplete).toBe(true);
    expect(snapshot.capturedAt).toBe('2026-11-22T02:59:12Z');
    expect(snapshot.otherPods).toEqual([]);
    expect(snapshot.accessProblems).toEqual([]);
  });

  it('honours capturedAt and logs options', () => {
    const custom = assembleSnapshot(ref, dump, {
      capturedAt: '2026-12-01T00:00:00Z',
      logs: { 'p/c': 'boom' },
    });
    expect(custom.capturedAt).toBe('2026-12-01T00:00:00Z');
    expect(custom.logs).toEqual({ 'p/c': 'boom' });
  });

  it('names the namespace when the Deployment is absent, and where a namesake lives', () => {
    const wrong: WorkloadRef = { ...ref, namespace: 'default' };
    expect(() => assembleSnapshot(wrong, dump)).toThrow(WorkloadNotFoundError);
    expect(() => assembleSnapshot(wrong, dump)).toThrow(
      'Deployment "vision-object-tracker" is not in the dump for namespace "default". A Deployment of that name is in namespace vision.',
    );
  });
});

describe('assembleSnapshot selection rules', () => {
  const deployment = makeDeployment('db', {
    namespace: 'shop',
    podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db-data' } }] },
  });
  const rs = makeReplicaSet(deployment, 'aaa');
  const ours = makePod(rs, 'x1', 'node-1', { phase: 'Running' });
  const pending = makePod(rs, 'x2', undefined, { phase: 'Pending' });
  const stranger = makeDeployment('db', { namespace: 'other' });
  const strangerRs = makeReplicaSet(stranger, 'bbb');
  const otherPod = makePod(
    makeReplicaSet(makeDeployment('cache', { namespace: 'shop' }), 'ccc'),
    'y',
    'node-2',
    {
      phase: 'Running',
    },
  );
  const cordoned = makeNode('node-3', { unschedulable: true });
  const cordonedPod = makePod(
    makeReplicaSet(makeDeployment('misc', { namespace: 'x' }), 'ddd'),
    'z',
    'node-3',
    {
      phase: 'Running',
    },
  );
  const snapshot = assembleSnapshot(
    { kind: 'Deployment', namespace: 'shop', name: 'db' },
    objects(
      deployment,
      stranger,
      rs,
      strangerRs,
      ours,
      pending,
      otherPod,
      cordonedPod,
      makeNode('node-1'),
      makeNode('node-2'),
      cordoned,
      makePvc('db-data', 'shop'),
      makePvc('unrelated', 'shop'),
      makePvc('db-data', 'other'),
      makeEvent(
        { kind: 'Pod', name: pending.metadata.name, namespace: 'shop', uid: pending.metadata.uid },
        'FailedScheduling',
        'm',
      ),
      makeEvent({ kind: 'Pod', name: 'someone-else', namespace: 'shop', uid: 'nope' }, 'BackOff', 'm'),
    ),
  );

  it('follows owner uids, not names, so a namesake in another namespace stays out', () => {
    expect(asDeployment(snapshot).replicaSets.map((r) => r.metadata.uid)).toEqual([rs.metadata.uid]);
    expect(snapshot.pods.map((p) => p.metadata.name)).toEqual([ours.metadata.name, pending.metadata.name]);
    expect(snapshot.events.map((e) => e.reason)).toEqual(['FailedScheduling']);
  });

  it('keeps mounted PVCs of the namespace and other pods on the nodes kept when a pod is Pending', () => {
    expect(snapshot.pvcs.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(['shop/db-data']);
    // The cordoned node is kept (our pod runs there), so who else occupies it is kept too.
    expect(snapshot.otherPods.map((p) => p.metadata.name)).toEqual([
      otherPod.metadata.name,
      cordonedPod.metadata.name,
    ]);
    expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  // Kept whatever the template asks for: a quota-refused rollout has no Pending pod and
  // nothing scarce, yet whether its pods fit once admitted turns on what else the nodes
  // run (round 6b s211-01129: with them dropped, four pods fit where three did).
  it('keeps the other pods it read on the nodes kept, when nothing is pending and nothing scarce is asked for', () => {
    const plain = makeDeployment('web', { namespace: 'shop' });
    const plainRs = makeReplicaSet(plain, 'eee');
    const result = assembleSnapshot(
      { kind: 'Deployment', namespace: 'shop', name: 'web' },
      objects(
        plain,
        plainRs,
        makePod(plainRs, 'a', 'node-1', { phase: 'Running' }),
        otherPod,
        makeNode('node-1'),
        makeNode('node-2'),
      ),
    );
    expect(result.otherPods.map((p) => p.metadata.name)).toEqual([otherPod.metadata.name]);
    expect(result.namespacePods?.map((p) => p.metadata.name)).toEqual([otherPod.metadata.name]);
    expect(result.nodesComplete).toBe(true);
    expect(
      assembleSnapshot({ kind: 'Deployment', namespace: 'shop', name: 'web' }, objects(plain)).nodesComplete,
    ).toBe(false);
  });

  // They compete with ours for room (forward/rivals.ts): every namespace's, not ours, not going.
  it("keeps other workloads' pods waiting for a node as rivals, whatever their namespace", () => {
    const plain = makeDeployment('web', { namespace: 'shop' });
    const plainRs = makeReplicaSet(plain, 'eee');
    const batch = makeReplicaSet(makeDeployment('batch', { namespace: 'jobs' }), 'fff');
    const waiting = makePod(batch, 'w', undefined, { phase: 'Pending' });
    const going = { ...makePod(batch, 'g', undefined, { phase: 'Pending' }) };
    going.metadata = { ...going.metadata, deletionTimestamp: '2026-11-22T03:00:00Z' };
    const ours = makePod(plainRs, 'p', undefined, { phase: 'Pending' });
    const result = assembleSnapshot(
      { kind: 'Deployment', namespace: 'shop', name: 'web' },
      objects(plain, plainRs, ours, waiting, going, makeNode('node-1')),
    );
    expect(result.pendingPods?.map((p) => p.metadata.name)).toEqual([waiting.metadata.name]);
  });
});

describe('newestTimestamp', () => {
  it('picks the newest RFC 3339 time field and ignores other strings', () => {
    expect(
      newestTimestamp(
        objects(
          {
            kind: 'X',
            metadata: { creationTimestamp: '2026-01-01T00:00:00Z', name: '2027-01-01T00:00:00Z' },
          },
          { kind: 'Y', status: { conditions: [{ lastHeartbeatTime: '2026-03-01T10:00:00+02:00' }] } },
        ),
      ),
    ).toBe('2026-03-01T10:00:00+02:00');
    expect(newestTimestamp([])).toBe('1970-01-01T00:00:00Z');
  });

  it("does not let a terminating pod's deletionTimestamp (request + grace) move now ahead", () => {
    const terminating = {
      kind: 'Pod',
      metadata: {
        creationTimestamp: '2026-11-22T02:00:00Z',
        deletionTimestamp: '2026-11-22T03:00:30Z',
        deletionGracePeriodSeconds: 30,
      },
      status: { conditions: [{ lastTransitionTime: '2026-11-22T02:59:50Z' }] },
    };
    // The deletion was requested at 03:00:00: the dump was taken then or later, not at 03:00:30.
    expect(newestTimestamp(objects(terminating))).toBe('2026-11-22T03:00:00Z');
    const token = {
      kind: 'Secret',
      metadata: { creationTimestamp: '2026-11-22T01:00:00Z' },
      expirationTimestamp: '2027-01-01T00:00:00Z',
    };
    expect(newestTimestamp(objects(token))).toBe('2026-11-22T01:00:00Z');
  });
});
