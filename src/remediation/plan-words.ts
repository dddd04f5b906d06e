/**
 * A plan's impact as data, said in the reader's language (the text report, the chat
 * result and its thread). A builder that words its impact here keeps `impact` as the
 * English of the same words (`impactInWords(said, 'en')`); a reader gets the words in
 * their language only while they still say exactly that English, so a later step that
 * rewrites `impact` (an outage below a disruption budget, proved-offer.ts) is shown as
 * written, never a translation of what it said before.
 */
import { defineMessages, registerCatalogue, translate } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { exclusionWords } from './exclusion-words.js';
import type { Lead, PlanParams, PlanSaid } from './plan-said.js';

export type { PlanSaid } from './plan-said.js';

const LEAD_EN = (p: Lead): string =>
  p.paused
    ? 'Nothing rolls out while the Deployment is paused; from the resume on, and in every later rollout'
    : p.restart
      ? 'Now and in every later rollout'
      : 'Nothing restarts now; in every later rollout';
const LEAD_KO = (p: Lead): string =>
  p.paused
    ? 'Deployment가 일시 중지된 동안에는 아무것도 롤아웃되지 않고, 재개한 뒤와 이후의 모든 롤아웃에서'
    : p.restart
      ? '지금과 이후의 모든 롤아웃에서'
      : '지금은 아무것도 재시작하지 않고, 이후의 모든 롤아웃에서';

/** How long an exclusion lasts, in `lang` (absent: until someone removes it). */
const lasts = (ttl: string | undefined, lang: Lang): string =>
  ttl === undefined
    ? translate(exclusionWords, lang, 'lastsUntilRemoved')
    : translate(exclusionWords, lang, 'lasts', { ttl });

const replicasEn = (n: number): string => `${n} replica${n === 1 ? '' : 's'}`;

