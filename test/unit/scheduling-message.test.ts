import { describe, expect, it } from 'vitest';
import {
  categorize,
  formatSchedulingMessage,
  parseSchedulingMessage,
  SchedulingMessageError,
  type NoteKind,
  type ParsedSchedulingMessage,
  type SchedulingReason,
} from '../../src/diagnosis/scheduling/scheduling-message.js';
import type { Node, Taint } from '../../src/diagnosis/k8s.js';
import { unnamedTaintNote } from '../../src/diagnosis/rollout/rollout-assessment.js';

const r = (count: number, reason: string, extra: Partial<SchedulingReason> = {}): SchedulingReason => ({
  count,
  reason,
  category: 'other',
  ...extra,
});
const noted = (...notes: [string, NoteKind][]): Pick<ParsedSchedulingMessage, 'notes' | 'pluginNotes'> => ({
  notes: notes.map(([text]) => text),
  pluginNotes: notes.map(([text, kind]) => ({ text, kind })),
});
const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';
const AFFINITY = "node(s) didn't match Pod's node affinity/selector";

// Every message here is a wording seen from a real kube-scheduler (see scheduling-category.ts).
const cases: { name: string; message: string; expected: ParsedSchedulingMessage }[] = [
  {
    name: 'incident A: GPU plus selector, preemption part, trailing ".."',
    message:
      "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling..",
    expected: {
      total: 10,
      reasons: [
        r(1, 'Insufficient nvidia.com/gpu', { category: 'resources', resource: 'nvidia.com/gpu' }),
        r(9, AFFINITY, { category: 'node-selection' }),
      ],
      preemption: { total: 10, reasons: [r(1, NO_VICTIMS), r(9, NOT_HELPFUL)] },
    },
  },
  {
    name: 'old taint wording with a comma inside the reason, no preemption part (1.19-1.21)',
    message:
      "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient cpu.",
    expected: {
      total: 3,
      reasons: [
        r(1, "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate", {
          category: 'taints',
          taint: { key: 'node-role.kubernetes.io/master', value: '' },
        }),
        r(2, 'Insufficient cpu', { category: 'resources', resource: 'cpu' }),
      ],
      preemption: null,
    },
  },
  {
    name: 'new taint wording with key and value, single trailing dot',
    message:
      '0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/master: }, 1 node(s) had untolerated taint {node: node01}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    expected: {
      total: 2,
      reasons: [
        r(1, 'node(s) had untolerated taint {node-role.kubernetes.io/master: }', {
          category: 'taints',
          taint: { key: 'node-role.kubernetes.io/master', value: '' },
        }),
        r(1, 'node(s) had untolerated taint {node: node01}', {
          category: 'taints',
          taint: { key: 'node', value: 'node01' },
        }),
      ],
      preemption: { total: 2, reasons: [r(2, NOT_HELPFUL)] },
    },
  },
  {
    name: 'oldest taint wording (<= 1.18) and the 1.33+ "taint(s)" wording',
    message:
      "0/4 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 3 node(s) had untolerated taint(s).",
    expected: {
      total: 4,
      reasons: [
        r(1, "node(s) had taints that the pod didn't tolerate", { category: 'taints' }),
        r(3, 'node(s) had untolerated taint(s)', { category: 'taints' }),
      ],
      preemption: null,
    },
  },
  {
    name: 'DRA text between the reasons and preemption, sentence-form preemption',
    message:
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.',
    expected: {
      total: 1,
      reasons: [r(1, 'Insufficient cpu', { category: 'resources', resource: 'cpu' })],
      preemption: { total: 1, reasons: [], text: 'not eligible due to preemptionPolicy=Never' },
      ...noted(['no new claims to deallocate', 'no-claims']),
    },
  },
  {
    name: 'DRA text and a counted preemption part with anti-affinity and taint(s)',
    message:
      "0/6 nodes are available: 3 node(s) didn't match pod anti-affinity rules, 3 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/6 nodes are available: 3 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
    expected: {
      total: 6,
      reasons: [
        r(3, "node(s) didn't match pod anti-affinity rules", { category: 'pod-affinity' }),
        r(3, 'node(s) had untolerated taint(s)', { category: 'taints' }),
      ],
      preemption: { total: 6, reasons: [r(3, NO_VICTIMS), r(3, NOT_HELPFUL)] },
      ...noted(['no new claims to deallocate', 'no-claims']),
    },
  },
  {
    name: 'extra plugin text after the preemption part',
    message:
      '0/3 nodes are available: 3 Too many pods. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling., ExamplePlugin: waiting for capacity reservation.',
    expected: {
      total: 3,
      reasons: [r(3, 'Too many pods', { category: 'pod-count', resource: 'pods' })],
      preemption: { total: 3, reasons: [r(3, NOT_HELPFUL)] },
      ...noted(['ExamplePlugin: waiting for capacity reservation', 'other']),
    },
  },
  {
    name: 'DRA: claims that cannot be allocated, a timeout and a taint (1.34, from an upstream e2e failure)',
    message:
      '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane:\n              }, 1 timed out trying to allocate devices, 2 cannot allocate all claims. still\n              not schedulable, preemption: 0/4 nodes are available: 4 Preemption is not helpful\n              for scheduling.',
    expected: {
      total: 4,
      reasons: [
        r(1, 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }', {
          category: 'taints',
          taint: { key: 'node-role.kubernetes.io/control-plane', value: '' },
        }),
        r(1, 'timed out trying to allocate devices', { category: 'devices', claims: 'timed-out' }),
        r(2, 'cannot allocate all claims', { category: 'devices', claims: 'cannot-allocate' }),
      ],
      preemption: { total: 4, reasons: [r(4, NOT_HELPFUL)] },
      ...noted(['still not schedulable', 'claims-not-schedulable']),
    },
  },
  {
    name: 'DRA twin of incident A: the GPU comes through a claim, preemption not helpful',
    message:
      "0/10 nodes are available: 1 cannot allocate all claims, 9 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.",
    expected: {
      total: 10,
      reasons: [
        r(1, 'cannot allocate all claims', { category: 'devices', claims: 'cannot-allocate' }),
        r(9, AFFINITY, { category: 'node-selection' }),
      ],
      preemption: { total: 10, reasons: [r(10, NOT_HELPFUL)] },
      ...noted(['still not schedulable', 'claims-not-schedulable']),
    },
  },
  {
    name: 'DRA: the scheduler deallocated a claim in PostFilter',
    message:
      '0/2 nodes are available: 2 resourceclaim not available on the node. deallocation of ResourceClaim completed, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    expected: {
      total: 2,
      reasons: [
        r(2, 'resourceclaim not available on the node', { category: 'devices', claims: 'not-on-node' }),
      ],
      preemption: { total: 2, reasons: [r(2, NOT_HELPFUL)] },
      ...noted(['deallocation of ResourceClaim completed', 'claim-deallocated']),
    },
  },
  {
    name: 'DRA: the extended-resource claim deleted in PostFilter',
    message:
      '0/1 nodes are available: 1 cannot allocate all claims. deletion of ResourceClaim completed, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    expected: {
      total: 1,
      reasons: [r(1, 'cannot allocate all claims', { category: 'devices', claims: 'cannot-allocate' })],
      preemption: { total: 1, reasons: [r(1, NOT_HELPFUL)] },
      ...noted(['deletion of ResourceClaim completed', 'claim-deleted']),
    },
  },
  {
    name: 'DRA: count-less PreFilter reason (a claim reserved by other pods)',
    message: '0/3 nodes are available: resourceclaim in use.',
    expected: {
      total: 3,
      reasons: [r(3, 'resourceclaim in use', { category: 'devices', claims: 'in-use', countless: true })],
      preemption: null,
    },
  },
  {
    name: 'DRA in 1.37: no PostFilter no-op text before preemption',
    message:
      '0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    expected: {
      total: 2,
      reasons: [r(2, 'cannot allocate all claims', { category: 'devices', claims: 'cannot-allocate' })],
      preemption: { total: 2, reasons: [r(2, NOT_HELPFUL)] },
    },
  },
  {
    name: 'PreFilter message without a count applies to every node',
    message:
      '0/3 nodes are available: persistentvolumeclaim "rc-missing-pvc" not found. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    expected: {
      total: 3,
      reasons: [
        r(3, 'persistentvolumeclaim "rc-missing-pvc" not found', { category: 'volumes', countless: true }),
      ],
      preemption: { total: 3, reasons: [r(3, NO_VICTIMS)] },
    },
  },
  {
    name: 'unbound immediate PVC (older counted form)',
    message: '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.',
    expected: {
      total: 3,
      reasons: [r(3, 'pod has unbound immediate PersistentVolumeClaims', { category: 'volumes' })],
      preemption: null,
    },
  },
  {
    name: 'volume reasons, ports and cordon',
    message:
      "0/7 nodes are available: 1 node(s) had volume node affinity conflict, 1 node(s) exceed max volume count, 1 node(s) didn't find available persistent volumes to bind, 1 node(s) didn't match PersistentVolume's node affinity, 2 node(s) didn't have free ports for the requested pod ports, 1 node(s) were unschedulable.",
    expected: {
      total: 7,
      reasons: [
        r(1, 'node(s) had volume node affinity conflict', { category: 'volumes' }),
        r(1, 'node(s) exceed max volume count', { category: 'volumes' }),
        r(1, "node(s) didn't find available persistent volumes to bind", { category: 'volumes' }),
        r(1, "node(s) didn't match PersistentVolume's node affinity", { category: 'volumes' }),
        r(2, "node(s) didn't have free ports for the requested pod ports", { category: 'ports' }),
        r(1, 'node(s) were unschedulable', { category: 'node-unschedulable' }),
      ],
      preemption: null,
    },
  },
  {
    name: 'cordon as a taint is node-unschedulable, topology spread is pod-affinity',
    message:
      "0/2 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had untolerated taint {node.kubernetes.io/unschedulable: }. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
    expected: {
      total: 2,
      reasons: [
        r(1, "node(s) didn't match pod topology spread constraints", { category: 'pod-affinity' }),
        r(1, 'node(s) had untolerated taint {node.kubernetes.io/unschedulable: }', {
          category: 'node-unschedulable',
          taint: { key: 'node.kubernetes.io/unschedulable', value: '' },
        }),
      ],
      preemption: { total: 2, reasons: [r(1, NO_VICTIMS), r(1, NOT_HELPFUL)] },
    },
  },
  {
    name: 'pod affinity wordings and missing-label topology spread',
    message:
      "0/5 nodes are available: 1 node(s) didn't match pod affinity rules, 1 node(s) didn't satisfy existing pods anti-affinity rules, 1 node(s) didn't match pod affinity/anti-affinity, 2 node(s) didn't match pod topology spread constraints (missing required label).",
    expected: {
      total: 5,
      reasons: [
        r(1, "node(s) didn't match pod affinity rules", { category: 'pod-affinity' }),
        r(1, "node(s) didn't satisfy existing pods anti-affinity rules", { category: 'pod-affinity' }),
        r(1, "node(s) didn't match pod affinity/anti-affinity", { category: 'pod-affinity' }),
        r(2, "node(s) didn't match pod topology spread constraints (missing required label)", {
          category: 'node-selection',
        }),
      ],
      preemption: null,
    },
  },
  {
    name: 'old node selection wordings',
    message:
      "0/3 nodes are available: 1 node(s) didn't match node selector, 1 node(s) didn't match Pod's node affinity, 1 node(s) didn't match the requested node name.",
    expected: {
      total: 3,
      reasons: [
        r(1, "node(s) didn't match node selector", { category: 'node-selection' }),
        r(1, "node(s) didn't match Pod's node affinity", { category: 'node-selection' }),
        r(1, "node(s) didn't match the requested node name", { category: 'node-selection' }),
      ],
      preemption: null,
    },
  },
  {
    name: 'unknown future reason with commas, braces and colons is kept verbatim',
    message:
      '0/4 nodes are available: 2 node(s) had quota {team: ml, tier: gold}: exhausted, see policy, 2 Insufficient memory.',
    expected: {
      total: 4,
      reasons: [
        r(2, 'node(s) had quota {team: ml, tier: gold}: exhausted, see policy'),
        r(2, 'Insufficient memory', { category: 'resources', resource: 'memory' }),
      ],
      preemption: null,
    },
  },
  {
    name: 'empty cluster: no nodes available',
    message: 'no nodes available to schedule pods',
    expected: { total: 0, reasons: [], preemption: null },
  },
  {
    name: 'empty cluster: 0/0 nodes',
    message: '0/0 nodes are available: .',
    expected: { total: 0, reasons: [], preemption: null },
  },
  {
    name: 'a kubectl describe line, wrapped over several lines',
    message: `  Warning  FailedScheduling  3m (x15 over 91m)  default-scheduler  0/2 nodes are available: 1 Insufficient memory,
      2 Insufficient cpu.
    preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.`,
    expected: {
      total: 2,
      reasons: [
        r(1, 'Insufficient memory', { category: 'resources', resource: 'memory' }),
        r(2, 'Insufficient cpu', { category: 'resources', resource: 'cpu' }),
      ],
      preemption: { total: 2, reasons: [r(2, NO_VICTIMS)] },
    },
  },
  {
    name: 'a quoted paste from a CI log',
    message:
      'Unschedulable: "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.."',
    expected: {
      total: 1,
      reasons: [r(1, 'Insufficient cpu', { category: 'resources', resource: 'cpu' })],
      preemption: { total: 1, reasons: [r(1, NO_VICTIMS)] },
    },
  },
  {
    name: 'two pasted events: only the first is parsed',
    message:
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.. 0/3 nodes are available: 3 Insufficient memory.',
    expected: {
      total: 3,
      reasons: [r(3, 'Insufficient cpu', { category: 'resources', resource: 'cpu' })],
      preemption: { total: 3, reasons: [r(3, NO_VICTIMS)] },
    },
  },
  {
    name: 'unbalanced brace in a reason does not swallow the rest',
    message: '0/3 nodes are available: 1 node(s) had taint {broken: x, 2 Insufficient cpu.',
    expected: {
      total: 3,
      reasons: [
        r(1, 'node(s) had taint {broken: x', { category: 'taints', taint: undefined }),
        r(2, 'Insufficient cpu', { category: 'resources', resource: 'cpu' }),
      ],
      preemption: null,
    },
  },
];

