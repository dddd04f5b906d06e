import type { AlertThreadJob } from './jobs.js';

/** A Slack message as chat.postMessage / chat.update take it. */
export interface ThreadMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

/** Slack mrkdwn needs &, < and > escaped in text that comes from alert labels. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** "shop/web (cluster prod)" — the workload as the root message names it. */
export function workloadLabel(w: AlertThreadJob['workload']): string {
  const name = w.deployment !== undefined ? `deployment/${w.deployment}` : `pod/${w.pods[0] ?? '?'}`;
  return `${w.namespace}/${name} (cluster ${w.cluster})`;
}

/** Headline of a thread opened by an alert: alert names and the workload. */
export function alertTitle(job: AlertThreadJob): string {
  return `${job.alertNames.join(', ')} on ${workloadLabel(job.workload)}`;
}

function section(text: string): Record<string, unknown> {
  return { type: 'section', text: { type: 'mrkdwn', text: text.slice(0, 3000) } };
}

function context(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: text.slice(0, 3000) }] };
}

/** Root message of a firing incident. */
export function firingRoot(title: string, detail: string | undefined, note?: string): ThreadMessage {
  const lines = [`:rotating_light: *Firing:* ${escapeMrkdwn(title)}`];
  if (detail !== undefined) lines.push(escapeMrkdwn(detail));
  const blocks = [section(lines.join('\n'))];
  blocks.push(context(note ?? 'rollout-doctor is diagnosing; the result follows in this thread.'));
  return { text: `Firing: ${title}`, blocks };
}

/** Root message once every alert of the thread has resolved. */
export function resolvedRoot(title: string, at: string): ThreadMessage {
  return {
    text: `Resolved: ${title}`,
    blocks: [
      section(`:white_check_mark: *Resolved:* ~${escapeMrkdwn(title)}~`),
      context(`Resolved at ${at}`),
    ],
  };
}

/** The short thread line posted when an incident resolves or fires again. */
export function threadLine(kind: 'resolved' | 'refiring', at: string): ThreadMessage {
  const text =
    kind === 'resolved' ? `:white_check_mark: Resolved at ${at}` : `:rotating_light: Firing again at ${at}`;
  return { text, blocks: [section(text)] };
}

/** Notes for the root message: truncated groups and where to see all alerts. */
export function rootNote(job: AlertThreadJob): string | undefined {
  const parts: string[] = [];
  if (job.truncatedAlerts > 0)
    parts.push(`Alertmanager left out ${job.truncatedAlerts} more alert(s) of this group.`);
  if (job.externalURL !== undefined) parts.push(`<${job.externalURL}|Alertmanager>`);
  if (parts.length === 0) return undefined;
  return `rollout-doctor is diagnosing; the result follows in this thread. ${parts.join(' ')}`;
}
