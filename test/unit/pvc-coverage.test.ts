/**
 * A PersistentVolumeClaim the snapshot lacks is "does not exist" only when the claims
 * were read whole (the collector's GET by name, where 404 proves it; a namespace list
 * that was neither refused nor capped; a dump holding the namespace's claims). A dump
 * of `kubectl get deploy,rs,pods,events,nodes` has none, and a capped scan list may
 * end before it: the claim is then unknown, and the Pending pod IncompleteEvidence
 * naming the read, never Unschedulable with "create it".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { fullCoverage } from '../../src/diagnosis/snapshot/types.js';
import type { PersistentVolumeClaim } from '../../src/diagnosis/k8s-storage.js';
import { fakeIo } from '../support/cli-io.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';

const dir = mkdtempSync(join(tmpdir(), 'pvc-coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MESSAGE =
  "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";

/** shop/db mid-rollout: the old pod runs (mounting `oldMounts`), the new one is Pending on db-data. */
function rolloutParts(oldMounts = 'db-data') {
  const deployment = makeDeployment('db', {
    namespace: 'shop',
    generation: 3,
    podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db-data' } }] },
    status: {
      observedGeneration: 3,
      replicas: 2,
      updatedReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 1,
    },
  });
  const oldTemplate = structuredClone(deployment.spec.template);
  oldTemplate.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: oldMounts } }];
  const oldRs = makeReplicaSet(deployment, 'aaaa1111', { revision: 1, template: oldTemplate });
  const newRs = makeReplicaSet(deployment, 'bbbb2222', { revision: 2 });
  const old = makePod(oldRs, 'x1', 'node-a', { phase: 'Running' });
  const pending = makePod(newRs, 'y2', undefined, { phase: 'Pending' });
  const condition = pending.status?.conditions?.[0];
  if (condition) condition.message = MESSAGE;
  const event = makeEvent(
    { kind: 'Pod', name: pending.metadata.name, namespace: 'shop', uid: pending.metadata.uid },
    'FailedScheduling',
    MESSAGE,
  );
  // Every namespace's pods are in the dump: the nodes' occupancy is known.
  const dns = makePod(
    makeReplicaSet(makeDeployment('dns', { namespace: 'kube-system' }), 'cccc3333'),
    'd1',
    'node-b',
    {
      phase: 'Running',
    },
  );
  return { deployment, replicaSets: [newRs, oldRs], pods: [old, pending], events: [event], dns };
}

async function diagnoseDump(name: string, pvcs: PersistentVolumeClaim[], oldMounts?: string) {
  const parts = rolloutParts(oldMounts);
  const items = [
    parts.deployment,
    ...parts.replicaSets,
    ...parts.pods,
    parts.dns,
    ...parts.events,
    makeNode('node-a'),
    makeNode('node-b'),
    ...pvcs,
  ];
  const file = join(dir, name);
  writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'List', items }));
  const run = fakeIo();
  const status = await runCli(
    ['diagnose', 'deployment/db', '-n', 'shop', '--from-file', file, '-o', 'json'],
    run.io,
  );
  const json = JSON.parse(run.stdout()) as {
    findings: { code: string; summary: string }[];
    coverage: { gaps: { about: string; what: string; settle: string }[] };
  };
  return { status, json, text: json.findings.map((f) => f.summary).join('\n') };
}

describe('a dump without the PersistentVolumeClaims', () => {
  it('is IncompleteEvidence naming the claim, never "does not exist"', async () => {
    const { status, json, text } = await diagnoseDump('no-pvcs.yaml', []);
    expect(status).toBe(1);
    expect(text).not.toMatch(/does not exist/);
    expect(json.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(text).toContain('PersistentVolumeClaim db-data');
    expect(json.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'pvcs',
        settle: 'kubectl get persistentvolumeclaims -n shop -o yaml',
      }),
    );
  });

  it('holding other claims of the namespace, but not one a running pod mounts: unknown too', async () => {
    const { json, text } = await diagnoseDump('cut-pvcs.yaml', [makePvc('cache', 'shop')]);
    expect(text).not.toMatch(/does not exist/);
    expect(json.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(json.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'pvcs',
        what: expect.stringContaining('PersistentVolumeClaim db-data'),
      }),
    );
  });

  it('look-alike: the namespace’s claims dumped, and only the Pending pod names db-data: it does not exist', async () => {
    const { status, json } = await diagnoseDump('absent-pvc.yaml', [makePvc('old-data', 'shop')], 'old-data');
    expect(status).toBe(1);
    expect(json.findings.map((f) => f.code)).toEqual(['Unschedulable']);
    expect(json.findings[0]?.summary).toContain('PersistentVolumeClaim "db-data", which does not exist');
    expect(json.coverage.gaps.filter((g) => g.about === 'pvcs')).toEqual([]);
  });
});

describe('a capped or refused claim list (scan reads the namespace’s claims in pages)', () => {
  const parts = rolloutParts();
  const snapshot = (coverage = fullCoverage()) =>
    makeSnapshot({
      deployment: parts.deployment,
      replicaSets: parts.replicaSets,
      pods: parts.pods,
      events: parts.events,
      nodes: [makeNode('node-a'), makeNode('node-b')],
      coverage,
    });

  it('leaves a claim past the cap unknown', () => {
    const capped = snapshot({
      ...fullCoverage(),
      gaps: [
        {
          about: 'pvcs',
          what: 'persistentvolumeclaims in shop past the first 10000',
          reason: 'capped',
          settle: 'kubectl get persistentvolumeclaims -n shop',
        },
      ],
    });
    const findings = diagnose(capped).findings;
    expect(findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(findings.map((f) => f.summary).join('\n')).not.toMatch(/does not exist/);
  });

  it('look-alike: every claim read, none named db-data: it does not exist', () => {
    const findings = diagnose(snapshot()).findings;
    expect(findings.map((f) => f.code)).toEqual(['Unschedulable']);
    expect(findings[0]?.summary).toContain('which does not exist');
  });
});
