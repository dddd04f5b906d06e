import type { Mrkdwn } from '../../chat/slack/blocks/mrkdwn.js';
import type { AlertThreadJob } from '../../queue/alert-jobs.js';
import {
  alertTitle,
  firingRoot,
  resolvedRoot,
  rootNote,
  threadLine,
  type ThreadMessage,
} from './messages.js';
import type { ThreadStore } from '../../queue/alert-thread-store.js';

/** The two Slack Web API calls thread handling needs (the app passes its WebClient's). */
export interface SlackThreadApi {
  postMessage(args: {
    channel: string;
    text: Mrkdwn;
    blocks?: ThreadMessage['blocks'];
    thread_ts?: string;
  }): Promise<{
    ts?: string;
  }>;
  update(args: {
    channel: string;
    ts: string;
    text: Mrkdwn;
    blocks?: ThreadMessage['blocks'];
  }): Promise<unknown>;
}

export interface ThreadUpdateDeps {
  store: ThreadStore;
  slack: SlackThreadApi;
  logger: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Alertmanager and Prometheus hosts whose URLs are shown as links (config alerts.linkHosts). */
  linkHosts?: readonly string[];
}

export type ThreadUpdateOutcome =
  'opened' | 'joined' | 'refired' | 'resolved' | 'still-firing' | 'already-resolved' | 'unknown-thread';

/**
 * Handles one `alert-thread` notify job: the first firing opens the incident thread
 * (root message in the routed channel), later firings join it, a re-fire after a
 * resolve reopens it, and the last group resolving rewrites the root and posts a
 * "resolved at" line. Throws ThreadBusyError (retried) while another replica posts.
 */
export async function handleAlertThreadJob(
  deps: ThreadUpdateDeps,
  job: AlertThreadJob,
): Promise<ThreadUpdateOutcome> {
  const { store, slack } = deps;
  if (job.status === 'firing') {
    const title = alertTitle(job);
    const { record, created } = await store.open(
      { workloadHash: job.workloadHash, groupHash: job.groupHash, channel: job.channel, title },
      async () => {
        const root = firingRoot(title, job.summary, rootNote(job, deps.linkHosts), job.alertNames);
        const posted = await slack.postMessage({ channel: job.channel, ...root });
        if (posted.ts === undefined) throw new Error('chat.postMessage returned no ts');
        return posted.ts;
      },
    );
    await store.markFiring(record.threadId, job.groupHash);
    if (created) return 'opened';
    if (record.status === 'resolved') {
      await store.reactivate(record);
      await slack.update({
        channel: record.channel,
        ts: record.ts,
        ...firingRoot(record.title, job.summary, undefined, job.alertNames),
      });
      await slack.postMessage({
        channel: record.channel,
        thread_ts: record.ts,
        ...threadLine('refiring', job.startsAt),
      });
      return 'refired';
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
  await slack.update({ channel: record.channel, ts: record.ts, ...resolvedRoot(record.title, at) });
  await slack.postMessage({ channel: record.channel, thread_ts: record.ts, ...threadLine('resolved', at) });
  return 'resolved';
}
