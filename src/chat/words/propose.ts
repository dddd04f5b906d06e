/**
 * What "Propose in Git" says in chat (src/chat/use-cases/propose-press.ts, the button in
 * src/chat/use-cases/result.ts, the outcome in src/chat/notify/proposal-delivery.ts), in
 * every language. Names, reasons and addresses come in as parameters and stay text
 * (`say`): each adapter escapes them.
 */
import type { Rich } from '../model.js';
import { code, icon, link, say, strong } from '../../message/rich.js';
import { defineMessages, registerCatalogue } from '../../i18n/catalogue.js';

type Kind = { kind: string };
type Why = { why: string };
type Pull = { kind: string; url: string; number: number; who: Rich; file: string };

export const PROPOSE_CHAT_WORDS = registerCatalogue(
  'propose-chat',
  defineMessages({
    button: { en: () => 'Propose in Git', ko: () => 'Git에 제안' },
    confirmTitle: { en: () => 'Propose in Git?', ko: () => 'Git에 제안할까요?' },
    confirmText: {
      en: (p: Kind) =>
        `Opens (or updates) a pull request with the lasting change of ${p.kind} in the repository that applies this workload. Nothing is changed in the cluster.`,
      ko: (p: Kind) =>
        `이 워크로드를 적용하는 저장소에 ${p.kind}의 영구 변경을 담은 풀 리퀘스트를 열거나 갱신합니다. 클러스터는 바뀌지 않습니다.`,
    },
    confirmYes: { en: () => 'Propose', ko: () => '제안' },
    off: {
      en: (p: { setting: string; command: string }) =>
        say`${icon('info')} Propose in Git is not set up in this app (${code(p.setting)}, with a Git token on the workers). Run ${code(p.command)} instead.`,
      ko: (p: { setting: string; command: string }) =>
        say`${icon('info')} 이 앱에는 Git 제안이 설정되어 있지 않습니다 (${code(p.setting)}, 워커의 Git 토큰). 대신 ${code(p.command)}를 실행하세요.`,
    },
    refused: {
      en: (p: Why) =>
        say`${icon('refused')} Not proposed: ${p.why}. Nothing was pushed. The refusal is audited.`,
      ko: (p: Why) =>
        say`${icon('refused')} 제안하지 않았습니다: ${p.why}. 아무것도 푸시하지 않았습니다. 거부는 감사 기록에 남습니다.`,
    },
    expired: {
      en: () => say`${icon('expired')} Not proposed: this plan expired. Press Re-run for a fresh diagnosis.`,
      ko: () =>
        say`${icon('expired')} 제안하지 않았습니다: 이 조치는 만료되었습니다. 새 진단을 위해 다시 실행을 누르세요.`,
    },
    recorded: {
      en: (p: { approvals: number; required: number }) =>
        say`Your approval of the proposal is recorded (${p.approvals}/${p.required}); waiting for another approver to press Propose in Git.`,
      ko: (p: { approvals: number; required: number }) =>
        say`제안 승인이 기록되었습니다 (${p.approvals}/${p.required}). 다른 승인자가 Git에 제안을 누르기를 기다립니다.`,
    },
    queued: {
      en: (p: Kind) =>
        say`${icon('repeat')} Proposing ${strong(p.kind)} in Git: the pull request's link will be posted in this thread.`,
      ko: (p: Kind) =>
        say`${icon('repeat')} ${strong(p.kind)}를 Git에 제안하는 중입니다. 풀 리퀘스트 링크를 이 스레드에 올립니다.`,
    },
    notQueued: {
      en: (p: Why) =>
        say`${icon('failed')} Not proposed: the queue is unavailable (${p.why}). Nothing was pushed; please try again.`,
      ko: (p: Why) =>
        say`${icon('failed')} 제안하지 않았습니다: 큐를 쓸 수 없습니다 (${p.why}). 아무것도 푸시하지 않았습니다. 다시 시도하세요.`,
    },
    opened: {
      en: (p: Pull) =>
        say`${icon('ok')} Pull request #${String(p.number)} opened for ${strong(p.kind)} (${p.file}), approved by ${p.who}: ${link(p.url, p.url)}`,
      ko: (p: Pull) =>
        say`${icon('ok')} ${strong(p.kind)}의 풀 리퀘스트 #${String(p.number)}를 열었습니다 (${p.file}), 승인자 ${p.who}: ${link(p.url, p.url)}`,
    },
    updated: {
      en: (p: Pull) =>
        say`${icon('ok')} Pull request #${String(p.number)} updated for ${strong(p.kind)} (${p.file}), approved by ${p.who}: ${link(p.url, p.url)}`,
      ko: (p: Pull) =>
        say`${icon('ok')} ${strong(p.kind)}의 풀 리퀘스트 #${String(p.number)}를 갱신했습니다 (${p.file}), 승인자 ${p.who}: ${link(p.url, p.url)}`,
    },
    unchanged: {
      en: (p: Kind & { file: string }) =>
        say`${icon('info')} Nothing to propose for ${strong(p.kind)}: ${p.file} already has the change.`,
      ko: (p: Kind & { file: string }) =>
        say`${icon('info')} ${strong(p.kind)}는 제안할 것이 없습니다: ${p.file}에 이미 변경이 있습니다.`,
    },
    byHand: {
      en: (p: Kind & Why) =>
        say`${icon('warning')} ${strong(p.kind)} not proposed: ${p.why}. The change to make by hand is in the thread report ("Change to commit").`,
      ko: (p: Kind & Why) =>
        say`${icon('warning')} ${strong(p.kind)}를 제안하지 않았습니다: ${p.why}. 손으로 할 변경은 스레드 보고서에 있습니다.`,
    },
    notProposed: {
      en: (p: Kind & Why) =>
        say`${icon('failed')} ${strong(p.kind)} not proposed: ${p.why}. Nothing was pushed.`,
      ko: (p: Kind & Why) =>
        say`${icon('failed')} ${strong(p.kind)}를 제안하지 않았습니다: ${p.why}. 아무것도 푸시하지 않았습니다.`,
    },
  }),
  {
    button: [{}],
    confirmTitle: [{}],
    confirmText: [{ kind: 'set-rolling-update' }],
    confirmYes: [{}],
    off: [{ setting: 'ROLLOUT_DOCTOR_PROPOSE_IN_GIT', command: 'rollout-doctor propose' }],
    refused: [{ why: 'not an approver for prod/vision' }],
    expired: [{}],
    recorded: [{ approvals: 1, required: 2 }],
    queued: [{ kind: 'set-rolling-update' }],
    notQueued: [{ why: 'Redis did not answer in time' }],
    opened: [
      {
        kind: 'set-rolling-update',
        url: 'https://github.com/team/shop/pull/7',
        number: 7,
        who: say`Ana`,
        file: 'apps/vision/deployment.yaml',
      },
    ],
    updated: [
      {
        kind: 'set-rolling-update',
        url: 'https://github.com/team/shop/pull/7',
        number: 7,
        who: say`Ana`,
        file: 'apps/vision/deployment.yaml',
      },
    ],
    unchanged: [{ kind: 'set-rolling-update', file: 'apps/vision/deployment.yaml' }],
    byHand: [{ kind: 'set-rolling-update', why: 'no GitOps owner was recognised' }],
    notProposed: [{ kind: 'set-rolling-update', why: 'check: can never finish' }],
  },
);
