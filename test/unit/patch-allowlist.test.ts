import { describe, expect, it } from 'vitest';
import { checkPlanWithinKind } from '../../src/remediation/patch-allowlist.js';
const checkPatchAllowed = (kind: RemediationKind, patch: Patch | null, live: unknown) =>
  checkPlanWithinKind(
    {
      kind,
      patch,
      pods: kind === 'delete-pods' ? [{ name: 'p', uid: 'u' }] : undefined,
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    },
    live,
  );
import type { Patch, RemediationKind } from '../../src/remediation/plan.js';
import { APPLY_TIME } from '../../src/remediation/restart-time.js';
import {
  DEVICE_TAINT_KEY,
  DEVICE_TAINT_VALUE,
  deviceTaintRuleName,
} from '../../src/remediation/device-taint.js';

const RESTART = 'kubectl.kubernetes.io/restartedAt';
const NOT_IN = {
  nodeSelectorTerms: [
    { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
  ],
};

function live(affinity?: unknown): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', uid: 'u1', generation: 4, resourceVersion: '10' },
    spec: {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { team: 'a' } },
        spec: {
          containers: [{ name: 'web', image: 'web:1' }],
          ...(affinity === undefined ? {} : { affinity }),
        },
      },
    },
  };
}

const smp = (body: unknown): Patch => ({ type: 'strategic-merge', body });
const merge = (body: unknown): Patch => ({ type: 'merge', body });
const json = (body: unknown): Patch => ({ type: 'json', body });
const AFF = '/spec/template/spec/affinity';
const ANN = `/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt`;
const podAnti = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] } };

type Row = [string, RemediationKind, Patch | null, unknown, boolean];

