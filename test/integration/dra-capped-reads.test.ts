/**
 * A cluster with more ResourceClaims than one diagnosis lists (500 a page, 4 pages):
 * the cluster-wide read is capped, so it proves nothing about this Deployment's own
 * claims. The collector reads the namespace's claims whole as well; a pod's claim
 * that only fell past the cap is never "gone", and the capped read is named.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { createKubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { shipTrackerImage } from '../support/sim-rollout.js';

const TRACKER: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
let dir: string;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dra-capped-'));
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock-dra.yaml', timeScale: 50 });
  // Another team's claims, listed before ours ("ml-team" < "vision"): more than the cap.
  sim.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml-team' } });
  for (let i = 0; i < 2_100; i++)
    sim.apply({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `training-${i}`, namespace: 'ml-team' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com' } }] } },
    });
  await shipTrackerImage(sim, TRACKER);
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ResourceClaims past the cluster-wide cap', () => {
  it('reads the namespace whole, finds the pods’ own claims, and names the capped read', async () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const snapshot = await collectSnapshot(createKubeClient({ kubeconfig: file }), TRACKER);
    const names = new Set(
      (snapshot.dra?.claims ?? []).map((c) => `${c.metadata.namespace}/${c.metadata.name}`),
    );
    const own = sim.list('ResourceClaim', TRACKER.namespace).map((c) => {
      const meta = (c as { metadata: { namespace: string; name: string } }).metadata;
      return `${meta.namespace}/${meta.name}`;
    });
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const name of own) expect(names).toContain(name);
    expect(snapshot.coverage?.dra?.claims).toBe('namespace');
    expect(snapshot.coverage?.gaps).toContainEqual(
      expect.objectContaining({ about: 'dra', reason: 'capped', what: 'ResourceClaims past the first 2000' }),
    );

    const diagnosis = diagnose(snapshot);
    const codes = diagnosis.findings.map((f) => f.code);
    // Never "its claim no longer exists": the claim exists, it was past the cap.
    expect(diagnosis.findings.map((f) => f.summary).join('\n')).not.toMatch(/no longer exists/);
    expect(codes).toContain('RolloutSurgeDeadlock');
  });
});
