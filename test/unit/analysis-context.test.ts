/**
 * The AnalysisContext: each derived value (rollout assessment, placement index,
 * container reports, crash pictures, DRA index) is computed once per diagnosis and
 * shared by the analyzers and the plan builders; two contexts share nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { Analyzer } from '../../src/diagnosis/analyzer.js';
import { classifyContainers } from '../../src/diagnosis/crash/container-failures.js';
import { crashPictures } from '../../src/diagnosis/crash/crash-distribution.js';
import { placementContext } from '../../src/diagnosis/placement/placement.js';
import { assessRollout } from '../../src/diagnosis/rollout/rollout-assessment.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { PlanBuilder } from '../../src/remediation/builders/index.js';
import { crashScenario } from '../support/crash-fixtures.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

/** Counts, per key, how often a context asks for a value and how often it computes it. */
function countDerivations(): { asked: Map<string, number>; computed: Map<string, number> } {
  const asked = new Map<string, number>();
  const computed = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string): void => {
    map.set(key, (map.get(key) ?? 0) + 1);
  };
  const original = AnalysisContext.prototype.once;
  vi.spyOn(AnalysisContext.prototype, 'once').mockImplementation(function (
    this: AnalysisContext,
    key: string,
    compute: () => unknown,
  ) {
    bump(asked, key);
    return original.call(this, key, () => {
      bump(computed, key);
      return compute();
    });
  } as AnalysisContext['once']);
  return { asked, computed };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AnalysisContext.once', () => {
  it('computes a value on the first call only, per key', () => {
    const ctx = new AnalysisContext(seedIncidentA());
    let runs = 0;
    const compute = (): { n: number } => ({ n: ++runs });
    const first = ctx.once('k', compute);
    expect(ctx.once('k', compute)).toBe(first);
    expect(runs).toBe(1);
    expect(ctx.once('other', compute)).toEqual({ n: 2 });
    expect(runs).toBe(2);
  });

  it('remembers undefined too (a snapshot without DRA objects has no DRA index)', () => {
    const ctx = new AnalysisContext(seedIncidentA());
    let runs = 0;
    const none = (): undefined => {
      runs++;
      return undefined;
    };
    expect(ctx.once('nothing', none)).toBeUndefined();
    expect(ctx.once('nothing', none)).toBeUndefined();
    expect(runs).toBe(1);
  });

  it('refuses a derivation that asks for itself', () => {
    const ctx = new AnalysisContext(seedIncidentA());
    const loop = (): number => ctx.once('loop', loop);
    expect(() => ctx.once('loop', loop)).toThrow('loop depends on itself');
  });

  it('two contexts of the same snapshot share no state', () => {
    const snapshot = seedIncidentA();
    const a = new AnalysisContext(snapshot);
    const b = new AnalysisContext(snapshot);
    expect(a.snapshot).toBe(b.snapshot);
    let runs = 0;
    const compute = (): number => ++runs;
    expect(a.once('k', compute)).toBe(1);
    expect(b.once('k', compute)).toBe(2);
    // The real derivations: equal values, separate objects.
    expect(assessRollout(b)).not.toBe(assessRollout(a));
    expect(assessRollout(b)).toEqual(assessRollout(a));
    expect(placementContext(b)).not.toBe(placementContext(a));
    expect(placementContext(a).analysis).toBe(a);
    expect(classifyContainers(b)).not.toBe(classifyContainers(a));
    expect(crashPictures(b)).not.toBe(crashPictures(a));
    expect(assessRollout(a)).toBe(assessRollout(a));
  });
});

describe('one diagnosis, one context', () => {
  it('a surge deadlock: the rollout assessment and the placement index are computed once for every analyzer and plan', () => {
    const { asked, computed } = countDerivations();
    const diagnosis = diagnose(seedIncidentA());
    expect(diagnosis.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
    expect(diagnosis.remediations.length).toBeGreaterThan(0);
    // Several analyzers and the strategy plans ask; each value is computed once.
    expect(asked.get('rollout-assessment')).toBeGreaterThan(3);
    expect(asked.get('placement')).toBeGreaterThan(1);
    for (const key of [
      'rollout-assessment',
      'placement',
      'container-reports',
      'crash-pictures',
      'dra-index',
    ]) {
      expect(computed.get(key) ?? 0, key).toBeLessThanOrEqual(1);
    }
    expect(computed.get('rollout-assessment')).toBe(1);
    expect(computed.get('placement')).toBe(1);
  });

  it('a crash on one node: container reports and crash pictures are computed once for the analyzers and the exclude-node plan', () => {
    const { asked, computed } = countDerivations();
    const diagnosis = diagnose(crashScenario().snapshot);
    expect(diagnosis.findings.map((f) => f.code)).toContain('CrashLoopOnNode');
    expect(diagnosis.remediations.map((p) => p.kind)).toContain('exclude-node');
    expect(asked.get('crash-pictures')).toBeGreaterThan(2);
    expect(asked.get('container-reports')).toBeGreaterThan(2);
    expect(computed.get('crash-pictures')).toBe(1);
    expect(computed.get('container-reports')).toBe(1);
  });

  it('hands the plan builders the very context the analyzers saw', () => {
    const seen: AnalysisContext[] = [];
    const first: Analyzer = {
      name: 'first',
      analyze: (ctx) => {
        seen.push(ctx);
        return [{ code: 'CrashLoop', severity: 'critical', summary: 's', evidence: [] }];
      },
    };
    const second: Analyzer = { name: 'second', analyze: (ctx) => (seen.push(ctx), []) };
    const builder: PlanBuilder = (ctx) => (seen.push(ctx), []);
    diagnose(seedIncidentA(), { analyzers: [first, second], planBuilders: { CrashLoop: builder } });
    expect(seen).toHaveLength(3);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
  });

  it('each diagnosis builds its own context', () => {
    const { computed } = countDerivations();
    const snapshot = seedIncidentA();
    diagnose(snapshot);
    diagnose(snapshot);
    expect(computed.get('rollout-assessment')).toBe(2);
  });
});
