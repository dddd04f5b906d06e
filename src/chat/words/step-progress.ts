/**
 * A stepped walk's replies in its thread (scale-old-replicaset, one old pod at a time:
 * src/chat/use-cases/outcome.ts stepProgressMessage), in every language: each step
 * started or done, the marks it could not take off, and why it stopped. Names from the
 * cluster are parameters shown as code; English entries are the wording before the catalogue.
 */
import type { Rich } from '../model.js';
import { code, icon, say, strong } from '../../message/rich.js';
import { defineMessages, registerCatalogue, phrase } from '../../i18n/catalogue.js';
import type { StepProgress } from '../../queue/schemas.js';
import type { Lang } from '../../i18n/lang.js';
import { roAfter } from '../../i18n/ko.js';

type Stopped = Extract<StepProgress, { phase: 'stopped' }>;
type Reason = Stopped['reason'];
type Change = NonNullable<Stopped['change']>;

/** Why a walk stopped, one message per reason. */
const STEP_STOP_WORDS = registerCatalogue(
  'step-stop',
  defineMessages({
    'deployment-changed': phrase(
      'the Deployment changed under the walk',
      '진행 중에 Deployment가 바뀌었습니다',
    ),
    'replicaset-changed': phrase(
      'the old ReplicaSet changed under the walk',
      '진행 중에 이전 ReplicaSet이 바뀌었습니다',
    ),
    'nothing-blocked': phrase(
      'no new pod is blocked by an old one any more',
      '이전 파드 때문에 막힌 새 파드가 더 이상 없습니다',
    ),
    'other-pod-first': phrase(
      'an old pod that is not Ready (or not scheduled) would go first, before any marked pod, and it frees nothing the new pod needs',
      'Ready가 아닌(또는 스케줄되지 않은) 이전 파드가 표시한 파드보다 먼저 빠지는데, 그 파드가 빠져도 새 파드에 필요한 자원은 비지 않습니다',
    ),
    'not-released': phrase(
      'the ReplicaSet controller released no old pod within the step time limit',
      '단계 제한 시간 안에 ReplicaSet 컨트롤러가 이전 파드를 하나도 내보내지 않았습니다',
    ),
    'released-elsewhere': phrase(
      "another old pod than the marked one went (deleted by someone else during the scale, or first in the ReplicaSet controller's order) where it frees nothing the new pod needs, and the marked pod still runs: the new pod stays Pending; diagnose again for the next step",
      '표시한 파드가 아닌 다른 이전 파드가 빠졌습니다(스케일 중에 다른 누군가가 지웠거나, ReplicaSet 컨트롤러의 순서에서 먼저였습니다). 그 자리로는 새 파드에 필요한 자원이 비지 않고 표시한 파드는 아직 실행 중이라, 새 파드는 Pending 상태로 남습니다. 다음 단계는 다시 진단하십시오',
    ),
    'ready-timeout': phrase(
      'no new pod became Ready within the step time limit',
      '단계 제한 시간 안에 Ready가 된 새 파드가 없습니다',
    ),
    'api-error': phrase(
      'the API server refused or failed a request',
      'API 서버가 요청을 거부했거나 요청이 실패했습니다',
    ),
  }),
  {
    'deployment-changed': [{}],
    'replicaset-changed': [{}],
    'nothing-blocked': [{}],
    'other-pod-first': [{}],
    'not-released': [{}],
    'released-elsewhere': [{}],
    'ready-timeout': [{}],
    'api-error': [{}],
  },
);

