import { messageTime } from '../../text/time.js';
import { DEFAULT_WORKLOAD_KIND, typeOfKind } from '../../diagnosis/workload-ref.js';
import {
  allowedLink,
  asIs,
  escapeMrkdwn,
  inlineCode,
  joinMrkdwn,
  mrkdwn,
  trusted,
  type Mrkdwn,
} from '../../chat/slack/blocks/mrkdwn.js';
import { context, section } from '../../chat/slack/blocks/text.js';
import type { AlertOverflowJob, AlertThreadJob } from '../../queue/alert-jobs.js';

/** A Slack message as chat.postMessage / chat.update take it; `text` is parsed like mrkdwn. */
export interface ThreadMessage {
  text: Mrkdwn;
  blocks: Record<string, unknown>[];
}

/** "shop/web (cluster prod)" — the workload as the root message names it. */
export function workloadLabel(w: AlertThreadJob['workload']): string {
  const name =
    w.deployment !== undefined
      ? `${typeOfKind(w.kind ?? DEFAULT_WORKLOAD_KIND)}/${w.deployment}`
      : `pod/${w.pods[0] ?? '?'}`;
  return `${w.namespace}/${name} (cluster ${w.cluster})`;
}

/** Headline of a thread opened by an alert: alert names and the workload. */
export function alertTitle(job: AlertThreadJob): string {
  return `${job.alertNames.join(', ')} on ${workloadLabel(job.workload)}`;
}

/**
 * Does an alert's summary say more than its name and that it fires? Test payloads and
 * hand-written rules often carry "KubePodCrashLooping is firing", which under
 * "Firing: KubePodCrashLooping on …" only repeats it.
 */
export function saysMore(detail: string, alertNames: readonly string[]): boolean {
  let rest = detail.toLowerCase();
  for (const name of alertNames) rest = rest.split(name.toLowerCase()).join(' ');
  const words = rest.split(/[^a-z0-9]+/).filter((w) => w !== '');
  const filler = new Set([
    'alert',
    'alerts',
    'is',
    'are',
    'has',
    'have',
    'firing',
    'fired',
    'fires',
    'fire',
    'now',
    'the',
  ]);
  return words.some((w) => !filler.has(w));
}

/** Root message of a firing incident; the alert's summary under the title when it says more. */
export function firingRoot(
  title: string,
  detail: string | undefined,
  note?: Mrkdwn,
  alertNames: readonly string[] = [],
): ThreadMessage {
  const lines = [mrkdwn`:rotating_light: *Firing:* ${title}`];
  if (detail !== undefined && saysMore(detail, alertNames)) lines.push(escapeMrkdwn(detail));
  const blocks = [section(joinMrkdwn(lines, '\n'))];
  blocks.push(context(note ?? trusted('rollout-doctor is diagnosing; the result follows in this thread.')));
  return { text: mrkdwn`Firing: ${title}`, blocks };
}

/** Root message once every alert of the thread has resolved. */
export function resolvedRoot(title: string, at: string): ThreadMessage {
  return {
    text: mrkdwn`Resolved: ${title}`,
    blocks: [
      section(mrkdwn`:white_check_mark: *Resolved:* ~${title}~`),
      context(mrkdwn`Resolved at ${messageTime(at)}`),
    ],
  };
}

/** The short thread line posted when an incident resolves or fires again. */
export function threadLine(kind: 'resolved' | 'refiring', at: string): ThreadMessage {
  const text =
    kind === 'resolved'
      ? mrkdwn`:white_check_mark: Resolved at ${messageTime(at)}`
      : mrkdwn`:rotating_light: Firing again at ${messageTime(at)}`;
  return { text, blocks: [section(text)] };
}

/**
 * Notes for the root message: truncated groups and where to see all alerts. `linkHosts`:
 * the operator's Alertmanager and Prometheus hosts (ROLLOUT_DOCTOR_ALERT_LINK_HOSTS).
 */
export function rootNote(job: AlertThreadJob, linkHosts: readonly string[] = []): Mrkdwn | undefined {
  const parts: Mrkdwn[] = [];
  if (job.truncatedAlerts > 0)
    parts.push(mrkdwn`Alertmanager left out ${job.truncatedAlerts} more alert(s) of this group.`);
  // externalURL comes with the notification, so anyone holding the webhook token
  // chooses it: a link (with our label) only to a host the operator listed; any other
  // is shown as text (scheme defanged), never as a link whose label could say something else.
  if (job.externalURL !== undefined) {
    const link = allowedLink(job.externalURL, 'Alertmanager', linkHosts);
    parts.push(link ? link : mrkdwn`Alertmanager: ${asIs(inlineCode(job.externalURL))}`);
  }
  if (parts.length === 0) return undefined;
  return mrkdwn`rollout-doctor is diagnosing; the result follows in this thread. ${asIs(joinMrkdwn(parts, ' '))}`;
}

/** The one message for the workloads of a notification past the per-notification cap. */
export function overflowMessage(job: AlertOverflowJob): ThreadMessage {
  const names = joinMrkdwn(job.alertNames.map(inlineCode), ', ');
  const namespaces = joinMrkdwn(job.namespaces.map(inlineCode), ', ');
  const perMinute = job.cause === 'minute';
  const text = perMinute
    ? mrkdwn`:warning: More alerted workloads arrived this minute than rollout-doctor opens threads for: ${job.workloads} (${job.firing} firing) in this notification got no thread and no diagnosis, and later ones this minute are only counted in the app's log.`
    : mrkdwn`:warning: One Alertmanager notification named more workloads than rollout-doctor opens threads for: ${job.workloads} more (${job.firing} firing) got no thread and no diagnosis.`;
  const limit = perMinute
    ? mrkdwn`limit ${job.limit} per minute (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE)`
    : mrkdwn`limit ${job.limit} per notification (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS)`;
  return {
    text,
    blocks: [
      section(text),
      context(
        mrkdwn`Alerts: ${asIs(names)}${job.alertNames.length === 10 ? ' …' : ''} · namespaces: ${asIs(namespaces)}${job.namespaces.length === 10 ? ' …' : ''} · ${asIs(limit)}`,
      ),
    ],
  };
}
