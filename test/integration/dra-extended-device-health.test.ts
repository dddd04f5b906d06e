/**
 * The device-health scenario with the GPU asked for as `nvidia.com/gpu: 1`, which a
 * DeviceClass serves through DRA (KEP-5004): the scheduler creates each pod's claim and
 * records it in status.extendedResourceClaimStatus. The driver reports gpu-node-1's gpu-0
 * Unhealthy, and the pod there crash-loops, but the kubelet, like upstream's
 * (UpdateAllocatedResourcesStatus walks only a container's resources.claims;
 * kubernetes/kubernetes#139939), writes no allocatedResourcesStatus for it: the
 * diagnosis says the device health is not reported, and blames and taints nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { isCrashLooping } from '../../src/diagnosis/crash/container-failures.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { DeviceClass } from '../../src/diagnosis/k8s-dra.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { DETECTOR, deviceHealthScenario } from '../support/dra-health-scenario.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

/** deviceHealthScenario with `nvidia.com/gpu: 1` instead of a claim, and the crash rule by node. */
function extendedHealthScenario(): object[] {
  return deviceHealthScenario()
    .filter((o) => (o as { kind?: string }).kind !== 'ResourceClaimTemplate')
    .map((o) => {
      const obj = structuredClone(o) as { kind?: string; data?: Record<string, string> };
      if (obj.kind === 'DeviceClass') (obj as DeviceClass).spec.extendedResourceName = 'nvidia.com/gpu';
      if (obj.kind === 'ConfigMap' && obj.data?.['rules.yaml']) {
        // A device rule matches only devices held through resources.claims: crash by node instead.
        const rules = JSON.parse(obj.data['rules.yaml']) as Record<string, unknown>[];
        obj.data['rules.yaml'] = JSON.stringify(rules.map(({ device: _device, ...r }) => r));
      }
      if (obj.kind === 'Deployment') {
        const spec = (obj as Deployment).spec.template.spec;
        delete spec.resourceClaims;
        for (const c of spec.containers) c.resources = { limits: { 'nvidia.com/gpu': '1' } };
      }
      return obj;
    });
}

let env: SimClient;
let sim: Simulator;
let client: KubeClient;

beforeAll(async () => {
  env = await startSimClient({ scenario: extendedHealthScenario(), timeScale: 50 }, 'dra-ext-health');
  ({ sim, client } = env);
});

afterAll(() => env.close());

const livePods = (): Pod[] =>
  (sim.list('Pod', DETECTOR.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
const ready = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('an Unhealthy GPU reached as a DRA-backed extended resource, on the simulator', () => {
  it('says device health is not reported for the extended resource, and blames no device', async () => {
    await sim.waitFor(() => {
      const pods = livePods();
      return (
        pods.length === 3 &&
        pods.filter(ready).length === 2 &&
        pods.some((p) => (p.status?.containerStatuses ?? []).some((s) => isCrashLooping(s, Date.now())))
      );
    }, SIGNAL_WAIT_MS);
    const crashing = livePods().find((p) => !ready(p));
    expect(crashing?.spec.nodeName).toBe('gpu-node-1');
    const claimName = crashing?.status?.extendedResourceClaimStatus?.resourceClaimName ?? '';
    expect(claimName).not.toBe('');
    // As upstream's kubelet: no entry for a device reached through the extended resource.
    expect(crashing?.status?.containerStatuses?.[0]?.allocatedResourcesStatus).toBeUndefined();

    const snapshot = await collectSnapshot(client, DETECTOR);
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain('only on node gpu-node-1');
    expect(finding?.summary).toContain(
      `Device health is not reported for the extended resource nvidia.com/gpu of container detector, which a DeviceClass serves through DRA (the scheduler's claim ${claimName})`,
    );
    expect(finding?.summary).not.toMatch(/reports? (Healthy|Unhealthy)/);
    const ev = finding?.evidence.find((e) => e.type === 'device-health');
    expect(ev).toMatchObject({ verdict: 'unknown', unknown: 'absent' });
    if (ev?.type !== 'device-health') throw new Error('no device-health evidence');
    expect(ev.rows.find((r) => r.node === 'gpu-node-1')).toMatchObject({
      resource: 'nvidia.com/gpu',
      health: 'not reported',
      claim: claimName,
      driver: 'gpu.nvidia.com',
      pool: 'gpu-node-1',
    });
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });
});