const PLAN_WORDS = registerCatalogue(
  'plan',
  defineMessages({
    /** set-rolling-update on a Deployment: maxSurge 0, `down` old pods at a time. */
    rollingOldFirst: {
      en: (p: PlanParams['rollingOldFirst']) =>
        `${LEAD_EN(p)}: ${
          p.down >= p.replicas
            ? `brief outage: ${p.down} of ${p.replicas} replicas down until the new pod${p.replicas === 1 ? ' is' : 's are'} Ready`
            : `reduced capacity: ${p.down} of ${p.replicas} replicas down at a time until each replacement is Ready; the other ${p.replicas - p.down} keep serving`
        }. No extra pod is created (maxSurge 0).`,
      ko: (p: PlanParams['rollingOldFirst']) =>
        `${LEAD_KO(p)} ${
          p.down >= p.replicas
            ? `잠깐 중단됩니다: 새 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개 중 ${p.down}개가 내려갑니다`
            : `용량이 줄어듭니다: 교체한 파드가 Ready가 될 때까지 한 번에 레플리카 ${p.replicas}개 중 ${p.down}개가 내려가고, 나머지 ${p.replicas - p.down}개는 계속 서비스합니다`
        }. 추가 파드는 만들지 않습니다(maxSurge 0).`,
    },
    /** set-recreate: every old pod stops before any new one starts. */
    recreate: {
      en: (p: PlanParams['recreate']) =>
        `${LEAD_EN(p)}: outage, all ${replicasEn(p.replicas)} down from the moment the old pods stop until the new pods are Ready.`,
      ko: (p: PlanParams['recreate']) =>
        `${LEAD_KO(p)} 서비스가 중단됩니다: 기존 파드가 멈춘 순간부터 새 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개가 모두 내려갑니다.`,
    },
    /** scale-old-replicaset of a single replica: the only old pod goes first. */
    scaleOldOnly: {
      en: (p: PlanParams['scaleOldOnly']) =>
        `brief outage: the only replica (old ReplicaSet ${p.replicaSet}) goes down before the new pod is Ready, as with maxSurge 0. The Deployment spec and generation are not touched.`,
      ko: (p: PlanParams['scaleOldOnly']) =>
        `잠깐 중단됩니다: 하나뿐인 레플리카(기존 ReplicaSet ${p.replicaSet})가 새 파드가 Ready가 되기 전에 내려갑니다. maxSurge 0과 같습니다. Deployment 스펙은 바꾸지 않습니다.`,
    },
    /** scale-old-replicaset at once: every old pod goes; `newReady` new pods serve meanwhile. */
    scaleOldAll: {
      en: (p: PlanParams['scaleOldAll']) =>
        `OUTAGE: all ${p.from} old replicas go down at once; ${p.newReady === 0 ? 'no pod serves until the new pods are Ready' : `until the new pods are Ready only ${p.newReady} new pod${p.newReady === 1 ? '' : 's'} serve${p.newReady === 1 ? 's' : ''}`}. Scaling down by one instead cannot choose which pod goes and deadlocks again one pod later. The Deployment spec and generation are not touched.`,
      ko: (p: PlanParams['scaleOldAll']) =>
        `서비스 중단: 기존 레플리카 ${p.from}개가 한꺼번에 내려갑니다. ${p.newReady === 0 ? '새 파드가 Ready가 될 때까지 서비스하는 파드가 없습니다' : `새 파드가 Ready가 될 때까지 새 파드 ${p.newReady}개만 서비스합니다`}. 하나씩 줄이면 어느 파드가 내려갈지 고를 수 없어서 파드 하나 뒤에 다시 교착 상태(deadlock)가 됩니다. Deployment 스펙은 바꾸지 않습니다.`,
    },
    /** scale-old-replicaset stepped: one old pod at a time, the blocking one marked to go. */
    scaleOldStepped: {
      en: (p: PlanParams['scaleOldStepped']) =>
        `reduced capacity: ${Math.max(0, p.replicas - 1)} of ${p.replicas} replicas keep serving at every step, as with maxSurge 0 (one old replica goes, its replacement becomes Ready, then the next). The Deployment spec and generation are not touched.`,
      ko: (p: PlanParams['scaleOldStepped']) =>
        `용량이 줄어듭니다: 단계마다 레플리카 ${p.replicas}개 중 ${Math.max(0, p.replicas - 1)}개가 계속 서비스합니다. maxSurge 0과 같습니다(기존 레플리카 하나가 내려가고, 그 교체 파드가 Ready가 되면 다음 레플리카로 넘어갑니다). Deployment 스펙은 바꾸지 않습니다.`,
    },
    /** A strategy change that restarts the rollout (strategy-situation.ts commonWarnings). */
    restartedAt: {
      en: (p: PlanParams['restartedAt']) =>
        `Also sets the kubectl.kubernetes.io/restartedAt annotation: a new rollout starts${p.paused ? ' once the Deployment is resumed' : ''} and replaces every pod${p.quota ? `; the ReplicaSet whose pods quota ${p.quota} refuses is scaled down as an old one` : p.stuck ? `, including the stuck ${p.stuck}` : ''}.`,
      ko: (p: PlanParams['restartedAt']) =>
        `kubectl.kubernetes.io/restartedAt 어노테이션도 설정합니다: ${p.paused ? 'Deployment를 재개하면 ' : ''}새 롤아웃이 시작되어 모든 파드를 교체합니다${p.quota ? `. ResourceQuota ${p.quota}가 파드를 거부하는 ReplicaSet은 기존 ReplicaSet처럼 축소됩니다` : p.stuck ? `(멈춘 ${p.stuck} 포함)` : ''}.`,
    },
    undoPrevious: {
      en: (p: PlanParams['undoPrevious']) =>
        `Undo restores the previous strategy (${p.previous}), which makes the next rollout deadlock again.`,
      ko: (p: PlanParams['undoPrevious']) =>
        `되돌리면 이전 전략(${p.previous})으로 돌아가서 다음 롤아웃이 다시 교착 상태(deadlock)가 됩니다.`,
    },
    pausedStrategy: {
      en: (p: PlanParams['pausedStrategy']) =>
        `The Deployment is paused: the strategy${p.restart ? ' and the restart' : ''} only take effect at ${p.command}; until then no pod is replaced${p.restart ? ' and the stuck pod stays Pending' : ''}.`,
      ko: (p: PlanParams['pausedStrategy']) =>
        `Deployment가 일시 중지되어 있습니다: 전략${p.restart ? '과 재시작' : ''}은 ${p.command} 뒤에야 적용됩니다. 그때까지는 어떤 파드도 교체되지 않습니다${p.restart ? '(멈춘 파드는 Pending 상태로 남습니다)' : ''}.`,
    },
    fromManifest: {
      en: (p: PlanParams['fromManifest']) =>
        `This ${p.kind} is applied from a manifest: commit the strategy there too (see the change to commit), or the next rollout deadlocks again.`,
      ko: (p: PlanParams['fromManifest']) =>
        `매니페스트로 적용하는 ${p.kind}입니다: 전략을 매니페스트에도 커밋하세요(커밋할 변경 참고). 그러지 않으면 다음 롤아웃이 다시 교착 상태(deadlock)가 됩니다.`,
    },
    recreateLater: {
      en: () =>
        'Every later rollout is a full outage too: Recreate never runs old and new pods side by side.',
      ko: () =>
        '이후의 모든 롤아웃도 전면 중단입니다: Recreate는 기존 파드와 새 파드를 함께 실행하지 않습니다.',
    },
    excludeHost: {
      en: (p: PlanParams['excludeHost']) =>
        `${p.after} of ${p.before} eligible node(s) stay eligible: ${p.eligible}; ${p.excluded} excluded. Changing the pod template starts a new rollout (${p.strategy}) that replaces every pod, ${p.replicas} replica(s), the healthy ones included. Remove the exclusion once the node is repaired (undo restores the previous affinity). ${lasts(p.ttl, 'en')}`,
      ko: (p: PlanParams['excludeHost']) =>
        `배치할 수 있는 노드 ${p.before}개 중 ${p.after}개가 그대로 남습니다: ${p.eligible}. ${p.excluded} 노드는 제외합니다. 파드 템플릿이 바뀌므로 새 롤아웃(${p.strategy})이 시작되어 정상 파드를 포함한 모든 파드(레플리카 ${p.replicas}개)를 교체합니다. 노드를 고친 뒤에는 제외를 해제하세요(되돌리면 이전 nodeAffinity로 돌아갑니다). ${lasts(p.ttl, 'ko')}`,
    },
  }),
  {
    excludeHost: [
      {
        after: 2,
        before: 3,
        eligible: 'node-a, node-c',
        excluded: 'node-b',
        strategy: 'RollingUpdate',
        replicas: 3,
        ttl: '24h',
      },
      { after: 1, before: 2, eligible: 'node-a', excluded: 'node-b', strategy: 'Recreate', replicas: 2 },
    ],
    restartedAt: [
      { paused: false, stuck: 'tracker-7d9f-q4w8z' },
      { paused: true, quota: 'team-quota' },
      { paused: false },
    ],
    undoPrevious: [{ previous: 'server default: RollingUpdate 25%/25%' }],
    pausedStrategy: [
      { restart: true, command: '`kubectl rollout resume`' },
      { restart: false, command: '`kubectl rollout resume`' },
    ],
    fromManifest: [{ kind: 'Deployment' }],
    recreateLater: [{}],
    scaleOldOnly: [{ replicaSet: 'tracker-5c6b' }],
    scaleOldAll: [
      { from: 3, newReady: 0 },
      { from: 3, newReady: 1 },
      { from: 4, newReady: 2 },
    ],
    scaleOldStepped: [{ replicas: 3 }],
    rollingOldFirst: [
      { paused: false, restart: true, down: 1, replicas: 1 },
      { paused: false, restart: false, down: 1, replicas: 4 },
      { paused: true, restart: true, down: 2, replicas: 6 },
    ],
    recreate: [
      { paused: false, restart: true, replicas: 1 },
      { paused: false, restart: false, replicas: 3 },
      { paused: true, restart: true, replicas: 3 },
    ],
  },
);

