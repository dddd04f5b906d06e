/**
 * The change to commit for a surge deadlock: the strategy lines of the manifest as a
 * diff (replacing what the desired manifest sets, or added when it sets nothing), and
 * for a self-repelling required anti-affinity, matchLabelKeys [pod-template-hash] on
 * its term, with its caveats; never a live plan.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { toJson } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';
import { fixtureDump } from '../support/fixture-dump.js';
import { makeNode } from '../support/k8s-builders.js';
import {
  pendingRolloutSnapshot,
  rollout,
  seedIncidentA,
  withLastApplied,
} from '../support/rollout-scenarios.js';

function zookeeper(keys?: string[]): DeploymentSnapshot {
  const nodes = ['w1', 'w2', 'w3'].map((n) => makeNode(n));
  const term = {
    labelSelector: { matchLabels: { app: 'zk' } },
    topologyKey: 'kubernetes.io/hostname',
    ...(keys ? { matchLabelKeys: keys } : {}),
  };
  const parts = rollout('zk', {
    oldNodes: ['w1', 'w2', 'w3'],
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    podSpec: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
  });
  withLastApplied(parts.deployment, {
    replicas: 3,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    template: {
      spec: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
    },
  });
  Object.assign(parts.deployment.metadata, {
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2026-11-22T02:39:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {} } } } },
      },
    ],
  });
  return pendingRolloutSnapshot(
    parts,
    nodes,
    "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
  );
}

describe('change to commit for a surge deadlock', () => {
  it('seed case: the manifest has no strategy, so the strategy lines are added', () => {
    const result = diagnose(seedIncidentA());
    const [change, ...rest] = result.manifestChanges ?? [];
    expect(rest).toEqual([]);
    expect(change?.addresses).toBe('RolloutSurgeDeadlock');
    expect(change?.diff).toBe(
      [
        ' spec:',
        '+  strategy:',
        '+    type: RollingUpdate',
        '+    rollingUpdate:',
        '+      maxSurge: 0',
        '+      maxUnavailable: 1',
      ].join('\n'),
    );
    expect(change?.diff).not.toMatch(/^-/m);
  });

  it('a strategy the manifest sets is replaced (its lines removed), with the owner named', () => {
    const result = diagnose(zookeeper());
    expect(result.managedBy?.tool).toBe('kubectl');
    const [strategy] = result.manifestChanges ?? [];
    expect(strategy?.where).toBe('the file applied with kubectl apply');
    expect(strategy?.diff.split('\n')).toEqual([
      ' spec:',
      '-  strategy:',
      '-    type: RollingUpdate',
      '-    rollingUpdate:',
      '-      maxSurge: 1',
      '-      maxUnavailable: 0',
      '+  strategy:',
      '+    type: RollingUpdate',
      '+    rollingUpdate:',
      '+      maxSurge: 0',
      '+      maxUnavailable: 1',
    ]);
  });

  it('self-repelling anti-affinity: matchLabelKeys [pod-template-hash] on the term, never as a live plan', () => {
    const result = diagnose(zookeeper());
    const keys = result.manifestChanges?.[1];
    expect(keys?.diff).toContain(
      '           - topologyKey: kubernetes.io/hostname\n+            matchLabelKeys:\n+            - pod-template-hash',
    );
    expect(keys?.notes.join(' ')).toContain('1.31');
    expect(keys?.notes.join(' ')).toContain('rollout after the one that adds it');
    for (const plan of result.remediations)
      expect(JSON.stringify(plan.patch)).not.toContain('matchLabelKeys');
    // JSON and text carry it.
    expect(toJson(result).manifestChanges).toHaveLength(2);
    const text = renderText(result);
    expect(text).toContain('Change to commit');
    expect(text).toContain('+            - pod-template-hash');
  });

  it('a term that already has matchLabelKeys pod-template-hash gets no second one', () => {
    const result = diagnose(zookeeper(['pod-template-hash']));
    expect(result.manifestChanges?.map((c) => c.diff).join('\n')).not.toContain('matchLabelKeys');
  });

  it('Helm: the rendered manifest, to change in the chart', () => {
    const snapshot = seedIncidentA();
    const d: Deployment = snapshot.deployment;
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'meta.helm.sh/release-name': 'tracker',
      'meta.helm.sh/release-namespace': 'vision',
    };
    const [change] = diagnose(snapshot).manifestChanges ?? [];
    expect(change?.where).toBe(
      'the chart or values of Helm release tracker in vision (the rendered manifest is shown)',
    );
    // Helm's manifest is not readable here (no helm entry in managedFields): say so.
    expect(change?.notes.join(' ')).toContain('not readable');
  });

  it('no surge deadlock, no change to commit', () => {
    const snapshot = seedIncidentA();
    snapshot.pods = snapshot.pods.filter((p) => p.status?.phase !== 'Pending');
    snapshot.events = [];
    expect(diagnose(snapshot).manifestChanges).toBeUndefined();
  });

  it('a risk no strategy mends (a StatefulSet volume pinned to a cordoned node) has nothing to commit', async () => {
    const { status, stdout } = await pinned.cli(['diagnose', 'statefulset/db', '-n', 'data', '-o', 'json']);
    const report = JSON.parse(stdout) as { findings: { code: string }[]; manifestChanges?: unknown };
    expect(status).toBe(1);
    expect(report.findings.map((f) => f.code)).toContain('RolloutAtRisk');
    // A StatefulSet has no maxSurge, and OnDelete to RollingUpdate would delete db-2 into the pin.
    expect(report.manifestChanges).toBeUndefined();
    const text = await pinned.cli(['diagnose', 'statefulset/db', '-n', 'data', '-o', 'text']);
    expect(text.stdout).not.toContain('Change to commit');
    expect(text.stdout).not.toContain('maxSurge');
  });
});

const pinned = fixtureDump('statefulset-ondelete-local-pv.json');
