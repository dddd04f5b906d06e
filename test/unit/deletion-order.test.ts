/**
 * Which old pod a step releases: the ReplicaSet controller's order (unscheduled, then
 * Pending, then not Ready, and only then the pod-deletion-cost), so a mark picks among
 * pods alike only; and the scale-old-replicaset builder does not offer a walk whose
 * first step would release a pod that frees nothing the new pod needs.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { surgeDeadlock } from '../../src/diagnosis/analyzers/surge-deadlock.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import {
  chooseRelease,
  DELETION_COST,
  deletionTier,
  FIRST_TO_GO,
} from '../../src/diagnosis/rollout/deletion-order.js';
import { buildScaleOldReplicaSetPlans } from '../../src/remediation/builders/scale-old-replicaset.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, rollout } from '../support/rollout-scenarios.js';

const rs = makeReplicaSet(makeDeployment('ingress', { namespace: 'edge' }), '6d4cf56db6', { replicas: 4 });
const running = (suffix: string, node: string, ready = true): Pod =>
  makePod(rs, suffix, node, { phase: 'Running', ready });

describe('the ReplicaSet controller’s deletion order', () => {
  it('unscheduled, then Pending, then not Ready, then Ready: the tier before any cost', () => {
    const tiers = [
      makePod(rs, 'u', undefined, { phase: 'Pending' }),
      makePod(rs, 'p', 'edge-1', { phase: 'Pending' }),
      running('n', 'edge-1', false),
      running('r', 'edge-1'),
    ].map(deletionTier);
    expect([...tiers].sort((a, b) => a - b)).toEqual(tiers);
    expect(new Set(tiers).size).toBe(4);
  });

  it('a not-Ready old pod goes before any marked Ready one: it is the step’s pod when it blocks', () => {
    // Named so that the not-Ready pod is last: picking by name alone would get it wrong.
    const pods = [running('a', 'edge-1'), running('b', 'edge-2'), running('z', 'edge-3', false)];
    const choice = chooseRelease(pods, () => true);
    expect(choice).toMatchObject({ ok: true, pod: { metadata: { name: 'ingress-6d4cf56db6-z' } } });
  });

  it('when the pod that goes first frees nothing the new pod needs, there is no good step, and it says why', () => {
    const pods = [running('a', 'edge-1'), running('b', 'edge-2'), running('z', 'edge-9', false)];
    const choice = chooseRelease(pods, (p) => p.spec.nodeName !== 'edge-9');
    expect(choice).toMatchObject({ ok: false, first: { metadata: { name: 'ingress-6d4cf56db6-z' } } });
    expect(choice?.ok === false && choice.reason).toBe(
      `old pod ingress-6d4cf56db6-z is not Ready: the ReplicaSet controller deletes it before any pod marked with ${DELETION_COST}, and it holds nothing the new pod needs`,
    );
  });

  it('among Ready pods the mark decides: the first blocking pod by name; a pod already at the lowest cost is taken as it is', () => {
    const pods = [running('a', 'edge-9'), running('b', 'edge-2'), running('c', 'edge-3')];
    const blocks = (p: Pod): boolean => p.spec.nodeName !== 'edge-9';
    expect(chooseRelease(pods, blocks)).toMatchObject({
      ok: true,
      pod: { metadata: { name: 'ingress-6d4cf56db6-b' } },
    });
    const c = pods[2];
    if (c) c.metadata.annotations = { ...c.metadata.annotations, [DELETION_COST]: String(FIRST_TO_GO) };
    expect(chooseRelease(pods, blocks)).toMatchObject({
      ok: true,
      pod: { metadata: { name: 'ingress-6d4cf56db6-c' } },
    });
    // The lowest cost on a pod that blocks nothing: no mark can win over it.
    const a = pods[0];
    if (a) a.metadata.annotations = { ...a.metadata.annotations, [DELETION_COST]: String(FIRST_TO_GO) };
    expect(chooseRelease(pods, blocks)).toMatchObject({
      ok: false,
      first: { metadata: { name: 'ingress-6d4cf56db6-a' } },
    });
  });

  it('terminating pods are already going and count for nothing', () => {
    const going = running('a', 'edge-1', false);
    going.metadata.deletionTimestamp = '2026-11-22T03:00:00Z';
    expect(chooseRelease([going, running('b', 'edge-2')], () => true)).toMatchObject({
      ok: true,
      pod: { metadata: { name: 'ingress-6d4cf56db6-b' } },
    });
    expect(chooseRelease([going], () => true)).toBeUndefined();
  });
});

describe('scale-old-replicaset builder: the stepped plan only where its first step can release a blocking pod', () => {
  const message =
    "0/3 nodes are available: 2 node(s) didn't have free ports for the requested pod ports, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 2 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.";
  const scenario = (readyOnEdge4: boolean) => {
    // Two edge nodes where the new pod fits once their old pod goes, and an old pod on
    // edge-4, which the new template's selector does not allow (the old one did).
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-4'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
      oldTemplate: (t) => {
        t.spec.nodeSelector = { zone: 'a' };
      },
    });
    const onEdge4 = parts.oldPods.find((p) => p.spec.nodeName === 'edge-4');
    const ready = onEdge4?.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready) ready.status = readyOnEdge4 ? 'True' : 'False';
    const nodes = [
      ...['edge-1', 'edge-2'].map((n) => makeNode(n, { labels: { pool: 'edge', zone: 'a' } })),
      makeNode('edge-4', { labels: { pool: 'other', zone: 'a' } }),
    ];
    return pendingRolloutSnapshot(parts, nodes, message);
  };
  const build = (readyOnEdge4: boolean): { kinds: string[]; notes: string[] } => {
    const snapshot = scenario(readyOnEdge4);
    const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));
    if (finding?.code !== 'RolloutSurgeDeadlock') throw new Error(`no deadlock: ${finding?.code ?? 'none'}`);
    const notes: string[] = [];
    const plans = buildScaleOldReplicaSetPlans(new AnalysisContext(snapshot), finding, (kind, reason) =>
      notes.push(`${kind}: ${reason}`),
    );
    return { kinds: plans.map((p) => (p.replicaSet?.stepped ? 'stepped' : 'all-at-once')), notes };
  };

  it('every old pod Ready: stepped and all at once', () => {
    expect(build(true)).toEqual({ kinds: ['stepped', 'all-at-once'], notes: [] });
  });

  it('a not-Ready old pod on a node the new pod cannot use would go first: all at once only, and it says why', () => {
    const { kinds, notes } = build(false);
    expect(kinds).toEqual(['all-at-once']);
    expect(notes).toEqual([
      expect.stringMatching(
        /^scale-old-replicaset: one replica at a time: old pod ingress-6d4cf56db6-\w+ is not Ready: the ReplicaSet controller deletes it before any pod marked/,
      ),
    ]);
  });
});
