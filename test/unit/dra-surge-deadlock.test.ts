/**
 * The seed surge deadlock when the GPU comes through Dynamic Resource Allocation
 * (issue 14), and its look-alikes: a shared claim, a selector no device satisfies,
 * another team holding the device, a request for more devices than the node has,
 * occupancy or selectors that cannot be known.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { renderDiagnosis } from '../support/slack-run.js';
import { renderText } from '../../src/report/text.js';
import { codeSpan } from '../../src/text/code-span.js';
import type { Finding } from '../../src/diagnosis/finding.js';
import {
  claim,
  draSeed,
  gpuRequest,
  gpuSlice,
  A100,
  type DraScenarioOptions,
} from '../support/dra-builders.js';
import { makeNode, makePod, makeReplicaSet, makeDeployment } from '../support/k8s-builders.js';

const fullDra = { claims: 'all', slices: 'complete', classes: 'complete', templates: 'complete' } as const;

function codes(findings: Finding[]): string[] {
  return findings.map((f) => f.code);
}

function text(finding: Finding | Finding[] | undefined): string {
  return JSON.stringify(finding ?? {});
}

/** Claims of other namespaces unread, and a second GPU on gpu-node-1 that no claim read holds. */
function secondGpuUnread(message?: string): DraScenarioOptions {
  return {
    dra: { claims: 'namespace' },
    gpus: [{ name: 'gpu-0' }, { name: 'gpu-1' }],
    ...(message ? { message } : {}),
  };
}