describe('parseSchedulingMessage', () => {
  it.each(cases)('$name', ({ message, expected }) => {
    const parsed = parseSchedulingMessage(message);
    // toEqual treats `taint: undefined` as absent, which is what the unbalanced case means.
    expect(parsed).toEqual(expected);
  });

  it.each([
    ['empty input', '', /empty input/],
    ['whitespace', '  \n\t ', /empty input/],
    ['plain text', 'the pod is pending, please help', /not a FailedScheduling message/],
    ['another event', 'Back-off restarting failed container app in pod x', /not a FailedScheduling message/],
    ['absurd count', `0/${'9'.repeat(30)} nodes are available: 1 Insufficient cpu.`, /not a usable number/],
  ])('rejects %s with a SchedulingMessageError', (_name, input, message) => {
    expect(() => parseSchedulingMessage(input)).toThrow(SchedulingMessageError);
    expect(() => parseSchedulingMessage(input)).toThrow(message);
  });

  it.each([
    [
      'the class selector, as the framework wraps the filter error',
      'running "DynamicResources" filter plugin: class gpu.nvidia.com: selector #0: CEL runtime error: no such key: nvlinkDomain',
      'class gpu.nvidia.com: selector #0: CEL runtime error: no such key: nvlinkDomain',
    ],
    [
      "the claim's selector, pasted bare",
      'claim vision/tracker-7b9f-gpu-x7k2q: selector #1: CEL runtime error: no such key: model',
      'claim vision/tracker-7b9f-gpu-x7k2q: selector #1: CEL runtime error: no such key: model',
    ],
  ])(
    'a DynamicResources CEL runtime error (%s): one count-less devices reason, nothing counted',
    (_name, message, reason) => {
      const parsed = parseSchedulingMessage(message);
      expect(parsed).toEqual({
        total: 0,
        reasons: [{ count: 0, reason, category: 'devices', claims: 'selector-error', countless: true }],
        preemption: null,
        aborted: { plugin: 'DynamicResources' },
      });
      expect(parseSchedulingMessage(formatSchedulingMessage(parsed))).toEqual(parsed);
    },
  );

  it('look-alike: another plugin error is no scheduler message this parser knows', () => {
    expect(() =>
      parseSchedulingMessage('running "VolumeBinding" filter plugin: pvc default/data: not found'),
    ).toThrow(SchedulingMessageError);
  });

  it('formats a parse back to the same message', () => {
    const message = cases[0]?.message ?? '';
    const parsed = parseSchedulingMessage(message);
    expect(parseSchedulingMessage(formatSchedulingMessage(parsed))).toEqual(parsed);
  });
});

