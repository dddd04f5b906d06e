/**
 * Exclusions that end themselves (issue 65.5): the record an exclude-node plan writes
 * on the workload, its times filled at the apply, its state at a time, the removal
 * that takes out exactly what it added, and the nodes that changed since.
 */
import { describe, expect, it } from 'vitest';
import type { Affinity } from '../../src/diagnosis/k8s.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { buildExcludeNodePlans } from '../../src/remediation/builders/exclude-node.js';
import {
  EXCLUSION_ANNOTATIONS as A,
  exclusionState,
  readRecord,
  type ExclusionRecord,
} from '../../src/remediation/exclusion-record.js';
import { removalPlan, withoutExcluded } from '../../src/remediation/exclusion-removal.js';
import { changedNodes, allNodesChanged } from '../../src/remediation/exclusion-nodes.js';
import { fillExclusionTimes } from '../../src/remediation/exclusion-times.js';
import { ttlMs, ttlProblem, UNTIL_REMOVED } from '../../src/remediation/exclusion-ttl.js';
import { checkPlanWithinKind } from '../../src/remediation/patch-allowlist.js';
import type { RemediationPlan, WorkloadPatchPlan } from '../../src/remediation/plan.js';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { expiryDecision } from '../../src/worker/exclusion-expiry.js';
import { crashScenario } from '../support/crash-fixtures.js';
import { makeNode } from '../support/k8s-builders.js';

const NOW = new Date('2026-11-27T10:00:00Z');

function planFor(ttl?: string, affinity?: Affinity): { plan: WorkloadPatchPlan; deployment: Deployment } {
  const scenario = crashScenario({
    placement: ['node-a', 'node-b', 'node-c'],
    crashing: [1],
    ...(affinity ? { deployment: { podSpec: { affinity } } } : {}),
  });
  const ctx = new AnalysisContext(scenario.snapshot, ttl ? { exclusionTtl: ttl } : {});
  const [finding] = crashLoopOnNode.analyze(ctx);
  if (!finding) throw new Error('fixture: no finding');
  const [plan] = buildExcludeNodePlans(ctx, finding);
  if (!plan || plan.kind !== 'exclude-node' || !plan.patch) throw new Error('fixture: no plan');
  return { plan: plan as WorkloadPatchPlan, deployment: scenario.deployment };
}

/** The plan applied as the executor sends it: its times filled at NOW. */
function applied(plan: RemediationPlan, deployment: Deployment): Deployment {
  if (!plan.patch) throw new Error('no patch');
  return applyJsonPatch(deployment, fillExclusionTimes(plan.patch, NOW).body) as Deployment;
}

function recordOf(d: Deployment): ExclusionRecord {
  const record = readRecord(d.metadata.annotations);
  if (!record) throw new Error('no record');
  return record;
}

function removal(d: Deployment, cause: 'expired' | 'nodes-changed' = 'expired'): WorkloadPatchPlan {
  return removalPlan(
    {
      target: { kind: 'Deployment', namespace: 'vision', name: 'detector' },
      uid: d.metadata.uid ?? '',
      generation: d.metadata.generation ?? 0,
      affinity: d.spec.template.spec.affinity,
      annotations: d.metadata.annotations ?? {},
      record: recordOf(d),
    },
    cause,
  );
}

describe('the duration setting', () => {
  it('reads 4h, 24h, 7d and until-removed, and refuses anything else', () => {
    expect(ttlMs('4h')).toBe(4 * 3600_000);
    expect(ttlMs('7d')).toBe(7 * 86_400_000);
    expect(ttlMs(UNTIL_REMOVED)).toBeNull();
    for (const bad of ['', '24', '0h', '-1h', '1w', '91d', 'forever']) expect(ttlProblem(bad)).toBeDefined();
    expect(ttlProblem('24h')).toBeUndefined();
  });
});