/** How the Deployment changed under the walk, and what its Undo does then. */
const STEP_CHANGE_WORDS = registerCatalogue(
  'step-change',
  defineMessages({
    'rolled-back': phrase(
      "it was rolled back to this ReplicaSet's template, which makes it the new ReplicaSet again: the Deployment controller scales it back up itself, so no Undo is offered",
      '이 ReplicaSet의 템플릿으로 롤백되어 이 ReplicaSet이 다시 새 ReplicaSet이 되었습니다. Deployment 컨트롤러가 직접 다시 늘리므로 되돌리기는 제공하지 않습니다',
    ),
    'new-rollout': phrase(
      'a new rollout started (a template neither ReplicaSet runs): the Deployment controller only scales this old ReplicaSet down now, so no Undo is offered',
      '새 롤아웃이 시작되었습니다(두 ReplicaSet 어느 쪽도 실행하지 않는 템플릿). 이제 Deployment 컨트롤러는 이 이전 ReplicaSet을 줄이기만 하므로 되돌리기는 제공하지 않습니다',
    ),
    spec: phrase(
      'another spec field changed (replicas, strategy or pause), not the template: the Undo still scales this ReplicaSet back while the new one is not fully available',
      '템플릿이 아닌 다른 필드(spec.replicas, 롤아웃 전략, spec.paused)가 바뀌었습니다. 새 ReplicaSet이 모두 사용 가능해지기 전까지는 되돌리기로 이 ReplicaSet을 다시 늘릴 수 있습니다',
    ),
  }),
  { 'rolled-back': [{}], 'new-rollout': [{}], spec: [{}] },
);

type Steps = { step: number; of: number };
type Walk = { replicaSet: string; left: number };

