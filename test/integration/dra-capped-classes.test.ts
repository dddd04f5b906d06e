/**
 * An extended resource backed by DRA on a cluster with more DeviceClasses than one
 * diagnosis lists (500 a page, 4 pages): the class that maps `nvidia.com/gpu` may be
 * past the cap, so the GPU is neither a device plugin's (no node advertises it) nor
 * absent: the diagnosis names the capped read instead of a confident verdict.
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
import { extendedScenario } from '../support/dra-extended-scenario.js';
import { shipTrackerImage } from '../support/sim-rollout.js';

const TRACKER: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
let dir: string;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dra-capped-classes-'));
  sim = await startSimulator({ scenario: extendedScenario(), timeScale: 50 });
  // Listed before gpu.nvidia.com: more classes than the diagnosis reads.
  for (let i = 0; i < 2_050; i++)
    sim.apply({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: `a-class-${String(i).padStart(4, '0')}` },
      spec: { selectors: [{ cel: { expression: `device.driver == "d${i}.example.com"` } }] },
    });
  await shipTrackerImage(sim, TRACKER);
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('DeviceClasses past the cap', () => {
  it('names the capped class read; never a device plugin verdict on nodes that advertise no GPU', async () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const snapshot = await collectSnapshot(createKubeClient({ kubeconfig: file }), TRACKER);
    expect(snapshot.coverage?.gaps).toContainEqual(
      expect.objectContaining({
        about: 'dra',
        reason: 'capped',
        what: expect.stringMatching(/^DeviceClasses past the first 2000/),
      }),
    );
    const codes = diagnose(snapshot).findings.map((f) => f.code);
    expect(codes).not.toContain('Unschedulable');
    expect(codes).toContain('IncompleteEvidence');
  });
});
