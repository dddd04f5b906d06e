/** What would change a FailedScheduling outcome, from real scheduler wordings. */
import { describe, expect, it } from 'vitest';
import { adviseScheduling } from '../../src/cli/commands/explain-scheduling-advice.js';
import { selectorError } from '../../src/diagnosis/scheduling/scheduling-category.js';
import { parseSchedulingMessage } from '../../src/diagnosis/scheduling/scheduling-message.js';

const advise = (message: string) => adviseScheduling(parseSchedulingMessage(message));
const changes = (message: string): string[] => advise(message).changes.map((c) => c.change);

describe('explain-scheduling advice', () => {
  it.each([
    [
      '0/6 nodes are available: 6 Too many pods.',
      "6 nodes are at the kubelet's pod limit: free a pod slot there or add a node",
    ],
    [
      "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.",
      '3 nodes would break a topology spread constraint: raise maxSkew, use whenUnsatisfiable: ScheduleAnyway, or add nodes in other domains',
    ],
    [
      "0/3 nodes are available: 3 node(s) didn't satisfy existing pods anti-affinity rules.",
      '3 nodes run pods that an anti-affinity rule keeps apart from this one: make the rule preferred, add nodes, or move those pods (an old pod of the same Deployment: maxSurge 0)',
    ],
    [
      '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.',
      "the pod's PersistentVolumeClaim is not bound (3 nodes): fix the claim first (StorageClass, size, access mode)",
    ],
    [
      '0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      "2 nodes have no free device for the pod's resource claims: free one (claims of any namespace may hold it) or add devices",
    ],
    [
      '0/1 nodes are available: 1 invalid resource pools were encountered. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      '1 node offers devices only from a resource pool its DRA driver published inconsistently (kubectl get resourceslices): the scheduler skips such a pool until the driver republishes it',
    ],
    [
      '0/4 nodes are available: 4 node(s) had untolerated taint(s).',
      '4 nodes have a taint the pod does not tolerate (kubectl describe node shows which): add a toleration, or remove the taint',
    ],
    [
      "0/2 nodes are available: 2 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate.",
      '2 nodes are not ready or under pressure: repair them (a toleration only hides it)',
    ],
  ])('%s', (message, change) => {
    expect(changes(message)).toEqual([change]);
  });

  it('a CEL runtime error in a DeviceClass selector: fix the selector, no node or capacity change', () => {
    const advice = advise(
      'running "DynamicResources" filter plugin: class gpu.nvidia.com: selector #0: CEL runtime error: no such key: nvlinkDomain',
    );
    expect(advice.changes).toEqual([
      expect.objectContaining({
        category: 'devices',
        change: expect.stringContaining(
          'selector #0 of DeviceClass gpu.nvidia.com fails with a CEL runtime error (no such key: nvlinkDomain)',
        ),
      }),
    ]);
    expect(advice.changes[0]?.change).toContain('fix the DeviceClass selector');
    expect(advice.notes.join(' ')).toContain('stopped with an error from its DynamicResources plugin');
    expect(advice.notes.join(' ')).not.toContain('saw no nodes');
    expect(changes('claim ml/x-gpu-abcde: selector #2: CEL runtime error: no such key: model')[0]).toContain(
      'selector #2 of claim ml/x-gpu-abcde',
    );
  });

  it("the preemption part's reasons belong to the nodes it tried: freeing cpu alone does not help where the claims cannot be allocated", () => {
    const advice = advise(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/3 nodes are available: 1 cannot allocate all claims, 2 Preemption is not helpful for scheduling.",
    );
    const [cpu, selector] = advice.changes.map((c) => c.change);
    expect(cpu).toContain('1 node lacks cpu');
    expect(cpu).toContain(
      'still fails that node (1 cannot allocate all claims), so freeing cpu alone does not open it: it also needs a free matching device there',
    );
    // The node class preemption did not try keeps its own advice.
    expect(selector).not.toContain('cannot allocate');
    expect(advice.notes.join(' ')).not.toContain('each node fails for one reason only');
    expect(advice.notes.join(' ')).toContain('fixing the first reason alone does not open them');
  });

  it('several node classes preemption tried: the later reason is not pinned on one of them', () => {
    const [cpu, memory] = changes(
      "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 cannot allocate all claims, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
    );
    for (const change of [cpu, memory]) {
      expect(change).toContain(
        'still fails some of the nodes counted for Insufficient cpu, Insufficient memory',
      );
      expect(change).toContain('may not open them');
    }
  });

  it('look-alike: the preemption part repeats the same shortage: eviction frees too little, the advice stands', () => {
    const advice = advise(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 Insufficient cpu.',
    );
    expect(advice.changes.map((c) => c.change)).toEqual([
      "3 nodes lack cpu: free some there, lower the pod's request, or add a node",
    ]);
  });

  it('a reason without a node count applies to every node', () => {
    const advice = advise(
      '0/3 nodes are available: resourceclaim in use. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect(advice.changes.map((c) => c.change)).toEqual([
      "the pod's resource claim is reserved by other pods (every node, checked once for the pod): wait for them, or give each pod its own claim (resourceClaimTemplateName)",
    ]);
    expect(advice.notes).toEqual([
      'A reason without a node count applies to every node: nothing else opens a node until it is fixed.',
    ]);
  });

  it('an empty cluster, and a pod that never preempts', () => {
    expect(advise('no nodes available to schedule pods').notes).toEqual([
      'The scheduler saw no nodes: add nodes, or check that they registered and are not all deleted.',
    ]);
    expect(
      advise(
        '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
      ).notes,
    ).toContain(
      'The pod never preempts others (preemptionPolicy: Never): evicting lower-priority pods is not an option.',
    );
  });

  it('says when nodes fail for several reasons', () => {
    const advice = advise(
      "0/3 nodes are available: 3 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector.",
    );
    expect(advice.notes).toEqual([
      'The counts add up to more than the 3 nodes, so some nodes fail for several reasons: a node opens only when all of its reasons are fixed.',
    ]);
  });
});

