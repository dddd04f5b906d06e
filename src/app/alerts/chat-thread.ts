/**
 * Alert and early-warning threads as port messages, posted through the platform's
 * adapter: results on every platform; roots and thread lines on Teams, the same as the
 * Slack thread's (messages.ts, thread-updates.ts). A Teams channel conversation
 * is the thread: the root is a new post in the channel (the adapter opens a thread for
 * it), lines and results are replies under it.
 */
import type { ChatAdapter } from '../../chat/adapter.js';
import type { ChatMessage, ConversationRef } from '../../chat/model.js';
import { code, icon, join, say, strong } from '../../chat/rich.js';
import { runMessages } from '../../chat/use-cases/result.js';
import { NO_REQUESTER } from '../../chat/actions.js';
import type { ChatPlatform } from '../../queue/chat-refs.js';
import type { PlanStore } from '../../queue/plan-store.js';
import type { RunUpdate } from '../../queue/schemas.js';
import type { AlertOverflowJob } from '../../queue/alert-jobs.js';
import { messageTime } from '../../text/time.js';
import { planViews } from '../notify/plan-views.js';
import { postReport } from '../../chat/report.js';
import { saysMore } from './messages.js';
import { isTeamsChannel } from '../../config/alert-routes.js';

/** The platform an alert conversation id belongs to: Teams channel ids have their own shape. */
export function alertPlatform(conversation: string): ChatPlatform {
  return isTeamsChannel(conversation) ? 'teams' : 'slack';
}

/** The root of a firing incident, as Slack's firingRoot says it. */
export function firingRootMessage(
  title: string,
  detail: string | undefined,
  alertNames: readonly string[] = [],
): ChatMessage {
  return {
    summary: say`Firing: ${title}`,
    parts: [
      { kind: 'paragraph', text: say`${icon('alert')} ${strong('Firing:')} ${title}`, role: 'verdict' },
      ...(detail !== undefined && saysMore(detail, alertNames)
        ? [{ kind: 'paragraph' as const, text: say`${detail}` }]
        : []),
      { kind: 'note', text: say`rollout-doctor is diagnosing; the result follows in this thread.` },
    ],
  };
}

/** The root once every alert of the thread resolved. */
export function resolvedRootMessage(title: string, at: string): ChatMessage {
  return {
    summary: say`Resolved: ${title}`,
    parts: [
      { kind: 'paragraph', text: say`${icon('ok')} ${strong('Resolved:')} ${title}`, role: 'verdict' },
      { kind: 'note', text: say`Resolved at ${messageTime(at)}` },
    ],
  };
}

/** The short thread line when an incident resolves or fires again. */
export function threadLineMessage(kind: 'resolved' | 'refiring', at: string): ChatMessage {
  const text =
    kind === 'resolved'
      ? say`${icon('ok')} Resolved at ${messageTime(at)}`
      : say`${icon('alert')} Firing again at ${messageTime(at)}`;
  return { summary: text, parts: [] };
}

/** The root of an early-warning thread. */
export function earlyWarningRootMessage(title: string, summary: string): ChatMessage {
  return {
    summary: say`Early warning: ${title}`,
    parts: [
      {
        kind: 'paragraph',
        text: say`${icon('warning')} ${strong('Early warning:')} ${title}`,
        role: 'verdict',
      },
      { kind: 'paragraph', text: say`${summary}` },
      { kind: 'note', text: say`Found by the rollout-doctor watch before any alert fired.` },
    ],
  };
}

/** overflowMessage (messages.ts) as a port message: the one summary of a flood past the caps. */
export function overflowChatMessage(job: AlertOverflowJob): ChatMessage {
  const perMinute = job.cause === 'minute';
  const verdict = perMinute
    ? say`${icon('warning')} More alerted workloads arrived this minute than rollout-doctor opens threads for: ${job.workloads} (${job.firing} firing) in this notification got no thread and no diagnosis, and later ones this minute are only counted in the app's log.`
    : say`${icon('warning')} One Alertmanager notification named more workloads than rollout-doctor opens threads for: ${job.workloads} more (${job.firing} firing) got no thread and no diagnosis.`;
  const limit = perMinute
    ? say`limit ${job.limit} per minute (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE)`
    : say`limit ${job.limit} per notification (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS)`;
  const names = join(
    job.alertNames.map((n) => say`${code(n)}`),
    ', ',
  );
  const namespaces = join(
    job.namespaces.map((n) => say`${code(n)}`),
    ', ',
  );
  const more = (list: readonly string[]): string => (list.length === 10 ? ' …' : '');
  return {
    summary: verdict,
    parts: [
      { kind: 'paragraph', text: verdict, role: 'verdict' },
      {
        kind: 'note',
        text: say`Alerts: ${names}${more(job.alertNames)} · namespaces: ${namespaces}${more(job.namespaces)} · ${limit}`,
      },
    ],
  };
}

/** Where a thread is, as the port names it. */
export function threadConversation(platform: ChatPlatform, channel: string, root?: string): ConversationRef {
  return { platform, id: channel, ...(root === undefined ? {} : { thread: root }) };
}

/**
 * Posts a run's result in an alert thread through `chat`: the result (its Apply buttons
 * say "no requester": nobody asked for it there, whoever else's command joined the run:
 * their own message carries their id), then the thread report.
 */
export async function postResultInThread(
  chat: ChatAdapter,
  plans: PlanStore,
  thread: { channel: string; ts: string },
  update: Extract<RunUpdate, { kind: 'diagnosis-result' }>,
): Promise<void> {
  const { message, thread: report } = runMessages(update, await planViews(plans, update), {
    requester: NO_REQUESTER,
    approvedPlan: null,
    platform: chat.platform,
  });
  const where = threadConversation(alertPlatform(thread.channel), thread.channel, thread.ts);
  await chat.post(where, message);
  await postReport(chat, where, report);
}
