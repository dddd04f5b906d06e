/**
 * The text report's own sentences (src/report/text.ts), in every language. Codes, plan
 * kinds, field names and patches never translate; the English entries are the report's
 * wording before the catalogue, byte for byte.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import type { ManagedBy } from '../diagnosis/ownership.js';

type Target = { kind: string; namespace: string; name: string };
/** Who applies the workload (diagnosis/ownership.ts), its tool already in words. */
type Owner = Omit<ManagedBy, 'tool'> & { tool: string };

export const REPORT_WORDS = registerCatalogue(
  'report',
  defineMessages({
    target: {
      en: (p: Target) => `${p.kind} ${p.namespace}/${p.name}`,
      ko: (p: Target) => `${p.kind} ${p.namespace}/${p.name}`,
    },
    /** "Managed by Argo CD application shop (annotation argocd.argoproj.io/tracking-id)"; `tool` from its own message. */
    managedBy: {
      en: (p: Owner) =>
        `Managed by ${p.tool} ${p.name}${p.namespace ? ` in ${p.namespace}` : ''} (${p.evidence})`,
      ko: (p: Owner) =>
        `관리 주체: ${p.tool} ${p.name}${p.namespace ? `(${p.namespace} 네임스페이스)` : ''} (근거: ${p.evidence})`,
    },
    'tool-argocd': { en: () => 'Argo CD application', ko: () => 'Argo CD 애플리케이션' },
    'tool-flux-kustomize': { en: () => 'Flux Kustomization', ko: () => 'Flux의 Kustomization' },
    'tool-flux-helm': { en: () => 'Flux HelmRelease', ko: () => 'Flux의 HelmRelease' },
    'tool-helm': { en: () => 'Helm release', ko: () => 'Helm 릴리스' },
    'tool-kubectl': { en: () => 'kubectl apply by field manager', ko: () => 'kubectl apply, 필드 매니저' },
    asOf: { en: (p: { at: string }) => `  (as of ${p.at})`, ko: (p: { at: string }) => `  (${p.at} 기준)` },
    noProblem: { en: () => 'No problem found.', ko: () => '문제를 찾지 못했습니다.' },
    noVerdictFailed: {
      en: () => 'No verdict: some checks failed (below).',
      ko: () => '판정하지 못했습니다: 일부 검사가 실패했습니다(아래 참고).',
    },
    verdict: { en: () => 'Verdict', ko: () => '판정' },
    noProblemNotes: { en: () => 'No problem found; notes:', ko: () => '문제는 없습니다. 참고:' },
    pausedNotes: {
      en: () => 'Paused: the rollout waits for a person (no other problem found); notes:',
      ko: () => '일시 중지됨: 롤아웃이 사람의 조치를 기다립니다(다른 문제는 없습니다). 참고:',
    },
    pausedTimedNotes: {
      en: () => 'Paused: a timed pause its controller ends by itself (no other problem found); notes:',
      ko: () => '일시 중지됨: 지정된 시간이 지나면 컨트롤러가 스스로 재개합니다(다른 문제는 없습니다). 참고:',
    },
    noVerdictBoth: {
      en: () => 'No verdict: some checks failed (below) and some evidence was not read:',
      ko: () => '판정하지 못했습니다: 일부 검사가 실패했고(아래 참고), 읽지 못한 근거가 있습니다:',
    },
    noVerdictFailedNotes: {
      en: () => 'No verdict: some checks failed (below); notes:',
      ko: () => '판정하지 못했습니다: 일부 검사가 실패했습니다(아래 참고). 참고:',
    },
    noVerdictUnread: {
      en: () => 'No verdict: some evidence was not read:',
      ko: () => '판정하지 못했습니다: 읽지 못한 근거가 있습니다:',
    },
    critical: { en: () => '[CRITICAL]', ko: () => '[심각]' },
    warning: { en: () => '[WARNING]', ko: () => '[경고]' },
    info: { en: () => '[INFO]', ko: () => '[정보]' },
    evidence: { en: () => 'Evidence', ko: () => '근거' },
    fixes: {
      en: (p: { plans: string[] }) => `Fix: ${p.plans.join(', or ')} (best first; see Remediations)`,
      ko: (p: { plans: string[] }) => `조치: ${p.plans.join(', ')} (앞의 것부터 권장, 아래 조치 방법 참고)`,
    },
    fixThen: {
      en: (p: { first: string; then: string }) => `${p.first}, then ${p.then}`,
      ko: (p: { first: string; then: string }) => `${p.first} 다음 ${p.then}`,
    },
    remediations: { en: () => 'Remediations', ko: () => '조치 방법' },
    notChecked: {
      en: () => 'Not checked against (not read, so unknown, not absent):',
      ko: () => '확인하지 못한 것(읽지 못했으므로 없는 것이 아니라 알 수 없음):',
    },
    notOffered: {
      en: (p: { kind: string; addresses: string; reason: string }) =>
        `Not offered: ${p.kind}, for ${p.addresses}: ${p.reason}.`,
      ko: (p: { kind: string; addresses: string; reason: string }) =>
        `제안하지 않음: ${p.kind}(${p.addresses} 대상): ${p.reason}.`,
    },
    changeToCommit: {
      en: () => 'Change to commit (the permanent fix; not applied by any button)',
      ko: () => '커밋할 변경(근본 해결책입니다. 버튼으로는 적용되지 않습니다)',
    },
    changeWhere: {
      en: (p: { where: string; addresses: string }) => `In ${p.where}, for ${p.addresses}:`,
      ko: (p: { where: string; addresses: string }) => `${p.where}, ${p.addresses} 대상:`,
    },
    note: { en: (p: { text: string }) => `Note: ${p.text}`, ko: (p: { text: string }) => `참고: ${p.text}` },
    partial: {
      en: () => 'Some checks failed; the report above is partial:',
      ko: () => '일부 검사가 실패해서 위 보고서는 일부만 담고 있습니다:',
    },
    planHead: {
      en: (p: { id: string; addresses: string }) => `  id ${p.id}, for ${p.addresses}`,
      ko: (p: { id: string; addresses: string }) => `  id ${p.id}, 대상 ${p.addresses}`,
    },
    impact: {
      en: (p: { text: string }) => `Impact: ${p.text}`,
      ko: (p: { text: string }) => `영향: ${p.text}`,
    },
    planWarning: {
      en: (p: { text: string }) => `Warning: ${p.text}`,
      ko: (p: { text: string }) => `주의: ${p.text}`,
    },
    podsToDelete: {
      en: (p: { namespace: string; pods: string }) => `    Pods to delete in ${p.namespace}: ${p.pods}`,
      ko: (p: { namespace: string; pods: string }) => `    삭제할 파드(${p.namespace}): ${p.pods}`,
    },
    scalesReplicaSet: {
      en: (p: { namespace: string; name: string }) =>
        `    Scales ReplicaSet ${p.namespace}/${p.name} (its scale subresource), not the Deployment`,
      ko: (p: { namespace: string; name: string }) =>
        `    ReplicaSet ${p.namespace}/${p.name}의 scale 서브리소스를 바꿉니다(Deployment는 바꾸지 않습니다)`,
    },
    patch: {
      en: (p: { type: string }) => `    Patch (${p.type} patch):`,
      ko: (p: { type: string }) => `    패치(${p.type}):`,
    },
    undo: {
      en: (p: { type: string }) => `    Undo (${p.type} patch):`,
      ko: (p: { type: string }) => `    되돌리기(${p.type}):`,
    },
    reverted: {
      en: (p: { reverted: boolean | null; by?: string; why: string }) => {
        const verdict = p.reverted === null ? 'unknown' : p.reverted ? 'yes' : 'no';
        return p.by === undefined
          ? `Reverted: ${verdict}: ${p.why}`
          : `Reverted: ${verdict}, by ${p.by}: ${p.why}`;
      },
      ko: (p: { reverted: boolean | null; by?: string; why: string }) => {
        const verdict = p.reverted === null ? '알 수 없음' : p.reverted ? '예' : '아니요';
        return p.by === undefined
          ? `되돌려지는지: ${verdict}: ${p.why}`
          : `되돌려지는지: ${verdict}, ${p.by}: ${p.why}`;
      },
    },
  }),
  {
    target: [{ kind: 'Deployment', namespace: 'vision', name: 'tracker' }],
    asOf: [{ at: '2026-11-22T02:59:12Z' }],
    noProblem: [{}],
    noVerdictFailed: [{}],
    managedBy: [
      { tool: 'Argo CD application', name: 'shop', evidence: 'annotation argocd.argoproj.io/tracking-id' },
      {
        tool: 'Helm release',
        name: 'web',
        namespace: 'shop',
        evidence: 'label app.kubernetes.io/managed-by',
      },
    ],
    'tool-argocd': [{}],
    'tool-flux-kustomize': [{}],
    'tool-flux-helm': [{}],
    'tool-helm': [{}],
    'tool-kubectl': [{}],
    verdict: [{}],
    noProblemNotes: [{}],
    pausedNotes: [{}],
    pausedTimedNotes: [{}],
    noVerdictBoth: [{}],
    noVerdictFailedNotes: [{}],
    noVerdictUnread: [{}],
    critical: [{}],
    warning: [{}],
    info: [{}],
    evidence: [{}],
    fixes: [{ plans: ['[1] set-rolling-update', '[2] set-recreate'] }],
    fixThen: [{ first: '[1] exclude-node', then: '[2] delete-pods' }],
    remediations: [{}],
    notChecked: [{}],
    notOffered: [{ kind: 'set-recreate', addresses: 'CrashLoopOnNode', reason: 'it would not help' }],
    changeToCommit: [{}],
    changeWhere: [{ where: 'the file applied with kubectl apply', addresses: 'RolloutSurgeDeadlock' }],
    note: [{ text: 'old pods then go first' }],
    partial: [{}],
    planHead: [{ id: 'set-recreate-abc', addresses: 'RolloutSurgeDeadlock' }],
    impact: [{ text: 'brief outage' }],
    planWarning: [{ text: 'replicas is 1' }],
    podsToDelete: [{ namespace: 'vision', pods: 'tracker-1, tracker-2' }],
    scalesReplicaSet: [{ namespace: 'vision', name: 'tracker-5c6b' }],
    patch: [{ type: 'strategic-merge' }],
    undo: [{ type: 'json' }],
    reverted: [
      { reverted: false, by: 'Argo CD application shop', why: 'spec.strategy: not in the manifest' },
      { reverted: null, why: 'no owner recognised' },
    ],
  },
);