/** Every branch of the advice, each message once (the English of each is pinned above). */
const EVERY_KIND = [
  "0/12 nodes are available: 1 Insufficient nvidia.com/gpu, 1 Insufficient cpu, 1 Too many pods, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) didn't match pod topology spread constraints, 1 node(s) didn't satisfy existing pods anti-affinity rules, 1 node(s) had volume node affinity conflict, 1 node(s) didn't match pod affinity rules, 1 node(s) exceed max volume count. preemption: 0/12 nodes are available: 1 No preemption victims found for incoming pod, 11 Preemption is not helpful for scheduling.",
  "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) didn't match the requested node name, 1 node(s) didn't find available persistent volumes to bind, 1 node(s) had volume conflicts, 1 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate.",
  "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 something new the scheduler says.",
  '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.',
  '0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
  '0/1 nodes are available: 1 invalid resource pools were encountered. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
  '0/2 nodes are available: 2 timed out trying to allocate devices.',
  '0/2 nodes are available: 2 resourceclaim not available on the node.',
  '0/3 nodes are available: resourceclaim in use. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  '0/3 nodes are available: waiting for resource driver to allocate resource.',
  'running "DynamicResources" filter plugin: class gpu.nvidia.com: selector #0: CEL runtime error: no such key: nvlinkDomain',
  'claim ml/x-gpu-abcde: selector #2: CEL runtime error: no such key: model',
  "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/3 nodes are available: 1 cannot allocate all claims, 2 Preemption is not helpful for scheduling.",
  "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 cannot allocate all claims, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
  "0/3 nodes are available: 3 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector.",
  '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
  'no nodes available to schedule pods',
];

/** Fields, kinds and commands the Korean keeps as written (docs/glossary-ko.md). */
const KEPT =
  /kubectl(?: [\w./=:[\]-]+)*|rollout-doctor diagnose \S+|[\w./#-]*(?:\d|[./#]|\w-\w)[\w./#-]*|\b(?:maxSkew|whenUnsatisfiable|ScheduleAnyway|preferred|cordon|uncordon|hostPort|maxSurge|PersistentVolumeClaim|PersistentVolume|StorageClass|ReadWriteOnce|DeviceClass|resourceClaimTemplateName|SchedulerError|preemptionPolicy|Never|DynamicResources|NODE|DRA|CEL|has|surge|kubelet|cpu|memory)\b/g;

describe('explain-scheduling advice in Korean', () => {
  it.each(EVERY_KIND)('%s', (message) => {
    const parsed = parseSchedulingMessage(message);
    const ko = adviseScheduling(parsed, 'ko');
    const en = adviseScheduling(parsed);
    expect(ko.changes.map((c) => c.reason)).toEqual(en.changes.map((c) => c.reason));
    // The scheduler's own words (its reasons, the preemption part) stay as it wrote them.
    const quoted = [...parsed.reasons, ...(parsed.preemption?.reasons ?? [])].flatMap((r) => [
      r.reason,
      selectorError(r.reason)?.error ?? r.reason,
    ]);
    for (const [i, sentence] of [...ko.changes.map((c) => c.change), ...ko.notes].entries()) {
      let rest = sentence;
      for (const reason of quoted.sort((a, b) => b.length - a.length)) rest = rest.split(reason).join(' ');
      rest = rest.replace(KEPT, ' ');
      expect(
        rest.match(/[A-Za-z][A-Za-z'-]*(?:[ ,]+[A-Za-z][A-Za-z'-]*)+/g),
        `sentence ${i}: ${sentence}`,
      ).toBeNull();
      expect(/[가-힣]/.test(sentence), sentence).toBe(true);
    }
  });
});