const rows: Row[] = [
  // What the builders emit.
  [
    'set-rolling-update with restart',
    'set-rolling-update',
    smp({
      spec: {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        template: { metadata: { annotations: { [RESTART]: APPLY_TIME } } },
      },
    }),
    live(),
    true,
  ],
  [
    'set-rolling-update with a restart time of its own',
    'set-rolling-update',
    smp({
      spec: {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        template: { metadata: { annotations: { [RESTART]: '2026-11-22T03:00:00Z' } } },
      },
    }),
    live(),
    false,
  ],
  [
    'set-recreate',
    'set-recreate',
    smp({ spec: { strategy: { type: 'Recreate', rollingUpdate: null } } }),
    live(),
    true,
  ],
  ['strategy undo to absent', 'set-recreate', smp({ spec: { strategy: null } }), live(), true],
  [
    'rollout-restart',
    'rollout-restart',
    smp({ spec: { template: { metadata: { annotations: { [RESTART]: APPLY_TIME } } } } }),
    live(),
    true,
  ],
  [
    'rollout-restart with a time of its own',
    'rollout-restart',
    smp({ spec: { template: { metadata: { annotations: { [RESTART]: 'now' } } } } }),
    live(),
    false,
  ],
  [
    'exclude-node add (no affinity before)',
    'exclude-node',
    json([
      { op: 'test', path: '/metadata/generation', value: 4 },
      {
        op: 'add',
        path: AFF,
        value: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: NOT_IN } },
      },
    ]),
    live(),
    true,
  ],
  [
    'exclude-node replace keeping podAntiAffinity',
    'exclude-node',
    json([
      { op: 'test', path: AFF, value: podAnti },
      {
        op: 'replace',
        path: AFF,
        value: { ...podAnti, nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: NOT_IN } },
      },
    ]),
    live(podAnti),
    true,
  ],
  [
    'exclude-node undo (remove)',
    'exclude-node',
    json([{ op: 'remove', path: AFF }]),
    live({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: NOT_IN } }),
    true,
  ],
  ['delete-pods without patch', 'delete-pods', null, live(), true],

  // Outside the allowlist.
  [
    'image change in a strategy plan',
    'set-rolling-update',
    smp({
      spec: {
        strategy: { type: 'Recreate' },
        template: { spec: { containers: [{ name: 'web', image: 'evil' }] } },
      },
    }),
    live(),
    false,
  ],
  [
    'privileged via merge patch',
    'rollout-restart',
    merge({ spec: { template: { spec: { hostPID: true } } } }),
    live(),
    false,
  ],
  ['replicas in a restart', 'rollout-restart', smp({ spec: { replicas: 0 } }), live(), false],
  [
    'strategy in a restart plan',
    'rollout-restart',
    smp({ spec: { strategy: { type: 'Recreate' } } }),
    live(),
    false,
  ],
  [
    'other annotation',
    'rollout-restart',
    smp({ spec: { template: { metadata: { annotations: { team: 'b' } } } } }),
    live(),
    false,
  ],
  ['metadata label', 'set-recreate', smp({ metadata: { labels: { x: 'y' } } }), live(), false],
  [
    '$patch replace at spec',
    'set-recreate',
    smp({ spec: { $patch: 'replace', strategy: { type: 'Recreate' } } }),
    live(),
    false,
  ],
  [
    '$retainKeys',
    'set-recreate',
    smp({ spec: { $retainKeys: ['strategy'], strategy: { type: 'Recreate' } } }),
    live(),
    false,
  ],
  [
    '$setElementOrder',
    'rollout-restart',
    smp({ spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'web' }] } } } }),
    live(),
    false,
  ],
  ['spec null', 'set-recreate', smp({ spec: null }), live(), false],
  ['whole template replaced', 'rollout-restart', merge({ spec: { template: null } }), live(), false],
  [
    'json image',
    'rollout-restart',
    json([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'x' }]),
    live(),
    false,
  ],
  [
    'json move',
    'set-recreate',
    json([{ op: 'move', from: '/spec/replicas', path: '/spec/strategy/x' }]),
    live(),
    false,
  ],
  [
    'json copy',
    'set-recreate',
    json([{ op: 'copy', from: '/spec/template', path: '/spec/strategy/x' }]),
    live(),
    false,
  ],
  [
    'json bad escape',
    'rollout-restart',
    json([{ op: 'add', path: '/spec/template/metadata/annotations/a~2b', value: 'x' }]),
    live(),
    false,
  ],
  ['json whole object', 'rollout-restart', json([{ op: 'replace', path: '', value: {} }]), live(), false],
  [
    'json restart annotation (escaped) is fine',
    'rollout-restart',
    json([{ op: 'add', path: ANN, value: APPLY_TIME }]),
    live(),
    true,
  ],
  [
    'json restart annotation with a time of its own',
    'rollout-restart',
    json([{ op: 'add', path: ANN, value: '2026-11-22T03:00:00Z' }]),
    live(),
    false,
  ],
  [
    'json annotations map replaced, dropping another annotation',
    'rollout-restart',
    json([{ op: 'replace', path: '/spec/template/metadata/annotations', value: { [RESTART]: 'now' } }]),
    live(),
    false,
  ],
  [
    'exclude-node dropping podAntiAffinity',
    'exclude-node',
    json([
      {
        op: 'replace',
        path: AFF,
        value: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: NOT_IN } },
      },
    ]),
    live(podAnti),
    false,
  ],
  [
    'exclude-node touching preferred terms',
    'exclude-node',
    json([
      {
        op: 'add',
        path: AFF,
        value: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
      },
    ]),
    live(),
    false,
  ],
  [
    'exclude-node plus tolerations',
    'exclude-node',
    json([{ op: 'add', path: '/spec/template/spec/tolerations', value: [{ operator: 'Exists' }] }]),
    live(),
    false,
  ],
  [
    'exclude-node via strategic merge with a list outside',
    'exclude-node',
    smp({ spec: { template: { spec: { tolerations: [] } } } }),
    live(),
    false,
  ],
  ['json remove of absent field', 'exclude-node', json([{ op: 'remove', path: AFF }]), live(), false],
  ['json patch body not a list', 'exclude-node', json({ op: 'add' }), live(), false],
  ['delete-pods with a patch', 'delete-pods', smp({ spec: { replicas: 0 } }), live(), false],
  ['strategy plan without patch', 'set-recreate', null, live(), false],
];