/** Each message of the plan catalogue takes the parameters `PlanParams` gives its key. */
type ByKey = {
  readonly [K in keyof PlanParams]: { readonly [L in Lang]: (params: PlanParams[K]) => string };
};

export function impactInWords<K extends keyof PlanParams>(
  said: { key: K; params: PlanParams[K] },
  lang: Lang,
): string {
  // The catalogue seen by key, so one call covers every message (TS's correlated-union form).
  const byKey: ByKey = PLAN_WORDS;
  return byKey[said.key][lang](said.params);
}

/** A builder's impact and its words, from the words: `{ ...withImpact(said) }` in the plan. */
export function withImpact(impactSaid: PlanSaid): { impact: string; impactSaid: PlanSaid } {
  return { impact: impactInWords(impactSaid, 'en'), impactSaid };
}

/** Warnings from their words: the English to store, and the words (`warningsSaid`). */
export function warningsFrom(said: readonly PlanSaid[]): { warnings: string[]; warningsSaid: PlanSaid[] } {
  return { warnings: said.map((s) => impactInWords(s, 'en')), warningsSaid: [...said] };
}

/**
 * A plan's warnings in `lang`: each one its words say exactly, in `lang`; the others (a
 * builder's own, one added or rewritten later) as written.
 */
export function planWarnings(
  plan: { warnings: readonly string[]; warningsSaid?: readonly PlanSaid[] | undefined },
  lang: Lang,
): string[] {
  const said = plan.warningsSaid;
  if (lang === 'en' || !said) return [...plan.warnings];
  const byEnglish = new Map(said.map((s) => [impactInWords(s, 'en'), s]));
  return plan.warnings.map((w) => {
    const words = byEnglish.get(w);
    return words ? impactInWords(words, lang) : w;
  });
}

/** A plan's impact in `lang`: its words where they still say its English impact, else the impact as written. */
export function planImpact(plan: { impact: string; impactSaid?: PlanSaid | undefined }, lang: Lang): string {
  const said = plan.impactSaid;
  if (lang === 'en' || !said || impactInWords(said, 'en') !== plan.impact) return plan.impact;
  return impactInWords(said, lang);
}