describe('surge deadlock through DRA claims', () => {
  it('per-pod claims from a ResourceClaimTemplate: the seed deadlock, device, claim and old pod named', () => {
    const { snapshot, oldPod } = draSeed();
    const result = diagnose(snapshot);
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(codes(result.findings)).not.toContain('Unschedulable');
    expect(deadlock?.summary).toContain('can never finish');
    expect(deadlock?.summary).toContain('device of class gpu.nvidia.com');
    expect(deadlock?.summary).toContain(oldPod.metadata.name);
    const table = deadlock?.evidence.find((e) => e.type === 'node-capacity');
    expect(table?.type === 'node-capacity' ? table.rows : []).toEqual([
      expect.objectContaining({
        node: 'gpu-node-1',
        resource: 'devices of class gpu.nvidia.com',
        allocatable: '1',
        used: '1',
        free: '0',
        holders: [
          {
            pod: oldPod.metadata.name,
            amount: `device gpu-0, claim vision/${oldPod.metadata.name ?? ''}-gpu-m4zk7`,
            ownedByThisDeployment: true,
          },
        ],
      }),
    ]);
    expect(result.remediations.map((r) => r.kind)).toContain('set-rolling-update');
  });

  it('extended resource backed by DRA: the pending pod has no claim yet, the old pod holds one', () => {
    const { snapshot, oldPod } = draSeed({ mode: 'extended' });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toContain('RolloutSurgeDeadlock');
    expect(text(result.findings[0])).toContain(`${oldPod.metadata.name ?? ''}-extended-resources-t8v2c`);
    // Not "the node has no nvidia.com/gpu": allocatable does not list DRA devices.
    expect(text(result.findings[0])).not.toContain('does not have at all');
  });

  it('the new template asks for a bigger GPU than the one the old pod holds: no deadlock, no device matches', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: ['device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0'],
      }),
    });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    // No ResourceSlice publishes an 80Gi GPU anywhere: the selector is named, not the node.
    expect(result.findings[0]?.summary).toContain(
      `and its selector ${codeSpan('device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0')} matches none of the 1 published device of DeviceClass gpu.nvidia.com (on any node)`,
    );
    expect(text(result.findings[0])).toContain(
      "no device any ResourceSlice publishes satisfies the request's selectors: fix the selector",
    );
  });

  it('look-alike: a device the selector matches is published on a node the pod may not use: the node selection is named, not the selector', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: ['device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0'],
      }),
    });
    const dra = snapshot.dra;
    if (!dra) throw new Error('fixture');
    const withElsewhere = {
      ...snapshot,
      dra: { ...dra, slices: [...dra.slices, gpuSlice('gpu-node-2', [{ name: 'gpu-0', memory: '80Gi' }])] },
    };
    const result = diagnose(withElsewhere);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(text(result.findings[0])).not.toContain('published');
    expect(text(result.findings[0])).toContain(
      'no device on the eligible nodes satisfies DeviceClass gpu.nvidia.com',
    );
  });

  it('look-alike: a selector no device satisfies (an H100 on an A100 node) is Unschedulable, not a deadlock', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: ['device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"'],
      }),
    });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(result.findings[0]?.summary).toContain(
      `and its selector ${codeSpan('device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"')} matches none of the 1 published device of DeviceClass gpu.nvidia.com (on any node)`,
    );
    expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
  });

  it('look-alike: the DeviceClasses not all read: no word of "published"', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: ['device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"'],
      }),
      dra: { classes: 'partial' },
    });
    expect(text(diagnose(snapshot).findings)).not.toContain('published device');
  });

  it('look-alike: a request for more devices than the node has', () => {
    const { snapshot } = draSeed({ newRequest: gpuRequest({ count: 2 }) });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(text(result.findings[0])).toContain('asks for 2 devices and the node has 1 that match');
    // Counted with the old pod gone, its device is free only then: both counts are said,
    // never "1 free" beside a capacity table that shows it held.
    expect(result.findings[0]?.summary).toContain(
      '(1 matching on the node, 0 free now, 1 with the old pods gone)',
    );
  });

  it('look-alike: another team holds the device: contention, not a surge deadlock', () => {
    const research = makeReplicaSet(makeDeployment('notebook', { namespace: 'research' }), '5f7c9d8b6d', {
      revision: 1,
      replicas: 1,
    });
    const notebook = makePod(research, 'r4tz8', 'gpu-node-1', { phase: 'Running' });
    const theirs = claim('notebook-gpu', 'research', {
      device: 'gpu-0',
      node: 'gpu-node-1',
      pods: [notebook],
    });
    const { snapshot } = draSeed({ oldHoldsNothing: true, claims: [theirs] });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    const finding = text(result.findings[0]);
    expect(finding).toContain('contention for devices, not a rollout deadlock');
    expect(finding).toContain(`research/${notebook.metadata.name ?? ''}`);
  });

  describe('a claim no pod is reserved for (status.reservedFor empty) holds the device', () => {
    const research = makeReplicaSet(makeDeployment('notebook', { namespace: 'research' }), '5f7c9d8b6d', {
      revision: 1,
      replicas: 1,
    });
    /** The notebook pod, deleted and gone from the API server, owned this generated claim. */
    const gone = makePod(research, 'r4tz8', 'gpu-node-1', { phase: 'Running' });
    const orphan = (
      changes: (c: ReturnType<typeof claim>) => void = () => undefined,
    ): ReturnType<typeof claim> => {
      const c = claim('notebook-r4tz8-gpu-x2b9q', 'research', {
        device: 'gpu-0',
        node: 'gpu-node-1',
        owner: gone,
      });
      changes(c);
      return c;
    };

    it('generated for a pod that no longer exists: the garbage collector and the controller free it, so no contention and no finding', () => {
      const { snapshot } = draSeed({ oldHoldsNothing: true, claims: [orphan()] });
      const result = diagnose(snapshot);
      expect(codes(result.findings)).toEqual([]);
      expect(text(result.findings)).not.toContain('contention');
    });

    it('being deleted with the controller finalizer, just now: freed by the controller, no finding', () => {
      const { snapshot } = draSeed({
        oldHoldsNothing: true,
        claims: [orphan((c) => (c.metadata.deletionTimestamp = '2026-11-20T10:59:50Z'))],
      });
      expect(codes(diagnose({ ...snapshot, capturedAt: '2026-11-20T11:00:00Z' }).findings)).toEqual([]);
    });

    it('deleted long ago, without the controller finalizer, kept by another finalizer: Unschedulable naming the claim and what holds it', () => {
      const stuck = orphan((c) => {
        c.metadata.deletionTimestamp = '2026-11-20T09:00:00Z';
        c.metadata.finalizers = ['example.com/audit'];
      });
      const { snapshot } = draSeed({ oldHoldsNothing: true, claims: [stuck] });
      const result = diagnose({ ...snapshot, capturedAt: '2026-11-20T11:00:00Z' });
      expect(codes(result.findings)).toEqual(['Unschedulable']);
      const finding = text(result.findings[0]);
      expect(finding).toContain('ResourceClaim research/notebook-r4tz8-gpu-x2b9q has been deleted since');
      expect(finding).toContain('finalizer example.com/audit keeps the object');
      expect(finding).not.toContain('claims of other workloads');
    });

    it('created by a user, not for a pod: it stays allocated until deleted, and the finding says so (not contention)', () => {
      const byUser = claim('reserved-gpu', 'research', { device: 'gpu-0', node: 'gpu-node-1' });
      const { snapshot } = draSeed({ oldHoldsNothing: true, claims: [byUser] });
      const result = diagnose(snapshot);
      expect(codes(result.findings)).toEqual(['Unschedulable']);
      const finding = text(result.findings[0]);
      expect(finding).toContain('it was not generated for a pod');
      expect(finding).toContain('kubectl delete resourceclaim -n research reserved-gpu');
      expect(finding).not.toContain('claims of other workloads');
    });

    it('whose pod was not read (pods read only on some nodes): unknown, never free and never contention', () => {
      const { snapshot } = draSeed({ oldHoldsNothing: true, claims: [orphan()] });
      const result = diagnose({
        ...snapshot,
        coverage: { ...snapshot.coverage, podsReadOn: ['gpu-node-1'] },
      });
      expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
      expect(text(result.findings)).toContain(`kubectl get pod -n research ${gone.metadata.name ?? ''}`);
    });
  });

  describe("the pending pod's own claim was deleted (its status names a claim that no longer exists)", () => {
    const CLAIM_GONE =
      '0/3 nodes are available: could not find ResourceClaim "vision/%s". preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
    const withoutOwnClaim = (
      scenario: ReturnType<typeof draSeed>,
    ): ReturnType<typeof draSeed>['snapshot'] => {
      const { snapshot, newPod } = scenario;
      const own = newPod.status?.resourceClaimStatuses?.[0]?.resourceClaimName;
      const dra = snapshot.dra;
      if (!dra) throw new Error('no DRA objects');
      return { ...snapshot, dra: { ...dra, claims: dra.claims.filter((c) => c.metadata.name !== own) } };
    };

    it('is not the surge deadlock from the template: the finding names the missing claim and the scheduler wording', () => {
      const probe = draSeed();
      const own = probe.newPod.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? '';
      const scenario = draSeed({ message: CLAIM_GONE.replace('%s', own) });
      const result = diagnose(withoutOwnClaim(scenario));
      expect(codes(result.findings)).toEqual(['Unschedulable']);
      const finding = result.findings[0];
      expect(finding?.summary).toContain(`ResourceClaim ${scenario.newPod.metadata.name ?? ''}-gpu-b6x9r`);
      expect(finding?.summary).toContain('no longer exists');
      expect(finding?.summary).toContain('could not find ResourceClaim "vision/');
      expect(finding?.explanation).toContain('neither a surge deadlock nor a capacity problem');
      expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
    });

    it('with its template gone too, the finding says the controller cannot create a new claim', () => {
      const snapshot = withoutOwnClaim(draSeed());
      const dra = snapshot.dra;
      if (!dra) throw new Error('no DRA objects');
      const result = diagnose({ ...snapshot, dra: { ...dra, templates: [] } });
      expect(text(result.findings[0])).toContain('ResourceClaimTemplate single-gpu no longer exists either');
    });

    it('claims of the namespace not read: not taken for missing (the template still stands for the claim)', () => {
      const snapshot = withoutOwnClaim(draSeed());
      const result = diagnose({
        ...snapshot,
        coverage: { ...snapshot.coverage, dra: { ...(snapshot.coverage.dra ?? fullDra), claims: 'unread' } },
      });
      expect(text(result.findings)).not.toContain('no longer exists');
    });
  });

  it('look-alike: a shared claim (resourceClaimName) cannot deadlock a surge, and the finding says so', () => {
    const { snapshot } = draSeed({
      mode: 'shared',
      message:
        "0/3 nodes are available: 1 resourceclaim not available on the node, 2 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    });
    // The new template moved to another node; the shared claim stays allocated on gpu-node-1.
    const pending = snapshot.pods.find((p) => p.status?.phase === 'Pending');
    if (pending) pending.spec.nodeSelector = { 'kubernetes.io/hostname': 'cpu-node-1' };
    const result = diagnose(snapshot);
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(text(result.findings[0])).toContain('is shared (resourceClaimName) by the old and the new pods');
    expect(text(result.findings[0])).toContain('stays allocated while any pod uses it');
  });

  it("a shared claim allocated on the old pod's node, the new pod pinned where a GPU is free: it waits for the old pod to release the claim, the surge deadlock", () => {
    const { snapshot, oldPod } = draSeed({
      mode: 'shared',
      message:
        "0/4 nodes are available: 1 resourceclaim not available on the node, 3 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
    });
    // The new template moved to gpu-node-2, whose GPU is free: the claim cannot follow
    // while the old pod uses it on gpu-node-1, and the old pod goes only once the new one is Ready.
    const pending = snapshot.pods.find((p) => p.status?.phase === 'Pending');
    if (!pending || !snapshot.dra) throw new Error('fixture');
    pending.spec.nodeSelector = { 'kubernetes.io/hostname': 'gpu-node-2' };
    const withNode2 = {
      ...snapshot,
      nodes: [...snapshot.nodes, makeNode('gpu-node-2')],
      dra: { ...snapshot.dra, slices: [...snapshot.dra.slices, gpuSlice('gpu-node-2', [{ name: 'gpu-0' }])] },
    };
    const result = diagnose(withNode2);
    const [first] = result.findings;
    expect(first?.code).toBe('RolloutSurgeDeadlock');
    expect(text(first)).toContain(oldPod.metadata.name ?? '');
    expect(first?.summary).toContain(
      'needs shared claim shared-gpu, which stays allocated on another node while tracker-6d4cf56db6-x2kqp uses it',
    );
    expect(first?.explanation).toContain('(class gpu.nvidia.com)');
    expect(result.remediations.map((r) => r.kind)).toContain('set-rolling-update');
  });

  it('look-alike: the same claim also used by a pod of another workload: no deadlock (the old pods going does not release it)', () => {
    const { snapshot } = draSeed({ mode: 'shared' });
    const pending = snapshot.pods.find((p) => p.status?.phase === 'Pending');
    const shared = snapshot.dra?.claims.find((c) => c.metadata.name === 'shared-gpu');
    if (!pending || !snapshot.dra || !shared?.status) throw new Error('fixture');
    pending.spec.nodeSelector = { 'kubernetes.io/hostname': 'gpu-node-2' };
    shared.status.reservedFor = [
      ...(shared.status.reservedFor ?? []),
      { resource: 'pods', name: 'batch-runner-0', uid: 'uid-batch-runner-0' },
    ];
    const result = diagnose({
      ...snapshot,
      nodes: [...snapshot.nodes, makeNode('gpu-node-2')],
      dra: { ...snapshot.dra, slices: [...snapshot.dra.slices, gpuSlice('gpu-node-2', [{ name: 'gpu-0' }])] },
    });
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
  });

  it('claims of other namespaces unread, a second GPU looks free: the scheduler counts prove it taken', () => {
    const { snapshot, oldPod } = draSeed(secondGpuUnread());
    const result = diagnose(snapshot);
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(codes(result.findings)).not.toContain('IncompleteEvidence');
    expect(deadlock?.summary).toContain('can never finish');
    expect(deadlock?.summary).toContain('a device of class gpu.nvidia.com on gpu-node-1');
    expect(deadlock?.summary).toContain(oldPod.metadata.name);
    // Says where the proof came from and what was not read.
    expect(deadlock?.explanation).toContain('ResourceClaims of other namespaces could not be read');
    expect(deadlock?.explanation).toContain("the scheduler's message settles it");
    expect(deadlock?.explanation).toContain('"cannot allocate all claims"');
    // The devices as the scheduler counts them: gpu-1, held by no claim read, is not free.
    const table = deadlock?.evidence.find((e) => e.type === 'node-capacity');
    expect(table?.type === 'node-capacity' ? table.rows : []).toEqual([
      expect.objectContaining({
        node: 'gpu-node-1',
        resource: 'devices of class gpu.nvidia.com',
        allocatable: '2',
        free: '0',
        holders: [expect.objectContaining({ pod: oldPod.metadata.name, ownedByThisDeployment: true })],
      }),
    ]);
    expect(text(deadlock)).toContain(
      'Matching devices held by no claim that was read (1 on gpu-node-1): the scheduler counts them taken',
    );
    expect(result.remediations.map((r) => r.kind)).toContain('set-rolling-update');
  });

  it('a long refusal written as an events.k8s.io series is dated by its last occurrence', () => {
    const { snapshot, newPod } = draSeed(secondGpuUnread());
    newPod.metadata.creationTimestamp = '2026-11-22T00:55:00Z';
    const condition = newPod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (condition) condition.lastTransitionTime = '2026-11-22T01:00:00Z';
    const event = snapshot.events[0];
    if (!event) throw new Error('no event');
    delete event.lastTimestamp;
    delete event.firstTimestamp;
    event.eventTime = '2026-11-22T01:00:00.000000Z';
    event.series = { count: 40, lastObservedTime: '2026-11-22T02:58:00.000000Z' };
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toContain('RolloutSurgeDeadlock');
  });

  it('look-alike: the same refusal, older than the new pod: unknown, never room', () => {
    const { snapshot, newPod } = draSeed(secondGpuUnread());
    // The refusal (event 02:59:30, condition 02:40) predates this pod: it was about another one.
    newPod.metadata.creationTimestamp = '2026-11-22T02:59:50Z';
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('ResourceClaims of other namespaces were not read');
    expect(text(result.findings)).toContain('the scheduler message is older than the new pod');
    expect(text(result.findings)).not.toContain('shows room');
    expect(result.findings[0]?.summary).toContain('the list of ResourceClaims in every namespace');
  });

  it('look-alike: a refusal last seen long before the snapshot: unknown', () => {
    const { snapshot } = draSeed(secondGpuUnread());
    // Last seen 02:59:30; the scheduler would have refused it again (or placed it) since.
    const late = { ...snapshot, capturedAt: '2026-11-22T03:59:30Z' };
    const result = diagnose(late);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('last seen 60 minutes before this snapshot');
  });

  it('look-alike: a message counting fewer nodes than were read: unknown', () => {
    const { snapshot } = draSeed(
      secondGpuUnread(
        "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      ),
    );
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('the message counts 2 node(s), fewer than the 3 read');
  });

  it('look-alike: two eligible nodes, one counted under claims: unknown', () => {
    const { snapshot, newPod, nodes } = draSeed(secondGpuUnread());
    // The new template may also use cpu-node-1, which the message does not count under claims.
    newPod.spec.nodeSelector = { 'nvidia.com/gpu.present': 'true' };
    const cpu = nodes[1];
    if (cpu) cpu.metadata.labels = { ...cpu.metadata.labels, 'nvidia.com/gpu.present': 'true' };
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('does not count every eligible node (2) under');
  });

  it('the nodes read by the pod selector alone (a live read): proved all the same', () => {
    const { snapshot } = draSeed(secondGpuUnread());
    const live = { ...snapshot, nodes: snapshot.nodes.slice(0, 1) };
    expect(codes(diagnose(live).findings)).toContain('RolloutSurgeDeadlock');
  });

  it('look-alike: the eligible node counted for node selection, not for claims: unknown', () => {
    const { snapshot } = draSeed(
      secondGpuUnread(
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
      ),
    );
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('does not count every eligible node (1) under');
  });

  it('look-alike: the new template asks for two GPUs, the old claim holds one: likely, never proved', () => {
    const { snapshot } = draSeed({ ...secondGpuUnread(), newRequest: gpuRequest({ count: 2 }) });
    const result = diagnose(snapshot);
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.summary).toContain('probably can never finish');
    expect(deadlock?.explanation).not.toContain("the scheduler's message settles it");
    expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
  });

  it('claims of other namespaces unread and one GPU held by the old pod: proved from its claim alone', () => {
    const { snapshot } = draSeed({ dra: { claims: 'namespace' } });
    const result = diagnose(snapshot);
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.summary).toContain('can never finish');
  });

  it('a selector the library cannot evaluate is unknown, never a match', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: ['device.attributes["gpu.nvidia.com"].productName.startsWithX("NVIDIA")'],
      }),
    });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(codes(result.findings)).not.toContain('Unschedulable');
    expect(codes(result.findings)).toContain('IncompleteEvidence');
    expect(text(result.findings)).toContain('could not be evaluated');
  });

  it('a selector that fails with a CEL runtime error (an attribute the device lacks): never a match, and the finding says the scheduler stops at it', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({ selectors: ['device.attributes["gpu.nvidia.com"].nvlinkDomain == "a"'] }),
    });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(codes(result.findings)).not.toContain('Unschedulable');
    expect(codes(result.findings)).toContain('IncompleteEvidence');
    expect(text(result.findings)).toContain('CEL runtime error (the request');
    expect(text(result.findings)).toContain('the scheduler stops scheduling the pod with that error');
  });

  it.each([
    [
      'the request',
      (): DraScenarioOptions => ({
        newRequest: gpuRequest({ selectors: ['device.attributes["example.com"].model == "l4"'] }),
      }),
    ],
    ['the DeviceClass', (): DraScenarioOptions => ({})],
  ])(
    'a selector of %s on an attribute domain the slice does not publish: the read that settles it is named in a sentence that reads',
    (where, options) => {
      const { snapshot, newPod } = draSeed(options());
      if (where === 'the DeviceClass')
        for (const c of snapshot.dra?.classes ?? [])
          c.spec.selectors = [{ cel: { expression: 'device.attributes["example.com"].model == "l4"' } }];
      const result = diagnose(snapshot);
      const finding = result.findings.find((f) => f.code === 'IncompleteEvidence');
      const pod = newPod.metadata.name ?? '';
      const read = `a FailedScheduling event of pod ${pod} that names the selector's error (kubectl describe pod -n vision ${pod}; "CEL runtime error" in its message shows the scheduler stopped at the selector)`;
      expect(finding?.summary).toBe(
        `Pod ${pod} is Pending and why cannot be settled without reading ${read}.`,
      );
      expect(finding?.explanation).toContain(`To settle it, read ${read}.`);
      expect(finding?.evidence).toContainEqual({ type: 'note', text: `Not read: ${read}` });
      expect(text(finding)).not.toContain('there shows');
    },
  );

  it("the pod's own FailedScheduling carries the CEL runtime error: Unschedulable naming the selector error, no strategy plan", () => {
    const cel =
      'running "DynamicResources" filter plugin: claim vision/tracker-gpu-x7k2q: selector #0: CEL runtime error: no such key: nvlinkDomain';
    const { snapshot } = draSeed({
      newRequest: gpuRequest({ selectors: ['device.attributes["gpu.nvidia.com"].nvlinkDomain == "a"'] }),
      message: cel,
    });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    const finding = result.findings[0];
    expect(finding?.summary).toContain(
      'the scheduler stops at a device selector that fails with a CEL runtime error ("claim vision/tracker-gpu-x7k2q: selector #0: CEL runtime error: no such key: nvlinkDomain"',
    );
    expect(finding?.explanation).toContain('selector #0 of claim vision/tracker-gpu-x7k2q');
    expect(finding?.explanation).toContain('not a rollout-strategy problem');
    expect(result.remediations).toEqual([]);
  });

  it('look-alike of the seed: the model sees the deadlock, but the scheduler says a class selector errs: never a surge deadlock', () => {
    const { snapshot } = draSeed({
      message:
        'running "DynamicResources" filter plugin: class gpu.nvidia.com: selector #0: CEL runtime error: no such key: vendor',
    });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(codes(result.findings)).toContain('Unschedulable');
    expect(text(result.findings)).toContain('fix the DeviceClass selector');
    // The scheduler counted no node: no "0/0 nodes" anywhere it is shown.
    const shown = [
      renderText(result),
      JSON.stringify(renderDiagnosis({ cluster: 'prod', diagnosis: result, dryRuns: {}, plans: {} })),
    ].join('\n');
    expect(shown).toContain('CEL runtime error: no such key: vendor');
    expect(shown).not.toMatch(/0\/0 nodes|0 node\(s\) considered/);
    for (const kind of ['set-rolling-update', 'set-recreate', 'scale-old-replicaset', 'rollout-restart'])
      expect(result.remediations.map((r) => r.kind)).not.toContain(kind);
  });

  it('a guarded selector (has() on the attribute) evaluates: the old pod holds the GPU it matches, still the deadlock', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: [
          '!has(device.attributes["gpu.nvidia.com"].nvlinkDomain) || device.attributes["gpu.nvidia.com"].nvlinkDomain == "a"',
        ],
      }),
    });
    expect(codes(diagnose(snapshot).findings)).toContain('RolloutSurgeDeadlock');
  });

  it('firstAvailable: an H100 first, an A100 as the fallback the old pod holds: still the deadlock', () => {
    const { snapshot } = draSeed({
      newRequest: {
        name: 'gpu',
        firstAvailable: [
          {
            name: 'h100',
            deviceClassName: 'gpu.nvidia.com',
            selectors: [
              { cel: { expression: 'device.attributes["gpu.nvidia.com"].productName.contains("H100")' } },
            ],
          },
          { name: 'any', deviceClassName: 'gpu.nvidia.com' },
        ],
      },
    });
    expect(codes(diagnose(snapshot).findings)).toContain('RolloutSurgeDeadlock');
  });

  it('a device taint the request does not tolerate: no device to release, Unschedulable', () => {
    const { snapshot } = draSeed();
    const device = snapshot.dra?.slices[0]?.spec.devices?.[0];
    if (device) device.taints = [{ key: 'gpu.nvidia.com/xid', value: '79', effect: 'NoSchedule' }];
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(text(result.findings[0])).toContain('1 matching but tainted');
  });

  it('extended resource on a node with a device plugin: node allocatable decides, as before', () => {
    const { snapshot, nodes } = draSeed({ mode: 'extended' });
    const gpuNode = nodes[0];
    if (gpuNode?.status?.allocatable) gpuNode.status.allocatable['nvidia.com/gpu'] = '1';
    if (gpuNode?.status?.capacity) gpuNode.status.capacity['nvidia.com/gpu'] = '1';
    const result = diagnose(snapshot);
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.summary).toContain('nvidia.com/gpu');
    expect(deadlock?.summary).not.toContain('device of class');
  });

  it('the A100 selector the old pod was placed under matches: still the deadlock', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({
        selectors: [
          `device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "${A100}"`,
          'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
        ],
      }),
    });
    expect(codes(diagnose(snapshot).findings)).toContain('RolloutSurgeDeadlock');
  });
});