describe('categorize', () => {
  it.each([
    ['Insufficient ephemeral-storage', { category: 'resources', resource: 'ephemeral-storage' }],
    ['Insufficient example.com/foo', { category: 'resources', resource: 'example.com/foo' }],
    ['Insufficient pods', { category: 'pod-count', resource: 'pods' }],
    ["node(s) didn't match scheduler-enforced node affinity", { category: 'node-selection' }],
    [
      'node(s) had untolerated taint {node.kubernetes.io/not-ready: }',
      { category: 'node-unschedulable', taint: { key: 'node.kubernetes.io/not-ready', value: '' } },
    ],
    ['node(s) had memory pressure', { category: 'node-unschedulable' }],
    ['node(s) had no available disk', { category: 'volumes' }],
    ['cannot allocate all claims', { category: 'devices', claims: 'cannot-allocate' }],
    ['timed out trying to allocate devices', { category: 'devices', claims: 'timed-out' }],
    ['resourceclaim not available on the node', { category: 'devices', claims: 'not-on-node' }],
    ['resourceclaim in use', { category: 'devices', claims: 'in-use' }],
    // The structured allocator's own per-node error (ErrFailedAllocationOnNode), printed as is.
    ['invalid resource pools were encountered', { category: 'devices', claims: 'invalid-pool' }],
    [
      'asked by caller to stop allocating devices: context canceled',
      { category: 'devices', claims: 'timed-out' },
    ],
    [
      'resource claim gpu/trainer-7c9d-gpu-x7kqz is in process of being allocated',
      { category: 'devices', claims: 'claim-state' },
    ],
    [
      'resourceclaim "trainer-7c9d-gpu-x7kqz" is being deleted',
      { category: 'devices', claims: 'claim-state' },
    ],
    [
      'request gpu: device class gpu.nvidia.com does not exist',
      { category: 'devices', claims: 'claim-state' },
    ],
    ['resourceclaim.resource.k8s.io "shared-gpu" not found', { category: 'devices', claims: 'claim-state' }],
    [
      'class gpu.nvidia.com: selector #0: CEL runtime error: no such key: nvlinkDomain',
      { category: 'devices', claims: 'selector-error' },
    ],
    // Look-alikes that are not DRA.
    ['persistentvolumeclaim "data" not found', { category: 'volumes' }],
    ['node(s) had untolerated taint(s)', { category: 'taints' }],
  ])('%s', (reason, expected) => {
    expect(categorize(reason)).toEqual(expected);
  });
});

