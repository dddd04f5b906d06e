import type { AlertThreadJob } from '../../queue/alert-jobs.js';
import {
  admissionJoinMessage,
  alertTitle,
  firingRootMessage,
  resolvedRootMessage,
  rootNote,
  threadLineMessage,
} from './messages.js';
import type { ThreadRecord, ThreadStore } from '../../queue/alert-thread-store.js';
import { UnrecoverableError } from 'bullmq';
import type { ChatAdapter } from '../../chat/adapter.js';
import { DEFAULT_PLATFORM, chatPlatform, platformTag, type ChatPlatform } from '../../platforms/chat-refs.js';
import { alertPlatform, threadConversation } from './chat-thread.js';

interface ThreadUpdateDeps {
  store: ThreadStore;
  logger: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Alertmanager and Prometheus hosts whose URLs are shown as links (config alerts.linkHosts). */
  linkHosts?: readonly string[];
  /** The chat adapters by platform (services.chats), read at each call. */
  chats: () => Partial<Record<ChatPlatform, ChatAdapter>>;
}

export type ThreadUpdateOutcome =
  'opened' | 'joined' | 'refired' | 'resolved' | 'still-firing' | 'already-resolved' | 'unknown-thread';

/** What a thread job posts, on one platform. */
interface ThreadPoster {
  /** Posts the firing root of a new thread; its message id. */
  root(job: AlertThreadJob, title: string): Promise<string>;
  /** The root says firing again, and a line in the thread says when. */
  refire(record: ThreadRecord, job: AlertThreadJob): Promise<void>;
  /** The root says resolved, and a line in the thread says when. */
  resolved(record: ThreadRecord, at: string): Promise<void>;
  /** A line in the thread: it was a warned apply's, and an alert fires now. */
  joinedAdmission(record: ThreadRecord, title: string): Promise<void>;
}

function chatPoster(chat: ChatAdapter, linkHosts: readonly string[] | undefined): ThreadPoster {
  const platform = chatPlatform(chat.platform) ?? DEFAULT_PLATFORM;
  const rootRef = (record: ThreadRecord) => ({
    conversation: threadConversation(platform, record.channel, record.ts),
    id: record.ts,
  });
  return {
    async root(job, title) {
      const posted = await chat.post(
        threadConversation(platform, job.channel),
        firingRootMessage(title, job.summary, job.alertNames, rootNote(job, linkHosts)),
      );
      return posted.id;
    },
    async refire(record, job) {
      await chat.update(rootRef(record), firingRootMessage(record.title, job.summary, job.alertNames));
      await chat.post(rootRef(record).conversation, threadLineMessage('refiring', job.startsAt));
    },
    async resolved(record, at) {
      await chat.update(rootRef(record), resolvedRootMessage(record.title, at));
      await chat.post(rootRef(record).conversation, threadLineMessage('resolved', at));
    },
    async joinedAdmission(record, title) {
      await chat.post(rootRef(record).conversation, admissionJoinMessage(title));
    },
  };
}

/** The poster for a conversation: the adapter of the platform its id belongs to. */
function posterFor(
  deps: ThreadUpdateDeps,
  channel: string,
): { platform: ChatPlatform; poster: ThreadPoster } {
  const platform = alertPlatform(channel);
  const chat = deps.chats()[platform];
  // Permanent: retrying cannot make the app serve a platform it is not configured for.
  if (!chat) throw new UnrecoverableError(`alert thread in ${platform}, which this app does not serve`);
  return { platform, poster: chatPoster(chat, deps.linkHosts) };
}

/**
 * Handles one `alert-thread` notify job: the first firing opens the incident thread
 * (root message in the routed channel, through its platform's adapter: a Slack
 * channel, or a Teams channel conversation), later firings join it, a re-fire after a
 * resolve reopens it, and the last group resolving rewrites the root and posts a
 * "resolved at" line. The first alert joining a thread a warned apply opened (the
 * admission webhook's announcement) posts a line saying so. Throws ThreadBusyError (retried) while another replica posts.
 */
export async function handleAlertThreadJob(
  deps: ThreadUpdateDeps,
  job: AlertThreadJob,
): Promise<ThreadUpdateOutcome> {
  const { store } = deps;
  if (job.status === 'firing') {
    const title = alertTitle(job);
    const { platform, poster } = posterFor(deps, job.channel);
    const { record, created } = await store.open(
      {
        workloadHash: job.workloadHash,
        groupHash: job.groupHash,
        ...platformTag(platform),
        channel: job.channel,
        title,
      },
      () => poster.root(job, title),
    );
    await store.markFiring(record.threadId, job.groupHash);
    if (created) return 'opened';
    if (record.status === 'resolved') {
      await store.reactivate(record);
      await posterFor(deps, record.channel).poster.refire(record, job);
      return 'refired';
    }
    // A real alert never joins a warned apply's thread silently: the first says so.
    if (record.origin === 'admission' && (await store.claimJoinNotice(record.threadId))) {
      try {
        await posterFor(deps, record.channel).poster.joinedAdmission(record, title);
      } catch (error) {
        await store.releaseJoinNotice(record.threadId); // the job's retry says it
        throw error;
      }
    }
    return 'joined';
  }

  const record = await store.find(job.workloadHash, job.groupHash);
  if (record === null) {
    deps.logger.debug({ workloadHash: job.workloadHash }, 'resolved alert without a thread');
    return 'unknown-thread';
  }
  const stillFiring = await store.markResolved(record.threadId, job.groupHash);
  if (stillFiring > 0) return 'still-firing';
  if (record.status === 'resolved') return 'already-resolved';
  const at = job.endsAt ?? job.receivedAt;
  await store.resolve(record);
  await posterFor(deps, record.channel).poster.resolved(record, at);
  return 'resolved';
}
