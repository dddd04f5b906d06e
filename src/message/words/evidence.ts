/**
 * The words around a finding's evidence (evidence.ts, evidence-parts.ts), in every
 * language: the decisive lines of a result message and the titles, columns and sentences
 * of the thread report and the command line. The facts (names, amounts, the scheduler's
 * and the kubelet's own messages, field names and values) are parameters and never
 * translate; the English entries are the output's wording before the catalogue, byte for
 * byte. Column names come as one string, split at " | " (columns()). The Korean of the
 * strategy and the capacity table is the wording `check` was reviewed with (one catalogue
 * for both: check/evidence-words.ts keeps only check's own notes).
 */
import { defineMessages, registerCatalogue, type wordsIn } from '../../i18n/catalogue.js';
import type { Rich } from '../model.js';
import { code, say, strong } from '../rich.js';

type Capacity = { resource: string; node: string; allocatable: string; used: string; free: string };
type QuotaRow = { resource: string; used: string; hard: string; ours: string; requested: string };
type Crash = { node: string; ready: number; pods: number };
type Rolling = { at: string; maxSurge: string; maxUnavailable: string };

/** A table's column names as the catalogue gives them. */
export function columns(joined: string): string[] {
  return joined.split(' | ');
}

export const EVIDENCE_WORDS = registerCatalogue(
  'evidence',
  defineMessages({
    // The decisive lines of a result message.
    log: {
      en: (p: { pod: string; container: string; line: string }): Rich =>
        say`${strong('Log')} (${p.pod}/${p.container}): ${code(p.line)}`,
      ko: (p: { pod: string; container: string; line: string }): Rich =>
        say`${strong('로그')} (${p.pod}/${p.container}): ${code(p.line)}`,
    },
    logClue: { en: () => 'Log clue', ko: () => '로그 단서' },
    scheduler: { en: () => 'Scheduler:', ko: () => '스케줄러:' },
    noneAvailable: {
      en: (p: { total: number; reasons: string }) => `0/${p.total} nodes available: ${p.reasons}`,
      ko: (p: { total: number; reasons: string }) => `노드 0/${p.total}개 사용 가능: ${p.reasons}`,
    },
    moreReasons: { en: (p: { n: number }) => `, ${p.n} more`, ko: (p: { n: number }) => `, 외 ${p.n}개` },
    quotaRow: {
      en: (p: QuotaRow): Rich =>
        say`${strong(p.resource)} ${p.used} of ${p.hard} used (${p.ours} by this workload), a new pod asks ${p.requested}`,
      ko: (p: QuotaRow): Rich =>
        say`${strong(p.resource)} ${p.hard} 중 ${p.used} 사용 중(이 워크로드 ${p.ours}), 새 파드 요청량 ${p.requested}`,
    },
    capacityRow: {
      en: (p: Capacity & { held: string }): Rich =>
        say`${strong(p.resource)} on ${strong(p.node)}: ${p.allocatable} allocatable, ${p.used} in use, ${p.free} free${p.held === '' ? '' : `, held by ${p.held}`}`,
      ko: (p: Capacity & { held: string }): Rich =>
        say`${strong(p.node)} 노드의 ${strong(p.resource)}: 할당 가능 ${p.allocatable}, 사용 중 ${p.used}, 남은 양 ${p.free}${p.held === '' ? '' : `, 점유: ${p.held}`}`,
    },
    ours: { en: () => ' (ours)', ko: () => ' (이 워크로드)' },
    andMore: {
      en: (p: { shown: string; n: number }) => `${p.shown} and ${p.n} more`,
      ko: (p: { shown: string; n: number }) => `${p.shown} 외 ${p.n}개`,
    },
    capacityRowsInThread: {
      en: (p: { n: number }) => ` (${p.n} eligible node rows in the thread)`,
      ko: (p: { n: number }) => ` (배치 가능한 노드 ${p.n}개의 행은 스레드에 있습니다)`,
    },
    strategy: { en: () => 'Strategy:', ko: () => '전략:' },
    atReplicas: {
      en: (p: { n: number }) => `${p.n} replica${p.n === 1 ? '' : 's'}`,
      ko: (p: { n: number }) => `레플리카 ${p.n}개`,
    },
    atNodes: {
      en: (p: { n: number }) => `${p.n} node${p.n === 1 ? '' : 's'}`,
      ko: (p: { n: number }) => `노드 ${p.n}개`,
    },
    strategyAt: {
      en: (p: { type: string; at: string }) => `${p.type} at ${p.at}`,
      ko: (p: { type: string; at: string }) => `${p.type}, ${p.at}`,
    },
    blueGreenAt: {
      en: (p: { at: string }) =>
        `BlueGreen at ${p.at}: the preview pods start beside the active ones, which stay until promotion`,
      ko: (p: { at: string }) =>
        `BlueGreen, ${p.at}: 프리뷰 파드가 활성 파드 옆에서 시작하고, 활성 파드는 프로모션까지 남습니다`,
    },
    trafficRoutedAt: {
      en: (p: { at: string }) =>
        `canary with traffic routing at ${p.at}: the stable pods all stay until promotion`,
      ko: (p: { at: string }) => `트래픽 라우팅 카나리, ${p.at}: 안정 버전 파드는 프로모션까지 모두 남습니다`,
    },
    rollingAt: {
      en: (p: Rolling) =>
        `RollingUpdate at ${p.at}: maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable}`,
      ko: (p: Rolling) =>
        `RollingUpdate, ${p.at}: maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable}`,
    },
    canaryAt: {
      en: (p: Rolling) => `canary at ${p.at}: maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable}`,
      ko: (p: Rolling) => `카나리, ${p.at}: maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable}`,
    },
    surgeFirstPerNode: {
      en: () => ": each node's new pod starts beside the old one, which stays until the new one is Ready",
      ko: () =>
        ': 노드마다 새 파드가 기존 파드 옆에서 시작하고, 기존 파드는 새 파드가 Ready가 될 때까지 남습니다',
    },
    surgeFirst: {
      en: () => ': new pods start first, old pods stay until the new ones are Ready',
      ko: () => ': 새 파드가 먼저 시작하고, 기존 파드는 새 파드가 Ready가 될 때까지 남습니다',
    },
    podsPerNodeHead: { en: () => 'Pods per node:', ko: () => '노드별 파드:' },
    crashingRow: {
      en: (p: Crash & { restarts: number; exit: string }): Rich =>
        say`${strong(p.node)} ${p.ready}/${p.pods} ready, ${p.restarts} restarts${p.exit}`,
      ko: (p: Crash & { restarts: number; exit: string }): Rich =>
        say`${strong(p.node)} Ready ${p.ready}/${p.pods}, 재시작 ${p.restarts}회${p.exit}`,
    },
    healthyRow: {
      en: (p: Crash): Rich => say`${p.node} ${p.ready}/${p.pods} ready`,
      ko: (p: Crash): Rich => say`${p.node} Ready ${p.ready}/${p.pods}`,
    },
    exitCode: {
      en: (p: { code: number; reason: string }) =>
        `, exit ${p.code}${p.reason === '' ? '' : ` (${p.reason})`}`,
      ko: (p: { code: number; reason: string }) =>
        `, 종료 코드 ${p.code}${p.reason === '' ? '' : ` (${p.reason})`}`,
    },
    moreNodes: {
      en: (p: { n: number }) => `; ${p.n} more node(s)`,
      ko: (p: { n: number }) => `; 노드 ${p.n}개 더`,
    },
    differs: {
      en: (p: { field: string; bad: string; good: string }): Rich =>
        say`${p.field} ${p.bad} (others: ${p.good})`,
      ko: (p: { field: string; bad: string; good: string }): Rich =>
        say`${p.field} ${p.bad} (다른 노드: ${p.good})`,
    },
    moreDifferences: {
      en: (p: { n: number }) => ` and ${p.n} more`,
      ko: (p: { n: number }) => ` 외 ${p.n}개`,
    },
    whatDiffers: {
      en: (p: { nodes: string }) => `What differs on ${p.nodes}:`,
      ko: (p: { nodes: string }) => `${p.nodes} 노드에서 다른 점:`,
    },
    alsoDiffers: {
      en: (p: { nodes: string }) => `Also differs on ${p.nodes} (the clue points at none of it):`,
      ko: (p: { nodes: string }) => `${p.nodes} 노드에서 다른 점(단서는 이 중 어느 것도 가리키지 않습니다):`,
    },
    deviceHealth: { en: () => 'Device health:', ko: () => '장치 상태:' },
    deviceUnhealthy: { en: () => 'Device Unhealthy:', ko: () => 'Unhealthy 장치:' },
    deviceOn: {
      en: (p: { device: string; node: string; pod: string; claim: string }): Rich =>
        say`${p.device} on ${strong(p.node)} (${p.pod}${p.claim === '' ? '' : `, claim ${p.claim}`})`,
      ko: (p: { device: string; node: string; pod: string; claim: string }): Rich =>
        say`${strong(p.node)} 노드의 ${p.device} (${p.pod}${p.claim === '' ? '' : `, 클레임 ${p.claim}`})`,
    },
    condition: { en: () => 'Condition', ko: () => '컨디션' },
    note: { en: () => 'Note:', ko: () => '참고:' },

    // The thread report and the command line: titles, columns, sentences.
    strategyNodes: {
      en: (p: { name: string; n: number }) => `${p.name}, nodes ${p.n}`,
      ko: (p: { name: string; n: number }) => `${p.name}, 노드 ${p.n}개`,
    },
    strategyReplicas: {
      en: (p: { name: string; n: number }) => `${p.name}, replicas ${p.n}`,
      ko: (p: { name: string; n: number }) => `${p.name}, 레플리카 ${p.n}개`,
    },
    argoCanary: {
      en: () => 'Canary (Argo Rollouts)',
      ko: () => '카나리 (Argo Rollouts)',
    },
    argoTrafficRouted: {
      en: () => 'Canary with traffic routing (Argo Rollouts)',
      ko: () => '트래픽 라우팅을 쓰는 카나리 (Argo Rollouts)',
    },
    argoBlueGreen: {
      en: () => 'BlueGreen (Argo Rollouts)',
      ko: () => '블루-그린 (Argo Rollouts)',
    },
    previewStarts: {
      en: (p: { n: number }) =>
        `the preview ReplicaSet starts ${p.n} pod(s) beside the active ones, which all stay until promotion`,
      ko: (p: { n: number }) =>
        `프리뷰 ReplicaSet이 활성 파드 옆에 파드 ${p.n}개를 띄우고, 활성 파드는 승격될 때까지 모두 남습니다`,
    },
    canaryBeside: {
      en: (p: { n: number }) =>
        `the canary's pods start beside the stable ReplicaSet, which keeps all ${p.n} pod(s) until promotion (maxSurge and maxUnavailable do not apply)`,
      ko: (p: { n: number }) =>
        `카나리 파드는 안정 ReplicaSet 옆에서 시작하고, 안정 ReplicaSet은 승격될 때까지 파드 ${p.n}개를 모두 유지합니다(maxSurge와 maxUnavailable은 적용되지 않습니다)`,
    },
    recreateLine: {
      en: () => 'old pods are stopped before new ones start',
      ko: () => '새 파드를 띄우기 전에 기존 파드를 모두 내립니다',
    },
    onDeleteLine: {
      en: () => 'a pod is replaced only when someone deletes it',
      ko: () => '누군가 파드를 삭제할 때만 교체됩니다',
    },
    sourceDefault: {
      en: () => 'Kubernetes default, not set in the manifest',
      ko: () => '기본값, 매니페스트에 설정하지 않음',
    },
    sourceArgoDefault: {
      en: () => 'Argo Rollouts default, not set in the manifest',
      ko: () => 'Argo Rollouts 기본값, 매니페스트에 설정하지 않음',
    },
    sourceExplicit: { en: () => 'set explicitly', ko: () => '직접 설정함' },
    sourceUnknown: { en: () => 'default value', ko: () => '기본값과 같음' },
    surgeLinePerNode: {
      en: (p: { surge: number; n: number }) =>
        `so the controller starts the new pod beside the old one on up to ${p.surge} node(s) at a time and deletes the old one only once the new one is available ` +
        `(both round percentages up, against ${p.n} node(s))`,
      ko: (p: { surge: number; n: number }) =>
        `따라서 컨트롤러는 한 번에 최대 ${p.surge}개 노드에서 기존 파드 옆에 새 파드를 띄우고, 새 파드가 사용 가능해진 뒤에야 기존 파드를 삭제합니다(퍼센트는 둘 다 올림, 기준 노드 ${p.n}개)`,
    },
    surgeLine: {
      en: (p: { surge: number; n: number }) =>
        `so the controller starts ${p.surge} new pod(s) before stopping any old one ` +
        `(maxSurge rounds percentages up, maxUnavailable rounds down, against ${p.n} replica(s))`,
      ko: (p: { surge: number; n: number }) =>
        `따라서 컨트롤러는 기존 파드를 내리기 전에 새 파드 ${p.surge}개를 먼저 띄웁니다(maxSurge 퍼센트는 올림, maxUnavailable 퍼센트는 내림, 기준 레플리카 ${p.n}개)`,
    },
    describeUnresolved: {
      en: () =>
        '(`kubectl describe` prints the percentages unresolved; the numbers after -> are what the controller uses)',
      ko: () => '(kubectl 출력에는 퍼센트가 그대로 나옵니다. -> 뒤의 숫자가 컨트롤러가 실제로 쓰는 값입니다)',
    },
    previousLog: {
      en: (p: { pod: string; container: string }) => `Previous log of ${p.pod}/${p.container}`,
      ko: (p: { pod: string; container: string }) => `${p.pod}/${p.container}의 이전 로그`,
    },
    podColumns: { en: () => 'pod | node | phase | detail', ko: () => '파드 | 노드 | 단계 | 상세' },
    quotaTitle: {
      en: (p: { quota: string }) => `ResourceQuota ${p.quota}, as its refusal counted it`,
      ko: (p: { quota: string }) => `ResourceQuota ${p.quota}: 거부할 때 집계한 사용량`,
    },
    quotaColumns: {
      en: () => 'resource | hard | used | this workload | others | new pod asks',
      ko: () => '자원 | 한도 | 사용량 | 이 워크로드 | 다른 워크로드 | 새 파드 요청량',
    },
    deviceTitle: {
      en: (p: { verdict: string }) => `Device health (allocatedResourcesStatus): ${p.verdict}`,
      ko: (p: { verdict: string }) => `장치 상태(allocatedResourcesStatus): ${p.verdict}`,
    },
    deviceColumns: {
      en: () => 'node | pod | container | device | claim | health',
      ko: () => '노드 | 파드 | 컨테이너 | 장치 | 클레임 | 상태',
    },
    capacityTitle: {
      en: () => 'Capacity on the nodes the pod may use',
      ko: () => '파드가 쓸 수 있는 노드의 용량',
    },
    capacityColumns: {
      en: () => 'node | resource | allocatable | used | free | held by',
      ko: () => '노드 | 리소스 | 할당 가능 | 사용 중 | 여유 | 점유한 파드',
    },
    oursCell: { en: () => ', ours', ko: () => ', 이 워크로드' },
    crashing: { en: () => 'Crashing:', ko: () => '비정상 종료:' },
    initContainer: { en: () => 'init container', ko: () => '초기화 컨테이너' },
    sidecar: {
      en: () => 'sidecar (restartable init container)',
      ko: () => '사이드카(재시작 가능한 초기화 컨테이너)',
    },
    container: { en: () => 'container', ko: () => '컨테이너' },
    injected: {
      en: () => ' (injected at admission, not in the pod template)',
      ko: () => ' (어드미션에서 주입됨, 파드 템플릿에는 없음)',
    },
    podsPerNode: { en: () => 'Pods per node', ko: () => '노드별 파드' },
    crashColumns: {
      en: () => 'node | pods | ready | crashing | restarts | last exit | reason | message',
      ko: () => '노드 | 파드 | Ready | 비정상 종료 | 재시작 | 마지막 종료 코드 | 이유 | 메시지',
    },
    lastTermination: { en: () => 'last termination message', ko: () => '마지막 종료 메시지' },
    lastLogLines: {
      en: (p: { node: string }) => `last log lines on ${p.node}`,
      ko: (p: { node: string }) => `${p.node} 노드의 마지막 로그`,
    },
    diffTitle: {
      en: (p: { bad: string; good: string }) =>
        `What differs between the failing node(s) ${p.bad} and the healthy ${p.good}`,
      ko: (p: { bad: string; good: string }) => `실패하는 노드(${p.bad})와 정상 노드(${p.good})의 차이`,
    },
    separatedBy: {
      en: (p: { fields: string; bad: string }) =>
        `separated by ${p.fields}: ${p.bad} on every failing node, never on a healthy one`,
      ko: (p: { fields: string; bad: string }) =>
        `${p.fields} 값으로 나뉩니다: 실패하는 모든 노드는 ${p.bad}이고, 정상 노드 중에는 하나도 없습니다`,
    },
    clueFromLog: {
      en: (p: { pod: string; container: string; text: string }) =>
        `clue (previous log of ${p.pod}/${p.container}): ${p.text}`,
      ko: (p: { pod: string; container: string; text: string }) =>
        `단서 (${p.pod}/${p.container}의 이전 로그): ${p.text}`,
    },
    clueFromMessage: {
      en: (p: { pod: string; container: string; text: string }) =>
        `clue (termination message of ${p.pod}/${p.container}): ${p.text}`,
      ko: (p: { pod: string; container: string; text: string }) =>
        `단서 (${p.pod}/${p.container}의 종료 메시지): ${p.text}`,
    },
    noDifference: {
      en: () => 'no difference found in labels, node info, conditions or taints',
      ko: () => '레이블, 노드 정보, 컨디션, 테인트에서 차이를 찾지 못했습니다',
    },
    diffColumns: { en: () => 'FIELD | FAILING | HEALTHY', ko: () => '필드 | 실패 노드 | 정상 노드' },
    schedulerMessage: {
      en: (p: { pod: string }) => `Scheduler message for ${p.pod}`,
      ko: (p: { pod: string }) => `${p.pod}에 대한 스케줄러 메시지`,
    },
    notParsed: {
      en: () => '(the message could not be parsed)',
      ko: () => '(메시지를 해석하지 못했습니다)',
    },
    pluginAborted: {
      en: (p: { plugin: string }) =>
        `the scheduler stopped with an error from its ${p.plugin} plugin before judging any node`,
      ko: (p: { plugin: string }) =>
        `스케줄러가 노드를 판단하기 전에 ${p.plugin} 플러그인의 오류로 멈췄습니다`,
    },
    considered: {
      en: (p: { total: number }) => `${p.total} node(s) considered, none available`,
      ko: (p: { total: number }) => `노드 ${p.total}개를 검토했고, 사용할 수 있는 노드가 없습니다`,
    },
    reasonColumns: { en: () => 'nodes | reason | category', ko: () => '노드 수 | 이유 | 분류' },
    also: { en: (p: { note: string }) => `also: ${p.note}`, ko: (p: { note: string }) => `추가: ${p.note}` },
    preemption: {
      en: (p: { text: string }) => `preemption: ${p.text}`,
      ko: (p: { text: string }) => `선점: ${p.text}`,
    },
    preemptionTitle: {
      en: (p: { total: number }) =>
        `preemption (evicting lower-priority pods) would not help on ${p.total} node(s)`,
      ko: (p: { total: number }) =>
        `선점(우선순위가 낮은 파드 축출)으로도 노드 ${p.total}개에서 자리가 생기지 않습니다`,
    },
    preemptionColumns: { en: () => 'nodes | reason', ko: () => '노드 수 | 이유' },
  }),
  {
    log: [{ pod: 'tracker-7b9f-h8v2n', container: 'tracker', line: 'Illegal instruction (core dumped)' }],
    logClue: [{}],
    scheduler: [{}],
    noneAvailable: [
      {
        total: 10,
        reasons: "1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector",
      },
    ],
    moreReasons: [{ n: 2 }],
    quotaRow: [{ resource: 'requests.memory', used: '30Gi', hard: '32Gi', ours: '24Gi', requested: '8Gi' }],
    capacityRow: [
      {
        resource: 'nvidia.com/gpu',
        node: 'gpu-1',
        allocatable: '1',
        used: '1',
        free: '0',
        held: 'tracker-6d4c-x2kqp (ours)',
      },
      { resource: 'cpu', node: 'gpu-1', allocatable: '8', used: '2', free: '6', held: '' },
    ],
    ours: [{}],
    andMore: [{ shown: 'web-1, web-2', n: 3 }],
    capacityRowsInThread: [{ n: 5 }],
    strategy: [{}],
    atReplicas: [{ n: 1 }, { n: 3 }],
    atNodes: [{ n: 1 }, { n: 4 }],
    strategyAt: [{ type: 'Recreate', at: '3 replicas' }],
    blueGreenAt: [{ at: '3 replicas' }],
    trafficRoutedAt: [{ at: '3 replicas' }],
    rollingAt: [{ at: '3 replicas', maxSurge: '25% = 1', maxUnavailable: '0' }],
    canaryAt: [{ at: '3 replicas', maxSurge: '1', maxUnavailable: '0' }],
    surgeFirstPerNode: [{}],
    surgeFirst: [{}],
    podsPerNodeHead: [{}],
    crashingRow: [{ node: 'node-05', ready: 0, pods: 1, restarts: 12, exit: ', exit 132 (Error)' }],
    healthyRow: [{ node: 'node-02', ready: 1, pods: 1 }],
    exitCode: [
      { code: 132, reason: 'Error' },
      { code: 1, reason: '' },
    ],
    moreNodes: [{ n: 3 }],
    differs: [{ field: 'label cpu-gen', bad: 'haswell', good: 'icelake' }],
    moreDifferences: [{ n: 2 }],
    whatDiffers: [{ nodes: 'node-05' }],
    alsoDiffers: [{ nodes: 'node-05' }],
    deviceHealth: [{}],
    deviceUnhealthy: [{}],
    deviceOn: [
      { device: 'gpu.example.com/pool-a/gpu-0', node: 'gpu-1', pod: 'trainer-0', claim: 'gpu-claim' },
      { device: 'nvidia.com/gpu-0', node: 'gpu-1', pod: 'trainer-0', claim: '' },
    ],
    condition: [{}],
    note: [{}],
    strategyNodes: [{ name: 'RollingUpdate', n: 4 }],
    strategyReplicas: [{ name: 'RollingUpdate', n: 3 }],
    argoCanary: [{}],
    argoTrafficRouted: [{}],
    argoBlueGreen: [{}],
    previewStarts: [{ n: 3 }],
    canaryBeside: [{ n: 3 }],
    recreateLine: [{}],
    onDeleteLine: [{}],
    sourceDefault: [{}],
    sourceArgoDefault: [{}],
    sourceExplicit: [{}],
    sourceUnknown: [{}],
    surgeLinePerNode: [{ surge: 1, n: 4 }],
    surgeLine: [{ surge: 1, n: 3 }],
    describeUnresolved: [{}],
    previousLog: [{ pod: 'tracker-7b9f-h8v2n', container: 'tracker' }],
    podColumns: [{}],
    quotaTitle: [{ quota: 'team-quota' }],
    quotaColumns: [{}],
    deviceTitle: [{ verdict: 'one device reported Unhealthy' }],
    deviceColumns: [{}],
    capacityTitle: [{}],
    capacityColumns: [{}],
    oursCell: [{}],
    crashing: [{}],
    initContainer: [{}],
    sidecar: [{}],
    container: [{}],
    injected: [{}],
    podsPerNode: [{}],
    crashColumns: [{}],
    lastTermination: [{}],
    lastLogLines: [{ node: 'node-05' }],
    diffTitle: [{ bad: 'node-05', good: 'node-01, node-02' }],
    separatedBy: [{ fields: 'label cpu-gen', bad: 'haswell' }],
    clueFromLog: [{ pod: 'tracker-x', container: 'tracker', text: 'Illegal instruction' }],
    clueFromMessage: [{ pod: 'tracker-x', container: 'tracker', text: 'exec format error' }],
    noDifference: [{}],
    diffColumns: [{}],
    schedulerMessage: [{ pod: 'tracker-7b9f-h8v2n' }],
    notParsed: [{}],
    pluginAborted: [{ plugin: 'VolumeBinding' }],
    considered: [{ total: 10 }],
    reasonColumns: [{}],
    also: [{ note: 'a pod is nominated to gpu-2' }],
    preemption: [{ text: 'not eligible due to preemptionPolicy=Never.' }],
    preemptionTitle: [{ total: 10 }],
    preemptionColumns: [{}],
  },
);

/** The catalogue in one reader's language (wordsIn). */
export type EvidenceWords = ReturnType<typeof wordsIn<typeof EVIDENCE_WORDS>>;
