/**
 * The result message's own sentences (src/chat/use-cases/result.ts) in every language:
 * inline content built with `say`, so the names in them stay text, escaped by each
 * adapter. Codes, plan kinds, ids and patches never translate. The English entries are
 * the message's wording before the catalogue, span for span.
 */
import type { Rich } from '../model.js';
import { icon, strong, say } from '../../message/rich.js';
import { defineMessages, registerCatalogue } from '../../i18n/catalogue.js';

type Where = { what: string; namespace: string };
type Note = {
  what: string;
  namespace: string;
  cluster: string;
  at: string;
  owner: Rich | null;
  failed: number;
};
type Approved = { kind: string; who: Rich; at: string };
type Plan = { kind: string; name: string };

export const RESULT_WORDS = registerCatalogue(
  'result',
  defineMessages({
    noVerdict: {
      en: (p: Where) =>
        say`${icon('warning')} ${strong(p.what)} in ${strong(p.namespace)}: no verdict, some checks failed.`,
      ko: (p: Where) =>
        say`${icon('warning')} ${strong(p.namespace)} 네임스페이스의 ${strong(p.what)}: 일부 검사가 실패해서 판정하지 못했습니다.`,
    },
    noProblem: {
      en: (p: Where) => say`${icon('ok')} ${strong(p.what)} in ${strong(p.namespace)}: no problem found.`,
      ko: (p: Where) =>
        say`${icon('ok')} ${strong(p.namespace)} 네임스페이스의 ${strong(p.what)}: 문제를 찾지 못했습니다.`,
    },
    note: {
      en: (p: Note) =>
        say`${p.what} · namespace ${p.namespace} · cluster ${p.cluster} · captured ${p.at}${p.owner ? say` · ${p.owner}` : say``}${p.failed ? ` · ${p.failed} analyzer(s) failed` : ''}`,
      ko: (p: Note) =>
        say`${p.what} · 네임스페이스 ${p.namespace} · 클러스터 ${p.cluster} · ${p.at} 기준${p.owner ? say` · ${p.owner}` : say``}${p.failed ? ` · 분석기 ${p.failed}개 실패` : ''}`,
    },
    // Whether the workload's owner puts a fix back (driftLine).
    driftOwner: {
      en: (p: { by: string; reverted: boolean | null }) =>
        say`${icon(p.reverted === true ? 'undo' : p.reverted === false ? 'pinned' : 'unknown')} ${strong(
          p.reverted === true
            ? `${p.by} will revert this`
            : p.reverted === false
              ? `${p.by} keeps this`
              : `${p.by} may revert this`,
        )}`,
      ko: (p: { by: string; reverted: boolean | null }) =>
        say`${icon(p.reverted === true ? 'undo' : p.reverted === false ? 'pinned' : 'unknown')} ${strong(
          p.reverted === true
            ? `관리 주체(${p.by})가 이 변경을 되돌립니다`
            : p.reverted === false
              ? `관리 주체(${p.by})는 이 변경을 그대로 둡니다`
              : `관리 주체(${p.by})가 이 변경을 되돌릴 수 있습니다`,
        )}`,
    },
    driftNoOwner: {
      en: (p: { reverted: boolean | null }) =>
        say`${icon(p.reverted === true ? 'undo' : p.reverted === false ? 'pinned' : 'unknown')} ${strong(
          p.reverted === true ? 'Reverted' : p.reverted === false ? 'Not reverted' : 'May be reverted',
        )}`,
      ko: (p: { reverted: boolean | null }) =>
        say`${icon(p.reverted === true ? 'undo' : p.reverted === false ? 'pinned' : 'unknown')} ${strong(
          p.reverted === true
            ? '되돌려집니다'
            : p.reverted === false
              ? '되돌려지지 않습니다'
              : '되돌려질 수 있습니다',
        )}`,
    },
    driftWhy: {
      en: (p: { verdict: Rich; why: string }) => say`${p.verdict}: ${p.why}`,
      ko: (p: { verdict: Rich; why: string }) => say`${p.verdict}. ${p.why}`,
    },
    driftWhyInThread: {
      en: (p: { verdict: Rich; by: string }) => say`${p.verdict}: ${p.by} (why in the thread)`,
      ko: (p: { verdict: Rich; by: string }) => say`${p.verdict}: ${p.by}(이유는 스레드에 있습니다)`,
    },
    driftPerFieldInThread: {
      en: (p: { verdict: Rich }) => say`${p.verdict} (why, per field, in the thread)`,
      ko: (p: { verdict: Rich }) => say`${p.verdict}(필드별 이유는 스레드에 있습니다)`,
    },
    ownerKubectl: {
      en: (p: { manager: string }): Rich => say`kubectl apply by ${p.manager}`,
      ko: (p: { manager: string }): Rich => say`kubectl apply(필드 매니저 ${p.manager})`,
    },
    fieldsWritten: {
      en: (p: { fields: string }) => `Fields written: ${p.fields}`,
      ko: (p: { fields: string }) => `쓰는 필드: ${p.fields}`,
    },
    managedBy: {
      en: (p: { owner: Rich; namespace: string }): Rich =>
        say`managed by ${p.owner}${p.namespace ? ` (${p.namespace})` : ''}`,
      ko: (p: { owner: Rich; namespace: string }): Rich =>
        say`관리 주체 ${p.owner}${p.namespace ? `(${p.namespace})` : ''}`,
    },
    managedByLong: {
      en: (p: { owner: Rich; namespace: string; evidence: string }): Rich =>
        say`${icon('link')} Managed by ${p.owner}${p.namespace ? ` in ${p.namespace}` : ''} (${p.evidence})`,
      ko: (p: { owner: Rich; namespace: string; evidence: string }): Rich =>
        say`${icon('link')} 관리 주체: ${p.owner}${p.namespace ? `(${p.namespace})` : ''} (근거: ${p.evidence})`,
    },
    notCheckedAgainst: {
      en: (p: { unread: string }): Rich =>
        say`${icon('warning')} ${strong('Not checked against')} (not read, so unknown, not absent): ${p.unread}.`,
      ko: (p: { unread: string }): Rich =>
        say`${icon('warning')} ${strong('확인하지 못한 것')}(읽지 못했으므로 없는 것이 아니라 알 수 없음): ${p.unread}.`,
    },
    notOffered: {
      en: (p: { kind: string; addresses: string; reason: string }): Rich =>
        say`${icon('forbidden')} ${strong(`Not offered: ${p.kind}`)}, for ${p.addresses}: ${p.reason}.`,
      ko: (p: { kind: string; addresses: string; reason: string }): Rich =>
        say`${icon('forbidden')} ${strong(`제안하지 않음: ${p.kind}`)}(${p.addresses} 대상): ${p.reason}.`,
    },
    changeToCommit: {
      en: (p: { where: string; addresses: string }): Rich =>
        say`${icon('note')} ${strong('Change to commit')} (the permanent fix; no button applies it) in ${p.where}, for ${p.addresses}`,
      ko: (p: { where: string; addresses: string }): Rich =>
        say`${icon('note')} ${strong('커밋할 변경')}(근본 해결책입니다. 버튼으로는 적용되지 않습니다): ${p.where}, ${p.addresses} 대상`,
    },
    partial: {
      en: (): Rich => say`${icon('warning')} ${strong('Some checks failed')}; the report above is partial:`,
      ko: (): Rich =>
        say`${icon('warning')} ${strong('일부 검사가 실패했습니다')}. 위 보고서는 일부만 담고 있습니다:`,
    },
    summaryOf: {
      en: (p: { what: string; namespace: string; rest: string }) => `${p.what} in ${p.namespace}: ${p.rest}`,
      ko: (p: { what: string; namespace: string; rest: string }) => `${p.namespace}/${p.what}: ${p.rest}`,
    },
    noVerdictShort: {
      en: () => 'no verdict, some checks failed',
      ko: () => '일부 검사가 실패해서 판정하지 못함',
    },
    noProblemShort: { en: () => 'no problem found', ko: () => '문제를 찾지 못함' },
    alsoFound: {
      en: (p: { codes: Rich; more: number }) =>
        say`Also found: ${p.codes}${p.more > 0 ? ` and ${p.more} more` : ''}`,
      ko: (p: { codes: Rich; more: number }) =>
        say`함께 찾은 문제: ${p.codes}${p.more > 0 ? ` 외 ${p.more}개` : ''}`,
    },
    inThread: {
      en: (p: { plans: number; patch: boolean }) =>
        say`${icon('thread')} ${
          p.plans === 0
            ? 'Full evidence'
            : p.plans > 1
              ? `Full evidence, the other fixes, every dry run and exact ${p.patch ? 'patch' : 'change'}`
              : `Full evidence, the dry run and the exact ${p.patch ? 'patch' : 'change'}`
        }: in the thread.`,
      ko: (p: { plans: number; patch: boolean }) =>
        say`${icon('thread')} ${
          p.plans === 0
            ? '모든 근거가'
            : p.plans > 1
              ? `모든 근거, 다른 조치, 각 조치의 드라이 런과 정확한 ${p.patch ? '패치가' : '변경 내용이'}`
              : `모든 근거, 드라이 런과 정확한 ${p.patch ? '패치가' : '변경 내용이'}`
        } 스레드에 있습니다.`,
    },
    withdrawn: {
      en: () => say`The other fixes were withdrawn; press Re-run for a fresh diagnosis.`,
      ko: () => say`다른 조치는 철회되었습니다. 새로 진단하려면 다시 실행을 누르세요.`,
    },
    briefInThread: {
      en: () => say`${icon('thread')} The full report is in the thread.`,
      ko: () => say`${icon('thread')} 전체 보고서는 스레드에 있습니다.`,
    },
    recommended: {
      en: (p: { summary: string }) => say`${icon('fix')} ${strong('Recommended fix:')} ${p.summary}`,
      ko: (p: { summary: string }) => say`${icon('fix')} ${strong('권장 조치:')} ${p.summary}`,
    },
    impact: {
      en: (p: { impact: string }) => say`${strong('Impact:')} ${p.impact}`,
      ko: (p: { impact: string }) => say`${strong('영향:')} ${p.impact}`,
    },
    dryRunRefused: {
      en: (p: { reason: string }) => say`${icon('warning')} The server-side dry run refused it: ${p.reason}`,
      ko: (p: { reason: string }) =>
        say`${icon('warning')} 서버 측 드라이 런에서 거부되었습니다: ${p.reason}`,
    },
    approved: {
      en: (p: Approved) => say`${icon('ok')} ${strong(p.kind)} approved by ${p.who} at ${p.at}`,
      ko: (p: Approved) => say`${icon('ok')} ${strong(p.kind)}: ${p.who} 님이 ${p.at}에 승인했습니다`,
    },
    expired: {
      en: (p: { kind: string }) =>
        say`${icon('expired')} ${strong(p.kind)} expired; press Re-run for a fresh diagnosis and plan.`,
      ko: (p: { kind: string }) =>
        say`${icon('expired')} ${strong(p.kind)}: 만료되었습니다. 새 진단과 조치를 받으려면 다시 실행을 누르세요.`,
    },
    buttonExpired: {
      en: (p: { kind: string }) => `Expired: ${p.kind} (re-run)`,
      ko: (p: { kind: string }) => `만료됨: ${p.kind} (다시 실행)`,
    },
    buttonApproved: {
      en: (p: { kind: string }) => `Approved: ${p.kind}`,
      ko: (p: { kind: string }) => `승인됨: ${p.kind}`,
    },
    buttonApply: {
      en: (p: { kind: string; undo: boolean; counted: string }) =>
        `${p.undo ? 'Undo' : 'Apply'}: ${p.kind}${p.counted ? ` (${p.counted} approvals)` : ''}`,
      ko: (p: { kind: string; undo: boolean; counted: string }) =>
        `${p.undo ? '되돌리기' : '적용'}: ${p.kind}${p.counted ? ` (승인 ${p.counted})` : ''}`,
    },
    confirmTitle: {
      en: (p: Plan & { undo: boolean }) => `${p.undo ? 'Undo' : 'Apply'} ${p.kind} to ${p.name}?`,
      ko: (p: Plan & { undo: boolean }) =>
        p.undo
          ? `${p.name}에 적용한 ${p.kind} 조치를 되돌릴까요?`
          : `${p.name}에 ${p.kind} 조치를 적용할까요?`,
    },
    confirmYes: {
      en: (p: { undo: boolean }): string => (p.undo ? 'Undo it' : 'Apply it'),
      ko: (p: { undo: boolean }) => (p.undo ? '되돌리기' : '적용'),
    },
    cancel: { en: () => 'Cancel', ko: () => '취소' },
    rerun: { en: () => 'Re-run', ko: () => '다시 실행' },
    dismiss: { en: () => 'Dismiss', ko: () => '닫기' },
    draftPostmortem: { en: () => 'Draft post-mortem', ko: () => '포스트모템 초안' },
    fullReport: {
      en: (p: { what: string; namespace: string; cluster: string; at: string }) =>
        say`${icon('report')} ${strong('Full report')} for ${p.what} in ${p.namespace} (cluster ${p.cluster}, captured ${p.at})`,
      ko: (p: { what: string; namespace: string; cluster: string; at: string }) =>
        say`${icon('report')} ${strong('전체 보고서')}: ${p.namespace} 네임스페이스의 ${p.what} (클러스터 ${p.cluster}, ${p.at} 기준)`,
    },
    fullReportSummary: {
      en: (p: Where) => say`Full report for ${p.what} in ${p.namespace}`,
      ko: (p: Where) => say`전체 보고서: ${p.namespace} 네임스페이스의 ${p.what}`,
    },
    fixHeading: {
      en: (p: { n: number; kind: string; summary: string }) =>
        say`${icon('fix')} ${strong(`Fix ${p.n}${p.n === 1 ? ' (recommended)' : ''}: ${p.kind}`)}. ${p.summary}`,
      ko: (p: { n: number; kind: string; summary: string }) =>
        say`${icon('fix')} ${strong(`조치 ${p.n}${p.n === 1 ? '(권장)' : ''}: ${p.kind}`)}. ${p.summary}`,
    },
    planImpact: {
      en: (p: { impact: string }) => say`${strong('Impact:')} ${p.impact}`,
      ko: (p: { impact: string }) => say`${strong('영향:')} ${p.impact}`,
    },
    dryRunTitle: {
      en: () => say`${strong('Server-side dry run')}`,
      ko: () => say`${strong('서버 측 드라이 런')}`,
    },
    patchTitle: {
      en: (p: { type: string; id: string }) => say`${strong('Exact patch')} (${p.type}) of ${p.id}`,
      ko: (p: { type: string; id: string }) => say`${strong('정확한 패치')}(${p.type}): ${p.id}`,
    },
    changeTitle: {
      en: (p: { id: string }) => say`${strong('Exact change')} of ${p.id}`,
      ko: (p: { id: string }) => say`${strong('정확한 변경')}: ${p.id}`,
    },
  }),
  {
    noVerdict: [{ what: 'deployment/tracker', namespace: 'vision' }],
    noProblem: [{ what: 'deployment/tracker', namespace: 'vision' }],
    note: [
      {
        what: 'deployment/tracker',
        namespace: 'vision',
        cluster: 'prod',
        at: '02:59 UTC',
        owner: null,
        failed: 0,
      },
      {
        what: 'deployment/tracker',
        namespace: 'vision',
        cluster: 'prod',
        at: '02:59 UTC',
        owner: say`managed by Helm release tracker`,
        failed: 2,
      },
    ],
    driftOwner: [
      { by: 'Argo CD application shop', reverted: true },
      { by: 'Argo CD application shop', reverted: false },
      { by: 'Argo CD application shop', reverted: null },
    ],
    driftNoOwner: [{ reverted: true }, { reverted: false }, { reverted: null }],
    driftWhy: [{ verdict: say`kept`, why: 'not in the manifest' }],
    driftWhyInThread: [{ verdict: say`kept`, by: 'kubectl apply' }],
    driftPerFieldInThread: [{ verdict: say`kept` }],
    ownerKubectl: [{ manager: 'kubectl-client-side-apply' }],
    fieldsWritten: [{ fields: 'spec.strategy.type' }],
    managedBy: [
      { owner: say`Argo CD shop`, namespace: 'argocd' },
      { owner: say`Argo CD shop`, namespace: '' },
    ],
    managedByLong: [
      { owner: say`Argo CD shop`, namespace: 'argocd', evidence: 'tracking id' },
      { owner: say`Argo CD shop`, namespace: '', evidence: 'tracking id' },
    ],
    notCheckedAgainst: [{ unread: 'PodDisruptionBudgets: unread' }],
    notOffered: [{ kind: 'delete-pods', addresses: 'CrashLoopOnNode', reason: 'a budget' }],
    changeToCommit: [{ where: 'Git', addresses: 'RolloutSurgeDeadlock' }],
    partial: [{}],
    summaryOf: [{ what: 'deployment/web', namespace: 'shop', rest: 'RolloutStuck' }],
    noVerdictShort: [{}],
    noProblemShort: [{}],
    alsoFound: [
      { codes: say`${strong('CrashLoop')}`, more: 0 },
      { codes: say`${strong('CrashLoop')}`, more: 2 },
    ],
    inThread: [
      { plans: 0, patch: true },
      { plans: 1, patch: true },
      { plans: 3, patch: false },
    ],
    withdrawn: [{}],
    briefInThread: [{}],
    recommended: [{ summary: 'Let old pods go first.' }],
    impact: [{ impact: 'brief outage' }],
    dryRunRefused: [{ reason: 'the field is immutable' }],
    approved: [{ kind: 'set-rolling-update', who: say`Dana`, at: '03:04 UTC' }],
    expired: [{ kind: 'set-recreate' }],
    buttonExpired: [{ kind: 'set-recreate' }],
    buttonApproved: [{ kind: 'exclude-node' }],
    buttonApply: [
      { kind: 'exclude-node', undo: false, counted: '' },
      { kind: 'exclude-node', undo: true, counted: '1/2' },
    ],
    confirmTitle: [
      { kind: 'exclude-node', name: 'checkout', undo: false },
      { kind: 'exclude-node', name: 'checkout', undo: true },
    ],
    confirmYes: [{ undo: false }, { undo: true }],
    cancel: [{}],
    rerun: [{}],
    dismiss: [{}],
    draftPostmortem: [{}],
    fullReport: [{ what: 'deployment/tracker', namespace: 'vision', cluster: 'prod', at: '02:59 UTC' }],
    fullReportSummary: [{ what: 'deployment/tracker', namespace: 'vision' }],
    fixHeading: [
      { n: 1, kind: 'set-rolling-update', summary: 'Let old pods go first.' },
      { n: 2, kind: 'set-recreate', summary: 'Switch to Recreate.' },
    ],
    planImpact: [{ impact: 'brief outage' }],
    dryRunTitle: [{}],
    patchTitle: [{ type: 'strategic-merge', id: 'set-recreate-abc' }],
    changeTitle: [{ id: 'delete-pods-abc' }],
  },
);
