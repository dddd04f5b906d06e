/**
 * `check`'s own notes in the reader's language (what the run forward saw, what was not
 * read, what each node group can add, the Jobs that hold the room). A note check writes
 * carries its facts as `says` (never in the JSON: render.ts renderJson leaves it out);
 * every evidence, notes included, is then drawn by the shared renderer in that language
 * (message/words/evidence.ts: the strategy, the capacity table, the "Note:" prefix), so
 * names from the cluster are escaped as the English path always has.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { renderEvidence } from '../report/terminal.js';
import type { Style } from '../report/format.js';
import { plainEvidence, type CheckEvidence, type NoteSays } from './check-evidence.js';

type Group = { name: string; karpenter: boolean };

const groupKo = (p: Group): string =>
  `${p.karpenter ? 'Karpenter NodePool' : '클러스터 오토스케일러 노드 그룹'}(${p.name})`;
const groupEn = (p: Group): string =>
  `${p.karpenter ? 'Karpenter NodePool' : 'cluster autoscaler node group'} ${p.name}`;

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
  },
);

/** A note's text in `lang`: its catalogue words where it has them, else as written. */
function noteText(e: Extract<CheckEvidence, { type: 'note' }>, lang: Lang): string {
  if (!('says' in e)) return e.text;
  const message = CHECK_EVIDENCE_WORDS[e.says.key][lang] as (params: NoteSays['params']) => string;
  return message(e.says.params);
}

/** One piece of check's evidence as terminal lines in `lang`: English as the shared renderer has it. */
export function checkEvidenceLines(e: CheckEvidence, style: Style, lang: Lang): string[] {
  // A note check wrote says its facts in `lang`; every evidence reads in `lang` through
  // the shared renderer (message/words/evidence.ts).
  const shown =
    e.type === 'note' && lang !== 'en' ? { ...plainEvidence(e), text: noteText(e, lang) } : plainEvidence(e);
  return renderEvidence(shown, style, lang);
}
