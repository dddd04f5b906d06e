/**
 * What the remediate processor says in the thread, apart from its decisions
 * (remediate-processor.ts): the detail of each remediation-outcome reply, in every
 * language. The worker does not know the thread's language, so it writes the detail in
 * each (`detail` in English, `detailIn` the others: queue/schemas.ts) and the app shows
 * the thread's (src/chat/use-cases/outcome.ts), escaping it there, since it carries
 * names from the cluster and reasons from the API server, which stay as written.
 */
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { messageTime } from '../text/time.js';
import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import type { StepEvent } from '../kube/write/stepped-walk.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { defineMessages, registerCatalogue, translate } from '../i18n/catalogue.js';
import { LANGS, type Lang } from '../i18n/lang.js';
import { planSummary } from '../message/words/finding.js';

/** A reply's detail, in each language. */
export type Detail = (lang: Lang) => string;

/** The detail in English and in each other language ({ ko: … }). */
export function detailInEvery(detail: Detail): { detail: string; detailIn: Partial<Record<Lang, string>> } {
  const detailIn: Partial<Record<Lang, string>> = {};
  for (const lang of LANGS) if (lang !== 'en') detailIn[lang] = detail(lang);
  return { detail: detail('en'), detailIn };
}

const REMEDIATE_WORDS = registerCatalogue(
  'remediate',
  defineMessages({
    notApproved: {
      en: (p: { stored: boolean }): string =>
        p.stored
          ? 'the plan was not approved; nothing was applied.'
          : 'the plan is no longer stored; nothing was applied. Press Re-run.',
      ko: (p: { stored: boolean }) =>
        p.stored
          ? '승인되지 않은 조치입니다. 아무것도 적용하지 않았습니다.'
          : '조치가 더 이상 저장되어 있지 않습니다. 아무것도 적용하지 않았습니다. 다시 실행을 누르세요.',
    },
    otherCluster: {
      en: (p: { planCluster: string; jobCluster: string }) =>
        `not applied: this plan was made for cluster ${p.planCluster}, not ${p.jobCluster}. Press Re-run.`,
      ko: (p: { planCluster: string; jobCluster: string }) =>
        `적용하지 않았습니다: 이 조치는 ${p.jobCluster} 클러스터가 아니라 ${p.planCluster} 클러스터용입니다. 다시 실행을 누르세요.`,
    },
    untrusted: {
      en: (p: { reason: string }) =>
        `not applied: ${p.reason}. Nothing was changed; the plan or its approval may have been altered where they are stored. Press Re-run for a fresh plan.`,
      ko: (p: { reason: string }) =>
        `적용하지 않았습니다: ${p.reason}. 아무것도 바꾸지 않았습니다. 저장된 조치나 승인이 변조되었을 수 있습니다. 새 조치를 받으려면 다시 실행을 누르세요.`,
    },
    clock: {
      en: (p: { problem: string }) =>
        `not applied: ${p.problem}. Nothing was changed; press Approve again once it is fixed, or Re-run.`,
      ko: (p: { problem: string }) =>
        `적용하지 않았습니다: ${p.problem}. 아무것도 바꾸지 않았습니다. 문제를 고친 뒤 다시 승인하거나 다시 실행을 누르세요.`,
    },
    approvalExpired: {
      en: () =>
        "not applied: the approval's time had passed by this worker's clock, which is in step with Redis's; if the job did not wait that long, the clock of the app that signed it is behind: fix time sync (NTP, chrony) on the app's node. Nothing was changed; press Re-run for a fresh plan.",
      ko: () =>
        '적용하지 않았습니다: 이 워커의 시계(Redis와 맞음)로는 승인 시간이 이미 지났습니다. 작업이 그만큼 기다리지 않았다면 승인에 서명한 앱의 시계가 늦습니다. 앱 노드의 시간 동기화(NTP, chrony)를 고치세요. 아무것도 바꾸지 않았습니다. 새 조치를 받으려면 다시 실행을 누르세요.',
    },
    expired: {
      en: (p: { ref: string; at: string }) =>
        `not applied: the plan for ${p.ref} expired at ${p.at} before a worker could apply it. Re-run for a fresh plan.`,
      ko: (p: { ref: string; at: string }) =>
        `적용하지 않았습니다: ${p.ref}의 조치가 워커가 적용하기 전에 ${p.at}에 만료되었습니다. 새 조치를 받으려면 다시 실행을 누르세요.`,
    },
    outsideKind: {
      en: (p: { kind: string; ref: string; reason: string }) =>
        `not applied: the stored ${p.kind} plan for ${p.ref} is outside what that kind may change (${p.reason}). Nothing was changed; the plan may have been altered where it is stored.`,
      ko: (p: { kind: string; ref: string; reason: string }) =>
        `적용하지 않았습니다: 저장된 ${p.ref}의 ${p.kind} 조치가 이 종류의 조치가 바꿀 수 있는 범위를 벗어납니다(${p.reason}). 아무것도 바꾸지 않았습니다. 저장된 조치가 변조되었을 수 있습니다.`,
    },
    stale: {
      en: (p: { ref: string; reason: string }) =>
        `not applied: ${p.ref} changed since the diagnosis (${p.reason}). Re-run for a fresh plan.`,
      ko: (p: { ref: string; reason: string }) =>
        `적용하지 않았습니다: 진단 뒤에 ${p.ref}이(가) 바뀌었습니다(${p.reason}). 새 조치를 받으려면 다시 실행을 누르세요.`,
    },
    failed: {
      en: (p: { kind: string; ref: string; reason: string }) =>
        `${p.kind} on ${p.ref} failed: ${p.reason}. Nothing was changed; press Re-run for a fresh message and approve it again once the cause is fixed.`,
      ko: (p: { kind: string; ref: string; reason: string }) =>
        `${p.ref}의 ${p.kind} 실패: ${p.reason}. 아무것도 바꾸지 않았습니다. 새 메시지를 받으려면 다시 실행을 누르고, 원인을 고친 뒤 다시 승인하세요.`,
    },
    /** The write got no answer: it may or may not have been applied. */
    failedUnknown: {
      en: (p: { kind: string; ref: string; targetKind: string; reason: string }) =>
        `${p.kind} on ${p.ref}: the API server did not answer the write (${p.reason}), so it may or may not have been applied. Press Re-run to see the ${p.targetKind} as it is now; a retry never applies twice.`,
      ko: (p: { kind: string; ref: string; targetKind: string; reason: string }) =>
        `${p.ref}의 ${p.kind}: API 서버가 쓰기에 답하지 않아(${p.reason}) 적용되었는지 알 수 없습니다. 지금의 ${p.targetKind} 상태를 보려면 다시 실행을 누르세요. 다시 시도해도 두 번 적용되지 않습니다.`,
    },
    applied: {
      en: (p: { summary: string; note: string; changed: string; watching: string }) =>
        `${p.summary} (${p.note ? `${p.note}; ` : ''}changed ${p.changed}). ${p.watching}`,
      ko: (p: { summary: string; note: string; changed: string; watching: string }) =>
        `${p.summary} (${p.note ? `${p.note}. ` : ''}바뀐 필드: ${p.changed}) ${p.watching}`,
    },
    noFieldChanges: { en: () => 'no field changes', ko: () => '없음' },
    foundOnRetry: {
      en: () => 'found in place on this retry: the earlier attempt wrote it',
      ko: () => '재시도에서 이미 적용된 것을 확인했습니다: 앞선 시도가 썼습니다',
    },
    noUndo: {
      en: (p: { why: string }) => `no Undo: ${p.why}`,
      ko: (p: { why: string }) => `되돌리기 없음: ${p.why}`,
    },
    stepStarted: {
      en: (p: { of: number }) => `step 1 of ${p.of} started`,
      ko: (p: { of: number }) => `${p.of}단계 중 1단계 시작`,
    },
    stepDone: {
      en: (p: { step: number; of: number }) => `step ${p.step} of ${p.of} done`,
      ko: (p: { step: number; of: number }) => `${p.of}단계 중 ${p.step}단계 완료`,
    },
    stepStopped: {
      en: (p: { step: number; of: number }) => `stopped at step ${p.step} of ${p.of}`,
      ko: (p: { step: number; of: number }) => `${p.of}단계 중 ${p.step}단계에서 멈춤`,
    },
    marksLeft: {
      en: (p: { pods: string }) => `${p.pods} still marked with controller.kubernetes.io/pod-deletion-cost`,
      ko: (p: { pods: string }) =>
        `${p.pods}에 controller.kubernetes.io/pod-deletion-cost 어노테이션이 아직 남아 있습니다`,
    },
  }),
  {
    notApproved: [{ stored: true }, { stored: false }],
    otherCluster: [{ planCluster: 'staging', jobCluster: 'prod' }],
    untrusted: [{ reason: 'the approval signature does not verify' }],
    clock: [{ problem: "this worker's clock is 1200 s ahead of Redis's" }],
    approvalExpired: [{}],
    expired: [{ ref: 'deployment/detector', at: '2026-11-22 03:19 UTC' }],
    outsideKind: [{ kind: 'set-recreate', ref: 'daemonset/agent', reason: 'a DaemonSet has no Recreate' }],
    stale: [{ ref: 'deployment/detector', reason: 'its generation is 8, the plan was made at 7' }],
    failed: [{ kind: 'set-recreate', ref: 'deployment/detector', reason: 'HTTP 422' }],
    failedUnknown: [
      { kind: 'set-recreate', ref: 'deployment/detector', targetKind: 'Deployment', reason: 'timeout' },
    ],
    applied: [
      {
        summary: 'Switch to Recreate.',
        note: 'lasts 4h',
        changed: 'spec.strategy',
        watching: 'Watching the rollout.',
      },
      {
        summary: 'Switch to Recreate.',
        note: '',
        changed: 'spec.strategy',
        watching: 'Watching the rollout.',
      },
    ],
    noFieldChanges: [{}],
    foundOnRetry: [{}],
    noUndo: [{ why: 'the Deployment moved on' }],
    stepStarted: [{ of: 3 }],
    stepDone: [{ step: 2, of: 3 }],
    stepStopped: [{ step: 2, of: 3 }],
    marksLeft: [{ pods: 'web-1, web-2' }],
  },
);

