/**
 * Issue 14 item 4: a crash loop on the node whose DRA device the kubelet reports
 * Unhealthy (allocatedResourcesStatus) names that device; node exclusion is still
 * offered, and taint-device only where the cluster serves DeviceTaintRule. Unknown or
 * absent health blames nothing and is never called healthy.
 */
import { describe, expect, it } from 'vitest';
import { confirmDialogText, renderDiagnosis } from '../support/slack-run.js';
import { undoBlocks } from '../support/slack-run.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { renderText } from '../../src/report/text.js';
import type { Evidence } from '../../src/diagnosis/finding.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import type { DeviceTaintApi } from '../../src/diagnosis/snapshot/types.js';
import { checkPlanWithinKind } from '../../src/remediation/patch-allowlist.js';
import { deviceTaintRuleName } from '../../src/remediation/device-taint.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { claim, DRIVER } from '../support/dra-builders.js';
import { crashScenario } from '../support/crash-fixtures.js';

type Health = 'Healthy' | 'Unhealthy' | 'Unknown' | 'absent';

interface Options {
  /** One per pod; three pods unless `nodes` names more. */
  health: Health[];
  api?: DeviceTaintApi;
  /** How the kubelet names the device: driver/pool/device (no CDI ids) or the first CDI id. */
  cdi?: boolean;
  shared?: boolean;
  /** Claims in the snapshot (a dump may lack them). */
  withClaims?: boolean;
  resourceID?: (node: string) => string;
  /** Node per pod (default gpu-node-1..3) and device per pod (default gpu-0). */
  nodes?: string[];
  devices?: string[];
  /** Indexes of the crash-looping pods (default the first). */
  crashing?: number[];
}

/**
 * Seed B on GPU nodes: detector on gpu-node-1..3 (identical nodes), each pod with a
 * per-pod claim from template single-gpu allocated gpu-0 of its node; the pod on
 * gpu-node-1 crash-loops.
 */
function gpuCrash(options: Options) {
  const nodes = options.nodes ?? ['gpu-node-1', 'gpu-node-2', 'gpu-node-3'];
  const scenario = crashScenario({ placement: nodes, crashing: options.crashing ?? [0], oddNodes: [] });
  const claims: ResourceClaim[] = [];
  scenario.pods.forEach((pod: Pod, i) => {
    const node = nodes[i] ?? '';
    const gpu = options.devices?.[i] ?? 'gpu-0';
    pod.spec.resourceClaims = [
      options.shared
        ? { name: 'gpu', resourceClaimName: `shared-gpu-${i}` }
        : { name: 'gpu', resourceClaimTemplateName: 'single-gpu' },
    ];
    for (const c of pod.spec.containers) c.resources = { ...c.resources, claims: [{ name: 'gpu' }] };
    const name = options.shared ? `shared-gpu-${i}` : `${pod.metadata.name ?? ''}-gpu-m4zk${i + 2}`;
    claims.push(
      claim(name, 'vision', {
        device: gpu,
        node,
        pods: [pod],
        ...(options.shared ? {} : { owner: pod }),
      }),
    );
    if (!options.shared)
      pod.status = { ...pod.status, resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: name }] };
    const health = options.health[i] ?? 'absent';
    const status = pod.status?.containerStatuses?.[0];
    if (status && health !== 'absent') {
      const resourceID = options.resourceID
        ? options.resourceID(node)
        : options.cdi
          ? `k8s.gpu.nvidia.com/device=${gpu}`
          : `${DRIVER}/${node}/${gpu}`;
      status.allocatedResourcesStatus = [{ name: 'claim:gpu', resources: [{ resourceID, health }] }];
    }
  });
  const snapshot = {
    ...scenario.snapshot,
    ...(options.withClaims === false ? {} : { dra: { claims, templates: [], slices: [], classes: [] } }),
    ...(options.api ? { deviceTaintRules: options.api } : {}),
  };
  return { snapshot, pods: scenario.pods, claims };
}

function deviceEvidence(evidence: Evidence[]): Extract<Evidence, { type: 'device-health' }> {
  const found = evidence.find((e) => e.type === 'device-health');
  if (found?.type !== 'device-health') throw new Error('no device-health evidence');
  return found;
}

