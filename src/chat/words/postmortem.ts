/**
 * The Draft post-mortem button's answers (src/chat/use-cases/postmortem-press.ts), in
 * the thread's language: what a press is told when nothing can be drafted, the draft's
 * headline and file title, and the small print of a draft quoted over messages. Names
 * (the incident), commands and the read policy's reason are parameters and stay as
 * written. English entries are the wording before the catalogue.
 */
import type { Rich } from '../model.js';
import { code, icon, say } from '../../message/rich.js';
import { defineMessages, registerCatalogue } from '../../i18n/catalogue.js';

type Incident = { incident: string };
type Command = { command: string };

export const POSTMORTEM_PRESS_WORDS = registerCatalogue(
  'postmortem-press',
  defineMessages({
    noRecords: {
      en: () => say`${icon('info')} This app keeps no incident records, so it drafts no post-mortem here.`,
      ko: () =>
        say`${icon('info')} 이 앱은 인시던트 기록을 보관하지 않습니다. 그래서 여기서는 포스트모템 초안을 만들지 않습니다.`,
    },
    redisDown: {
      en: (p: { trouble: string; again: string }) =>
        say`${icon('failed')} No post-mortem drafted: ${p.trouble}. Nothing was posted; please try again ${p.again}.`,
      ko: (p: { trouble: string; again: string }) =>
        say`${icon('failed')} 포스트모템 초안을 만들지 못했습니다: ${p.trouble}. 아무것도 올리지 않았습니다. ${p.again} 다시 눌러 주세요.`,
    },
    buttonGone: {
      en: (p: Command & { days: number }) =>
        say`${icon('expired')} This message's incident is no longer kept (records are kept ${p.days} days after their last event). Draft it from the audit log: ${code(p.command)}.`,
      ko: (p: Command & { days: number }) =>
        say`${icon('expired')} 이 메시지의 인시던트 기록은 더 이상 보관되어 있지 않습니다(기록은 마지막 이벤트 뒤 ${p.days}일 동안 보관합니다). 감사 로그로 초안을 만드세요: ${code(p.command)}.`,
    },
    refused: {
      en: (p: { reason: string }) => say`${icon('refused')} No post-mortem drafted: ${p.reason}.`,
      ko: (p: { reason: string }) =>
        say`${icon('refused')} 포스트모템 초안을 만들지 않았습니다: ${p.reason}.`,
    },
    noRecord: {
      en: (p: Incident & Command & { days: number }) =>
        say`${icon('expired')} No record of incident ${code(p.incident)} in Redis: none was kept, or it is older than ${p.days} days. Draft it from the audit log: ${code(p.command)}.`,
      ko: (p: Incident & Command & { days: number }) =>
        say`${icon('expired')} Redis에 인시던트 ${code(p.incident)} 기록이 없습니다. 보관하지 않았거나 ${p.days}일보다 오래되었습니다. 감사 로그로 초안을 만드세요: ${code(p.command)}.`,
    },
    alreadyPosted: {
      en: (p: Incident & { at: string }) =>
        say`${icon('info')} The draft of incident ${code(p.incident)} as its record stands was posted in this thread at ${p.at}; nothing was recorded since, so no new one is posted.`,
      ko: (p: Incident & { at: string }) =>
        say`${icon('info')} 인시던트 ${code(p.incident)} 기록의 지금 상태로 만든 초안은 ${p.at}에 이 스레드에 올렸습니다. 그 뒤로 기록된 것이 없어 새 초안을 올리지 않습니다.`,
    },
    headline: {
      en: (p: Incident & { entries: number; at: string }) =>
        say`${icon('info')} Post-mortem draft of ${code(p.incident)}, from its record of ${p.entries} events as of ${p.at}, for a person to check and complete.`,
      ko: (p: Incident & { entries: number; at: string }) =>
        say`${icon('info')} 인시던트 ${code(p.incident)} 포스트모템 초안입니다. ${p.at} 기준 기록의 이벤트 ${p.entries}건으로 만들었습니다. 사람이 확인하고 채워 넣어야 합니다.`,
    },
    whole: {
      en: (p: Command) => say`The whole draft, any time within the record's retention: ${code(p.command)}`,
      ko: (p: Command) =>
        say`기록을 보관하는 동안에는 언제든 초안 전체를 만들 수 있습니다: ${code(p.command)}`,
    },
    fileTitle: {
      en: (p: Incident) => `Post-mortem draft: ${p.incident}`,
      ko: (p: Incident) => `포스트모템 초안: ${p.incident}`,
    },
    undelivered: {
      en: (p: Incident) =>
        say`${icon('failed')} The post-mortem draft of ${code(p.incident)} could not be posted in this thread; press again to retry.`,
      ko: (p: Incident) =>
        say`${icon('failed')} 인시던트 ${code(p.incident)} 포스트모템 초안을 이 스레드에 올리지 못했습니다. 다시 눌러 주세요.`,
    },
    moreChars: {
      en: (p: { left: number; whole: Rich }) => say`${p.left} more characters not posted here. ${p.whole}`,
      ko: (p: { left: number; whole: Rich }) =>
        say`나머지 ${p.left}자는 여기에 올리지 않았습니다. ${p.whole}`,
    },
  }),
  {
    noRecords: [{}],
    redisDown: [{ trouble: 'Redis is unreachable', again: 'in a few seconds' }],
    buttonGone: [{ days: 30, command: 'rollout-doctor postmortem --from-audit FILE' }],
    refused: [{ reason: 'U0READER may not read namespace vision from this channel' }],
    noRecord: [
      {
        incident: 'prod/vision/tracker',
        days: 30,
        command: 'rollout-doctor postmortem --from-audit FILE --incident prod/vision/tracker',
      },
    ],
    alreadyPosted: [{ incident: 'prod/vision/tracker', at: '02:59 UTC' }],
    headline: [{ incident: 'prod/vision/tracker', entries: 12, at: '02:59 UTC' }],
    whole: [{ command: 'rollout-doctor postmortem --incident prod/vision/tracker --lang ko' }],
    fileTitle: [{ incident: 'prod/vision/tracker' }],
    undelivered: [{ incident: 'prod/vision/tracker' }],
    moreChars: [{ left: 1200, whole: say`the whole draft: ${code('rollout-doctor postmortem')}` }],
  },
);
