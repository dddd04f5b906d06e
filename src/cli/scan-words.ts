/**
 * `scan`'s own sentences (its text output and its progress line, commands/scan.ts), in
 * every language. Finding codes, kinds and the command it points to never translate;
 * the English entries are the output's wording before the catalogue, byte for byte.
 * The node exclusions' table has its own (remediation/exclusion-words.ts).
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

type Counted = { where: string; scanned: number };

export const SCAN_WORDS = registerCatalogue(
  'scan',
  defineMessages({
    allNamespaces: { en: () => 'all namespaces', ko: () => '모든 네임스페이스' },
    namespace: {
      en: (p: { namespace: string }) => `namespace ${p.namespace}`,
      ko: (p: { namespace: string }) => `${p.namespace} 네임스페이스`,
    },
    allClear: {
      en: (p: Counted & { kinds: string }) =>
        `No stuck or at-risk workloads in ${p.where} (${p.scanned} scanned: ${p.kinds}).`,
      ko: (p: Counted & { kinds: string }) =>
        `${p.where}에 멈추거나 위험한 워크로드가 없습니다(${p.scanned}개 검사: ${p.kinds}).`,
    },
    columnState: { en: () => 'STATE', ko: () => '상태' },
    columnWorkload: { en: () => 'WORKLOAD', ko: () => '워크로드' },
    columnFindings: { en: () => 'FINDINGS', ko: () => '판정' },
    columnSummary: { en: () => 'SUMMARY', ko: () => '요약' },
    stuck: { en: () => 'STUCK', ko: () => '멈춤' },
    atRisk: { en: () => 'AT-RISK', ko: () => '위험' },
    problems: { en: () => 'PROBLEMS', ko: () => '문제' },
    paused: { en: () => 'PAUSED', ko: () => '일시 중지' },
    pausedWaiting: {
      en: (p: { count: number }) =>
        `${p.count === 1 ? '1 workload is' : `${p.count} workloads are`} paused before its rollout finished: ${p.count === 1 ? 'it waits' : 'they wait'} for a person (resume or promote).`,
      ko: (p: { count: number }) =>
        `워크로드 ${p.count}개가 롤아웃을 마치기 전에 일시 중지되어 사람의 조치(재개나 승격)를 기다립니다.`,
    },
    pausedTimed: {
      en: (p: { count: number }) =>
        `${p.count === 1 ? '1 workload is' : `${p.count} workloads are`} at a timed pause: the controller goes on by itself when it ends.`,
      ko: (p: { count: number }) =>
        `워크로드 ${p.count}개가 시간이 지정된 일시 중지 단계에 있습니다. 그 시간이 끝나면 컨트롤러가 스스로 재개합니다.`,
    },
    needAttention: {
      en: (p: Counted & { count: number }) =>
        `${p.count} of ${p.scanned} workloads in ${p.where} need attention.`,
      ko: (p: Counted & { count: number }) =>
        `${p.where}의 워크로드 ${p.scanned}개 중 ${p.count}개를 살펴봐야 합니다.`,
    },
    runDiagnose: {
      en: (p: { command: string }) => `Run \`${p.command}\` for the evidence and fixes.`,
      ko: (p: { command: string }) => `근거와 조치 방법은 \`${p.command}\` 명령으로 확인합니다.`,
    },
    nodesIncomplete: {
      en: () =>
        'Note: not every node was read (the list was capped or refused, or the dump holds no nodes); at-risk predictions may be incomplete.',
      ko: () =>
        '참고: 노드를 모두 읽지는 못했습니다(목록이 잘렸거나 거부되었거나, 덤프에 노드가 없습니다). 위험 예측이 빠질 수 있습니다.',
    },
    note: { en: (p: { text: string }) => `Note: ${p.text}`, ko: (p: { text: string }) => `참고: ${p.text}` },
    noRollouts: {
      en: (p: { crd: string; product: string }) =>
        `Note: this cluster serves no ${p.crd} (${p.product} is not installed): no Rollouts to scan.`,
      ko: (p: { crd: string; product: string }) =>
        `참고: 이 클러스터에는 ${p.crd} 리소스가 없습니다(${p.product} 미설치). 검사할 Rollout이 없습니다.`,
    },
    progress: {
      en: (p: { done: number; total?: number }) =>
        `scanned ${p.done}${p.total !== undefined ? ` of ${p.total}` : ''} workloads`,
      ko: (p: { done: number; total?: number }) =>
        p.total !== undefined ? `워크로드 ${p.total}개 중 ${p.done}개 검사함` : `워크로드 ${p.done}개 검사함`,
    },
  }),
  {
    allNamespaces: [{}],
    namespace: [{ namespace: 'vision' }],
    allClear: [{ where: 'namespace payments', scanned: 3, kinds: 'Deployment, Rollout' }],
    columnState: [{}],
    columnWorkload: [{}],
    columnFindings: [{}],
    columnSummary: [{}],
    stuck: [{}],
    atRisk: [{}],
    problems: [{}],
    paused: [{}],
    pausedWaiting: [{ count: 1 }, { count: 2 }],
    pausedTimed: [{ count: 1 }, { count: 2 }],
    needAttention: [{ where: 'all namespaces', scanned: 12, count: 2 }],
    runDiagnose: [{ command: 'rollout-doctor diagnose TYPE/NAME -n NAMESPACE' }],
    nodesIncomplete: [{}],
    note: [{ text: 'pods in vision: forbidden' }],
    noRollouts: [{ crd: 'rollouts.argoproj.io', product: 'Argo Rollouts' }],
    progress: [{ done: 3, total: 12 }, { done: 4 }],
  },
);
