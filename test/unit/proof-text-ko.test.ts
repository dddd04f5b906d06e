/**
 * A plan's proof in the reader's language (src/remediation/proof-text.ts): the sentence,
 * its floor, the steps said from data, and the short form for the chat message. English
 * stays what it was (the stored `steps`); a plan stored before the steps were data says
 * them as stored.
 */
import { describe, expect, it } from 'vitest';
import { proofBrief, proofSentence, proofSteps, stepInWords } from '../../src/remediation/proof-text.js';
import type { PlanProof, ProofStep } from '../../src/remediation/plan.js';

const said: ProofStep[] = [
  { say: 'old', count: 1, pod: 'web-7f-a' },
  { say: 'ready', count: 3 },
  { say: 'preempted', count: 1, node: 'gpu-node-1', victims: 2 },
  { say: 'more', count: 4 },
  { say: 'completes', count: 1 },
];

const run: PlanProof = {
  method: 'run',
  serving: { now: 3, lowest: 2, wanted: 3 },
  floor: { budget: 'web-pdb', minServing: 2, rule: 'minAvailable 2' },
  steps: said.map((s) => stepInWords(s)),
  said,
};

describe('a proof in Korean and in English', () => {
  it('none left serving is said as the outage it is, never as a floor of 0, in both languages', () => {
    const outage: PlanProof = { ...run, serving: { now: 1, lowest: 0, wanted: 1 }, floor: undefined };
    expect(proofSentence(outage, 'en')).toContain(
      'Run forward: for a while no replica serves (0 of 1 at the lowest, 1 now)',
    );
    expect(proofSentence(outage, 'ko')).toContain(
      '한동안 서비스하는 레플리카가 하나도 없습니다(가장 적을 때 전체 1개 중 0개, 지금 1개)',
    );
    const checked: PlanProof = {
      ...outage,
      method: 'checked',
      why: 'the forward model does not follow it',
    } as PlanProof;
    expect(proofSentence(checked, 'en')).toContain('while it acts no replica serves (0 of 1, 1 now)');
    expect(proofSentence(checked, 'ko')).toContain('조치하는 동안 서비스하는 레플리카가 하나도 없습니다');
    for (const lang of ['en', 'ko'] as const)
      expect(proofSentence(outage, lang)).not.toMatch(/no lower than 0|0개 아래로/);
  });

  it('says the run, the floor and the steps in Korean', () => {
    expect(proofSentence(run, 'ko')).toBe(
      '미리 실행해 본 결과: 서비스 중인 레플리카는 가장 적을 때 2개입니다(전체 3개, 지금 3개). PodDisruptionBudget web-pdb(minAvailable 2) 기준으로 2개가 서비스 중이어야 합니다.',
    );
    expect(proofSteps(run, 'ko')).toBe(
      '진행 순서: 기존 파드 web-7f-a 삭제; 새 파드 3개 Ready; 스케줄러가 gpu-node-1 노드에서 파드 2개 선점; … 그 밖에 4단계; 롤아웃 완료.',
    );
    expect(proofBrief(run, 'ko')).toBe(
      '미리 실행해 본 결과: 최소 3개 중 2개 서비스; PodDisruptionBudget web-pdb 기준 2개 필요.',
    );
  });

  it('keeps the English as it was, the steps as stored', () => {
    expect(run.steps).toEqual([
      'old pod web-7f-a goes',
      '3 new pods become Ready',
      'the scheduler preempts 2 pod(s) on gpu-node-1',
      '… 4 more steps',
      'the rollout completes',
    ]);
    expect(proofSentence(run)).toBe(
      'Run forward: serving replicas go no lower than 2 of 3 (3 now); PodDisruptionBudget web-pdb (minAvailable 2) needs 2 of them serving.',
    );
    expect(proofSteps(run)).toBe(`Steps: ${run.steps.join('; ')}.`);
    expect(proofBrief(run)).toBe('Run forward: lowest 2 of 3 serving; PodDisruptionBudget web-pdb needs 2.');
  });

  it('says a plan checked, paused, below its floor and racing others, in both languages', () => {
    const checked: PlanProof = {
      method: 'checked',
      serving: { now: 2, lowest: 1, wanted: 2 },
      floor: { budget: 'db', minServing: 2, rule: 'maxUnavailable 0' },
      belowFloor: 1,
      steps: [],
      why: 'the forward model does not follow it',
      atResume: true,
      dependsOnOrder: { rivals: 'batch/etl (2 pods)', otherwise: 'the rollout stays stuck' },
    };
    expect(proofSentence(checked, 'ko')).toBe(
      '실행해 보지 않고 계산으로 확인했습니다(the forward model does not follow it)(재개한 뒤 기준이며, 이 조치는 재개하지 않습니다): 조치하는 동안 서비스 중인 레플리카는 가장 적을 때 1개입니다(전체 2개, 지금 2개). PodDisruptionBudget db(maxUnavailable 0) 기준인 2개보다 1개 적습니다. 스케줄러가 대기 중인 파드를 처리하는 순서에 달려 있습니다: batch/etl (2 pods)도 같은 우선순위로 자리를 기다리며, 그쪽이 먼저 배치되면 다음과 같습니다: the rollout stays stuck.',
    );
    expect(proofSentence(checked)).toBe(
      'Checked, not run (the forward model does not follow it) once it is resumed (the plan does not resume it): 1 of 2 replicas keep serving while it acts (2 now), 1 below PodDisruptionBudget db (maxUnavailable 0) needs 2 of them serving. It depends on the order the scheduler takes pending pods in: batch/etl (2 pods) wait for room at the same priority, and if theirs are placed first the rollout stays stuck.',
    );
    expect(proofSteps(checked, 'ko')).toBeUndefined();
    expect(proofBrief(checked, 'ko')).toBe(
      '계산으로 확인한 결과(재개한 뒤): 최소 2개 중 1개 서비스, PodDisruptionBudget db보다 1개 적음; 배치 순서에 달림(경쟁: batch/etl (2 pods)).',
    );
    expect(proofBrief({ ...checked, floor: 'unknown' })).toBe(
      'By its counts once resumed: lowest 1 of 2 serving; budgets unread; depends on the order against batch/etl (2 pods).',
    );
  });

  it('says the steps of a plan stored before they were data as they were stored', () => {
    const { said: _said, ...stored } = run;
    expect(proofSteps(stored, 'ko')).toBe(`진행 순서: ${run.steps.join('; ')}.`);
  });
});