describe('the record an exclude-node plan writes', () => {
  it('is on the workload (never the pod template), in the same patch, its times filled at the apply', () => {
    const { plan, deployment } = planFor('4h');
    const after = applied(plan, deployment);
    expect(after.spec.template.metadata?.annotations).toEqual(deployment.spec.template.metadata?.annotations);
    const record = recordOf(after);
    expect(record.values).toEqual({ 'kubernetes.io/hostname': ['node-b'] });
    expect(record.nodes.map((n) => n.name)).toEqual(['node-b']);
    expect(record.reason).toEqual({
      finding: 'CrashLoopOnNode',
      fields: ['kernelVersion'],
      bad: [['6.8.0-1009-aws']],
    });
    expect(record.setAt).toBe('2026-11-27T10:00:00Z');
    expect(record.expiresAt).toBe('2026-11-27T14:00:00Z');
  });

  it('lasts 24h by default, and "until removed" never expires', () => {
    const { plan, deployment } = planFor();
    expect(recordOf(applied(plan, deployment)).expiresAt).toBe('2026-11-28T10:00:00Z');
    const forever = planFor(UNTIL_REMOVED);
    expect(recordOf(applied(forever.plan, forever.deployment)).expiresAt).toBe('never');
  });

  it('records only the values it adds: a NotIn value the user set is not its own', () => {
    const own: Affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-z'] }] },
          ],
        },
      },
    };
    const { plan, deployment } = planFor('24h', own);
    expect(recordOf(applied(plan, deployment)).values).toEqual({ 'kubernetes.io/hostname': ['node-b'] });
  });

  it('passes the allowlist, which refuses a time of the plan own at set-at or expires-at', () => {
    const { plan, deployment } = planFor();
    expect(checkPlanWithinKind(plan, deployment)).toEqual({ ok: true });
    const forged = structuredClone(plan);
    const body = forged.patch.body as { path: string; value?: unknown }[];
    const expires = body.find((op) => op.path.endsWith('exclusion.expires-at'));
    if (!expires) throw new Error('fixture');
    expires.value = '2099-01-01T00:00:00Z';
    expect(checkPlanWithinKind(forged, deployment)).toMatchObject({ ok: false });
  });
});

describe('where an exclusion stands', () => {
  const { plan, deployment } = planFor('4h');
  const record = recordOf(applied(plan, deployment));

  it('is live before its end and expired from it on', () => {
    expect(exclusionState(record, Date.parse('2026-11-27T13:59:59Z')).state).toBe('live');
    expect(exclusionState(record, Date.parse('2026-11-27T14:00:00Z')).state).toBe('expired');
  });

  it('never expires when it lasts until removed, and an end that does not read is no end', () => {
    expect(exclusionState({ ...record, expiresAt: 'never' }, Date.parse('2100-01-01T00:00:00Z')).state).toBe(
      'until-removed',
    );
    expect(exclusionState({ ...record, expiresAt: 'tomorrow' }, NOW.getTime()).state).toBe('unreadable');
  });

  it('is no record when the annotations were edited into something that does not parse', () => {
    const after = applied(plan, deployment);
    const annotations = { ...after.metadata.annotations, [A.values]: '{not json' };
    expect(readRecord(annotations)).toBeUndefined();
  });
});

describe('removing an exclusion', () => {
  it('restores the Deployment as it was before the exclusion (affinity and annotations)', () => {
    const { plan, deployment } = planFor('4h');
    const after = applied(plan, deployment);
    const removed = applyJsonPatch(after, removal(after).patch.body) as Deployment;
    expect(removed).toEqual(deployment);
  });

  it("takes out only its own values: the user's NotIn value stays", () => {
    const own: Affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-z'] }] },
          ],
        },
      },
    };
    const { plan, deployment } = planFor('4h', own);
    const after = applied(plan, deployment);
    const removed = applyJsonPatch(after, removal(after).patch.body) as Deployment;
    expect(removed.spec.template.spec.affinity).toEqual(own);
  });

  it('happens once: a second removal of the same exclusion fails its test', () => {
    const { plan, deployment } = planFor('4h');
    const after = applied(plan, deployment);
    const once = removal(after);
    const removed = applyJsonPatch(after, once.patch.body);
    expect(() => applyJsonPatch(removed, once.patch.body)).toThrow(/test failed|not found|does not exist/i);
  });

  it('names the same plan for the same exclusion, whoever finds it expired', () => {
    const { plan, deployment } = planFor('4h');
    const after = applied(plan, deployment);
    expect(removal(after).id).toBe(removal(structuredClone(after)).id);
    expect(removal(after).id).toMatch(/^unexclude-[0-9a-f]{16}$/);
  });

  it('passes the allowlist of the exclude-node kind', () => {
    const { plan, deployment } = planFor('4h');
    const after = applied(plan, deployment);
    expect(checkPlanWithinKind(removal(after), after)).toEqual({ ok: true });
  });

  it('keeps an empty term the user wrote (it matches no node) and drops one it emptied', () => {
    const affinity: Affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {},
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
          ],
        },
      },
    };
    expect(withoutExcluded(affinity, { 'kubernetes.io/hostname': ['node-b'] })).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } },
    });
  });
});