describe('CrashLoopOnNode with an Unhealthy DRA device', () => {
  it('names the device (driver/pool/device and claim) as the evidence and offers exclude-node and taint-device', () => {
    const { snapshot, pods } = gpuCrash({
      health: ['Unhealthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
    });
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain('only on node gpu-node-1');
    expect(finding?.summary).toContain(
      `device gpu.nvidia.com/gpu-node-1/gpu-0 (claim ${pods[0]?.metadata.name ?? ''}-gpu-m4zk2) Unhealthy`,
    );
    // The device explains it: no "suspect something on the node itself".
    expect(finding?.summary).not.toContain('suspect something');
    const ev = deviceEvidence(finding?.evidence ?? []);
    expect(ev.verdict).toBe('unhealthy');
    expect(ev.rows[0]).toMatchObject({
      node: 'gpu-node-1',
      health: 'Unhealthy',
      driver: DRIVER,
      pool: 'gpu-node-1',
      device: 'gpu-0',
    });

    const kinds = d.remediations.map((p) => p.kind);
    expect(kinds).toContain('exclude-node');
    expect(kinds).toContain('taint-device');
    // The fixture's Deployment carries no managedFields, so whether something re-applies
    // its affinity is unknown: the DeviceTaintRule, which no owner of the Deployment
    // reverts, ranks first (src/remediation/plan-order.ts).
    expect(d.remediations.find((p) => p.kind === 'exclude-node')?.drift?.reverted).toBe('unknown');
    expect(kinds.indexOf('taint-device')).toBeLessThan(kinds.indexOf('exclude-node'));
    // With only kubectl having written it (every API object names its writers), neither
    // is reverted and the builders' order stands: exclude-node, then taint-device.
    Object.assign(snapshot.deployment.metadata, {
      managedFields: [
        { manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: {} },
      ],
    });
    const written = diagnose(snapshot).remediations.map((p) => p.kind);
    expect(written.indexOf('exclude-node')).toBeLessThan(written.indexOf('taint-device'));
    const taint = d.remediations.find((p) => p.kind === 'taint-device');
    expect(taint?.deviceTaint).toEqual({
      apiVersion: 'resource.k8s.io/v1',
      name: deviceTaintRuleName({ driver: DRIVER, pool: 'gpu-node-1', device: 'gpu-0' }),
      driver: DRIVER,
      pool: 'gpu-node-1',
      device: 'gpu-0',
      node: 'gpu-node-1',
      resourceID: `${DRIVER}/gpu-node-1/gpu-0`,
      taint: { key: 'rollout-doctor.io/unhealthy', value: 'Unhealthy', effect: 'NoSchedule' },
    });
    // The holder is replaced (a NoSchedule taint alone moves nothing); healthy pods stay.
    expect(taint?.pods).toEqual([{ name: pods[0]?.metadata.name, uid: pods[0]?.metadata.uid }]);
    expect(taint?.patch).toBeNull();
    expect(taint?.warnings.join(' ')).toContain('cluster-scoped');
    expect(taint?.warnings.join(' ')).toContain('every tenant');
    expect(taint && checkPlanWithinKind(taint)).toEqual({ ok: true });
  });

  it('offers taint-device at v1beta2 with a beta warning, and not at all where DeviceTaintRule is not served or not known', () => {
    const beta = diagnose(
      gpuCrash({ health: ['Unhealthy', 'Healthy', 'Healthy'], api: 'resource.k8s.io/v1beta2' }).snapshot,
    );
    const plan = beta.remediations.find((p) => p.kind === 'taint-device');
    expect(plan?.deviceTaint?.apiVersion).toBe('resource.k8s.io/v1beta2');
    expect(plan?.warnings.join(' ')).toContain('beta');
    for (const api of ['not-served', undefined] as const) {
      const d = diagnose(
        gpuCrash({ health: ['Unhealthy', 'Healthy', 'Healthy'], ...(api ? { api } : {}) }).snapshot,
      );
      expect(d.remediations.map((p) => p.kind)).toContain('exclude-node');
      expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
      // The device is still named: the evidence does not depend on the plan.
      expect(d.findings[0]?.summary).toContain('gpu.nvidia.com/gpu-node-1/gpu-0');
    }
  });

  it('ties a CDI device id to the device through the claim allocation', () => {
    const { snapshot } = gpuCrash({
      health: ['Unhealthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
      cdi: true,
    });
    const d = diagnose(snapshot);
    expect(d.findings[0]?.summary).toContain('device gpu.nvidia.com/gpu-node-1/gpu-0');
    const plan = d.remediations.find((p) => p.kind === 'taint-device');
    expect(plan?.deviceTaint).toMatchObject({
      pool: 'gpu-node-1',
      device: 'gpu-0',
      resourceID: 'k8s.gpu.nvidia.com/device=gpu-0',
    });
  });

  it('multi-request claim with CDI ids: an Unhealthy device listed under the GPU request is not pinned on the GPU', () => {
    // The kubelet (UpdateAllocatedResourcesStatus) lists every device of the claim under
    // each claim:<name>/<request> entry: here the NIC of request "nic" shows up under
    // claim:gpu/gpu too, named by its CDI id. Which device that id is cannot be told.
    const { snapshot, claims } = gpuCrash({
      health: ['Healthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
    });
    for (const [i, pod] of snapshot.pods.entries()) {
      const node = pod.spec.nodeName ?? '';
      const results = claims[i]?.status?.allocation?.devices?.results;
      results?.push({ request: 'nic', driver: 'nic.example.com', pool: node, device: 'eth1' });
      for (const c of pod.spec.containers)
        c.resources = { ...c.resources, claims: [{ name: 'gpu', request: 'gpu' }] };
      const status = pod.status?.containerStatuses?.[0];
      if (status)
        status.allocatedResourcesStatus = [
          {
            name: 'claim:gpu/gpu',
            resources: [
              { resourceID: 'k8s.gpu.nvidia.com/device=gpu-0', health: 'Healthy' },
              { resourceID: 'nic.example.com/net=eth1', health: i === 0 ? 'Unhealthy' : 'Healthy' },
            ],
          },
        ];
    }
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    // The report is named as the kubelet gave it, never as the GPU.
    expect(finding?.summary).toContain('device nic.example.com/net=eth1');
    expect(finding?.summary).not.toContain('gpu.nvidia.com/gpu-node-1/gpu-0');
    const ev = deviceEvidence(finding?.evidence ?? []);
    expect(ev.rows.find((r) => r.health === 'Unhealthy')).not.toHaveProperty('device');
    // No rule for a guess; the node exclusion stays.
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
    expect(d.remediations.map((p) => p.kind)).toContain('exclude-node');
  });

  it('multi-request claim with driver/pool/device ids: the device listed under another request is the one named', () => {
    const { snapshot, claims } = gpuCrash({
      health: ['Healthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
    });
    for (const [i, pod] of snapshot.pods.entries()) {
      const node = pod.spec.nodeName ?? '';
      claims[i]?.status?.allocation?.devices?.results?.push({
        request: 'nic',
        driver: 'nic.example.com',
        pool: node,
        device: 'eth1',
      });
      const status = pod.status?.containerStatuses?.[0];
      if (status)
        status.allocatedResourcesStatus = [
          {
            name: 'claim:gpu/gpu',
            resources: [
              { resourceID: `${DRIVER}/${node}/gpu-0`, health: 'Healthy' },
              { resourceID: `nic.example.com/${node}/eth1`, health: i === 0 ? 'Unhealthy' : 'Healthy' },
            ],
          },
        ];
    }
    const d = diagnose(snapshot);
    const plan = d.remediations.find((p) => p.kind === 'taint-device');
    expect(plan?.deviceTaint).toMatchObject({
      driver: 'nic.example.com',
      pool: 'gpu-node-1',
      device: 'eth1',
    });
  });

  it('a CDI id without the claim is reported as is, and no rule is offered for a device it cannot name', () => {
    const { snapshot } = gpuCrash({
      health: ['Unhealthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
      cdi: true,
      withClaims: false,
    });
    const d = diagnose(snapshot);
    expect(d.findings[0]?.summary).toContain('device k8s.gpu.nvidia.com/device=gpu-0');
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });

  it('offers no taint-device on the pod status alone: a driver/pool/device id no claim read allocates may name another tenant device', () => {
    // Anyone who may write pods/status can put any id there; the claim's allocation is what the scheduler gave.
    const { snapshot } = gpuCrash({
      health: ['Unhealthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
      withClaims: false,
      resourceID: () => `${DRIVER}/gpu-node-9/gpu-3`,
    });
    const d = diagnose(snapshot);
    expect(d.findings[0]?.summary).toContain('device gpu.nvidia.com/gpu-node-9/gpu-3');
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });

  it('offers no taint-device for a shared claim (it keeps its device while any user remains)', () => {
    const { snapshot } = gpuCrash({
      health: ['Unhealthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
      shared: true,
    });
    const d = diagnose(snapshot);
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });
});

describe('look-alikes: device health that blames nothing', () => {
  it.each([
    [
      ['Unknown', 'Unknown', 'Unknown'],
      "The kubelet reports the health of the pods' devices as Unknown",
      'reported',
      'Unknown (reported by the kubelet): unknown, not healthy',
    ],
    [
      ['Unknown', 'Unknown', 'absent'],
      "The kubelet reports some of the pods' devices Unknown and reports no health for the others",
      'both',
      'Unknown (reported by the kubelet) for some devices, not reported for others',
    ],
    [
      ['absent', 'absent', 'absent'],
      "Device health is not reported for the pods' devices",
      'absent',
      'not reported (unknown, not healthy)',
    ],
  ] as [Options['health'], string, string, string][])(
    '%j: not blamed, Unknown (said by the kubelet) told apart from not reported, never healthy',
    (health, said, unknown, verdictLine) => {
      const { snapshot } = gpuCrash({ health, api: 'resource.k8s.io/v1' });
      const d = diagnose(snapshot);
      const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
      expect(finding?.summary).toContain(said);
      expect(finding?.summary).toContain('unknown, not healthy');
      if (unknown === 'reported') expect(finding?.summary).not.toContain('not reported');
      expect(finding?.summary).not.toMatch(/reports? Healthy/);
      expect(finding?.summary).not.toContain('Unhealthy');
      const ev = deviceEvidence(finding?.evidence ?? []);
      expect(ev).toMatchObject({ verdict: 'unknown', unknown });
      // The evidence's verdict line, in the terminal and in Slack.
      expect(renderText(d)).toContain(`Device health (allocatedResourcesStatus): ${verdictLine}`);
      const slack = JSON.stringify(
        renderDiagnosis({ cluster: 'prod', diagnosis: d, dryRuns: {}, plans: {} }),
      );
      expect(slack).toContain(verdictLine);
      expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
      expect(d.remediations.map((p) => p.kind)).toContain('exclude-node');
    },
  );

  it('Healthy on every node: the device is not blamed', () => {
    const { snapshot } = gpuCrash({ health: ['Healthy', 'Healthy', 'Healthy'], api: 'resource.k8s.io/v1' });
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain('reports Healthy: the device is not blamed');
    expect(deviceEvidence(finding?.evidence ?? []).verdict).toBe('healthy');
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });

  it('look-alike: two nodes crash, and the one whose device reports Healthy shows the device is not the cause', () => {
    const nodes = ['gpu-node-1', 'gpu-node-2', 'gpu-node-3', 'gpu-node-4'];
    for (const other of ['Healthy', 'Unknown'] as const) {
      const { snapshot } = gpuCrash({
        health: ['Unhealthy', other, 'Healthy', 'Healthy'],
        nodes,
        crashing: [0, 1],
        api: 'resource.k8s.io/v1',
      });
      const d = diagnose(snapshot);
      const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
      expect(finding?.summary).toContain('only on nodes gpu-node-1, gpu-node-2');
      expect(finding?.summary, other).not.toContain('the device, not the application');
      expect(deviceEvidence(finding?.evidence ?? []).verdict, other).toBe('not-blamed');
      expect(
        d.remediations.map((p) => p.kind),
        other,
      ).not.toContain('taint-device');
    }
  });

  it('two nodes crash, each on a device reported Unhealthy: the devices explain the crash', () => {
    const { snapshot } = gpuCrash({
      health: ['Unhealthy', 'Unhealthy', 'Healthy', 'Healthy'],
      nodes: ['gpu-node-1', 'gpu-node-2', 'gpu-node-3', 'gpu-node-4'],
      crashing: [0, 1],
      api: 'resource.k8s.io/v1',
    });
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(deviceEvidence(finding?.evidence ?? []).verdict).toBe('unhealthy');
    expect(finding?.summary).toContain('the device, not the application');
  });

  it('an Unhealthy device reported only by a healthy pod on another node blames nothing', () => {
    const { snapshot } = gpuCrash({ health: ['Healthy', 'Unhealthy', 'Healthy'], api: 'resource.k8s.io/v1' });
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).not.toContain('the device, not the application');
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
    // Reported, just not blamed: never worded as "not reported".
    expect(finding?.summary).not.toContain('not reported');
    expect(deviceEvidence(finding?.evidence ?? []).verdict).toBe('not-blamed');
  });
});

describe('device text in Slack', () => {
  it('escapes the device id the kubelet reports (untrusted) in the message and the thread', () => {
    const { snapshot } = gpuCrash({
      health: ['Unhealthy', 'Healthy', 'Healthy'],
      api: 'resource.k8s.io/v1',
      withClaims: false,
      resourceID: (node) =>
        node === 'gpu-node-1'
          ? 'vendor.example/gpu=<!channel> `x` <https://evil.example|ok>'
          : `${DRIVER}/${node}/gpu-0`,
    });
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings[0]?.summary).toContain('<!channel>');
    const rendered = renderDiagnosis({ cluster: 'prod', diagnosis, dryRuns: {}, plans: {} });
    const all = JSON.stringify([rendered.blocks, rendered.thread]);
    expect(JSON.stringify(rendered.thread)).toContain('Device health');
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<https://evil.example');
    expect(all).toContain('&lt;!channel&gt;');
  });
});

describe('taint-device in the approval flow', () => {
  it('says in the dialog that the rule is cluster-wide, and its Undo deletes only the rule', () => {
    const d = diagnose(
      gpuCrash({ health: ['Unhealthy', 'Healthy', 'Healthy'], api: 'resource.k8s.io/v1' }).snapshot,
    );
    const plan = d.remediations.find((p) => p.kind === 'taint-device');
    if (!plan?.deviceTaint) throw new Error('no taint-device plan');
    expect(confirmDialogText(plan)).toContain(
      'Taint device gpu.nvidia.com/gpu-node-1/gpu-0 NoSchedule (a cluster-wide DeviceTaintRule, every tenant)',
    );
    const undo = inversePlan(plan, { generation: 2, changes: [] });
    expect(undo).toMatchObject({ kind: 'untaint-device', patch: null, deviceTaint: plan.deviceTaint });
    expect(undo?.pods).toBeUndefined();
    expect(undo && checkPlanWithinKind(undo)).toEqual({ ok: true });
    if (!undo) return;
    expect(confirmDialogText(undo, { undo: true })).toContain(
      `Delete DeviceTaintRule ${plan.deviceTaint.name}: new claims may get device gpu.nvidia.com/gpu-node-1/gpu-0 again.`,
    );
    const text = JSON.stringify(
      undoBlocks({ plan: undo, cluster: 'prod', createdAt: 0, expiresAt: 1, undoOf: plan.id }),
    );
    expect(text).toContain('Undo* restores device gpu.nvidia.com/gpu-node-1/gpu-0 to new claims');
    expect(text).toContain('deletes no pod');
    expect(text).not.toContain('strategy');
  });
});

describe('device health in the terminal report', () => {
  it('lists each device with its health and says whether the device alone can be tainted', () => {
    const served = renderText(
      diagnose(gpuCrash({ health: ['Unhealthy', 'Unknown', 'absent'], api: 'resource.k8s.io/v1' }).snapshot),
    );
    expect(served).toMatch(
      /Device health \(allocatedResourcesStatus\): a device of a crashing pod reports Unhealthy/,
    );
    expect(served).toMatch(
      /gpu-node-1\s+detector-\S+\s+detector\s+gpu\.nvidia\.com\/gpu-node-1\/gpu-0\s+\S+\s+Unhealthy/,
    );
    expect(served).toMatch(/gpu-node-3\s+detector-\S+\s+-\s+-\s+-\s+not reported/);
    expect(served).toContain('The cluster serves DeviceTaintRule (resource.k8s.io/v1)');
    const dump = renderText(diagnose(gpuCrash({ health: ['Unhealthy', 'Healthy', 'Healthy'] }).snapshot));
    expect(dump).toContain('Whether the cluster serves DeviceTaintRule was not read');
  });
});

describe('CrashLoop on a multi-GPU node: one pod on the Unhealthy GPU, its neighbour on another GPU runs', () => {
  const multi = (health: Options['health'], api?: DeviceTaintApi) =>
    gpuCrash({
      health,
      ...(api ? { api } : {}),
      nodes: ['gpu-node-1', 'gpu-node-1', 'gpu-node-2'],
      devices: ['gpu-0', 'gpu-1', 'gpu-0'],
    });

  it('blames the device, not the node or the application, and offers taint-device for it alone', () => {
    const { snapshot, pods } = multi(['Unhealthy', 'Healthy', 'Healthy'], 'resource.k8s.io/v1');
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoop');
    expect(finding?.summary).toContain('device gpu.nvidia.com/gpu-node-1/gpu-0');
    expect(finding?.summary).toContain('the device, not the application or the node');
    expect(finding?.explanation).not.toContain('The cause is in the container');
    expect(d.remediations.map((p) => p.kind)).toEqual(['taint-device']);
    const plan = d.remediations[0];
    expect(plan?.deviceTaint).toMatchObject({ pool: 'gpu-node-1', device: 'gpu-0' });
    expect(plan?.pods).toEqual([{ name: pods[0]?.metadata.name, uid: pods[0]?.metadata.uid }]);
  });

  it('look-alike: the running neighbour reports its own device Unhealthy too: Unhealthy does not explain the crash', () => {
    const d = diagnose(multi(['Unhealthy', 'Unhealthy', 'Healthy'], 'resource.k8s.io/v1').snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoop');
    expect(finding?.summary).not.toContain('the device, not the application');
    expect(finding?.summary).not.toContain('not reported');
    expect(deviceEvidence(finding?.evidence ?? []).verdict).toBe('not-blamed');
    expect(finding?.explanation).toContain('The cause is in the container');
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });

  it('look-alike: Unknown health there blames nothing and keeps the container verdict', () => {
    const d = diagnose(multi(['Unknown', 'Unknown', 'Unknown'], 'resource.k8s.io/v1').snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoop');
    expect(finding?.summary).toContain("The kubelet reports the health of the pods' devices as Unknown");
    expect(finding?.summary).not.toContain('not reported');
    expect(finding?.explanation).toContain('The cause is in the container');
    expect(d.remediations).toEqual([]);
  });
});

/**
 * The GPU asked for as `nvidia.com/gpu: 1`. On DRA nodes a DeviceClass with
 * extendedResourceName serves it: the scheduler creates one claim per pod
 * (`status.extendedResourceClaimStatus`) and the kubelet writes no allocatedResourcesStatus
 * for it (UpdateAllocatedResourcesStatus in pkg/kubelet/cm/dra/manager.go walks only a
 * container's resources.claims; kubernetes/kubernetes#139939), whatever the driver says.
 * With `plugin` a device plugin serves it instead: the device manager names the entry
 * after the resource and the device by the plugin's id.
 */
function extendedGpuCrash(options: { plugin?: Health[]; api?: DeviceTaintApi }) {
  const nodes = ['gpu-node-1', 'gpu-node-2', 'gpu-node-3'];
  const scenario = crashScenario({ placement: nodes, crashing: [0], oddNodes: [] });
  const claims: ResourceClaim[] = [];
  scenario.pods.forEach((pod: Pod, i) => {
    const node = nodes[i] ?? '';
    for (const c of pod.spec.containers)
      c.resources = { ...c.resources, limits: { ...c.resources?.limits, 'nvidia.com/gpu': '1' } };
    const status = pod.status?.containerStatuses?.[0];
    if (options.plugin) {
      const health = options.plugin[i] ?? 'absent';
      if (status && health !== 'absent')
        status.allocatedResourcesStatus = [
          {
            name: 'nvidia.com/gpu',
            resources: [{ resourceID: `GPU-8c1e4f7a-${i}d2b-4e9a-b7c3-${node}`, health }],
          },
        ];
      return;
    }
    const name = `${pod.metadata.name ?? ''}-extended-resources-q${i}x9z`;
    const c = claim(name, 'vision', {
      request: { name: 'container-0-request-0', exactly: { deviceClassName: DRIVER } },
      device: 'gpu-0',
      node,
      pods: [pod],
      owner: pod,
      annotations: { 'resource.kubernetes.io/extended-resource-claim': 'true' },
    });
    for (const r of c.status?.allocation?.devices?.results ?? []) r.request = 'container-0-request-0';
    claims.push(c);
    pod.status = {
      ...pod.status,
      extendedResourceClaimStatus: {
        resourceClaimName: name,
        requestMappings: [
          { containerName: 'detector', resourceName: 'nvidia.com/gpu', requestName: 'container-0-request-0' },
        ],
      },
    };
  });
  const snapshot = {
    ...scenario.snapshot,
    dra: { claims, templates: [], slices: [], classes: [] },
    ...(options.api ? { deviceTaintRules: options.api } : {}),
  };
  return { snapshot, pods: scenario.pods, claims };
}

describe('CrashLoopOnNode with the GPU asked for as an extended resource', () => {
  it('backed by DRA: says plainly that the kubelet reports no health for the extended resource, and blames nothing', () => {
    const { snapshot, pods, claims } = extendedGpuCrash({ api: 'resource.k8s.io/v1' });
    const d = diagnose(snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain('only on node gpu-node-1');
    expect(finding?.summary).toContain(
      `Device health is not reported for the extended resource nvidia.com/gpu of container detector, which a DeviceClass serves through DRA (the scheduler's claim ${claims[0]?.metadata.name ?? ''})`,
    );
    expect(finding?.summary).toContain('not for extended resources backed by DRA');
    expect(finding?.summary).toContain('unknown, not healthy');
    expect(finding?.summary).toContain('neither blamed nor cleared');
    // Named once, not also as the pods' devices in general.
    expect(finding?.summary).not.toContain("for the pods' devices");
    expect(finding?.summary).not.toMatch(/reports? (Healthy|Unhealthy)/);
    const ev = deviceEvidence(finding?.evidence ?? []);
    expect(ev).toMatchObject({ verdict: 'unknown', unknown: 'absent' });
    // Each pod's row names the device its claim holds, with no health.
    expect(ev.rows).toHaveLength(3);
    expect(ev.rows[0]).toEqual({
      node: 'gpu-node-1',
      pod: pods[0]?.metadata.name,
      container: 'detector',
      resource: 'nvidia.com/gpu',
      health: 'not reported',
      driver: DRIVER,
      pool: 'gpu-node-1',
      device: 'gpu-0',
      claim: claims[0]?.metadata.name,
    });
    expect(ev.rows.every((r) => r.health === 'not reported')).toBe(true);
    expect(renderText(d)).toMatch(
      /gpu-node-1\s+detector-\S+\s+detector\s+gpu\.nvidia\.com\/gpu-node-1\/gpu-0\s+\S+-extended-resources-\S+\s+not reported/,
    );
    const kinds = d.remediations.map((p) => p.kind);
    expect(kinds).not.toContain('taint-device');
    expect(kinds).toContain('exclude-node');
  });

  it('backed by DRA on a CrashLoop (crashing next to a running pod): the same plain statement', () => {
    const { snapshot } = extendedGpuCrash({ api: 'resource.k8s.io/v1' });
    // Every pod on gpu-node-1: one crashes, two run, so the crash is not node-local.
    const pods = snapshot.pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: 'gpu-node-1' } }));
    const d = diagnose({ ...snapshot, pods });
    const finding = d.findings.find((f) => f.code === 'CrashLoop');
    expect(finding?.summary).toContain(
      'Device health is not reported for the extended resource nvidia.com/gpu of container detector',
    );
    expect(deviceEvidence(finding?.evidence ?? []).verdict).toBe('unknown');
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });

  it('look-alike: a device plugin serves nvidia.com/gpu and reports the device Unhealthy on the bad node: blamed as before', () => {
    const d = diagnose(
      extendedGpuCrash({ plugin: ['Unhealthy', 'Healthy', 'Healthy'], api: 'resource.k8s.io/v1' }).snapshot,
    );
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain('device GPU-8c1e4f7a-0d2b-4e9a-b7c3-gpu-node-1 Unhealthy');
    expect(finding?.summary).not.toContain('extended resource');
    const ev = deviceEvidence(finding?.evidence ?? []);
    expect(ev.verdict).toBe('unhealthy');
    expect(ev.rows[0]).toMatchObject({ node: 'gpu-node-1', resource: 'nvidia.com/gpu', health: 'Unhealthy' });
    expect(ev.rows[0]).not.toHaveProperty('driver');
    // A device-plugin id names no DRA device: no DeviceTaintRule on a guess.
    expect(d.remediations.map((p) => p.kind)).not.toContain('taint-device');
  });

  it('look-alike: a device plugin reports Unknown: not blamed, said as Unknown, nothing about DRA', () => {
    const d = diagnose(extendedGpuCrash({ plugin: ['Unknown', 'Unknown', 'Unknown'] }).snapshot);
    const finding = d.findings.find((f) => f.code === 'CrashLoopOnNode');
    expect(finding?.summary).toContain("The kubelet reports the health of the pods' devices as Unknown");
    expect(finding?.summary).not.toContain('extended resource');
    expect(deviceEvidence(finding?.evidence ?? [])).toMatchObject({
      verdict: 'unknown',
      unknown: 'reported',
    });
  });
});
