/**
 * A plan's proof in plain words (src/remediation/plan.ts PlanProof), for every renderer
 * and in every language: the chat port and the CLI escape it as they escape any text
 * (pod and node names come from the cluster). One sentence for the lowest serving count
 * and the floor, one for the steps. What the engine wrote in English only (why a plan
 * was checked rather than run, the rivals it races and what happens if they win) is a
 * parameter; the steps are data (`said`) and are said in the reader's language, or, for
 * a plan stored before they were, as stored (`steps`).
 */
import { defineMessages, registerCatalogue, wordsIn } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import type { PlanProof, ProofStep } from './plan.js';
import { MODEL_WHY, whyInWords } from '../diagnosis/forward/model-why.js';

type Serving = { lowest: number; wanted: number; now: number; resumed: boolean };
type Budget = { budget: string; rule: string; minServing: number };
/** The proof in one line: how it was proved, the lowest serving count, the floor and the order. */
type Brief = { run: boolean; resumed: boolean; lowest: number; wanted: number; guard: string; order: string };

const resumedEn = (p: { resumed: boolean }) =>
  p.resumed ? ' once it is resumed (the plan does not resume it)' : '';
const resumedKo = (p: { resumed: boolean }) =>
  p.resumed ? '(재개한 뒤 기준이며, 이 조치는 재개하지 않습니다)' : '';