describe('unnamedTaintNote (the engine reads the taint from the node objects)', () => {
  const node = (name: string, taints: Taint[]): Node => ({
    metadata: { name, uid: `uid-${name}` },
    spec: { taints },
  });
  const message =
    "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";

  it('names the taint the message leaves out, with the node that carries it', () => {
    const parsed = parseSchedulingMessage(message);
    const gpu = node('gpu-node-2', [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
    const notes = unnamedTaintNote({
      parsed,
      ineligible: [
        { node: gpu, reasons: ['taint nvidia.com/gpu=present:NoSchedule'] },
        { node: node('cpu-node-1', []), reasons: ['nodeSelector/affinity'] },
      ],
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'note' });
    const text = notes[0]?.type === 'note' ? notes[0].text : '';
    expect(text).toContain('nvidia.com/gpu=present:NoSchedule on gpu-node-2');
    expect(text).not.toContain('cpu-node-1');
  });

  it('says the tainted nodes were not read rather than inventing a taint', () => {
    const notes = unnamedTaintNote({ parsed: parseSchedulingMessage(message), ineligible: [] });
    const text = notes[0]?.type === 'note' ? notes[0].text : '';
    expect(text).toMatch(/were not read/);
  });

  it('adds nothing when the message names the taint itself', () => {
    const named = parseSchedulingMessage(
      '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    expect(unnamedTaintNote({ parsed: named, ineligible: [] })).toEqual([]);
  });
});