describe('DRA surge deadlock when the nodes cannot be read (namespace-scoped RBAC, a dump without nodes)', () => {
  const unreadNodes = (snapshot: ReturnType<typeof draSeed>['snapshot']): typeof snapshot => ({
    ...snapshot,
    nodes: [],
    nodesComplete: false,
    coverage: { ...snapshot.coverage, nodes: 'unread' },
  });

  it('is proved from the scheduler counts and the old pod claim: its GPU serves the new request', () => {
    const result = diagnose(unreadNodes(draSeed().snapshot));
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.explanation).toContain("the scheduler's message settles it");
  });

  it('look-alike: the new template asks for two GPUs, the old claim holds one: IncompleteEvidence', () => {
    const result = diagnose(unreadNodes(draSeed({ newRequest: gpuRequest({ count: 2 }) }).snapshot));
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('do not serve every device request of the new pod');
  });
});

describe('RolloutAtRisk with DRA (the next rollout, predicted)', () => {
  it('a running tracker whose only GPU its own claim holds: the next rollout will deadlock', () => {
    const { snapshot, newPod } = draSeed();
    // The steady state after the rollout: the current template's pod runs and holds gpu-0.
    newPod.spec.nodeName = 'gpu-node-1';
    newPod.status = {
      ...newPod.status,
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
    };
    const name = newPod.status.resourceClaimStatuses?.[0]?.resourceClaimName ?? '';
    const dra = snapshot.dra;
    if (!dra) throw new Error('no DRA objects');
    const steady = {
      ...snapshot,
      pods: [newPod],
      events: [],
      replicaSets: snapshot.replicaSets.slice(0, 1),
      dra: {
        ...dra,
        claims: [
          claim(name, 'vision', { device: 'gpu-0', node: 'gpu-node-1', pods: [newPod], owner: newPod }),
        ],
      },
    };
    steady.deployment.status = {
      observedGeneration: 4,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    };
    const current = steady.replicaSets[0];
    if (current)
      current.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 };
    const result = diagnose(steady);
    const risk = result.findings.find((f) => f.code === 'RolloutAtRisk');
    expect(risk?.summary).toContain('Next rollout of tracker will deadlock');
    expect(risk?.summary).toContain('device of class gpu.nvidia.com');
  });
});

