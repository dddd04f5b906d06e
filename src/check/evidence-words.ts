/**
 * `check`'s evidence in the reader's language: the strategy as resolved,
 * the capacity table and check's own notes (what the run forward saw, what was not
 * read, what each node group can add). A note check writes carries its facts as `says`
 * (never in the JSON: render.ts renderJson leaves it out); English readers get the
 * shared evidence renderer's lines, byte for byte as before. Names from the cluster go
 * into `say` spans and table cells as the English path puts them, so each renderer
 * escapes them as it always has.
 */
import { multiline, plain, say, strong } from '../message/rich.js';
import type { ContentPart } from '../message/model.js';
import type { ResolvedValue } from '../diagnosis/resolved-strategy.js';
import { defineMessages, registerCatalogue, wordsIn } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { renderEvidence, terminalLines } from '../report/terminal.js';
import type { Style } from '../report/format.js';
import { plainEvidence, type CheckEvidence, type NoteSays } from './check-evidence.js';
import type { Evidence } from '../diagnosis/finding.js';

type Group = { name: string; karpenter: boolean };

const groupKo = (p: Group): string =>
  `${p.karpenter ? 'Karpenter NodePool' : '클러스터 오토스케일러 노드 그룹'}(${p.name})`;
const groupEn = (p: Group): string =>
  `${p.karpenter ? 'Karpenter NodePool' : 'cluster autoscaler node group'} ${p.name}`;

type Surge = { surge: number; replicas: number };