describe('whether the excluded nodes still carry what set them apart', () => {
  const { plan, deployment } = planFor('4h');
  const record = recordOf(applied(plan, deployment));
  const uidB = record.nodes[0]?.uid ?? '';
  const nodeB = (kernel: string, id = uidB) => {
    const node = makeNode('node-b', { kernelVersion: kernel });
    node.metadata.uid = id;
    return node;
  };

  it('no: the same node, the same kernel', () => {
    expect(changedNodes(record, [nodeB('6.8.0-1009-aws')], true)).toEqual([]);
  });

  it('yes: the kernel changed', () => {
    const changed = changedNodes(record, [nodeB('6.8.0-1010-aws')], true);
    expect(changed).toEqual([{ node: 'node-b', change: 'changed', detail: 'kernelVersion 6.8.0-1010-aws' }]);
    expect(allNodesChanged(record, changed)).toBe(true);
  });

  it('yes: the node was replaced (another uid under its name)', () => {
    expect(changedNodes(record, [nodeB('6.8.0-1009-aws', 'other-uid')], true)).toEqual([
      { node: 'node-b', change: 'replaced' },
    ]);
  });

  it('gone only when every node was listed: a node not read is unknown', () => {
    expect(changedNodes(record, [], true)).toEqual([{ node: 'node-b', change: 'gone' }]);
    expect(changedNodes(record, [], false)).toEqual([]);
  });
});

describe('what the expiry sweep does with an exclusion (src/worker/exclusion-expiry.ts)', () => {
  const { plan, deployment } = planFor('4h');
  const after = applied(plan, deployment);
  const live = {
    target: { kind: 'Deployment' as const, namespace: 'vision', name: 'detector' },
    uid: after.metadata.uid ?? '',
    generation: after.metadata.generation ?? 0,
    affinity: after.spec.template.spec.affinity,
    annotations: after.metadata.annotations ?? {},
    record: recordOf(after),
  };
  const uidB = live.record.nodes[0]?.uid ?? '';
  const nodeB = (kernel: string) => {
    const node = makeNode('node-b', { kernelVersion: kernel });
    node.metadata.uid = uidB;
    return node;
  };
  const before = Date.parse('2026-11-27T13:00:00Z');

  it('keeps one that has not expired and whose nodes are as they were', () => {
    expect(expiryDecision(live, [nodeB('6.8.0-1009-aws')], true, before)).toEqual({ act: 'keep' });
  });

  it('removes one that expired, whatever its nodes', () => {
    expect(expiryDecision(live, [nodeB('6.8.0-1009-aws')], true, Date.parse('2026-11-27T14:00:00Z'))).toEqual(
      {
        act: 'remove',
        cause: 'expired',
      },
    );
  });

  it('offers to remove one whose nodes no longer carry what set them apart, "until removed" too', () => {
    const offer = {
      act: 'offer',
      cause: 'nodes-changed',
      detail: 'node-b changed (kernelVersion 6.8.0-1010-aws)',
    };
    expect(expiryDecision(live, [nodeB('6.8.0-1010-aws')], true, before)).toEqual(offer);
    const forever = { ...live, record: { ...live.record, expiresAt: 'never' } };
    expect(
      expiryDecision(forever, [nodeB('6.8.0-1010-aws')], true, Date.parse('2100-01-01T00:00:00Z')),
    ).toEqual(offer);
    expect(
      expiryDecision(forever, [nodeB('6.8.0-1009-aws')], true, Date.parse('2100-01-01T00:00:00Z')),
    ).toEqual({
      act: 'keep',
    });
  });
});
