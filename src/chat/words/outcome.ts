/**
 * What follows an approval, in every language: the thread reply's headline for each
 * outcome stage, who approved, and the reply's small print
 * (src/chat/use-cases/outcome.ts). The outcome's detail is the worker's sentence, in
 * the thread's language where the worker wrote it (src/worker/remediate-words.ts).
 * English entries are the wording before the catalogue.
 */
import type { Rich } from '../model.js';
import { icon, say, strong } from '../../message/rich.js';
import { defineMessages, registerCatalogue, phrase } from '../../i18n/catalogue.js';

/** The headline of a remediation outcome's reply, one message per stage. */
export const OUTCOME_STAGE_WORDS = registerCatalogue(
  'outcome-stage',
  defineMessages({
    applied: phrase('applied', '적용됨'),
    'already-applied': phrase('already applied', '이미 적용되어 있음'),
    'rolled-out': phrase('rolled out', '롤아웃 완료'),
    'pods-ready': phrase('replacement pods Ready', '교체한 파드가 Ready 상태'),
    'still-failing': phrase('still failing', '아직 실패 중'),
    refused: phrase('refused', '거부됨'),
    failed: phrase('failed', '실패'),
    timeout: phrase('rollout not finished in time', '제한 시간 안에 롤아웃이 끝나지 않음'),
    paused: phrase(
      'applied; the rollout is paused and waits for a person',
      '적용됨. 롤아웃이 일시 중지되어 사람의 조치를 기다립니다',
    ),
    progress: phrase('step', '단계'),
  }),
  {
    applied: [{}],
    'already-applied': [{}],
    'rolled-out': [{}],
    'pods-ready': [{}],
    'still-failing': [{}],
    refused: [{}],
    failed: [{}],
    timeout: [{}],
    paused: [{}],
    progress: [{}],
  },
);

export const OUTCOME_WORDS = registerCatalogue(
  'outcome',
  defineMessages({
    approvedBy: {
      en: (p: { who: Rich }) => say` (approved by ${p.who})`,
      ko: (p: { who: Rich }) => say` (${p.who} 님이 승인)`,
    },
    note: {
      en: (p: { plan: string; cluster: string }) => say`plan ${p.plan} · cluster ${p.cluster}`,
      ko: (p: { plan: string; cluster: string }) => say`조치 ${p.plan} · 클러스터 ${p.cluster}`,
    },
    undoRestores: {
      en: (p: { what: string; target: string }) =>
        say`${icon('undo')} ${strong('Undo')} restores ${p.what} of ${p.target}.`,
      ko: (p: { what: string; target: string }) =>
        say`${icon('undo')} ${strong('되돌리기')}: ${p.target} 대상의 ${p.what} 설정을 되돌립니다.`,
    },
    undoRestoresBeside: {
      en: (p: { what: string; target: string }) =>
        say`${icon('undo')} ${strong('Undo')} restores ${p.what}; ${p.target} is not changed.`,
      ko: (p: { what: string; target: string }) =>
        say`${icon('undo')} ${strong('되돌리기')}: ${p.what}. ${p.target} 자체는 바뀌지 않습니다.`,
    },
    deadlockAgain: {
      en: () => say`${icon('warning')} The next rollout would deadlock again.`,
      ko: () => say`${icon('warning')} 다음 롤아웃은 다시 교착 상태(deadlock)에 빠집니다.`,
    },
    undoPatchTitle: {
      en: (p: { type: string }) => say`Exact patch of the undo (${p.type})`,
      ko: (p: { type: string }) => say`되돌리기가 보내는 패치 그대로(${p.type})`,
    },
    undoAbove: {
      en: () => say`${icon('undo')} Undo is offered in the "applied" reply above.`,
      ko: () => say`${icon('undo')} 되돌리기 버튼은 위의 "적용됨" 답글에 있습니다.`,
    },
  }),
  {
    approvedBy: [{ who: say`Dana` }],
    note: [{ plan: 'set-rolling-update-fbad', cluster: 'prod' }],
    undoRestores: [{ what: 'the rollout strategy (Recreate)', target: 'deployment/tracker' }],
    undoRestoresBeside: [{ what: 'device gpu-0 to new claims', target: 'deployment/tracker' }],
    deadlockAgain: [{}],
    undoPatchTitle: [{ type: 'strategic-merge' }],
    undoAbove: [{}],
  },
);