const CHECK_EVIDENCE_WORDS = registerCatalogue(
  'check-evidence',
  defineMessages({
    runForward: {
      en: (p: { pending: number; ticks: number }) =>
        `Run forward: ${p.pending} new pod(s) stay Pending after ${p.ticks} step(s) of the controller and scheduler.`,
      ko: (p: { pending: number; ticks: number }) =>
        `롤아웃을 따라가 보면, 컨트롤러와 스케줄러가 ${p.ticks}단계를 진행한 뒤에도 새 파드 ${p.pending}개가 Pending 상태로 남습니다.`,
    },
    jobPods: {
      en: (p: { pods: string; jobs: string }) =>
        `Job pods holding room or quota the new pods need: ${p.pods} (${p.jobs}).`,
      ko: (p: { pods: string; jobs: string }) =>
        `새 파드에 필요한 자리나 쿼터를 점유한 Job 파드: ${p.pods} (${p.jobs}).`,
    },
    quotaRefuses: {
      en: (p: { quota: string }) => `ResourceQuota ${p.quota} refuses the next new pod.`,
      ko: (p: { quota: string }) => `ResourceQuota(${p.quota})가 다음 새 파드를 거부합니다.`,
    },
    notRead: {
      en: (p: { what: string; reason: string; settle: string }) =>
        `Not read: ${p.what} (${p.reason}); ${p.settle}.`,
      ko: (p: { what: string; reason: string; settle: string }) =>
        `읽지 못함: ${p.what} (${p.reason}). 확인 방법: ${p.settle}.`,
    },
    unread: {
      en: (p: { what: string }) => `Not read: ${p.what}`,
      ko: (p: { what: string }) => `읽지 못함: ${p.what}`,
    },
    groupHeld: {
      en: (p: Group & { held: string }) => `${groupEn(p)} adds no node now: ${p.held}`,
      ko: (p: Group & { held: string }) => `${groupKo(p)}은 지금 노드를 추가하지 않습니다: ${p.held}`,
    },
    groupMayAdd: {
      en: (p: Group & { canAdd: number; like: string; larger: boolean }) =>
        `${groupEn(p)} may add ${p.canAdd} node(s) like ${p.like}${p.larger ? ' or larger' : ''}`,
      ko: (p: Group & { canAdd: number; like: string; larger: boolean }) =>
        `${groupKo(p)}은 ${p.like} 노드${p.larger ? ' 또는 그보다 큰 노드' : '와 같은 노드'}를 ${p.canAdd}개까지 추가할 수 있습니다`,
    },
    groupUnknownSize: {
      en: (p: Group & { canAdd: number }) =>
        `${groupEn(p)} may add ${p.canAdd} node(s) whose size is not known`,
      ko: (p: Group & { canAdd: number }) =>
        `${groupKo(p)}은 크기를 알 수 없는 노드를 ${p.canAdd}개까지 추가할 수 있습니다`,
    },
    scaleUpAdded: {
      en: (p: Group & { nodes: number; canAdd: number; like: string }) =>
        `${p.karpenter ? 'Karpenter NodePool' : 'cluster autoscaler node group'} ${p.name}: ${p.nodes} node(s), room for ${p.canAdd} more; a new node is like ${p.like}`,
      ko: (p: Group & { nodes: number; canAdd: number; like: string }) =>
        `${groupKo(p)}: 노드 ${p.nodes}개, ${p.canAdd}개 더 추가 가능. 새 노드는 ${p.like} 노드와 같습니다`,
    },
    liveField: {
      en: (p: { path: string; value: string }) => `Live ${p.path}: ${p.value}`,
      ko: (p: { path: string; value: string }) => `현재 ${p.path} 값: ${p.value}`,
    },
    note: { en: () => 'Note:', ko: () => '참고:' },
    strategy: { en: () => 'Strategy:', ko: () => '전략:' },
    strategyHead: {
      en: (p: { name: string; perNode: boolean; replicas: number }) =>
        `${p.name}, ${p.perNode ? 'nodes' : 'replicas'} ${p.replicas}`,
      ko: (p: { name: string; perNode: boolean; replicas: number }) =>
        `${p.name}, ${p.perNode ? '노드' : '레플리카'} ${p.replicas}개`,
    },
    canary: { en: () => 'Canary (Argo Rollouts)', ko: () => '카나리 (Argo Rollouts)' },
    trafficRouted: {
      en: () => 'Canary with traffic routing (Argo Rollouts)',
      ko: () => '트래픽 라우팅을 쓰는 카나리 (Argo Rollouts)',
    },
    blueGreen: { en: () => 'BlueGreen (Argo Rollouts)', ko: () => '블루-그린 (Argo Rollouts)' },
    previewBeside: {
      en: (p: { pods: number }) =>
        `the preview ReplicaSet starts ${p.pods} pod(s) beside the active ones, which all stay until promotion`,
      ko: (p: { pods: number }) =>
        `프리뷰 ReplicaSet이 활성 파드 옆에 파드 ${p.pods}개를 띄우고, 활성 파드는 승격될 때까지 모두 남습니다`,
    },
    canaryBeside: {
      en: (p: { replicas: number }) =>
        `the canary's pods start beside the stable ReplicaSet, which keeps all ${p.replicas} pod(s) until promotion (maxSurge and maxUnavailable do not apply)`,
      ko: (p: { replicas: number }) =>
        `카나리 파드는 안정 ReplicaSet 옆에서 시작하고, 안정 ReplicaSet은 승격될 때까지 파드 ${p.replicas}개를 모두 유지합니다(maxSurge와 maxUnavailable은 적용되지 않습니다)`,
    },
    recreate: {
      en: () => 'old pods are stopped before new ones start',
      ko: () => '새 파드를 띄우기 전에 기존 파드를 모두 내립니다',
    },
    onDelete: {
      en: () => 'a pod is replaced only when someone deletes it',
      ko: () => '누군가 파드를 삭제할 때만 교체됩니다',
    },
    argoDefault: {
      en: () => 'Argo Rollouts default, not set in the manifest',
      ko: () => 'Argo Rollouts 기본값, 매니페스트에 설정하지 않음',
    },
    default: {
      en: () => 'Kubernetes default, not set in the manifest',
      ko: () => '기본값, 매니페스트에 설정하지 않음',
    },
    explicit: { en: () => 'set explicitly', ko: () => '직접 설정함' },
    unknown: { en: () => 'default value', ko: () => '기본값과 같음' },
    surgeFirst: {
      en: (p: Surge) =>
        `so the controller starts ${p.surge} new pod(s) before stopping any old one (maxSurge rounds percentages up, maxUnavailable rounds down, against ${p.replicas} replica(s))`,
      ko: (p: Surge) =>
        `따라서 컨트롤러는 기존 파드를 내리기 전에 새 파드 ${p.surge}개를 먼저 띄웁니다(maxSurge 퍼센트는 올림, maxUnavailable 퍼센트는 내림, 기준 레플리카 ${p.replicas}개)`,
    },
    surgeFirstPerNode: {
      en: (p: Surge) =>
        `so the controller starts the new pod beside the old one on up to ${p.surge} node(s) at a time and deletes the old one only once the new one is available (both round percentages up, against ${p.replicas} node(s))`,
      ko: (p: Surge) =>
        `따라서 컨트롤러는 한 번에 최대 ${p.surge}개 노드에서 기존 파드 옆에 새 파드를 띄우고, 새 파드가 사용 가능해진 뒤에야 기존 파드를 삭제합니다(퍼센트는 둘 다 올림, 기준 노드 ${p.replicas}개)`,
    },
    unresolved: {
      en: () =>
        '(`kubectl describe` prints the percentages unresolved; the numbers after -> are what the controller uses)',
      ko: () => '(kubectl 출력에는 퍼센트가 그대로 나옵니다. -> 뒤의 숫자가 컨트롤러가 실제로 쓰는 값입니다)',
    },
    capacity: {
      en: () => 'Capacity on the nodes the pod may use',
      ko: () => '파드가 쓸 수 있는 노드의 용량',
    },
    capacityHeader: {
      en: () => 'node|resource|allocatable|used|free|held by',
      ko: () => '노드|리소스|할당 가능|사용 중|여유|점유한 파드',
    },
    ours: { en: () => 'ours', ko: () => '이 워크로드' },
  }),
  {
    runForward: [{ pending: 1, ticks: 12 }],
    quotaRefuses: [{ quota: 'gpu-quota' }],
    jobPods: [{ pods: 'nightly-report-x (edge-4)', jobs: 'batch/nightly-report' }],
    notRead: [{ what: 'pods in vision', reason: 'forbidden', settle: 'kubectl get pods -n vision -o yaml' }],
    unread: [{ what: 'the cluster autoscaler status (forbidden)' }],
    groupHeld: [{ name: 'gpu-pool', karpenter: false, held: 'at its maximum size (3)' }],
    groupMayAdd: [
      { name: 'gpu', karpenter: true, canAdd: 2, like: 'gpu-a', larger: true },
      { name: 'gpu-pool', karpenter: false, canAdd: 1, like: 'gpu-a', larger: false },
    ],
    groupUnknownSize: [{ name: 'spare-pool', karpenter: false, canAdd: 3 }],
    scaleUpAdded: [{ name: 'gpu-pool', karpenter: false, nodes: 1, canAdd: 2, like: 'gpu-a' }],
    liveField: [{ path: 'spec.strategy', value: '{"type":"Recreate"}' }],
    note: [{}],
    strategy: [{}],
    strategyHead: [
      { name: 'RollingUpdate', perNode: false, replicas: 3 },
      { name: 'RollingUpdate', perNode: true, replicas: 5 },
    ],
    canary: [{}],
    trafficRouted: [{}],
    blueGreen: [{}],
    previewBeside: [{ pods: 1 }],
    canaryBeside: [{ replicas: 2 }],
    recreate: [{}],
    onDelete: [{}],
    argoDefault: [{}],
    default: [{}],
    explicit: [{}],
    unknown: [{}],
    surgeFirst: [{ surge: 1, replicas: 3 }],
    surgeFirstPerNode: [{ surge: 1, replicas: 5 }],
    unresolved: [{}],
    capacity: [{}],
    capacityHeader: [{}],
    ours: [{}],
  },
);

