/**
 * A second exclusion over a live first one: the workload keeps one record, so the first
 * one's values are carried on into the second's. Its end was the second's alone: node-b,
 * excluded "until removed", came back four hours later when node-c's 4h exclusion ended
 * (and the other way round, a 4h one never ended). The record now ends no sooner than
 * the earlier exclusion did (the marker's floor, kept when the approver picks another
 * duration), and the approver of the second is told so.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { buildExcludeNodePlans } from '../../src/remediation/builders/exclude-node.js';
import { readRecord } from '../../src/remediation/exclusion-record.js';
import { fillExclusionTimes, withPlanTtl } from '../../src/remediation/exclusion-times.js';
import { checkPlanWithinKind } from '../../src/remediation/patch-allowlist.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { applyJsonPatch } from '../../sim/patch/json-patch.js';
import { crashScenario } from '../support/crash-fixtures.js';

/** The first exclusion is applied at 01:00, the second read at 03:00 (the snapshots' time) and applied at 03:05. */
const FIRST_AT = new Date('2026-11-22T01:00:00Z');
const SECOND_AT = new Date('2026-11-22T03:05:00Z');

function excludePlan(scenario: ReturnType<typeof crashScenario>, ttl: string): RemediationPlan {
  const ctx = new AnalysisContext(scenario.snapshot, {});
  const [finding] = crashLoopOnNode.analyze(ctx);
  const [plan] = finding ? buildExcludeNodePlans(ctx, finding) : [];
  const chosen = plan ? withPlanTtl(plan, ttl) : undefined;
  if (!chosen?.patch) throw new Error('fixture: no exclude-node plan');
  return chosen;
}

function apply(plan: RemediationPlan, deployment: Deployment, at: Date): Deployment {
  if (!plan.patch) throw new Error('no patch');
  return applyJsonPatch(deployment, fillExclusionTimes(plan.patch, at).body) as Deployment;
}

/** node-b excluded for `first`, then node-c crashes and its exclusion is planned for `second`. */
function secondExclusion(first: string, second: string) {
  const one = crashScenario({ placement: ['node-a', 'node-b', 'node-c', 'node-d'], crashing: [1] });
  const excluded = apply(excludePlan(one, first), one.deployment, FIRST_AT);
  const two = crashScenario({
    placement: ['node-a', 'node-c', 'node-d'],
    crashing: [1],
    spareNodes: ['node-b'],
    deployment: {
      podSpec: excluded.spec.template.spec.affinity ? { affinity: excluded.spec.template.spec.affinity } : {},
    },
  });
  two.deployment.metadata.annotations = excluded.metadata.annotations;
  const plan = excludePlan(two, second);
  const after = apply(plan, two.deployment, SECOND_AT);
  return { plan, before: two.deployment, record: readRecord(after.metadata.annotations) };
}

describe('a second exclusion over a live first one', () => {
  it('lasts until removed when the first does, whatever its own duration, and says so', () => {
    const { plan, before, record } = secondExclusion('until-removed', '4h');
    expect(record?.values).toEqual({ 'kubernetes.io/hostname': ['node-b', 'node-c'] });
    expect(record?.expiresAt).toBe('never');
    expect(plan.warnings.join(' ')).toContain(
      'The earlier exclusion of node-b, which lasts until someone removes it, is carried on into this one record',
    );
    // The marker with its floor is the executor's to fill: the allowlist lets it through.
    expect(checkPlanWithinKind(plan, before)).toEqual({ ok: true });
  });

  it('ends at the later of the two ends: the first when it ends later', () => {
    // The first ends at 01:00 + 24h; the second alone would end at 03:05 + 4h.
    const { plan, record } = secondExclusion('24h', '4h');
    expect(record?.expiresAt).toBe('2026-11-23T01:00:00Z');
    expect(plan.warnings.join(' ')).toContain('which ends at 2026-11-23T01:00:00Z, is carried on');
  });

  it('…and the second when it ends later', () => {
    const { record } = secondExclusion('4h', '24h');
    expect(record?.expiresAt).toBe('2026-11-23T03:05:00Z');
  });

  it('carries no floor and no warning once the first has expired', () => {
    // The first ended at 02:00, before the second was read (03:00).
    const { plan, record } = secondExclusion('1h', '4h');
    expect(record?.expiresAt).toBe('2026-11-22T07:05:00Z');
    expect(plan.warnings.join(' ')).not.toContain('earlier exclusion');
  });
});
