/**
 * A DaemonSet whose template's cpu request grew (500m → 1000m), 1 s into its rollout
 * (maxUnavailable 2): no pod is Pending yet and nothing scarce is asked for, but a new
 * pod cannot simply take an old pod's place, so the nodes' other pods decide whether it
 * fits. The collector reads them, and the forward model runs on the nodes it read
 * (verify:states seed 3944, there from a dump: the other pods were dropped as "not
 * scarce", and a rollout that can never finish read as no problem).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateState } from '../../sim/generated-states.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { startStepped } from '../../sim/stepped.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { createKubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { rolledOut } from '../support/state-judge.js';

const state = generateState(3944);
let dir: string;
let sim: Simulator;

/** The cluster as the stepped simulator left it 1 s into the rollout. */
function midRollout(): object[] {
  const stepped = startStepped(state.objects);
  try {
    stepped.advance(600, () => rolledOut(stepped, state));
    stepped.apply(state.changed);
    stepped.advance(state.after);
    return stepped.objects() as object[];
  } finally {
    stepped.stop();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'collector-outgrown-'));
  sim = await startSimulator({ scenario: midRollout(), controllers: false });
  writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig);
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('collector: a template that outgrows its pods', () => {
  it('reads the other pods on the nodes, and finds the rollout cannot finish', async () => {
    expect(state.description).toContain('cpu 500m→1000m');
    const client = createKubeClient({ kubeconfig: join(dir, 'kubeconfig') });
    const snapshot = await collectSnapshot(client, {
      kind: state.kind,
      namespace: state.namespace,
      name: state.name,
    });
    expect(snapshot.pods.some((p) => p.status?.phase === 'Pending')).toBe(false);
    expect(snapshot.otherPods.some((p) => p.metadata.namespace === 'tenants')).toBe(true);
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings.map((f) => f.code)).toContain('Unschedulable');
    // Taking more old pods down would not make room: nothing that spends them is offered.
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual([]);
  });
});
