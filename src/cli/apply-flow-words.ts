/**
 * What `apply` and `undo` print around a write (apply-flow.ts), in every language: the
 * plan's heading lines, the dry run, the question, the outcome and how to undo. The
 * plan's own words (summary, impact, warnings) come from the plan catalogue; the lines
 * of each kind's write, the API server's answers and the watcher's summaries are
 * parameters, as written. Commands, ids, paths and statuses are parameters too.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

type Reason = { reason: string };
type Outcome = { outcome: string; summary: string; reason?: string };
const because = (reason: string | undefined): string => (reason ? ` (${reason})` : '');

export const APPLY_FLOW_WORDS = registerCatalogue(
  'apply-flow',
  defineMessages({
    remediation: {
      en: (p: { kind: string; id: string; summary: string }) =>
        `Remediation ${p.kind} (${p.id}): ${p.summary}`,
      ko: (p: { kind: string; id: string; summary: string }) => `조치 ${p.kind} (${p.id}): ${p.summary}`,
    },
    impact: {
      en: (p: { impact: string }) => `Impact: ${p.impact}`,
      ko: (p: { impact: string }) => `영향: ${p.impact}`,
    },
    warning: {
      en: (p: { warning: string }) => `Warning: ${p.warning}`,
      ko: (p: { warning: string }) => `주의: ${p.warning}`,
    },
    dryRunNotApplicable: {
      en: (p: Reason) => `Server dry run: not applicable: ${p.reason}`,
      ko: (p: Reason) => `서버 드라이 런을 할 수 없습니다: ${p.reason}`,
    },
    dryRunWould: {
      en: () => 'Server dry run (dryRun=All) would change:',
      ko: () => '서버 드라이 런으로 본 변경:',
    },
    nothingChanged: { en: () => '(nothing)', ko: () => '(없음)' },
    noConfirmation: {
      en: (p: { command: string; yes: string }) =>
        `${p.command}: refusing to change the cluster without confirmation: pass ${p.yes} or run on a terminal`,
      ko: (p: { command: string; yes: string }) =>
        `${p.command}: 확인 없이는 클러스터를 바꾸지 않습니다. ${p.yes} 옵션을 지정하거나 터미널에서 실행하세요`,
    },
    confirm: {
      en: (p: { workload: string; namespace: string }) =>
        `Apply this to ${p.workload} in namespace ${p.namespace}? [y/N] `,
      ko: (p: { workload: string; namespace: string }) =>
        `${p.namespace} 네임스페이스의 ${p.workload}에 적용할까요? [y/N] `,
    },
    declined: { en: () => 'Not applied.', ko: () => '적용하지 않았습니다.' },
    refused: {
      en: (p: Reason) => `Not applied (refused): ${p.reason}`,
      ko: (p: Reason) => `적용하지 않았습니다(거부됨): ${p.reason}`,
    },
    failed: {
      en: (p: Reason) => `Not applied (failed): ${p.reason}`,
      ko: (p: Reason) => `적용하지 않았습니다(실패): ${p.reason}`,
    },
    alreadyApplied: {
      en: (p: Reason) => `Already applied: ${p.reason}`,
      ko: (p: Reason) => `이미 적용되어 있습니다: ${p.reason}`,
    },
    noUndo: {
      en: (p: { kind: string }) =>
        `No undo: nothing of ${p.kind} can be put back by a write (see the plan's impact).`,
      ko: (p: { kind: string }) =>
        `되돌리기 없음: ${p.kind} 조치에는 되돌릴 쓰기 작업이 없습니다(조치의 영향 참고).`,
    },
    undoNotKept: {
      en: (p: Reason) =>
        `Undo not kept (${p.reason}); to revert by hand, write back the "before" values above.`,
      ko: (p: Reason) =>
        `되돌리기 정보를 보관하지 못했습니다(${p.reason}). 직접 되돌리려면 위에 나온 변경 전 값을 다시 쓰세요.`,
    },
    toUndo: {
      en: (p: { command: string; path: string }) =>
        `To undo: ${p.command}   (kept in ${p.path}; it checks nothing moved on since)`,
      ko: (p: { command: string; path: string }) =>
        `되돌리려면: ${p.command}   (${p.path}에 보관함. 그 뒤로 바뀐 것이 없는지 확인하고 되돌립니다)`,
    },
    replacementsOutcome: {
      en: (p: Outcome) => `Replacements ${p.outcome}: ${p.summary}${because(p.reason)}`,
      ko: (p: Outcome) => `대체 파드: ${p.outcome}: ${p.summary}${because(p.reason)}`,
    },
    rolloutOutcome: {
      en: (p: Outcome) => `Rollout ${p.outcome}: ${p.summary}${because(p.reason)}`,
      ko: (p: Outcome) => `롤아웃: ${p.outcome}: ${p.summary}${because(p.reason)}`,
    },
    lastsChosen: {
      en: (p: { flag: string; clause: string }) =>
        `${p.flag}: ${p.clause} (in place of the plan's own duration).`,
      ko: (p: { flag: string; clause: string }) => `${p.flag}: ${p.clause}(조치 계획의 기간 대신).`,
    },
    pausedAtStep: {
      en: (p: { step: number; promote: string }) =>
        `Rollout paused at step ${p.step}; promote to go on (${p.promote})`,
      ko: (p: { step: number; promote: string }) =>
        `롤아웃이 ${p.step}단계에서 일시 중지되었습니다. 계속하려면 승격하세요(${p.promote})`,
    },
  }),
  {
    remediation: [{ kind: 'set-rolling-update', id: 'p-7f3a', summary: 'Set maxSurge 0, maxUnavailable 1.' }],
    impact: [{ impact: 'reduced capacity: 1 of 4 replicas down at a time.' }],
    warning: [{ warning: 'The Deployment is paused.' }],
    dryRunNotApplicable: [{ reason: 'the Deployment changed since the diagnosis' }],
    dryRunWould: [{}],
    nothingChanged: [{}],
    noConfirmation: [{ command: 'rollout-doctor apply', yes: '--yes' }],
    confirm: [{ workload: 'deployment/tracker', namespace: 'vision' }],
    declined: [{}],
    refused: [{ reason: 'generation 4 is not 3' }],
    failed: [{ reason: 'the API server answered 500' }],
    alreadyApplied: [{ reason: 'maxSurge is already 0' }],
    noUndo: [{ kind: 'delete-pods' }],
    undoNotKept: [{ reason: 'the state directory is not writable' }],
    toUndo: [
      {
        command: 'rollout-doctor undo u-9c1e',
        path: '/home/sre/.local/state/rollout-doctor/undo/u-9c1e.json',
      },
    ],
    replacementsOutcome: [
      { outcome: 'complete', summary: '2 of 2 Ready' },
      { outcome: 'timeout', summary: '1 of 2 Ready', reason: 'CrashLoopBackOff' },
    ],
    rolloutOutcome: [
      { outcome: 'complete', summary: '4 of 4 updated and available' },
      { outcome: 'failed', summary: '3 of 4 updated', reason: 'ProgressDeadlineExceeded' },
    ],
    lastsChosen: [{ flag: '--lasts 4h', clause: 'the exclusion ends after 4h' }],
    pausedAtStep: [{ step: 2, promote: 'kubectl argo rollouts promote web -n shop' }],
  },
);
