/**
 * Issue 40's property: generated mid-rollout states, diagnosed and then run forward on
 * the stepped simulator. A "can never finish" verdict must not finish on its own; a
 * rollout that finishes must not have been offered a plan that takes serving pods
 * down; a rollout that never finishes must not read "no problem"; the fix for a proven
 * deadlock must finish it. `npm run verify:states` runs thousands.
 */
import { describe, expect, it } from 'vitest';
import { judgeSeed, tally, type JudgedState } from '../support/state-judge.js';
import { generateState } from '../../sim/generated-states.js';

const COUNT = 150;
const STATEFUL_COUNT = 150;
const RULES_COUNT = 100;

/** Every judged state that disagrees, one line each (seed, judgement, findings, plans, cluster). */
function disagreements(results: readonly JudgedState[]): string[] {
  return results
    .filter((r) => r.judgement !== 'agree' && r.judgement !== 'skipped')
    .map(
      (r) => `seed ${r.seed} ${r.judgement}: ${r.codes.join(',')} / ${r.plans.join(',')} (${r.description})`,
    );
}

describe('generated mid-rollout states, judged by the simulator run forward', () => {
  it(`agree on ${COUNT} seeded states: no false deadlock, no harmful plan, no missed deadlock, no failed fix`, () => {
    const results = Array.from({ length: COUNT }, (_, i) => judgeSeed(1000 + i));
    expect(disagreements(results)).toEqual([]);
    const t = tally(results);
    // The sample must hold both outcomes and enough of them to mean something.
    expect(t.judged).toBeGreaterThan(COUNT / 2);
    expect(t.completed).toBeGreaterThan(10);
    expect(t.judged - t.completed).toBeGreaterThan(3);
  }, 600_000);

  // Found by `npm run verify:states -- --seed 2001 --count 2000`: a template whose cpu
  // request grew, while a quota (or maxUnavailable) holds the rollout. The dump's other
  // pods were dropped as "not scarce", so the new pod seemed to fit where the old one
  // ran: a surge deadlock whose fix could not finish (2185: DaemonSet, 2790: Deployment,
  // stepped scale-down), and a DaemonSet stuck on a full node read as no problem (3944).
  it.each([2185, 2790, 3944])(
    'seed %i: a template that outgrows its pods is judged with the other pods',
    (seed) => {
      const r = judgeSeed(seed);
      expect(r.judgement, `${r.codes.join(',')} / ${r.plans.join(',')} (${r.description})`).toBe('agree');
      expect(r.completes).toBe(false);
    },
    120_000,
  );

  // StatefulSets (ordered or parallel, partition, maxUnavailable): the model checks their
  // next step and whether their end state can exist at all (forward/final-state.ts).
  // Seeds 10, 473, 947: a template whose cpu grew past what the nodes hold; 437, 1422:
  // a host port, at most one pod a node, more replicas than nodes. Each read as a
  // rollout in motion, or as no problem, before that check.
  it.each([10, 437, 473, 947, 1422])(
    'StatefulSet seed %i: an end state no node can hold is found',
    (seed) => {
      const r = judgeSeed(seed, 'StatefulSet');
      expect(r.judgement, `${r.codes.join(',')} / ${r.plans.join(',')} (${r.description})`).toBe('agree');
      expect(r.codes).toContain('Unschedulable');
    },
    120_000,
  );

  it(`agree on ${STATEFUL_COUNT} seeded StatefulSet states`, () => {
    const results = Array.from({ length: STATEFUL_COUNT }, (_, i) => judgeSeed(1 + i, 'StatefulSet'));
    expect(disagreements(results)).toEqual([]);
    const t = tally(results);
    expect(t.judged).toBeGreaterThan(STATEFUL_COUNT / 2);
    expect(t.judged - t.completed).toBeGreaterThan(3);
  }, 600_000);

  // Placement rules (sim/generated-rules.ts): required anti-affinity against the
  // workload's own pods, one a node or one a zone, in both templates or only the new
  // one, and a new template pinned to one zone: a new pod that may not sit beside an
  // old one. `npm run verify:states -- --rules`.
  it(`agree on ${RULES_COUNT} seeded states with placement rules, every kind`, () => {
    const kinds = [undefined, 'StatefulSet'] as const;
    const results = Array.from({ length: RULES_COUNT }, (_, i) => judgeSeed(1 + i, kinds[i % 2], true));
    expect(disagreements(results)).toEqual([]);
    const t = tally(results);
    expect(t.judged).toBeGreaterThan(RULES_COUNT / 3);
    expect(t.judged - t.completed).toBeGreaterThan(3);
    expect(results.filter((r) => r.description.includes('anti-affinity')).length).toBeGreaterThan(
      RULES_COUNT / 3,
    );
  }, 600_000);

  it('generates the same cluster from the same seed, and different ones from different seeds', () => {
    expect(generateState(7)).toEqual(generateState(7));
    expect(generateState(7).description).not.toEqual(generateState(8).description);
  });
});
