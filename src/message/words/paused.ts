/**
 * RolloutPaused in the reader's language: an Argo Rollout its controller
 * holds paused (analyzers/rollout-halt.ts) and a Deployment paused mid-rollout
 * (forward/paused.ts), from the facts the finding keeps as data (finding-words.ts
 * `argo-paused`, `deployment-paused`). Plain strings, as finding.ts's: names in them are
 * escaped wherever the string goes, like any cluster text. English readers get the
 * engine's own sentences; the English entries say the same facts, for completeness.
 */
import type { FindingWords, PausedHold, PausedResume } from '../../diagnosis/finding-words.js';
import { defineMessages, registerCatalogue, wordsIn } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { codeSpan } from '../../text/code-span.js';

type Argo = Extract<FindingWords, { key: 'argo-paused' }>['params'];
type Paused = Extract<FindingWords, { key: 'deployment-paused' }>['params'];

/** Where an Argo pause stands: its step and since when. */
type At = { step?: number; steps?: number; since?: string };
type ArgoHead = At & { ref: string; reason: string };
type Timed = ArgoHead & { lasts: string; endsAt: string; gap: string };
/** The commands a pause names (code spans, each with the Rollout's name). */
type Commands = { promote: string; abort: string; resume: string };
type Decide = Pick<Commands, 'promote' | 'abort'>;
type Counts = { desired: number; available?: number };
/** A paused Deployment's headline: `saturating`, its new ReplicaSet holds every replica (the old pods go while paused). */
type DeploymentHead = Counts & {
  ref: string;
  holds: string;
  resume: string;
  saturating: boolean;
  /** Its autoscaler's name and the count it sets next (spread over the ReplicaSets while paused). */
  autoscaler?: string;
  scaledTo?: number;
};

const atEn = (p: At): string =>
  `${p.step !== undefined && p.steps !== undefined ? ` at step ${p.step} of ${p.steps}` : ''}${p.since ? ` since ${p.since}` : ''}`;
const atKo = (p: At): string =>
  `${p.step !== undefined && p.steps !== undefined ? `, 단계 ${p.step}/${p.steps}` : ''}${p.since ? `, ${p.since}부터` : ''}`;

const TALLY: readonly (readonly [keyof PausedHold, string, string])[] = [
  ['ready', 'Ready', 'Ready'],
  ['starting', 'starting', '시작 중'],
  ['pending', 'Pending', 'Pending'],
  ['failing', 'failing', '실패 중'],
  ['terminating', 'terminating', '종료 중'],
];
const tally = (p: PausedHold, ko: boolean): string =>
  TALLY.filter(([k]) => Number(p[k]) > 0)
    .map(([k, en, kr]) => (ko ? `${kr} ${Number(p[k])}개` : `${Number(p[k])} ${en}`))
    .join(', ');

const NOT_STUCK_EN =
  'The pause itself is not stuck; any other finding says whether the update can finish after it.';
const NOT_STUCK_KO =
  '일시 중지 자체는 문제가 아닙니다. 그 뒤에 업데이트가 끝날 수 있는지는 다른 판정이 알려 줍니다.';

const DECIDE: Decide = {
  promote: '`kubectl argo rollouts promote tracker`',
  abort: '`kubectl argo rollouts abort tracker`',
};