describe('checkPatchAllowed', () => {
  it.each(rows)('%s', (_name, kind, patch, deployment, expected) => {
    const verdict = checkPatchAllowed(kind, patch, deployment);
    expect(verdict.ok, JSON.stringify(verdict)).toBe(expected);
  });

  it('does not mutate the live object', () => {
    const deployment = live(podAnti);
    const before = JSON.stringify(deployment);
    checkPatchAllowed('exclude-node', json([{ op: 'remove', path: AFF }]), deployment);
    checkPatchAllowed('set-recreate', smp({ spec: { strategy: null } }), deployment);
    expect(JSON.stringify(deployment)).toBe(before);
  });
});

describe('taint-device and untaint-device: one fixed DeviceTaintRule, derived from the device', () => {
  const device = { driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' };
  const target = {
    apiVersion: 'resource.k8s.io/v1' as const,
    name: deviceTaintRuleName(device),
    ...device,
    node: 'gpu-node-1',
    resourceID: 'gpu.nvidia.com/gpu-node-1/gpu-0',
    taint: { key: DEVICE_TAINT_KEY, value: DEVICE_TAINT_VALUE, effect: 'NoSchedule' as const },
  };
  const base = {
    kind: 'taint-device' as const,
    patch: null,
    pods: [{ name: 'detector-x2k9p', uid: 'u1' }],
    target: { kind: 'Deployment' as const, namespace: 'vision', name: 'detector' },
    deviceTaint: target,
  };

  it('accepts the plan as built', () => {
    expect(checkPlanWithinKind(base)).toEqual({ ok: true });
    expect(checkPlanWithinKind({ ...base, kind: 'untaint-device', pods: [] })).toEqual({ ok: true });
  });

  it.each([
    ['another taint key', { deviceTaint: { ...target, taint: { ...target.taint, key: 'example.com/x' } } }],
    [
      'NoExecute (evicts every tenant)',
      { deviceTaint: { ...target, taint: { ...target.taint, effect: 'NoExecute' } } },
    ],
    ['a rule name not derived from the device', { deviceTaint: { ...target, name: 'someone-elses-rule' } }],
    ['another device under the same name', { deviceTaint: { ...target, device: 'gpu-1' } }],
    [
      'another device, renamed to match, keeping the Unhealthy report of the first',
      {
        deviceTaint: {
          ...target,
          device: 'gpu-1',
          name: deviceTaintRuleName({ ...device, device: 'gpu-1' }),
        },
      },
    ],
    [
      'the same device name in another pool than the one reported Unhealthy',
      {
        deviceTaint: {
          ...target,
          pool: 'gpu-node-2',
          name: deviceTaintRuleName({ ...device, pool: 'gpu-node-2' }),
        },
      },
    ],
    ['an unknown API version', { deviceTaint: { ...target, apiVersion: 'resource.k8s.io/v1alpha3' } }],
    ['no pods to replace', { pods: [] }],
    ['a patch of the Deployment', { patch: { type: 'merge', body: { spec: { replicas: 0 } } } }],
    ['no DeviceTaintRule', { deviceTaint: undefined }],
  ])('refuses %s', (_what, change) => {
    const verdict = checkPlanWithinKind({ ...base, ...change } as Parameters<typeof checkPlanWithinKind>[0]);
    expect(verdict.ok).toBe(false);
  });

  it('refuses an untaint-device that deletes pods, and a DeviceTaintRule on any other kind', () => {
    expect(checkPlanWithinKind({ ...base, kind: 'untaint-device' }).ok).toBe(false);
    expect(checkPlanWithinKind({ ...base, kind: 'delete-pods' }).ok).toBe(false);
  });
});