/**
 * gpu-0 published as a whole GPU and as a MIG partition drawing on the same shared
 * counters (partitionable devices); the claim `holder` holds the partition.
 */
function partitioned(options: DraScenarioOptions = {}, holder = 0): ReturnType<typeof draSeed> {
  const scenario = draSeed(options);
  const slice = scenario.snapshot.dra?.slices[0];
  const whole = slice?.spec.devices?.[0];
  if (!slice || !whole) throw new Error('no slice');
  slice.spec.sharedCounters = [
    { name: 'gpu-0-counters', counters: { memory: { value: '40Gi' }, multiprocessors: { value: '98' } } },
  ];
  whole.consumesCounters = [
    {
      counterSet: 'gpu-0-counters',
      counters: { memory: { value: '40Gi' }, multiprocessors: { value: '98' } },
    },
  ];
  slice.spec.devices?.push({
    name: 'gpu-0-mig-1g-5gb-0',
    attributes: { type: { string: 'mig' }, parentUUID: { string: 'GPU-4b0c2e1a' } },
    capacity: { memory: { value: '5Gi' } },
    consumesCounters: [
      {
        counterSet: 'gpu-0-counters',
        counters: { memory: { value: '5Gi' }, multiprocessors: { value: '14' } },
      },
    ],
  });
  const result = scenario.snapshot.dra?.claims[holder]?.status?.allocation?.devices?.results?.[0];
  if (result) result.device = 'gpu-0-mig-1g-5gb-0';
  return scenario;
}

