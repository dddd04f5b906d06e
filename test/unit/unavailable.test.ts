/**
 * A Deployment short of available replicas is never "no problem found" (issue 29.4):
 * a node that stopped reporting, holding the ReadWriteOnce volume its pod's
 * replacement waits for, is named with the out-of-service taint as the way out (and
 * no strategy change); a shortfall nothing explains is a warning; a rollout the
 * controller reports as progressing is left alone where it is seen moving or its next
 * steps can be followed, and said with why where neither.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { renderText } from '../../src/report/text.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';

const INCIDENT_A = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;

function deadNodeVolume() {
  const deployment = makeDeployment('ledger', {
    namespace: 'bank',
    replicas: 1,
    status: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 0,
      availableReplicas: 0,
      unavailableReplicas: 1,
      conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }],
    },
  });
  deployment.spec.template.spec.volumes = [
    { name: 'data', persistentVolumeClaim: { claimName: 'ledger-data' } },
  ];
  const rs = makeReplicaSet(deployment, '5f6d7c8b9a', { revision: 1, replicas: 1 });
  const old = makePod(rs, 'aaaaa', 'node-dead', { phase: 'Running' });
  old.metadata.deletionTimestamp = '2026-11-22T02:10:00Z';
  old.status = {
    ...old.status,
    conditions: [
      { type: 'Ready', status: 'False' },
      { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' },
    ],
  };
  const replacement = makePod(rs, 'bbbbb', 'node-ok', { phase: 'Pending' });
  replacement.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] };
  const dead = makeNode('node-dead', {
    taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
  });
  dead.status = {
    ...dead.status,
    conditions: [
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: '2026-11-22T02:04:00Z',
      },
    ],
  };
  const multiAttach = makeEvent(
    { kind: 'Pod', name: replacement.metadata.name, namespace: 'bank', uid: replacement.metadata.uid },
    'FailedAttachVolume',
    `Multi-Attach error for volume "pvc-0c1d" Volume is already used by pod(s) ${old.metadata.name ?? ''}`,
    { component: 'attachdetach-controller' },
  );
  return makeSnapshot({
    deployment,
    replicaSets: [rs],
    pods: [old, replacement],
    events: [multiAttach],
    nodes: [dead, makeNode('node-ok')],
    pvcs: [makePvc('ledger-data', 'bank', { accessModes: ['ReadWriteOnce'] })],
  });
}

describe('Unavailable', () => {
  it('a node that stopped reporting holds the volume: named, with the out-of-service taint, and no plan', () => {
    const diagnosis = diagnose(deadNodeVolume());
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('Unavailable');
    expect(first?.severity).toBe('critical');
    expect(first?.summary).toContain(
      '0 of 1 replicas available: node node-dead stopped reporting (Ready=Unknown)',
    );
    expect(first?.summary).toContain(
      'holding the volume replacement ledger-5f6d7c8b9a-bbbbb waits for (Multi-Attach)',
    );
    expect(first?.explanation).toContain(
      'kubectl taint nodes node-dead node.kubernetes.io/out-of-service=nodeshutdown:NoExecute',
    );
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual([]);
    expect(renderText(diagnosis)).not.toContain('No problem found');
  });

  it('a node whose kubelet reports Ready=False is down as well as one gone silent (Unknown)', () => {
    const snapshot = deadNodeVolume();
    const dead = snapshot.nodes.find((n) => n.metadata.name === 'node-dead');
    if (!dead?.status?.conditions?.[0]) throw new Error('no node-dead');
    dead.status.conditions[0] = {
      type: 'Ready',
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'container runtime network not ready',
      lastTransitionTime: '2026-11-22T02:04:00Z',
    };
    const [first] = diagnose(snapshot).findings;
    expect(first?.code).toBe('Unavailable');
    expect(first?.summary).toContain(
      '0 of 1 replicas available: node node-dead stopped reporting (Ready=False)',
    );
  });

  it('a shortfall in the steady state that nothing explains is a warning, not "no problem found"', () => {
    const deployment = makeDeployment('web', {
      namespace: 'shop',
      replicas: 2,
      generation: 1,
      status: {
        observedGeneration: 1,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 1,
        availableReplicas: 1,
      },
    });
    const rs = makeReplicaSet(deployment, '6c7d8e9f0a', { revision: 1, replicas: 2 });
    const ok = makePod(rs, 'aaaaa', 'node-a', { phase: 'Running' });
    const silent = makePod(rs, 'bbbbb', 'node-b', { phase: 'Running' });
    silent.status = { ...silent.status, conditions: [{ type: 'Ready', status: 'False' }] };
    const diagnosis = diagnose(
      makeSnapshot({
        deployment,
        replicaSets: [rs],
        pods: [ok, silent],
        nodes: [makeNode('node-a'), makeNode('node-b')],
      }),
    );
    expect(diagnosis.findings.map((f) => [f.code, f.severity])).toEqual([['Unavailable', 'warning']]);
    expect(diagnosis.findings[0]?.summary).toContain(
      '1 of 2 replicas available, and nothing read explains why (1 pod is not Ready)',
    );
  });

  it('a pod Ready but inside minReadySeconds is starting, not unavailable; once past it, the shortfall stands', () => {
    const snapshotAt = (readySince: string) => {
      const deployment = makeDeployment('web', {
        namespace: 'shop',
        replicas: 2,
        generation: 1,
        status: {
          observedGeneration: 1,
          replicas: 2,
          updatedReplicas: 2,
          readyReplicas: 2,
          availableReplicas: 1,
        },
      });
      deployment.spec.minReadySeconds = 120;
      const rs = makeReplicaSet(deployment, '6c7d8e9f0a', { revision: 1, replicas: 2 });
      const ok = makePod(rs, 'aaaaa', 'node-a', { phase: 'Running' });
      const fresh = makePod(rs, 'bbbbb', 'node-b', { phase: 'Running' });
      fresh.status = {
        ...fresh.status,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }],
      };
      return makeSnapshot({
        deployment,
        replicaSets: [rs],
        pods: [ok, fresh],
        nodes: [makeNode('node-a'), makeNode('node-b')],
      });
    };
    // Ready 30 s before the capture (03:00:00), 120 s needed.
    expect(diagnose(snapshotAt('2026-11-22T02:59:30Z')).findings.map((f) => f.code)).not.toContain(
      'Unavailable',
    );
    expect(diagnose(snapshotAt('2026-11-22T02:50:00Z')).findings.map((f) => f.code)).toContain('Unavailable');
  });

  it('a new pod Ready inside minReadySeconds is said to become available, not Ready, in the run forward', () => {
    const deployment = makeDeployment('web', {
      namespace: 'shop',
      replicas: 2,
      generation: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      status: {
        observedGeneration: 2,
        replicas: 3,
        updatedReplicas: 1,
        readyReplicas: 3,
        availableReplicas: 2,
        conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }],
      },
    });
    deployment.spec.minReadySeconds = 120;
    const old = makeReplicaSet(deployment, '1a2b3c4d5e', { revision: 1, replicas: 2 });
    const fresh = makeReplicaSet(deployment, '6c7d8e9f0a', { revision: 2, replicas: 1 });
    const pods = [
      makePod(old, 'aaaaa', 'node-a', { phase: 'Running' }),
      makePod(old, 'bbbbb', 'node-b', { phase: 'Running' }),
    ];
    const starting = makePod(fresh, 'ccccc', 'node-c', { phase: 'Running' });
    // Ready 30 s before the capture (03:00:00), 120 s needed.
    starting.status = {
      ...starting.status,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-22T02:59:30Z' }],
    };
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [old, fresh],
      pods: [...pods, starting],
      nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c')],
    });
    const progressing = diagnose(snapshot).findings.find((f) => f.code === 'RolloutProgressing');
    expect(progressing?.summary).toContain(
      'new pod web-6c7d8e9f0a-ccccc, Ready, becomes available (minReadySeconds)',
    );
  });

  it('a passed progress deadline on a rollout that still finishes is a note; where it does not finish, it stays critical', () => {
    // minReadySeconds 900 > progressDeadlineSeconds 600: the new pod, Ready for 700 s, passed
    // the deadline but becomes available in 200 s, and the controller goes on.
    const at = (readySince: string, ready: boolean) => {
      const deployment = makeDeployment('api', {
        namespace: 'shop',
        replicas: 2,
        generation: 2,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        status: {
          observedGeneration: 2,
          replicas: 3,
          updatedReplicas: 1,
          readyReplicas: ready ? 3 : 2,
          availableReplicas: 2,
          conditions: [
            {
              type: 'Progressing',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
              message: 'ReplicaSet "api-6c7d8e9f0a" has timed out progressing.',
            },
          ],
        },
      });
      deployment.spec.minReadySeconds = 900;
      // The old ReplicaSet runs the template before the bump (upstream takes the oldest equal one as new).
      const before = structuredClone(deployment.spec.template);
      const [container] = before.spec?.containers ?? [];
      if (container) container.image = 'registry.example/api:0.9';
      const old = makeReplicaSet(deployment, '1a2b3c4d5e', { revision: 1, replicas: 2, template: before });
      const fresh = makeReplicaSet(deployment, '6c7d8e9f0a', { revision: 2, replicas: 1 });
      const pods = [
        makePod(old, 'aaaaa', 'node-a', { phase: 'Running' }),
        makePod(old, 'bbbbb', 'node-b', { phase: 'Running' }),
      ];
      const newPod = makePod(fresh, 'ccccc', 'node-c', { phase: 'Running' });
      newPod.status = {
        ...newPod.status,
        startTime: readySince,
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: readySince }],
      };
      const snapshot = makeSnapshot({
        deployment,
        replicaSets: [old, fresh],
        pods: [...pods, newPod],
        nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c')],
      });
      return diagnose(snapshot).findings;
    };
    // Ready 700 s before the capture (03:00:00).
    const moving = at('2026-11-22T02:48:20Z', true);
    const deadline = moving.find((f) => f.code === 'ProgressDeadlineExceeded');
    expect(deadline?.severity).toBe('info');
    expect(deadline?.summary).toBe(
      'Rollout of api passed its progress deadline (600s, 1 of 2 new pods ready) but is still moving: run forward, the controllers finish it.',
    );
    expect(moving.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(moving.map((f) => f.code)).toContain('RolloutProgressing');
    // Not Ready for 700 s: nothing says it ever will, and the deadline stays what it said.
    const stuck = at('2026-11-22T02:48:20Z', false);
    expect(stuck.find((f) => f.code === 'ProgressDeadlineExceeded')?.severity).toBe('critical');
  });

  it('a rollout the controller reports as progressing may be short for a while', () => {
    const deployment = makeDeployment('web', {
      namespace: 'shop',
      replicas: 2,
      generation: 2,
      status: {
        observedGeneration: 2,
        replicas: 2,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }],
      },
    });
    const rs = makeReplicaSet(deployment, '6c7d8e9f0a', { revision: 2, replicas: 2 });
    const ok = makePod(rs, 'aaaaa', 'node-a', { phase: 'Running' });
    const starting = makePod(rs, 'bbbbb', 'node-b', { phase: 'Running' });
    starting.status = { ...starting.status, conditions: [{ type: 'Ready', status: 'False' }] };
    const diagnosis = diagnose(
      makeSnapshot({
        deployment,
        replicaSets: [rs],
        pods: [ok, starting],
        nodes: [makeNode('node-a'), makeNode('node-b')],
      }),
    );
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('Unavailable');
  });
});

describe('Unavailable: unknown is not empty', () => {
  it('a rollout short of replicas whose next steps cannot be followed is said, with why, not passed over', async () => {
    // Incident A's dump (one namespace: the pods of others not read), the Deployment
    // asking for 4 replicas: with maxUnavailable 1 its surge is no deadlock by the rule,
    // and the forward model cannot be built. It said "No problem found", exit 0, with 1
    // of 4 available and a new pod Pending.
    const dump = parse(readFileSync(INCIDENT_A, 'utf8')) as {
      items: { kind: string; spec: { replicas?: number } }[];
    };
    for (const o of dump.items) if (o.kind === 'Deployment') o.spec.replicas = 4;
    const dir = mkdtempSync(join(tmpdir(), 'unavailable-'));
    try {
      const file = join(dir, 'dump.yaml');
      writeFileSync(file, stringify(dump));
      const run = fakeIo();
      const status = await runCli(
        ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', file],
        run.io,
      );
      expect(run.stdout()).toContain(
        '[WARNING] Unavailable: vision-object-tracker has 1 of 4 replicas available while its rollout is under way',
      );
      expect(run.stdout()).toContain('could not be told: pods were not read on every node');
      expect(run.stdout()).toContain(
        'not scheduled: 0/10 nodes are available: 1 Insufficient nvidia.com/gpu',
      );
      expect(run.stdout()).not.toContain('No problem found');
      expect(status).toBe(1);
      // Paused, it waits for a person: not this warning (its words are of a rollout under way).
      for (const o of dump.items) if (o.kind === 'Deployment') Object.assign(o.spec, { paused: true });
      writeFileSync(file, stringify(dump));
      const paused = fakeIo();
      await runCli(
        ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', file],
        paused.io,
      );
      expect(paused.stdout()).not.toContain('could not be told');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Deployment without a status (a hand-written dump) is not called unavailable', () => {
    const deployment = makeDeployment('web', { namespace: 'shop', replicas: 2 });
    delete deployment.status;
    const rs = makeReplicaSet(deployment, '6c7d8e9f0a', { revision: 1, replicas: 2 });
    const pods = [
      makePod(rs, 'aaaaa', 'node-a', { phase: 'Running' }),
      makePod(rs, 'bbbbb', 'node-b', { phase: 'Running' }),
    ];
    const diagnosis = diagnose(
      makeSnapshot({ deployment, replicaSets: [rs], pods, nodes: [makeNode('node-a'), makeNode('node-b')] }),
    );
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('Unavailable');
  });
});
