/**
 * What guards the workload, from a dump (issue 52 item 2): a dump that holds the
 * budgets, autoscalers, volumes, classes and analysis runs fills them; a dump without a
 * kind leaves that member absent with a 'not-in-dump' gap, read as unknown, never as
 * "no budget". Through the CLI's own reading, so the dump schemas are exercised too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { unreadGuardLines } from '../../src/diagnosis/guards/guard-gaps.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { fakeIo } from '../support/cli-io.js';
import { makeDeployment, makeNode, makePod, makePvc, makeReplicaSet } from '../support/k8s-builders.js';

const dir = mkdtempSync(join(tmpdir(), 'guards-dump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DB = { kind: 'Deployment', namespace: 'shop', name: 'db' } as const;

function workload(): KubeObject[] {
  const deployment = makeDeployment('db', {
    namespace: 'shop',
    podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db-data' } }] },
  });
  const rs = makeReplicaSet(deployment, '5c7d9f8b6d');
  const claim = makePvc('db-data', 'shop');
  claim.spec.storageClassName = 'local';
  return [
    deployment,
    rs,
    makePod(rs, 'q2w3e', 'node-a', { phase: 'Running' }),
    makeNode('node-a'),
    claim,
  ] as KubeObject[];
}

const GUARDS: KubeObject[] = [
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'db', namespace: 'shop' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } },
    status: { expectedPods: 1, currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0 },
  },
  {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'db', namespace: 'shop' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'db' }, maxReplicas: 3 },
  },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv-db-data' },
    spec: { storageClassName: 'local', claimRef: { namespace: 'shop', name: 'db-data' } },
  },
  {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'local' },
    volumeBindingMode: 'WaitForFirstConsumer',
  },
] as KubeObject[];

describe('guards in a dump', () => {
  it('a dump with them fills them', () => {
    const snapshot = assembleSnapshot(DB, [...workload(), ...GUARDS]);
    expect(snapshot.guards?.podDisruptionBudgets?.map((p) => p.metadata.name)).toEqual(['db']);
    expect(snapshot.guards?.horizontalPodAutoscalers?.map((h) => h.metadata.name)).toEqual(['db']);
    expect(snapshot.guards?.persistentVolumes?.map((v) => v.metadata.name)).toEqual(['pv-db-data']);
    expect(snapshot.guards?.storageClasses?.map((c) => c.metadata.name)).toEqual(['local']);
    expect(snapshot.guards?.analysisRuns).toEqual([]);
    expect(unreadGuardLines(snapshot.coverage)).toEqual([]);
  });

  it('a dump without them leaves each unknown with a not-in-dump gap, never "no budget"', () => {
    const snapshot = assembleSnapshot(DB, workload());
    expect(snapshot.guards?.podDisruptionBudgets).toBeUndefined();
    expect(snapshot.guards?.horizontalPodAutoscalers).toBeUndefined();
    expect(snapshot.guards?.persistentVolumes).toBeUndefined();
    expect(snapshot.guards?.storageClasses).toBeUndefined();
    expect(unreadGuardLines(snapshot.coverage)).toEqual([
      'PodDisruptionBudgets: not read (not in the dump): kubectl get poddisruptionbudgets -n shop -o yaml, and diagnose from the dump',
      'HorizontalPodAutoscalers: not read (not in the dump): kubectl get horizontalpodautoscalers -n shop -o yaml, and diagnose from the dump',
      'PersistentVolumes: not read (not in the dump): kubectl get persistentvolumes -o yaml, and diagnose from the dump',
      'StorageClasses: not read (not in the dump): kubectl get storageclasses -o yaml, and diagnose from the dump',
    ]);
  });

  it('holding other volumes, but not the one the claim is bound to: unknown too', () => {
    const other = { ...GUARDS[2], metadata: { name: 'pv-other' }, spec: {} } as KubeObject;
    const snapshot = assembleSnapshot(DB, [
      ...workload(),
      ...GUARDS.filter((g) => g.kind !== 'PersistentVolume'),
      other,
    ]);
    expect(snapshot.guards?.persistentVolumes).toBeUndefined();
    expect(snapshot.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'persistentVolumes',
        what: 'PersistentVolumes pv-db-data',
        reason: 'not-in-dump',
      }),
    );
    expect(snapshot.guards?.podDisruptionBudgets).toHaveLength(1);
  });

  it("an Argo Rollout's analysis runs: the ones it owns, or unknown without any", () => {
    const rollout = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'shop', uid: 'ro-1' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'web:2' }] },
        },
        strategy: { canary: { steps: [{ setWeight: 20 }] } },
      },
    } as KubeObject;
    const run = (name: string, owner: string): KubeObject =>
      ({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'AnalysisRun',
        metadata: { name, namespace: 'shop', ownerReferences: [{ kind: 'Rollout', name: 'x', uid: owner }] },
        status: { phase: 'Failed' },
      }) as KubeObject;
    const ref = { kind: 'Rollout', namespace: 'shop', name: 'web' } as const;
    const withRuns = assembleSnapshot(ref, [rollout, run('web-1', 'ro-1'), run('api-1', 'ro-2')]);
    expect(withRuns.guards?.analysisRuns?.map((r) => r.metadata.name)).toEqual(['web-1']);
    const without = assembleSnapshot(ref, [rollout]);
    expect(without.guards?.analysisRuns).toBeUndefined();
    expect(unreadGuardLines(without.coverage)).toContain(
      'AnalysisRuns: not read (not in the dump): kubectl get analysisruns.argoproj.io -n shop -o yaml, and diagnose from the dump',
    );
  });

  it('the CLI reads them from a kubectl dump and names the unread ones in its JSON coverage', async () => {
    const file = join(dir, 'dump.yaml');
    writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'List', items: [...workload(), GUARDS[0]] }));
    expect(loadObjects(stringify({ apiVersion: 'v1', kind: 'List', items: GUARDS })).length).toBe(4);
    const run = fakeIo();
    await runCli(['diagnose', 'deployment/db', '-n', 'shop', '--from-file', file, '-o', 'json'], run.io);
    const json = JSON.parse(run.stdout()) as { coverage: { gaps: { about: string; reason: string }[] } };
    const abouts = json.coverage.gaps.map((g) => `${g.about} ${g.reason}`);
    expect(abouts).not.toContain('podDisruptionBudgets not-in-dump');
    expect(abouts).toContain('horizontalPodAutoscalers not-in-dump');
  });

  it('refuses a malformed budget with its place named', () => {
    const bad = { ...GUARDS[0], spec: { minAvailable: '-3' } } as KubeObject;
    expect(() => loadObjects(stringify({ apiVersion: 'v1', kind: 'List', items: [bad] }))).toThrow(
      /minAvailable/,
    );
  });
});