const PAUSED_WORDS = registerCatalogue(
  'paused',
  defineMessages({
    argo: {
      en: (p: ArgoHead) =>
        `${p.ref} is paused${atEn(p)} (${p.reason}): it waits for a person, not for the cluster.`,
      ko: (p: ArgoHead) =>
        `${p.ref} 롤아웃이 일시 중지되어 있습니다(${p.reason}${atKo(p)}). 클러스터가 아니라 사람의 결정을 기다립니다.`,
    },
    argoTimed: {
      en: (p: Timed) =>
        `${p.ref} is paused${atEn(p)} (${p.reason}): a timed pause of ${p.lasts}; the controller goes on by itself at ${p.endsAt} (in ${p.gap}).`,
      ko: (p: Timed) =>
        `${p.ref} 롤아웃이 일시 중지되어 있습니다(${p.reason}${atKo(p)}). 시간이 지정된 일시 중지(${p.lasts})이므로 ${p.endsAt}에(${p.gap} 뒤) 컨트롤러가 스스로 ${p.reason === 'BlueGreenPause' ? '프리뷰를 승격합니다' : '다음 단계로 진행합니다'}.`,
    },
    argoOverdue: {
      en: (p: Timed) =>
        `${p.ref} is paused${atEn(p)} (${p.reason}): its timed pause of ${p.lasts} ended at ${p.endsAt}, ${p.gap} before this was read, and it has not gone on.`,
      ko: (p: Timed) =>
        `${p.ref} 롤아웃이 일시 중지되어 있습니다(${p.reason}${atKo(p)}). 시간이 지정된 일시 중지(${p.lasts})가 ${p.endsAt}에 끝났는데(읽은 시점보다 ${p.gap} 전), 아직 다음 단계로 진행하지 않았습니다.`,
    },
    argoWhy: {
      en: (p: { why: string }) =>
        `The Argo Rollouts controller holds the update on purpose: ${p.why} ${NOT_STUCK_EN}`,
      ko: (p: { why: string }) =>
        `Argo Rollouts 컨트롤러가 의도적으로 업데이트를 멈추고 있습니다. ${p.why} ${NOT_STUCK_KO}`,
    },
    byHand: {
      en: (p: Pick<Commands, 'resume'>) => `it was paused by hand (spec.paused); ${p.resume} lets it go on.`,
      ko: (p: Pick<Commands, 'resume'>) =>
        `사람이 직접 일시 중지했습니다(spec.paused). ${p.resume} 명령으로 재개합니다.`,
    },
    CanaryPauseStep: {
      en: (p: Decide) =>
        `it reached a pause step of its canary and waits to be promoted (${p.promote}), or aborted (${p.abort}).`,
      ko: (p: Decide) =>
        `카나리의 일시 중지 단계에 도달해서 승격(${p.promote}) 또는 중단(${p.abort})을 기다립니다.`,
    },
    BlueGreenPause: {
      en: (p: Decide) =>
        `the preview is up and waits for promotion to the active Service (${p.promote}), or an abort (${p.abort}).`,
      ko: (p: Decide) =>
        `프리뷰가 준비되어 활성 서비스로의 승격(${p.promote}) 또는 중단(${p.abort})을 기다립니다.`,
    },
    InconclusiveAnalysisRun: {
      en: (p: Decide) => `an analysis was inconclusive: a person decides, ${p.promote} or ${p.abort}.`,
      ko: (p: Decide) =>
        `분석 결과가 판단 불가로 끝났습니다. 승격(${p.promote})할지 중단(${p.abort})할지 사람이 결정합니다.`,
    },
    InconclusiveExperiment: {
      en: (p: Decide) => `an experiment was inconclusive: a person decides, ${p.promote} or ${p.abort}.`,
      ko: (p: Decide) =>
        `실험 결과가 판단 불가로 끝났습니다. 승격(${p.promote})할지 중단(${p.abort})할지 사람이 결정합니다.`,
    },
    otherPause: {
      en: (p: Decide & { reason: string }) => `pause ${p.reason}; ${p.promote} or ${p.abort} ends it.`,
      ko: (p: Decide & { reason: string }) =>
        `일시 중지 사유: ${p.reason}. 승격(${p.promote}) 또는 중단(${p.abort})으로 끝납니다.`,
    },
    argoTimedWhy: {
      en: (p: Decide & { lasts: string }) =>
        `The Argo Rollouts controller holds the update for the pause step's duration (${p.lasts}) and then goes on to the next step without anyone acting; ${p.promote} ends the pause now, ${p.abort} ends the update. ${NOT_STUCK_EN}`,
      ko: (p: Decide & { lasts: string }) =>
        `Argo Rollouts 컨트롤러는 일시 중지 단계의 시간(${p.lasts}) 동안 업데이트를 멈췄다가, 아무도 손대지 않아도 다음 단계로 진행합니다. ${p.promote} 명령은 일시 중지를 바로 끝내고, ${p.abort} 명령은 업데이트를 중단합니다. ${NOT_STUCK_KO}`,
    },
    argoAutoPromoteWhy: {
      en: (p: Decide & { lasts: string }) =>
        `With autoPromotionSeconds (${p.lasts}) the Argo Rollouts controller promotes the preview by itself once the pause has lasted that long: the active Service switches to the new version without anyone acting. ${p.promote} switches now, ${p.abort} ends the update before it. ${NOT_STUCK_EN}`,
      ko: (p: Decide & { lasts: string }) =>
        `autoPromotionSeconds(${p.lasts})가 설정되어 있어서, 일시 중지가 그만큼 지나면 Argo Rollouts 컨트롤러가 아무도 손대지 않아도 프리뷰를 승격하고 활성 Service가 새 버전으로 전환됩니다. ${p.promote} 명령은 바로 전환하고, ${p.abort} 명령은 그 전에 업데이트를 중단합니다. ${NOT_STUCK_KO}`,
    },
    argoOverdueWhy: {
      en: (p: Decide) =>
        `The Argo Rollouts controller goes on from a timed pause step by itself once its duration has passed (it requeues the Rollout for that moment), so a Rollout still paused after it points at the controller: check that its pod runs and what its log says about this Rollout. ${p.promote} goes on by hand; ${p.abort} ends the update.`,
      ko: (p: Decide) =>
        `Argo Rollouts 컨트롤러는 시간이 지정된 일시 중지 단계가 끝나면 스스로 다음 단계로 진행합니다(그 시각에 Rollout을 다시 처리하도록 예약해 둡니다). 시간이 지났는데도 멈춰 있다면 컨트롤러를 확인해야 합니다: 컨트롤러 파드가 실행 중인지, 로그에 이 Rollout에 대해 무엇이 남았는지 봅니다. ${p.promote} 명령으로 직접 진행하고, ${p.abort} 명령으로 업데이트를 중단합니다.`,
    },
    deployment: {
      en: (p: DeploymentHead) =>
        `${p.ref} is paused mid-rollout (spec.paused), ${
          p.available !== undefined
            ? `${p.available} of ${p.desired} replicas available${p.desired > p.available ? `, ${p.desired - p.available} unavailable` : ''}`
            : `${p.desired} replicas wanted`
        }: ${p.holds}. ${
          p.saturating
            ? `Its new ReplicaSet already holds all ${p.desired} replicas: once they are available the controller removes the old pods while paused (it still scales), and the rollout completes without the resume`
            : `Nothing rolls on until it is resumed${p.autoscaler && p.scaledTo !== undefined ? `, but HorizontalPodAutoscaler ${p.autoscaler} sets ${p.scaledTo} replicas at its next sync and the controller spreads that over the old and new ReplicaSets while paused, so the new template gets pods of its own share too` : ''}; ${p.resume}`
        }.`,
      ko: (p: DeploymentHead) =>
        `${p.ref} 롤아웃이 진행 도중 일시 중지되어 있습니다(spec.paused). ${
          p.available !== undefined
            ? `레플리카 ${p.desired}개 중 ${p.available}개가 사용 가능합니다${p.desired > p.available ? `(${p.desired - p.available}개 사용 불가)` : ''}`
            : `원하는 레플리카는 ${p.desired}개입니다`
        }. ${p.holds}. ${
          p.saturating
            ? `새 ReplicaSet이 이미 레플리카 ${p.desired}개를 모두 갖고 있습니다. 모두 사용 가능해지면 컨트롤러가 일시 중지 중에도 기존 파드를 삭제하므로(크기 조정은 계속합니다) 재개하지 않아도 롤아웃이 끝납니다`
            : `재개하기 전에는 롤아웃이 진행되지 않습니다.${p.autoscaler && p.scaledTo !== undefined ? ` 다만 다음 동기화에서 HorizontalPodAutoscaler(${p.autoscaler})의 설정으로 레플리카가 ${p.scaledTo}개로 바뀌면 컨트롤러가 일시 중지 중에도 이를 기존 ReplicaSet과 새 ReplicaSet에 나눠 반영하므로, 새 템플릿의 파드도 그 몫만큼 늘어납니다.` : ''} ${p.resume}`
        }.`,
    },
    hold: {
      en: (p: PausedHold) =>
        `${p.old ? 'old' : 'new'} ReplicaSet ${p.name}: ${p.pods} pod${p.pods === 1 ? '' : 's'}${tally(p, false) ? ` (${tally(p, false)})` : ''}`,
      ko: (p: PausedHold) =>
        `${p.old ? '기존' : '새'} ReplicaSet(${p.name}): 파드 ${p.pods}개${tally(p, true) ? `(${tally(p, true)})` : ''}`,
    },
    noNew: {
      en: () => 'no ReplicaSet for the new template yet',
      ko: () => '새 템플릿의 ReplicaSet은 아직 없습니다',
    },
    resumeFinishes: {
      en: () => 'once resumed, the controllers finish it by themselves',
      ko: () => '재개하면 컨트롤러가 스스로 롤아웃을 끝냅니다',
    },
    resumeBlocked: {
      en: (p: Omit<Extract<PausedResume, { result: 'blocked' }>, 'result'>) =>
        `once resumed, it can never finish: ${
          p.refused
            ? 'the quota refuses its next new pod'
            : `${p.pending === 1 ? 'a new pod finds' : `${p.pending} new pods find`} no room`
        }${p.evenWithoutOld ? ', even with every old pod gone' : ', while the old pods hold the room'}${p.codes ? ` (${p.codes})` : ''}`,
      ko: (p: Omit<Extract<PausedResume, { result: 'blocked' }>, 'result'>) =>
        `재개해도 롤아웃이 끝나지 않습니다: ${
          p.refused
            ? 'ResourceQuota가 다음 새 파드를 거부합니다'
            : `새 파드 ${p.pending}개가 들어갈 자리가 없습니다`
        }${p.evenWithoutOld ? '. 기존 파드가 모두 없어져도 마찬가지입니다' : '. 기존 파드가 자리를 점유하고 있습니다'}${p.codes ? `(${p.codes})` : ''}`,
    },
    resumeFailing: {
      en: (p: { codes: string }) =>
        `once resumed, its new pods fail on their own${p.codes ? ` (${p.codes})` : ''}`,
      ko: (p: { codes: string }) =>
        `재개해도 새 파드가 자체 문제로 실패합니다${p.codes ? `(${p.codes})` : ''}`,
    },
    resumeUnknown: {
      en: () => 'what resuming does could not be followed',
      ko: () => '재개하면 어떻게 되는지 따라가지 못했습니다',
    },
    thenFinishes: {
      en: () => 'Run forward as resumed, the controllers finish it: nothing needs changing but the resume.',
      ko: () => '재개한 것으로 보고 따라가면 컨트롤러가 롤아웃을 끝냅니다. 재개 말고는 바꿀 것이 없습니다.',
    },
    thenUnknown: {
      en: () => 'Whether it finishes once resumed is not known: see what could not be read.',
      ko: () => '재개한 뒤 끝나는지는 알 수 없습니다. 읽지 못한 것을 확인합니다.',
    },
    thenStops: {
      en: () => 'Fix what stops it (the other findings) before resuming, or together with the resume.',
      ko: () => '롤아웃을 막는 원인(다른 판정)을 재개하기 전에, 또는 재개와 함께 고칩니다.',
    },
    deploymentWhy: {
      en: (p: {
        kind: string;
        resume: string;
        deadlineExceeded: boolean;
        saturating: boolean;
        then: string;
      }) =>
        [
          `A paused ${p.kind} rolls no new template out: its controller only keeps each ReplicaSet at its size (and spreads a replicas change over them), so no old pod is removed and no new pod added until someone runs ${p.resume}; pods already created still start, and a Pending one is still scheduled where room appears.`,
          ...(p.saturating
            ? [
                'The one exception: a new ReplicaSet that holds every replica, all available, is saturated, and scale() then scales every old ReplicaSet to 0 while paused.',
              ]
            : []),
          ...(p.deadlineExceeded
            ? [
                'Its Progressing condition still reads ProgressDeadlineExceeded from before the pause: the controller keeps that condition while paused and checks no deadline until the rollout moves again.',
              ]
            : []),
          p.then,
          'Do not scale the old ReplicaSet to 0 by hand to get around the pause: the controller then scales the new one to spec.replicas at once (scale() with one active ReplicaSet), which rolls the whole new template out while paused.',
        ].join(' '),
      ko: (p: {
        kind: string;
        resume: string;
        deadlineExceeded: boolean;
        saturating: boolean;
        then: string;
      }) =>
        [
          `일시 중지된 ${p.kind}는 새 템플릿을 배포하지 않습니다. 컨트롤러는 각 ReplicaSet의 크기만 유지하고(replicas가 바뀌면 ReplicaSet들에 나눠 반영합니다), 누군가 ${p.resume} 명령을 실행하기 전까지 기존 파드를 삭제하지도, 새 파드를 추가하지도 않습니다. 이미 만들어진 파드는 계속 시작되고, Pending 상태인 파드도 자리가 생기면 스케줄됩니다.`,
          ...(p.saturating
            ? [
                '예외가 하나 있습니다: 새 ReplicaSet이 모든 레플리카를 갖고 모두 사용 가능하면 포화 상태가 되어, 컨트롤러가 일시 중지 중에도 기존 ReplicaSet을 모두 0으로 줄입니다.',
              ]
            : []),
          ...(p.deadlineExceeded
            ? [
                'Progressing 조건에는 일시 중지 전에 기록된 ProgressDeadlineExceeded가 그대로 남아 있습니다. 컨트롤러는 일시 중지 중에 이 조건을 유지하고, 롤아웃이 다시 움직이기 전까지 기한을 확인하지 않습니다.',
              ]
            : []),
          p.then,
          '일시 중지를 피해 가려고 기존 ReplicaSet을 직접 0으로 줄이면 안 됩니다. 그러면 컨트롤러가 새 ReplicaSet을 곧바로 spec.replicas까지 늘려서(활성 ReplicaSet이 하나일 때의 scale), 일시 중지 중인데도 새 템플릿 전체가 배포됩니다.',
        ].join(' '),
    },
  }),
  {
    argo: [
      { ref: 'rollout/tracker', reason: 'CanaryPauseStep', step: 2, steps: 2, since: '2026-11-24T10:00:00Z' },
      { ref: 'rollout/tracker', reason: 'spec.paused' },
    ],
    argoTimed: [
      {
        ref: 'rollout/tracker',
        reason: 'CanaryPauseStep',
        step: 2,
        steps: 4,
        lasts: '1h',
        endsAt: '2026-11-24 11:00 UTC',
        gap: '40m',
      },
      {
        ref: 'rollout/web',
        reason: 'BlueGreenPause',
        lasts: '15m',
        endsAt: '2026-11-24 11:00 UTC',
        gap: '5m',
      },
    ],
    argoOverdue: [
      {
        ref: 'rollout/tracker',
        reason: 'CanaryPauseStep',
        step: 2,
        steps: 4,
        lasts: '1h',
        endsAt: '2026-11-24 11:00 UTC',
        gap: '1h',
      },
    ],
    argoWhy: [{ why: 'it was paused by hand (spec.paused).' }],
    byHand: [{ resume: '`kubectl argo rollouts resume tracker`' }],
    CanaryPauseStep: [DECIDE],
    BlueGreenPause: [DECIDE],
    InconclusiveAnalysisRun: [DECIDE],
    InconclusiveExperiment: [DECIDE],
    otherPause: [{ ...DECIDE, reason: 'SomethingNew' }],
    argoTimedWhy: [
      {
        lasts: '1h',
        promote: '`kubectl argo rollouts promote tracker`',
        abort: '`kubectl argo rollouts abort tracker`',
      },
    ],
    argoAutoPromoteWhy: [
      {
        lasts: '15m',
        promote: '`kubectl argo rollouts promote tracker`',
        abort: '`kubectl argo rollouts abort tracker`',
      },
    ],
    argoOverdueWhy: [
      { promote: '`kubectl argo rollouts promote tracker`', abort: '`kubectl argo rollouts abort tracker`' },
    ],
    deployment: [
      {
        ref: 'deployment/web',
        desired: 3,
        available: 2,
        holds: 'old ReplicaSet web-5c6b: 2 pods',
        resume: 'once resumed',
        saturating: false,
      },
      {
        ref: 'deployment/web',
        desired: 3,
        holds: 'new ReplicaSet web-7d9f: 1 pod',
        resume: 'once resumed',
        saturating: false,
      },
      {
        ref: 'deployment/web',
        desired: 3,
        available: 2,
        holds: 'new ReplicaSet web-7d9f: 3 pods',
        // Saturating, what resuming does is not said: the rollout completes without it.
        resume: '',
        saturating: true,
      },
      {
        ref: 'deployment/web',
        desired: 3,
        available: 3,
        holds: 'old ReplicaSet web-5c6b: 2 pods',
        resume: 'once resumed',
        saturating: false,
        autoscaler: 'web-hpa',
        scaledTo: 8,
      },
    ],
    hold: [
      { old: true, name: 'web-5c6b', pods: 2, ready: 2, starting: 0, pending: 0, failing: 0, terminating: 0 },
      {
        old: false,
        name: 'web-7d9f',
        pods: 3,
        ready: 0,
        starting: 1,
        pending: 1,
        failing: 0,
        terminating: 1,
      },
      {
        old: false,
        name: 'web-7d9f',
        pods: 0,
        ready: 0,
        starting: 0,
        pending: 0,
        failing: 0,
        terminating: 0,
      },
    ],
    noNew: [{}],
    resumeFinishes: [{}],
    resumeBlocked: [
      { pending: 1, refused: false, evenWithoutOld: false, codes: 'RolloutSurgeDeadlock' },
      { pending: 2, refused: true, evenWithoutOld: true, codes: '' },
    ],
    resumeFailing: [{ codes: 'CrashLoop' }, { codes: '' }],
    resumeUnknown: [{}],
    thenFinishes: [{}],
    thenUnknown: [{}],
    thenStops: [{}],
    deploymentWhy: [true, false].map((flag) => ({
      kind: 'Deployment',
      resume: '`kubectl rollout resume deployment/web -n shop`',
      deadlineExceeded: flag,
      saturating: !flag,
      then: 'Fix what stops it.',
    })),
  },
);