type Words = ReturnType<typeof wordsIn<typeof CHECK_EVIDENCE_WORDS>>;

/** A note's text in `lang`: its catalogue words where it has them, else as written. */
function noteText(e: Extract<CheckEvidence, { type: 'note' }>, lang: Lang): string {
  if (!('says' in e)) return e.text;
  const message = CHECK_EVIDENCE_WORDS[e.says.key][lang] as (params: NoteSays['params']) => string;
  return message(e.says.params);
}

function strategyLines(e: Extract<Evidence, { type: 'strategy' }>, w: Words): string[] {
  const s = e.strategy;
  const perNode = s.per === 'node';
  if (s.argo === 'blueGreen') return [w.previewBeside({ pods: s.maxSurge?.value ?? e.replicas })];
  if (s.argo === 'trafficRouted') return [w.canaryBeside({ replicas: e.replicas })];
  if (s.type === 'Recreate') return [w.recreate({})];
  if (s.type === 'OnDelete') return [w.onDelete({})];
  const source = (v: ResolvedValue): string =>
    s.argo && v.source === 'default' ? w.argoDefault({}) : w[v.source]({});
  const value = (label: string, v: ResolvedValue | null): string =>
    v
      ? `${label.padEnd(15)} ${String(v.raw).padEnd(5)} -> ${v.value}  (${source(v)})`
      : `${label.padEnd(15)} -`;
  const lines = [value('maxSurge', s.maxSurge), value('maxUnavailable', s.maxUnavailable)];
  if (s.maxSurge && s.maxUnavailable && s.maxSurge.value >= 1 && s.maxUnavailable.value === 0) {
    const surge = { surge: s.maxSurge.value, replicas: e.replicas };
    lines.push(perNode ? w.surgeFirstPerNode(surge) : w.surgeFirst(surge));
  }
  if (!s.argo && [s.maxSurge, s.maxUnavailable].some((v) => typeof v?.raw === 'string'))
    lines.push(w.unresolved({}));
  return lines;
}