const refOf = (ref: WorkloadRef): string => `${typeOfKind(ref.kind)}/${ref.name}`;

/** Each detail as a function of the reader's language. */
export const remediateWords = {
  notApproved:
    (stored: boolean): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'notApproved', { stored }),
  otherCluster:
    (planCluster: string, jobCluster: string): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'otherCluster', { planCluster, jobCluster }),
  untrusted:
    (reason: string): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'untrusted', { reason }),
  /** This worker's clock is off (src/queue/clock-watch.ts): nothing is checked or written by it. */
  clock:
    (problem: string): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'clock', { problem }),
  /** A genuine approval whose time is past by this worker's clock, which is in step with Redis's. */
  approvalExpired: (): Detail => (lang) => translate(REMEDIATE_WORDS, lang, 'approvalExpired'),
  expired:
    (ref: WorkloadRef, expiresAt: number): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'expired', { ref: refOf(ref), at: messageTime(expiresAt) }),
  outsideKind:
    (plan: RemediationPlan, reason: string): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'outsideKind', { kind: plan.kind, ref: refOf(plan.target), reason }),
  stale:
    (ref: WorkloadRef, reason: string): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'stale', { ref: refOf(ref), reason }),
  failed:
    (plan: RemediationPlan, reason: string, outcomeUnknown: boolean): Detail =>
    (lang) => {
      const about = { kind: plan.kind, ref: refOf(plan.target), reason };
      return outcomeUnknown
        ? translate(REMEDIATE_WORDS, lang, 'failedUnknown', { ...about, targetKind: plan.target.kind })
        : translate(REMEDIATE_WORDS, lang, 'failed', about);
    },
  /** The one "applied" reply: what was done, any notes, the fields changed, and what is watched next. */
  applied:
    (plan: RemediationPlan, notes: readonly Detail[], changed: readonly string[], watching: Detail): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'applied', {
        summary: planSummary(plan, lang),
        note: notes.map((n) => n(lang)).join(lang === 'en' ? '; ' : '. '),
        changed: changed.join(', ') || translate(REMEDIATE_WORDS, lang, 'noFieldChanges'),
        watching: watching(lang),
      }),
  foundOnRetry: (): Detail => (lang) => translate(REMEDIATE_WORDS, lang, 'foundOnRetry'),
  noUndo:
    (why: string): Detail =>
    (lang) =>
      translate(REMEDIATE_WORDS, lang, 'noUndo', { why }),
  /** A reply about the workload after the change: rolled out, paused, still failing (the text as the watch wrote it). */
  about:
    (ref: WorkloadRef, text: string): Detail =>
    () =>
      `${refOf(ref)}: ${text}`,
  /** A step of a stepped walk, one line (the step's data goes with it for the full reply). */
  step:
    (event: Exclude<StepEvent, { phase: 'done' }>): Detail =>
    (lang) => {
      switch (event.phase) {
        case 'waiting-ready':
          return translate(REMEDIATE_WORDS, lang, 'stepStarted', { of: event.of });
        case 'ready':
          return translate(REMEDIATE_WORDS, lang, 'stepDone', { step: event.step, of: event.of });
        case 'stopped':
          return translate(REMEDIATE_WORDS, lang, 'stepStopped', { step: event.step, of: event.of });
        case 'marks-left':
          return translate(REMEDIATE_WORDS, lang, 'marksLeft', { pods: event.pods.join(', ') });
      }
    },
};