const argoCommands = (name: string): Commands => ({
  promote: codeSpan(`kubectl argo rollouts promote ${name}`),
  abort: codeSpan(`kubectl argo rollouts abort ${name}`),
  resume: codeSpan(`kubectl argo rollouts resume ${name}`),
});

function resumeWords(w: PausedWords, r: PausedResume): string {
  switch (r.result) {
    case 'finishes':
      return w.resumeFinishes({});
    case 'blocked':
      return w.resumeBlocked(r);
    case 'failing':
      return w.resumeFailing(r);
    case 'unknown':
      return w.resumeUnknown({});
  }
}

type PausedWords = ReturnType<typeof wordsIn<typeof PAUSED_WORDS>>;

/** Why an Argo pause waits, by its reason (the reason itself when it is none the catalogue knows). */
function argoWhy(w: PausedWords, reason: string, c: Commands): string {
  const decide = { promote: c.promote, abort: c.abort };
  switch (reason) {
    case 'spec.paused':
      return w.byHand(c);
    case 'CanaryPauseStep':
    case 'BlueGreenPause':
    case 'InconclusiveAnalysisRun':
    case 'InconclusiveExperiment':
      return w[reason](decide);
    default:
      return w.otherPause({ ...decide, reason });
  }
}

/** An Argo Rollout's pause in `lang`: its headline and its explanation. */
export function argoPausedWords(p: Argo, lang: Lang): { summary: string; explanation: string } {
  const w = wordsIn(PAUSED_WORDS, lang);
  const head: ArgoHead = {
    ref: p.ref,
    reason: p.reason,
    ...(p.step !== undefined ? { step: p.step } : {}),
    ...(p.steps !== undefined ? { steps: p.steps } : {}),
    ...(p.since !== undefined ? { since: p.since } : {}),
  };
  const commands = argoCommands(p.name);
  if (p.timed === undefined)
    return { summary: w.argo(head), explanation: w.argoWhy({ why: argoWhy(w, p.reason, commands) }) };
  const timed = { ...head, ...p.timed };
  return p.timed.ended
    ? { summary: w.argoOverdue(timed), explanation: w.argoOverdueWhy(commands) }
    : {
        summary: w.argoTimed(timed),
        explanation: (p.reason === 'BlueGreenPause' ? w.argoAutoPromoteWhy : w.argoTimedWhy)({
          ...commands,
          lasts: p.timed.lasts,
        }),
      };
}

/** A Deployment's pause in `lang`: its headline and its explanation. */
export function deploymentPausedWords(p: Paused, lang: Lang): { summary: string; explanation: string } {
  const w = wordsIn(PAUSED_WORDS, lang);
  const holds = [...p.holds.map((h) => w.hold(h)), ...(p.noNew ? [w.noNew({})] : [])].join('; ');
  const { result } = p.resume;
  const then =
    result === 'finishes' ? w.thenFinishes({}) : result === 'unknown' ? w.thenUnknown({}) : w.thenStops({});
  return {
    summary: w.deployment({
      ref: p.ref,
      desired: p.desired,
      ...(p.available !== undefined ? { available: p.available } : {}),
      holds,
      resume: resumeWords(w, p.resume),
      saturating: p.saturating,
      ...(p.autoscaler !== undefined ? { autoscaler: p.autoscaler } : {}),
      ...(p.scaledTo !== undefined ? { scaledTo: p.scaledTo } : {}),
    }),
    explanation: w.deploymentWhy({
      kind: p.kind,
      resume: codeSpan(`kubectl rollout resume ${p.ref} -n ${p.namespace}`),
      deadlineExceeded: p.deadlineExceeded,
      saturating: p.saturating,
      then,
    }),
  };
}
