/**
 * A plan's impact in the reader's language (src/remediation/plan-words.ts): the words
 * say exactly the English impact the builder stored, and a reader gets them translated
 * only while they still do. An impact rewritten after it was worded (proved-offer.ts
 * puts "Outage below the disruption budget" before it) is shown as written, never as
 * a translation of what it said before.
 */
import { describe, expect, it } from 'vitest';
import {
  impactInWords,
  planImpact,
  planWarnings,
  warningsFrom,
  type PlanSaid,
} from '../../src/remediation/plan-words.js';

const rolling: PlanSaid = {
  key: 'rollingOldFirst',
  params: { paused: false, restart: true, down: 1, replicas: 4 },
};

describe("a plan's impact in words", () => {
  it('is the English the builders wrote before, and Korean for a Korean reader', () => {
    const impact = impactInWords(rolling, 'en');
    expect(impact).toBe(
      'Now and in every later rollout: reduced capacity: 1 of 4 replicas down at a time until each replacement is Ready; the other 3 keep serving. No extra pod is created (maxSurge 0).',
    );
    expect(planImpact({ impact, impactSaid: rolling }, 'ko')).toBe(
      '지금과 이후의 모든 롤아웃에서 용량이 줄어듭니다: 교체한 파드가 Ready가 될 때까지 한 번에 레플리카 4개 중 1개가 내려가고, 나머지 3개는 계속 서비스합니다. 추가 파드는 만들지 않습니다(maxSurge 0).',
    );
    expect(planImpact({ impact, impactSaid: rolling }, 'en')).toBe(impact);
  });

  it('says a paused workload and a change without restart in one sentence, so the short form keeps the impact', () => {
    const paused = impactInWords(
      { key: 'recreate', params: { paused: true, restart: true, replicas: 3 } },
      'ko',
    );
    const later = impactInWords(
      { key: 'recreate', params: { paused: false, restart: false, replicas: 3 } },
      'ko',
    );
    for (const text of [paused, later]) expect(text.indexOf('.')).toBe(text.length - 1);
    expect(paused).toContain('Deployment가 일시 중지된 동안에는');
    expect(later).toContain('지금은 아무것도 재시작하지 않고');
  });

  it('shows an impact rewritten after it was worded as written', () => {
    const impact = `Outage below the disruption budget: it takes web to 2 serving. ${impactInWords(rolling, 'en')}`;
    expect(planImpact({ impact, impactSaid: rolling }, 'ko')).toBe(impact);
    expect(planImpact({ impact: 'written by hand' }, 'ko')).toBe('written by hand');
  });

  it('says the worded warnings in Korean and leaves a warning added or rewritten later as written', () => {
    const worded = warningsFrom([
      { key: 'undoPrevious', params: { previous: 'RollingUpdate maxSurge 25%, maxUnavailable 25%' } },
      { key: 'recreateLater', params: {} },
    ]);
    const budget = 'No plan reaches the goal within PodDisruptionBudget web: this one goes 1 below it.';
    const plan = {
      warnings: [budget, ...worded.warnings, "a builder's own words"],
      warningsSaid: worded.warningsSaid,
    };
    expect(planWarnings(plan, 'ko')).toEqual([
      budget,
      '되돌리면 이전 전략(RollingUpdate maxSurge 25%, maxUnavailable 25%)으로 돌아가서 다음 롤아웃이 다시 교착 상태(deadlock)가 됩니다.',
      '이후의 모든 롤아웃도 전면 중단입니다: Recreate는 기존 파드와 새 파드를 함께 실행하지 않습니다.',
      "a builder's own words",
    ]);
    expect(planWarnings(plan, 'en')).toEqual(plan.warnings);
    const rewritten = { ...plan, warnings: plan.warnings.map((w) => w.replace('deadlock again', 'stall')) };
    expect(planWarnings(rewritten, 'ko')[1]).toBe(rewritten.warnings[1]);
  });

  it('stores no words where a plan has no worded warning', () => {
    expect(warningsFrom([])).toStrictEqual({ warnings: [] });
  });

  it('shows words this version does not know (a plan from a newer worker) as written, in any language', () => {
    const unknown = { key: 'fromANewerWorker', params: {} } as unknown as PlanSaid;
    const plan = {
      impact: 'stored English',
      impactSaid: unknown,
      warnings: ['a warning'],
      warningsSaid: [unknown],
    };
    expect(planImpact(plan, 'ko')).toBe('stored English');
    expect(planWarnings(plan, 'ko')).toEqual(['a warning']);
  });
});