/** The replies themselves. `released` is `released` or `releasedInstead`, rendered. */
export const STEP_WORDS = registerCatalogue(
  'step-progress',
  defineMessages({
    released: {
      en: (p: { pod: string }) => say`old pod ${code(p.pod)} released (the pod marked to go first)`,
      ko: (p: { pod: string }) => say`이전 파드 ${code(p.pod)} 내보냄 (먼저 나가도록 표시한 파드)`,
    },
    releasedInstead: {
      en: (p: { pod: string; marked: string }) =>
        say`old pod ${code(p.pod)} released (the ReplicaSet controller chose it over ${code(p.marked)}, the pod marked to go first)`,
      ko: (p: { pod: string; marked: string }) =>
        say`이전 파드 ${code(p.pod)} 내보냄 (먼저 나가도록 표시한 ${code(p.marked)} 파드 대신 ReplicaSet 컨트롤러가 이 파드를 골랐습니다)`,
    },
    startedSummary: {
      en: (p: { of: number; pod: string } & Walk) =>
        say`step 1 of ${p.of} started: ${p.pod} released, ReplicaSet ${p.replicaSet} at ${p.left}`,
      ko: (p: { of: number; pod: string } & Walk) =>
        say`${p.of}단계 중 1단계 시작: ${p.pod} 파드 내보냄, ReplicaSet(${p.replicaSet}) 레플리카 ${p.left}`,
    },
    started: {
      en: (p: { of: number; released: Rich } & Walk) =>
        say`${icon('waiting')} ${strong(`step 1 of ${p.of} started`)}: ${p.released}, ReplicaSet ${code(p.replicaSet)} scaled to ${p.left}; waiting for the new pod to be Ready. Each later step replies here when its new pod is Ready.`,
      ko: (p: { of: number; released: Rich } & Walk) =>
        say`${icon('waiting')} ${strong(`${p.of}단계 중 1단계 시작`)}: ${p.released}. ReplicaSet(${code(p.replicaSet)}) 레플리카를 ${p.left}${roAfter(p.left)} 줄였고, 새 파드가 Ready가 되기를 기다립니다. 이후 단계도 새 파드가 Ready가 되면 여기에 답글을 답니다.`,
    },
    readySummary: {
      en: (p: Steps & { pod: string } & Walk) =>
        say`step ${p.step} of ${p.of}: ${p.pod} released, ReplicaSet ${p.replicaSet} at ${p.left}`,
      ko: (p: Steps & { pod: string } & Walk) =>
        say`${p.of}단계 중 ${p.step}단계: ${p.pod} 파드 내보냄, ReplicaSet(${p.replicaSet}) 레플리카 ${p.left}`,
    },
    ready: {
      en: (p: Steps & { released: Rich } & Walk) =>
        say`${icon('more')} ${strong(`step ${p.step} of ${p.of}`)}: ${p.released}, ReplicaSet ${code(p.replicaSet)} scaled to ${p.left}; the next new pod is Ready.`,
      ko: (p: Steps & { released: Rich } & Walk) =>
        say`${icon('more')} ${strong(`${p.of}단계 중 ${p.step}단계`)}: ${p.released}. ReplicaSet(${code(p.replicaSet)}) 레플리카를 ${p.left}${roAfter(p.left)} 줄였고, 다음 새 파드가 Ready입니다.`,
    },
    marksLeftSummary: {
      en: (p: { pods: string }) =>
        say`${p.pods} still marked with controller.kubernetes.io/pod-deletion-cost`,
      ko: (p: { pods: string }) =>
        say`${p.pods} 파드에 controller.kubernetes.io/pod-deletion-cost 표시가 남아 있습니다`,
    },
    marksLeft: {
      en: (p: { pods: Rich; replicaSet: string }) =>
        say`${icon('warning')} pod-deletion-cost left on ${p.pods}: the walk could not take its mark (controller.kubernetes.io/pod-deletion-cost=-2147483648) off again, so ReplicaSet ${code(p.replicaSet)} would delete these pods first when it next shrinks.`,
      ko: (p: { pods: Rich; replicaSet: string }) =>
        say`${icon('warning')} ${p.pods} 파드에 표시(controller.kubernetes.io/pod-deletion-cost=-2147483648)가 남았습니다. 단계별 진행이 이 표시를 다시 지우지 못했으므로, ReplicaSet(${code(p.replicaSet)})이 다음에 줄어들 때 이 파드들을 먼저 삭제합니다.`,
    },
    marksTitle: phrase('To take the mark off:', '표시를 지우려면:'),
    stoppedSummary: {
      en: (p: Steps & { why: string }) => say`stopped at step ${p.step} of ${p.of}: ${p.why}`,
      ko: (p: Steps & { why: string }) => say`${p.of}단계 중 ${p.step}단계에서 멈춤: ${p.why}`,
    },
    stopped: {
      en: (p: Steps & { why: string; replicaSet: string }) =>
        say`${icon('paused')} ${strong(`stopped at step ${p.step} of ${p.of}`)}: ${p.why}. ReplicaSet ${code(p.replicaSet)} keeps what the earlier steps did; the result follows.`,
      ko: (p: Steps & { why: string; replicaSet: string }) =>
        say`${icon('paused')} ${strong(`${p.of}단계 중 ${p.step}단계에서 멈춤`)}: ${p.why}. ReplicaSet(${code(p.replicaSet)})은 앞 단계에서 바뀐 그대로입니다. 결과는 이어서 알립니다.`,
    },
    generation: {
      en: (p: { generation: number }) => ` (generation ${p.generation})`,
      ko: (p: { generation: number }) => ` (generation 값 ${p.generation})`,
    },
  }),
  {
    released: [{ pod: 'trainer-old-a' }],
    releasedInstead: [{ pod: 'trainer-old-b', marked: 'trainer-old-a' }],
    startedSummary: [{ of: 3, pod: 'trainer-old-a', replicaSet: 'trainer-5d8f', left: 2 }],
    started: [{ of: 3, released: say`old pod a`, replicaSet: 'trainer-5d8f', left: 2 }],
    readySummary: [{ step: 2, of: 3, pod: 'trainer-old-b', replicaSet: 'trainer-5d8f', left: 1 }],
    ready: [{ step: 2, of: 3, released: say`old pod b`, replicaSet: 'trainer-5d8f', left: 1 }],
    marksLeftSummary: [{ pods: 'trainer-old-a, trainer-old-b' }],
    marksLeft: [{ pods: say`a, b`, replicaSet: 'trainer-5d8f' }],
    marksTitle: [{}],
    stoppedSummary: [{ step: 2, of: 3, why: 'the walk stopped' }],
    stopped: [{ step: 2, of: 3, why: 'the walk stopped', replicaSet: 'trainer-5d8f' }],
    generation: [{ generation: 4 }],
  },
);

/** Why the walk stopped, in `lang`: the reason, and how the Deployment changed where it did. */
export function stopReason(step: Stopped, lang: Lang): string {
  const base = STEP_STOP_WORDS[step.reason satisfies Reason][lang]();
  if (step.reason !== 'deployment-changed' || !step.change) return base;
  const generation =
    step.generation !== undefined ? STEP_WORDS.generation[lang]({ generation: step.generation }) : '';
  return `${base}${generation}: ${STEP_CHANGE_WORDS[step.change satisfies Change][lang]()}`;
}