export const PROOF_WORDS = registerCatalogue(
  'proof',
  defineMessages({
    run: {
      // None left serving is said as the outage it is, never as a floor ("no lower than 0").
      en: (p: Serving) =>
        p.lowest === 0
          ? `Run forward${resumedEn(p)}: for a while no replica serves (0 of ${p.wanted} at the lowest, ${p.now} now)`
          : `Run forward${resumedEn(p)}: serving replicas go no lower than ${p.lowest} of ${p.wanted} (${p.now} now)`,
      ko: (p: Serving) =>
        p.lowest === 0
          ? `미리 실행해 본 결과${resumedKo(p)}: 한동안 서비스하는 레플리카가 하나도 없습니다(가장 적을 때 전체 ${p.wanted}개 중 0개, 지금 ${p.now}개)`
          : `미리 실행해 본 결과${resumedKo(p)}: 서비스 중인 레플리카는 가장 적을 때 ${p.lowest}개입니다(전체 ${p.wanted}개, 지금 ${p.now}개)`,
    },
    checked: {
      en: (p: Serving & { why: string }) =>
        p.lowest === 0
          ? `Checked, not run (${p.why})${resumedEn(p)}: while it acts no replica serves (0 of ${p.wanted}, ${p.now} now)`
          : `Checked, not run (${p.why})${resumedEn(p)}: ${p.lowest} of ${p.wanted} replicas keep serving while it acts (${p.now} now)`,
      ko: (p: Serving & { why: string }) =>
        p.lowest === 0
          ? `실행해 보지 않고 계산으로 확인했습니다(${p.why})${resumedKo(p)}: 조치하는 동안 서비스하는 레플리카가 하나도 없습니다(전체 ${p.wanted}개 중 0개, 지금 ${p.now}개)`
          : `실행해 보지 않고 계산으로 확인했습니다(${p.why})${resumedKo(p)}: 조치하는 동안 서비스 중인 레플리카는 가장 적을 때 ${p.lowest}개입니다(전체 ${p.wanted}개, 지금 ${p.now}개)`,
    },
    noBudget: {
      en: () => '; no PodDisruptionBudget covers its pods',
      ko: () => '. 이 파드를 지키는 PodDisruptionBudget은 없습니다',
    },
    budgetsUnread: {
      en: () => '; the PodDisruptionBudgets were not read, so its floor is unknown',
      ko: () => '. PodDisruptionBudget을 읽지 못해서 지켜야 할 최소 개수를 모릅니다',
    },
    budgetNeeds: {
      en: (p: Budget) =>
        `; PodDisruptionBudget ${p.budget} (${p.rule}) needs ${p.minServing} of them serving`,
      ko: (p: Budget) =>
        `. PodDisruptionBudget ${p.budget}(${p.rule}) 기준으로 ${p.minServing}개가 서비스 중이어야 합니다`,
    },
    belowBudget: {
      en: (p: Budget & { below: number }) =>
        `, ${p.below} below PodDisruptionBudget ${p.budget} (${p.rule}) needs ${p.minServing} of them serving`,
      ko: (p: Budget & { below: number }) =>
        `. PodDisruptionBudget ${p.budget}(${p.rule}) 기준인 ${p.minServing}개보다 ${p.below}개 적습니다`,
    },
    order: {
      en: (p: { rivals: string; otherwise: string }) =>
        ` It depends on the order the scheduler takes pending pods in: ${p.rivals} wait${/ pods\)$|, /.test(p.rivals) ? '' : 's'} for room at the same priority, and if theirs are placed first ${p.otherwise}.`,
      ko: (p: { rivals: string; otherwise: string }) =>
        ` 스케줄러가 대기 중인 파드를 처리하는 순서에 달려 있습니다: ${p.rivals}도 같은 우선순위로 자리를 기다리며, 그쪽이 먼저 배치되면 다음과 같습니다: ${p.otherwise}.`,
    },
    steps: {
      en: (p: { steps: string[] }) => `Steps: ${p.steps.join('; ')}.`,
      ko: (p: { steps: string[] }) => `진행 순서: ${p.steps.join('; ')}.`,
    },
    brief: {
      en: (p: Brief) =>
        `${p.run ? 'Run forward' : 'By its counts'}${p.resumed ? ' once resumed' : ''}: lowest ${p.lowest} of ${p.wanted} serving${p.guard}${p.order}.`,
      ko: (p: Brief) =>
        `${p.run ? '미리 실행해 본 결과' : '계산으로 확인한 결과'}${p.resumed ? '(재개한 뒤)' : ''}: 최소 ${p.wanted}개 중 ${p.lowest}개 서비스${p.guard}${p.order}.`,
    },
    briefUnread: { en: () => '; budgets unread', ko: () => '; PodDisruptionBudget 읽지 못함' },
    briefBelow: {
      en: (p: { below: number; budget: string }) => `, ${p.below} below PodDisruptionBudget ${p.budget}`,
      ko: (p: { below: number; budget: string }) => `, PodDisruptionBudget ${p.budget}보다 ${p.below}개 적음`,
    },
    briefNeeds: {
      en: (p: { budget: string; minServing: number }) =>
        `; PodDisruptionBudget ${p.budget} needs ${p.minServing}`,
      ko: (p: { budget: string; minServing: number }) =>
        `; PodDisruptionBudget ${p.budget} 기준 ${p.minServing}개 필요`,
    },
    briefOrder: {
      en: (p: { rivals: string }) => `; depends on the order against ${p.rivals}`,
      ko: (p: { rivals: string }) => `; 배치 순서에 달림(경쟁: ${p.rivals})`,
    },
    gone: {
      en: (p: { pod: string }) => `pod ${p.pod} is gone`,
      ko: (p: { pod: string }) => `파드 ${p.pod} 종료`,
    },
    goneMany: {
      en: (p: { count: number }) => `${p.count} terminating pods are gone`,
      ko: (p: { count: number }) => `종료 중인 파드 ${p.count}개 종료`,
    },
    old: {
      en: (p: { pod: string }) => `old pod ${p.pod} goes`,
      ko: (p: { pod: string }) => `기존 파드 ${p.pod} 삭제`,
    },
    oldMany: {
      en: (p: { count: number }) => `${p.count} old pods go`,
      ko: (p: { count: number }) => `기존 파드 ${p.count}개 삭제`,
    },
    ready: { en: () => 'a new pod becomes Ready', ko: () => '새 파드 1개 Ready' },
    readyMany: {
      en: (p: { count: number }) => `${p.count} new pods become Ready`,
      ko: (p: { count: number }) => `새 파드 ${p.count}개 Ready`,
    },
    nodeAdded: {
      en: () => 'the cluster autoscaler adds a node',
      ko: () => '클러스터 오토스케일러가 노드 추가',
    },
    nodeAddedMany: {
      en: (p: { count: number }) => `the cluster autoscaler adds nodes for ${p.count} pods`,
      ko: (p: { count: number }) => `클러스터 오토스케일러가 파드 ${p.count}개를 위해 노드 추가`,
    },
    admitted: {
      en: (p: { quota: string }) => `quota ${p.quota} admits a new pod`,
      ko: (p: { quota: string }) => `ResourceQuota ${p.quota}: 새 파드 1개 허용`,
    },
    admittedMany: {
      en: (p: { quota: string; count: number }) => `quota ${p.quota} admits ${p.count} new pods`,
      ko: (p: { quota: string; count: number }) => `ResourceQuota ${p.quota}: 새 파드 ${p.count}개 허용`,
    },
    preempted: {
      en: (p: { victims: number; node: string }) => `the scheduler preempts ${p.victims} pod(s) on ${p.node}`,
      ko: (p: { victims: number; node: string }) => `스케줄러가 ${p.node} 노드에서 파드 ${p.victims}개 선점`,
    },
    preemptedMany: {
      en: (p: { count: number }) => `the scheduler preempts on ${p.count} nodes`,
      ko: (p: { count: number }) => `스케줄러가 노드 ${p.count}개에서 선점`,
    },
    deleted: {
      en: (p: { pod: string }) => `pod ${p.pod} is deleted`,
      ko: (p: { pod: string }) => `파드 ${p.pod} 삭제`,
    },
    deletedMany: {
      en: (p: { count: number }) => `${p.count} pods are deleted`,
      ko: (p: { count: number }) => `파드 ${p.count}개 삭제`,
    },
    crashed: {
      en: (p: { node: string }) => `a new pod crash-loops on ${p.node}`,
      ko: (p: { node: string }) => `${p.node} 노드에서 새 파드가 CrashLoopBackOff`,
    },
    crashedMany: {
      en: (p: { count: number }) => `${p.count} new pods crash-loop`,
      ko: (p: { count: number }) => `새 파드 ${p.count}개가 CrashLoopBackOff`,
    },
    completes: { en: () => 'the rollout completes', ko: () => '롤아웃 완료' },
    more: {
      en: (p: { count: number }) => `… ${p.count} more steps`,
      ko: (p: { count: number }) => `… 그 밖에 ${p.count}단계`,
    },
  }),
  {
    run: [
      { lowest: 2, wanted: 3, now: 3, resumed: false },
      { lowest: 0, wanted: 1, now: 1, resumed: true },
    ],
    checked: [
      { why: 'the forward model does not follow it', lowest: 0, wanted: 1, now: 1, resumed: false },
      { why: 'the forward model does not follow it', lowest: 1, wanted: 2, now: 2, resumed: true },
    ],
    noBudget: [{}],
    budgetsUnread: [{}],
    budgetNeeds: [{ budget: 'web-pdb', rule: 'minAvailable 2', minServing: 2 }],
    belowBudget: [{ budget: 'web-pdb', rule: 'minAvailable 2', minServing: 2, below: 1 }],
    order: [{ rivals: 'batch/trainer (2 pods)', otherwise: 'the rollout stays stuck' }],
    steps: [{ steps: ['old pod web-1 goes', 'a new pod becomes Ready'] }],
    brief: [
      { run: true, resumed: false, lowest: 2, wanted: 3, guard: '', order: '' },
      { run: false, resumed: true, lowest: 0, wanted: 1, guard: '; budgets unread', order: '' },
    ],
    briefUnread: [{}],
    briefBelow: [{ below: 1, budget: 'web-pdb' }],
    briefNeeds: [{ budget: 'web-pdb', minServing: 2 }],
    briefOrder: [{ rivals: 'batch/trainer (2 pods)' }],
    gone: [{ pod: 'web-1' }],
    goneMany: [{ count: 2 }],
    old: [{ pod: 'web-1' }],
    oldMany: [{ count: 3 }],
    ready: [{}],
    readyMany: [{ count: 3 }],
    nodeAdded: [{}],
    nodeAddedMany: [{ count: 2 }],
    admitted: [{ quota: 'team-quota' }],
    admittedMany: [{ quota: 'team-quota', count: 2 }],
    preempted: [{ victims: 2, node: 'gpu-node-1' }],
    preemptedMany: [{ count: 2 }],
    deleted: [{ pod: 'web-1' }],
    deletedMany: [{ count: 2 }],
    crashed: [{ node: 'node-05' }],
    crashedMany: [{ count: 2 }],
    completes: [{}],
    more: [{ count: 4 }],
  },
);

