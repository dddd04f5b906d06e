/**
 * The sentences about node exclusions that end themselves, in every
 * language: how long one lasts (what an approver reads on the plan), and `scan`'s
 * listing of the live ones. Durations stay as kubectl writes them (`4h`, `7d`), field
 * names as written (nodeAffinity, NotIn).
 */
import { defineMessages, registerCatalogue, translate } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { UNTIL_REMOVED } from './exclusion-ttl.js';

type Ttl = { ttl: string };
type Span = { span: string };

export const exclusionWords = registerCatalogue(
  'exclusions',
  defineMessages({
    lasts: {
      en: (p: Ttl) =>
        `The exclusion ends after ${p.ttl} unless its approver picks another duration beside Approve: the worker then removes the NotIn values it added.`,
      ko: (p: Ttl) =>
        `승인자가 승인 옆에서 다른 기간을 고르지 않으면 제외는 ${p.ttl} 후 끝납니다. 그때 워커가 추가한 NotIn 값을 제거합니다.`,
    },
    lastsUntilRemoved: {
      en: () =>
        'The exclusion lasts until someone removes it (Undo), unless its approver picks a duration beside Approve.',
      ko: () =>
        '승인자가 승인 옆에서 기간을 고르지 않으면 제외는 누군가 제거할 때까지 유지됩니다 (되돌리기).',
    },
    choiceLabel: { en: () => 'Exclusion lasts', ko: () => '제외 유지 시간' },
    choiceDefault: {
      en: (p: Ttl) => `${p.ttl} (default)`,
      ko: (p: Ttl) => `${p.ttl} (기본)`,
    },
    approvedLasts: {
      en: (p: Ttl) => `the exclusion ends after ${p.ttl}`,
      ko: (p: Ttl) => `제외는 ${p.ttl} 후 끝납니다`,
    },
    approvedUntilRemoved: {
      en: () => 'the exclusion lasts until someone removes it',
      ko: () => '제외는 누군가 제거할 때까지 유지됩니다',
    },
    scanHeading: {
      en: (p: { count: number }) => `Node exclusions rollout-doctor set (${p.count}):`,
      ko: (p: { count: number }) => `rollout-doctor가 설정한 노드 제외 (${p.count}개):`,
    },
    columnWorkload: { en: () => 'WORKLOAD', ko: () => '워크로드' },
    columnExcluded: { en: () => 'EXCLUDED', ko: () => '제외 대상' },
    columnAge: { en: () => 'AGE', ko: () => '경과' },
    columnEnds: { en: () => 'ENDS', ko: () => '종료' },
    endsIn: { en: (p: Span) => `in ${p.span}`, ko: (p: Span) => `${p.span} 후` },
    expired: {
      en: (p: Span) => `expired ${p.span} ago, removal pending`,
      ko: (p: Span) => `${p.span} 전 만료, 제거 대기 중`,
    },
    untilRemoved: { en: () => 'until removed', ko: () => '제거할 때까지' },
    unreadable: {
      en: (p: { value: string }) => `unreadable end (${p.value})`,
      ko: (p: { value: string }) => `종료 시각을 읽을 수 없음 (${p.value})`,
    },
  }),
  {
    lasts: [{ ttl: '24h' }],
    lastsUntilRemoved: [{}],
    choiceLabel: [{}],
    choiceDefault: [{ ttl: '24h' }],
    approvedLasts: [{ ttl: '3d' }],
    approvedUntilRemoved: [{}],
    scanHeading: [{ count: 2 }],
    columnWorkload: [{}],
    columnExcluded: [{}],
    columnAge: [{}],
    columnEnds: [{}],
    endsIn: [{ span: '3h12m' }],
    expired: [{ span: '5m' }],
    untilRemoved: [{}],
    unreadable: [{ value: 'tomorrow' }],
  },
);

/** How long an exclusion lasts, as a clause of an approval's or an outcome's line. */
export function lastsClause(ttl: string, lang: Lang = 'en'): string {
  return ttl === UNTIL_REMOVED
    ? translate(exclusionWords, lang, 'approvedUntilRemoved')
    : translate(exclusionWords, lang, 'approvedLasts', { ttl });
}

/** A choice's option, as an approver reads it: `4h`, `until removed`. */
export function choiceWords(ttl: string, lang: Lang = 'en'): string {
  return ttl === UNTIL_REMOVED ? translate(exclusionWords, lang, 'untilRemoved') : ttl;
}

/** A span as kubectl's AGE column writes it: 45s, 12m, 3h12m, 2d4h. */
export function spanWords(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
}