/** The parts of one piece of check's evidence in a language other than English, or undefined for the shared ones. */
function translatedParts(e: CheckEvidence, lang: Lang): ContentPart[] | undefined {
  const w = wordsIn(CHECK_EVIDENCE_WORDS, lang);
  switch (e.type) {
    case 'note':
      return [{ kind: 'paragraph', text: say`${w.note({})} ${multiline(noteText(e, lang))}` }];
    case 'strategy': {
      const s = e.strategy;
      const name = s.argo ? w[s.argo]({}) : s.type;
      const head = w.strategyHead({ name, perNode: s.per === 'node', replicas: e.replicas });
      return [
        { kind: 'paragraph', text: say`${strong(w.strategy({}))} ${head}` },
        { kind: 'code', body: strategyLines(e, w).join('\n') },
      ];
    }
    case 'node-capacity':
      return [
        {
          kind: 'table',
          title: plain(w.capacity({})),
          header: w.capacityHeader({}).split('|'),
          rows: e.rows.map((row) => [
            row.node,
            row.resource,
            row.allocatable,
            row.used,
            row.free,
            row.holders
              .map((h) => `${h.pod} (${h.amount}${h.ownedByThisDeployment ? `, ${w.ours({})}` : ''})`)
              .join('; ') || '-',
          ]),
        },
      ];
    default:
      return undefined;
  }
}

/** One piece of check's evidence as terminal lines in `lang`: English as the shared renderer has it. */
export function checkEvidenceLines(e: CheckEvidence, style: Style, lang: Lang): string[] {
  const parts = lang === 'en' ? undefined : translatedParts(e, lang);
  return parts ? terminalLines(parts, style) : renderEvidence(plainEvidence(e), style, lang);
}