type Words = ReturnType<typeof wordsIn<typeof PROOF_WORDS>>;

export function proofSentence(proof: PlanProof, lang: Lang = 'en'): string {
  const w = wordsIn(PROOF_WORDS, lang);
  const serving = { ...proof.serving, resumed: proof.atResume === true };
  const head =
    proof.method === 'run'
      ? w.run(serving)
      : w.checked({ ...serving, why: whyInWords(proof.why ?? MODEL_WHY.cannotFollow, lang) });
  return `${head}${floorWords(proof, w)}.${proof.dependsOnOrder ? w.order(proof.dependsOnOrder) : ''}`;
}

export function proofSteps(proof: PlanProof, lang: Lang = 'en'): string | undefined {
  const w = wordsIn(PROOF_WORDS, lang);
  const steps = proof.said ? proof.said.map((s) => stepWords(s, w)) : proof.steps;
  return steps.length > 0 ? w.steps({ steps }) : undefined;
}

/** One step of a run in `lang` (the English is what `PlanProof.steps` stores). */
export function stepInWords(step: ProofStep, lang: Lang = 'en'): string {
  return stepWords(step, wordsIn(PROOF_WORDS, lang));
}

function stepWords(step: ProofStep, w: Words): string {
  const many = step.count > 1;
  switch (step.say) {
    case 'gone':
      return many ? w.goneMany(step) : w.gone(step);
    case 'old':
      return many ? w.oldMany(step) : w.old(step);
    case 'deleted':
      return many ? w.deletedMany(step) : w.deleted(step);
    case 'ready':
      return many ? w.readyMany(step) : w.ready({});
    case 'node-added':
      return many ? w.nodeAddedMany(step) : w.nodeAdded({});
    case 'admitted':
      return many ? w.admittedMany(step) : w.admitted(step);
    case 'preempted':
      return many ? w.preemptedMany(step) : w.preempted(step);
    case 'crashed':
      return many ? w.crashedMany(step) : w.crashed(step);
    case 'completes':
      return w.completes({});
    case 'more':
      return w.more(step);
  }
}

function floorWords(proof: PlanProof, w: Words): string {
  const { floor } = proof;
  if (floor === undefined) return w.noBudget({});
  if (floor === 'unknown') return w.budgetsUnread({});
  return proof.belowFloor ? w.belowBudget({ ...floor, below: proof.belowFloor }) : w.budgetNeeds(floor);
}

/** The proof in a few words, for the short message: "Run forward: lowest 2 of 3 serving; PodDisruptionBudget web needs 2." */
export function proofBrief(proof: PlanProof, lang: Lang = 'en'): string {
  const w = wordsIn(PROOF_WORDS, lang);
  const floor = proof.floor;
  const guard =
    floor === undefined
      ? ''
      : floor === 'unknown'
        ? w.briefUnread({})
        : proof.belowFloor
          ? w.briefBelow({ below: proof.belowFloor, budget: floor.budget })
          : w.briefNeeds(floor);
  return w.brief({
    run: proof.method === 'run',
    resumed: proof.atResume === true,
    lowest: proof.serving.lowest,
    wanted: proof.serving.wanted,
    guard,
    order: proof.dependsOnOrder ? w.briefOrder(proof.dependsOnOrder) : '',
  });
}