describe('DRA allocator rules the verdicts rest on (structured allocator, resource.k8s.io/v1)', () => {
  it('partitionable devices: the old pod holds a MIG partition, so the whole GPU is not free: the deadlock', () => {
    const { snapshot, oldPod } = partitioned();
    const result = diagnose(snapshot);
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(codes(result.findings)).not.toContain('Unschedulable');
    expect(deadlock?.summary).toContain('(2 matching on the node, 0 free)');
    expect(text(deadlock)).toContain(`device gpu-0-mig-1g-5gb-0, claim vision/${oldPod.metadata.name ?? ''}`);
  });

  it('partitionable devices: two partitions asked, the whole GPU listed first: counted as the allocator can place them', () => {
    const { snapshot } = partitioned({ newRequest: gpuRequest({ count: 2 }) });
    const slice = snapshot.dra?.slices[0];
    const partition = slice?.spec.devices?.[1];
    if (partition) slice?.spec.devices?.push({ ...structuredClone(partition), name: 'gpu-0-mig-1g-5gb-1' });
    // Once the old pod's partition is free, two partitions fit (10Gi of 40Gi), though the whole GPU would not leave room for both.
    expect(codes(diagnose(snapshot).findings)).toContain('RolloutSurgeDeadlock');
  });

  it('look-alike: two devices asked where the whole GPU and its partition exclude each other: Unschedulable', () => {
    const { snapshot } = partitioned({ newRequest: gpuRequest({ count: 2 }), oldHoldsNothing: true });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(text(result.findings[0])).not.toContain('shows room');
  });

  it('look-alike: another team holds a MIG partition of the only GPU: contention, not "the snapshot shows room"', () => {
    const research = makeReplicaSet(makeDeployment('notebook', { namespace: 'research' }), '5f7c9d8b6d', {
      revision: 1,
      replicas: 1,
    });
    const notebook = makePod(research, 'r4tz8', 'gpu-node-1', { phase: 'Running' });
    const theirs = claim('notebook-gpu', 'research', {
      device: 'gpu-0',
      node: 'gpu-node-1',
      pods: [notebook],
    });
    const { snapshot } = partitioned({ oldHoldsNothing: true, claims: [theirs] });
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(text(result.findings[0])).toContain('contention for devices, not a rollout deadlock');
    expect(text(result.findings[0])).not.toContain('shows room');
  });

  it('look-alike: the claim entry is listed without a claim name (none was needed): no device need, no deadlock', () => {
    const { snapshot, newPod } = draSeed();
    newPod.status = { ...newPod.status, resourceClaimStatuses: [{ name: 'gpu' }] };
    const result = diagnose(snapshot);
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(text(result.findings)).not.toContain('template single-gpu');
  });

  it('look-alike: the new claim asks for admin access, which does not take the device: no deadlock', () => {
    const request = gpuRequest();
    if (request.exactly) request.exactly.adminAccess = true;
    const result = diagnose(draSeed({ newRequest: request }).snapshot);
    expect(codes(result.findings)).not.toContain('RolloutSurgeDeadlock');
    expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
  });

  it('look-alike: allocationMode All with a matching device tainted NoSchedule: Unschedulable, whoever goes', () => {
    const { snapshot } = draSeed({
      newRequest: gpuRequest({ allocationMode: 'All' }),
      gpus: [{ name: 'gpu-0' }, { name: 'gpu-1' }],
    });
    const gpu1 = snapshot.dra?.slices[0]?.spec.devices?.[1];
    if (gpu1) gpu1.taints = [{ key: 'gpu.nvidia.com/xid', value: '79', effect: 'NoSchedule' }];
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['Unschedulable']);
    expect(text(result.findings[0])).toContain('1 matching but tainted');
    expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
  });

  it('look-alike: a pool being republished (fewer slices than resourceSliceCount): unknown, never room', () => {
    const { snapshot } = draSeed({ gpus: [{ name: 'gpu-0' }, { name: 'gpu-1' }] });
    const slice = snapshot.dra?.slices[0];
    if (slice) slice.spec.pool.resourceSliceCount = 2;
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('is being republished (1 of');
    expect(text(result.findings)).not.toContain('shows room');
  });

  it('look-alike: a device several claims may share (allowMultipleAllocations): unknown, never a deadlock', () => {
    const { snapshot } = draSeed();
    const gpu0 = snapshot.dra?.slices[0]?.spec.devices?.[0];
    if (gpu0) gpu0.allowMultipleAllocations = true;
    const result = diagnose(snapshot);
    expect(codes(result.findings)).toEqual(['IncompleteEvidence']);
    expect(text(result.findings)).toContain('allowMultipleAllocations');
    expect(result.remediations.map((r) => r.kind)).not.toContain('set-rolling-update');
  });
});
