/**
 * A person's run ends in a visible answer. Every diagnosis, scan or Re-run
 * message is watched from the moment it subscribes: when its run has given it no final
 * result by ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS after the request, the message says the
 * run could not finish, and the refusal is audited (`unfinished`), each time. A run
 * that never ends (a worker that died mid-run, a job kept "active" under a lock that
 * never expires) then leaves no message "joining the run already in progress" forever.
 * (A run record pinned in Redis so that every later notification would count as stale
 * is ignored: ./run-record.ts.) Whether a message was answered is read from a record only the app can mark
 * (subscriptions.ts, markAnswered), so a Redis writer cannot silence the answer; a
 * result that arrives after the deadline still replaces it.
 *
 * An alert thread's root message ("rollout-doctor is diagnosing; the result follows in
 * this thread") is watched the same way from the moment the app opens the thread
 * (alerts/thread-deadline.ts): its answer is a reply in the thread, the root keeping
 * the alert, and the thread counts as answered once the app posted a result there.
 *
 * The watch lives in the app process that posted the message (a timer, unref'd): an
 * app restart forgets the watches it held.
 *
 * A message on another platform of the chat port (Teams: a command's announcement
 * card, an alert thread's root card) gets the same answer as a port message through
 * its platform's adapter (services.chats): the card is replaced, or the reply posted
 * in the card's thread.
 */
import type { ChatMessage, PersonRef } from '../model.js';
import { icon, mention, say } from '../../message/rich.js';
import { platformOf } from '../../platforms/chat-refs.js';
import type { MessageRef } from './subscriptions.js';
import type { ChatServices } from '../services.js';

export interface WatchedRun {
  message: MessageRef;
  cluster: string;
  jobId: string;
  /** When the request was queued (ms): the deadline runs from here. */
  addedAt: number;
  /** Who asked, and what, as the audit names it ('diagnose', 'scan', 'rerun'; 'alert': an alert thread). */
  requestedBy: string;
  what: 'diagnose' | 'scan' | 'rerun' | 'alert';
  /** The thread root when the message is a reply in a thread (a Teams command in a channel thread). */
  threadTs?: string;
  /** Answer with a reply in the message's thread instead of rewriting it (an alert thread's root). */
  replyInThread?: boolean;
  namespace?: string;
  deployment?: string;
}

type Services = Pick<ChatServices, 'config' | 'subscriptions' | 'audit' | 'logger'> &
  Partial<Pick<ChatServices, 'chats'>>;

/** Arms the watch; returns at once. */
export function watchRunDeadline(services: Services, run: WatchedRun): void {
  const deadlineMs = services.config.runDeadlineMs;
  const wait = Math.max(0, run.addedAt + deadlineMs - Date.now());
  const timer = setTimeout(() => {
    void answerIfUnfinished(services, run).catch((error: unknown) =>
      services.logger.warn(
        `run deadline of ${run.jobId}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }, wait);
  timer.unref();
}

/** At the deadline: the "could not finish" answer and its audit, unless the message got its result. */
export async function answerIfUnfinished(
  services: Services,
  run: WatchedRun,
): Promise<'answered' | 'unfinished'> {
  if (await services.subscriptions.answered(run.message)) return 'answered';
  const seconds = Math.round(services.config.runDeadlineMs / 1000);
  const limit = seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
  services.audit.record({
    action: 'refusal',
    planId: run.what,
    cluster: run.cluster,
    ...(run.namespace ? { namespace: run.namespace } : {}),
    ...(run.deployment ? { deployment: run.deployment } : {}),
    user: run.requestedBy,
    reason: 'unfinished',
    detail: `job ${run.jobId}: no result within ${limit}`,
  });
  const platform = platformOf(run.message);
  const chat = services.chats?.[platform];
  if (!chat) throw new Error(`run deadline for a message in ${platform}, which this app does not serve`);
  // As run-delivery.ts's portRef: the conversation, its thread (the root) and the message.
  const at = {
    conversation: { platform, id: run.message.channel, thread: run.threadTs ?? run.message.ts },
    id: run.message.ts,
  };
  if (run.replyInThread) await chat.post(at.conversation, unfinishedAlertMessage(run, limit));
  else {
    // The asker, where a mention of their id reaches them (Slack); elsewhere it would show an id.
    const asker = chat.mentionsById ? { platform, id: run.requestedBy } : undefined;
    await chat.update(at, unfinishedRunMessage(run, limit, asker));
  }
  return 'unfinished';
}

/** The alert thread's reply at the deadline, as a port message. */
function unfinishedAlertMessage(run: Pick<WatchedRun, 'cluster' | 'jobId'>, limit: string): ChatMessage {
  const text = say`${icon('expired')} The diagnosis for this alert could not finish: no result came within ${limit} (cluster ${run.cluster}, run ${run.jobId}). Nothing was changed. The workers or the queue need a look (the audit log names the run).`;
  return { summary: text, parts: [{ kind: 'paragraph', text, role: 'verdict' }] };
}

/**
 * What a person's announcement becomes at the deadline, as a port message: addressed to
 * `asker` where given (a platform whose mention of an id reaches the person), otherwise
 * naming nobody.
 */
function unfinishedRunMessage(
  run: Pick<WatchedRun, 'cluster' | 'jobId'>,
  limit: string,
  asker?: PersonRef,
): ChatMessage {
  const rest = say`could not finish: no result came within ${limit} (cluster ${run.cluster}, run ${run.jobId}). Nothing was changed. Ask again; if it happens again, the workers or the queue need a look (the audit log names the run).`;
  const text = asker
    ? say`${icon('expired')} ${mention(asker)}, this run ${rest}`
    : say`${icon('expired')} This run ${rest}`;
  return { summary: text, parts: [{ kind: 'paragraph', text, role: 'verdict' }] };
}
