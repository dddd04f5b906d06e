import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { generateScaleScenario } from '../../sim/scale.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let sim: Simulator | undefined;
afterAll(async () => {
  await sim?.close();
});

describe('scale scenario', () => {
  // Facts only: how fast it loads and lists depends on the machine's load and is
  // measured by bench/sim-scale.ts (npm run bench), not asserted here.
  it('loads 1,000 nodes / 20,000 pods, leaves background workloads untouched, and serves label-selected lists', async () => {
    const objects = generateScaleScenario({ nodes: 1000, pods: 20_000 });
    sim = await startSimulator({ scenario: objects, timeScale: 50 });
    const s = sim;
    await s.waitFor(
      () => (s.list('Pod', 'vision') as Pod[]).some((p) => p.status?.phase === 'Running'),
      SIGNAL_WAIT_MS,
    );
    await s.settle();
    expect(s.list('Node')).toHaveLength(1000);
    expect(s.list('Pod').length).toBe(20_001);
    const tracker = s.list('Pod', 'vision') as Pod[];
    expect(tracker[0]?.spec.nodeName).toBe('gpu-node-1');
    s.clearRequests();
    const res = await fetch(
      `${s.url}/api/v1/namespaces/vision/pods?labelSelector=${encodeURIComponent('app=vision-object-tracker')}`,
    );
    const body = (await res.json()) as { items: Pod[] };
    expect(body.items).toHaveLength(1);
    const all = await fetch(`${s.url}/api/v1/pods?labelSelector=app%3Dsvc-7`);
    expect(((await all.json()) as { items: Pod[] }).items).toHaveLength(20);
    // Background ReplicaSets and Deployments were consistent: controllers wrote nothing for them.
    const rs = s.list('ReplicaSet', 'team-0')[0] as {
      metadata: { generation?: number; resourceVersion?: string };
    };
    expect(rs.metadata.generation).toBe(1);
  });
});
