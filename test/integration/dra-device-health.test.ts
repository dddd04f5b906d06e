/**
 * Issue 14 item 4 end to end on the simulator: the driver reports one GPU Unhealthy,
 * the pod holding it crash-loops, the diagnosis names the device from the pod's
 * allocatedResourcesStatus, and the taint-device plan applied through the executor
 * creates the DeviceTaintRule and replaces the holder, whose replacement is allocated
 * the node's other GPU and runs. Undo deletes the rule.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { isCrashLooping } from '../../src/diagnosis/crash/container-failures.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { deviceTaintRuleName, type DeviceTaintRuleObject } from '../../src/remediation/device-taint.js';
import { BAD_DEVICE, DETECTOR, deviceHealthScenario } from '../support/dra-health-scenario.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let dir: string;
let sim: Simulator;
let client: KubeClient;
let kubeconfig: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dra-health-'));
  sim = await startSimulator({ scenario: deviceHealthScenario(), timeScale: 50 });
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, sim.kubeconfig);
  kubeconfig = file;
  client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const livePods = (): Pod[] =>
  (sim.list('Pod', DETECTOR.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
const ready = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const claimOf = (pod: Pod): ResourceClaim | undefined => {
  const name = pod.status?.resourceClaimStatuses?.[0]?.resourceClaimName;
  return name ? (sim.get('ResourceClaim', DETECTOR.namespace, name) as ResourceClaim | undefined) : undefined;
};
const deviceOf = (pod: Pod): string => {
  const r = claimOf(pod)?.status?.allocation?.devices?.results?.[0];
  return r ? `${r.driver}/${r.pool}/${r.device}` : '';
};

describe('an Unhealthy GPU behind a crash loop, on the simulator', () => {
  it('diagnoses the device, taints just it and replaces its pod, which lands on the other GPU; Undo removes the rule', async () => {
    // The pod on gpu-0 of gpu-node-1 crash-loops; the two others run Ready.
    await sim.waitFor(() => {
      const pods = livePods();
      return (
        pods.length === 3 &&
        pods.filter(ready).length === 2 &&
        pods.some(
          (p) =>
            deviceOf(p) === BAD_DEVICE &&
            (p.status?.containerStatuses ?? []).some((s) => isCrashLooping(s, Date.now())),
        )
      );
    }, SIGNAL_WAIT_MS);
    const holder = livePods().find((p) => deviceOf(p) === BAD_DEVICE);
    expect(holder?.spec.nodeName).toBe('gpu-node-1');
    expect(holder?.status?.containerStatuses?.[0]?.allocatedResourcesStatus).toEqual([
      { name: 'claim:gpu', resources: [{ resourceID: BAD_DEVICE, health: 'Unhealthy' }] },
    ]);

    const snapshot = await collectSnapshot(client, DETECTOR);
    expect(snapshot.deviceTaintRules).toBe('resource.k8s.io/v1');
    const diagnosis = diagnose(snapshot);
    const finding = diagnosis.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain(
      `device ${BAD_DEVICE} (claim ${claimOf(holder as Pod)?.metadata.name ?? ''}) Unhealthy`,
    );
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['exclude-node', 'taint-device']),
    );
    const plan = diagnosis.remediations.find((p) => p.kind === 'taint-device');
    if (!plan?.deviceTaint) throw new Error('no taint-device plan');
    expect(plan.pods).toEqual([{ name: holder?.metadata.name, uid: holder?.metadata.uid }]);

    expect(await dryRunPlan(client, plan)).toMatchObject({ ok: true });
    // The dry run wrote nothing.
    expect(sim.get('DeviceTaintRule', undefined, plan.deviceTaint.name)).toBeUndefined();
    const result = await applyPlan(client, plan);
    expect(result.status, 'reason' in result ? result.reason : '').toBe('applied');

    const rule = sim.get('DeviceTaintRule', undefined, plan.deviceTaint.name) as
      DeviceTaintRuleObject | undefined;
    expect(rule?.spec).toEqual({
      deviceSelector: { driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' },
      // timeAdded: set by the API server.
      taint: {
        key: 'rollout-doctor.io/unhealthy',
        value: 'Unhealthy',
        effect: 'NoSchedule',
        timeAdded: expect.stringMatching(/^\d{4}-/) as unknown,
      },
    });
    expect(rule?.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'rollout-doctor' });

    // The holder is replaced; its replacement (anti-affinity keeps it on gpu-node-1)
    // gets gpu-1, not the tainted gpu-0, and runs.
    await sim.waitFor(() => {
      const pods = livePods();
      return (
        pods.length === 3 && !pods.some((p) => p.metadata.uid === holder?.metadata.uid) && pods.every(ready)
      );
    }, SIGNAL_WAIT_MS);
    const replacement = livePods().find((p) => p.spec.nodeName === 'gpu-node-1');
    expect(deviceOf(replacement as Pod)).toBe('gpu.nvidia.com/gpu-node-1/gpu-1');

    // kubectl (no compiled-in type for this kind) lists and describes it from the server.
    const kubectl = async (...args: string[]): Promise<string> =>
      (await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 20_000 }))
        .stdout;
    expect(await kubectl('get', 'devicetaintrules')).toMatch(
      new RegExp(`^NAME\\s+AGE\\n${plan.deviceTaint.name}\\s+\\d+s\\n$`),
    );
    const described = await kubectl('describe', 'devicetaintrule', plan.deviceTaint.name);
    expect(described).toContain('rollout-doctor.io/unhealthy');
    expect(described).toContain('gpu-node-1');

    // A second apply of the same approval finds its work done.
    expect((await applyPlan(client, plan)).status).toBe('already-applied');

    const undo = result.status === 'applied' ? inversePlan(plan, result) : null;
    expect(undo?.kind).toBe('untaint-device');
    if (!undo) throw new Error('no undo');
    expect((await applyPlan(client, undo)).status).toBe('applied');
    expect(sim.get('DeviceTaintRule', undefined, plan.deviceTaint.name)).toBeUndefined();
  });

  it('refuses, writing nothing, when the device recovered or a different rule holds the name', async () => {
    const fresh = await startSimulator({ scenario: deviceHealthScenario(), timeScale: 50 });
    const file = join(dir, 'kubeconfig-2');
    writeFileSync(file, fresh.kubeconfig);
    const c = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
    try {
      const pods = (): Pod[] =>
        (fresh.list('Pod', DETECTOR.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
      const crashing = (): Pod | undefined =>
        pods().find((p) =>
          (p.status?.containerStatuses ?? []).some(
            (s) =>
              isCrashLooping(s, Date.now()) &&
              s.allocatedResourcesStatus?.[0]?.resources?.[0]?.health === 'Unhealthy',
          ),
        );
      await fresh.waitFor(() => crashing() !== undefined, SIGNAL_WAIT_MS);
      const plan = diagnose(await collectSnapshot(c, DETECTOR)).remediations.find(
        (p) => p.kind === 'taint-device',
      );
      if (!plan?.deviceTaint) throw new Error('no taint-device plan');

      // Someone else's rule under the name: never overwritten, never adopted.
      const foreign = fresh.apply({
        apiVersion: 'resource.k8s.io/v1',
        kind: 'DeviceTaintRule',
        metadata: { name: plan.deviceTaint.name },
        spec: {
          deviceSelector: { driver: 'gpu.nvidia.com' },
          taint: { key: 'example.com/maintenance', effect: 'NoExecute' },
        },
      }) as DeviceTaintRuleObject;
      const clash = await applyPlan(c, plan);
      expect(clash).toMatchObject({ status: 'refused' });
      expect(clash.status === 'refused' ? clash.reason : '').toContain(
        'exists with another selector or taint',
      );
      expect(
        (fresh.get('DeviceTaintRule', undefined, plan.deviceTaint.name) as DeviceTaintRuleObject).spec,
      ).toEqual(foreign.spec);

      // The driver now reports the device Healthy: nothing is tainted, no pod deleted.
      await c.call({ verb: 'delete', resource: 'devicetaintrules', name: plan.deviceTaint.name });
      const cm = fresh.get('ConfigMap', 'kube-system', 'kube-sim') as { data: Record<string, string> };
      fresh.apply({
        ...cm,
        data: { ...cm.data, 'devices.yaml': JSON.stringify([{ device: BAD_DEVICE, health: 'Healthy' }]) },
      });
      const holder = plan.pods?.[0];
      // The kubelet passes the driver's new report on to the running pod's status.
      await fresh.waitFor(
        () =>
          (fresh.get('Pod', DETECTOR.namespace, holder?.name ?? '') as Pod | undefined)?.status
            ?.containerStatuses?.[0]?.allocatedResourcesStatus?.[0]?.resources?.[0]?.health === 'Healthy',
      );
      const recovered = await applyPlan(c, plan);
      expect(recovered).toMatchObject({ status: 'refused' });
      expect(recovered.status === 'refused' ? recovered.reason : '').toContain(
        'no longer reported Unhealthy',
      );
      expect(fresh.get('DeviceTaintRule', undefined, plan.deviceTaint.name)).toBeUndefined();
      expect(pods().some((p) => p.metadata.uid === holder?.uid)).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a plan whose rule selects a device no pod of the plan holds, though a pod reports a CDI id Unhealthy', async () => {
    // A CDI id ("vendor/class=name") does not name driver, pool and device, so the allowlist
    // cannot tie the rule to the report; the claims read at apply time must.
    const fresh = await startSimulator({ scenario: deviceHealthScenario(), timeScale: 50 });
    const file = join(dir, 'kubeconfig-3');
    writeFileSync(file, fresh.kubeconfig);
    const c = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
    try {
      const pods = (): Pod[] =>
        (fresh.list('Pod', DETECTOR.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
      const crashingOnBad = (): boolean =>
        pods().some((p) =>
          (p.status?.containerStatuses ?? []).some(
            (s) =>
              isCrashLooping(s, Date.now()) &&
              s.allocatedResourcesStatus?.[0]?.resources?.[0]?.health === 'Unhealthy',
          ),
        );
      const onNode2 = (): Pod | undefined => pods().find((p) => p.spec.nodeName === 'gpu-node-2' && ready(p));
      await fresh.waitFor(() => crashingOnBad() && onNode2() !== undefined, SIGNAL_WAIT_MS);
      const genuine = diagnose(await collectSnapshot(c, DETECTOR)).remediations.find(
        (p) => p.kind === 'taint-device',
      );
      if (!genuine?.deviceTaint) throw new Error('no taint-device plan');
      // The pod on gpu-node-2 (healthy, Ready) now reports its device by a CDI id, Unhealthy.
      const victim = onNode2() as Pod;
      const cdi = 'nvidia.com/gpu=GPU-gpu-node-2-0';
      const status = victim.status?.containerStatuses?.[0];
      if (status)
        status.allocatedResourcesStatus = [
          { name: 'claim:gpu', resources: [{ resourceID: cdi, health: 'Unhealthy' }] },
        ];
      fresh.apply(victim);
      // The crafted plan: delete that pod and taint gpu-node-1's gpu-1, which it does not hold.
      const other = { driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-1' };
      const crafted = {
        ...genuine,
        pods: [{ name: victim.metadata.name ?? '', uid: victim.metadata.uid ?? '' }],
        deviceTaint: {
          ...genuine.deviceTaint,
          ...other,
          node: 'gpu-node-2',
          resourceID: cdi,
          name: deviceTaintRuleName(other),
        },
      };
      const result = await applyPlan(c, crafted);
      expect(result.status).toBe('refused');
      expect(result.status === 'refused' ? result.reason : '').toContain(
        'gpu.nvidia.com/gpu-node-1/gpu-1 is not allocated to a claim reserved for',
      );
      expect(fresh.list('DeviceTaintRule')).toEqual([]);
      expect(pods().some((p) => p.metadata.uid === victim.metadata.uid)).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
