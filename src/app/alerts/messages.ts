/**
 * What alert and early-warning threads say, platform-free (src/chat/model.ts): the root
 * of an incident (firing, resolved), the thread lines, the early warning's root and the
 * one summary of a flood past the caps. Every platform's adapter renders them, escaping
 * every text span for its own markup: alert names, labels, summaries and URLs are
 * untrusted text.
 */
import { messageTime } from '../../text/time.js';
import { allowedUrl } from '../../text/allowed-url.js';
import { DEFAULT_WORKLOAD_KIND, typeOfKind } from '../../diagnosis/workload-ref.js';
import type { ChatMessage, Rich } from '../../chat/model.js';
import { br, code, icon, join, link, multiline, plain, rich, say, strong } from '../../message/rich.js';
import type { AlertOverflowJob, AlertThreadJob } from '../../queue/alert-jobs.js';
import type { NotifyJob } from '../../queue/schemas.js';
import { cleanText } from '../../text/clean.js';
import { clip } from '../../text/sentences.js';

export type AdmissionWarningJob = Extract<NotifyJob, { kind: 'admission-warning' }>;

/** "shop/web (cluster prod)" — the workload as the root message names it. */
function workloadLabel(w: AlertThreadJob['workload']): string {
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

/** What the root of a thread being diagnosed says under it. */
const DIAGNOSING = 'rollout-doctor is diagnosing; the result follows in this thread.';

/**
 * Root message of a firing incident: the title, the alert's summary under it when it
 * says more (its own lines kept), and the note (rootNote) or that the result follows.
 */
export function firingRootMessage(
  title: string,
  detail: string | undefined,
  alertNames: readonly string[] = [],
  note?: Rich,
): ChatMessage {
  const headline = say`${icon('alert')} ${strong('Firing:')} ${title}`;
  const verdict =
    detail !== undefined && saysMore(detail, alertNames) ? rich(headline, br, multiline(detail)) : headline;
  return {
    summary: say`Firing: ${title}`,
    parts: [
      { kind: 'paragraph', text: verdict, role: 'verdict' },
      { kind: 'note', text: note ?? plain(DIAGNOSING) },
    ],
  };
}

/** Root message once every alert of the thread has resolved. */
export function resolvedRootMessage(title: string, at: string): ChatMessage {
  return {
    summary: say`Resolved: ${title}`,
    parts: [
      { kind: 'paragraph', text: say`${icon('ok')} ${strong('Resolved:')} ${title}`, role: 'verdict' },
      { kind: 'note', text: say`Resolved at ${messageTime(at)}` },
    ],
  };
}

/** The short thread line posted when an incident resolves or fires again. */
export function threadLineMessage(kind: 'resolved' | 'refiring', at: string): ChatMessage {
  const text =
    kind === 'resolved'
      ? say`${icon('ok')} Resolved at ${messageTime(at)}`
      : say`${icon('alert')} Firing again at ${messageTime(at)}`;
  return { summary: text, parts: [{ kind: 'paragraph', text }] };
}

/**
 * The root's note: truncated groups and where to see all alerts. The notification's
 * externalURL is a link (with our label) only to a host the operator listed
 * (`linkHosts`, ROLLOUT_DOCTOR_ALERT_LINK_HOSTS); any other is shown as code, never as
 * a link whose label could say something else. Undefined when there is nothing to add.
 */
export function rootNote(job: AlertThreadJob, linkHosts: readonly string[] = []): Rich | undefined {
  const parts: Rich[] = [];
  if (job.truncatedAlerts > 0)
    parts.push(say`Alertmanager left out ${job.truncatedAlerts} more alert(s) of this group.`);
  if (job.externalURL !== undefined) {
    const href = allowedUrl(job.externalURL, linkHosts);
    parts.push(href ? rich(link(href, 'Alertmanager')) : say`Alertmanager: ${code(job.externalURL)}`);
  }
  if (parts.length === 0) return undefined;
  return rich(plain(`${DIAGNOSING} `), join(parts, ' '));
}

/** The root of an early-warning thread: what the watch found before any alert fired. */
export function earlyWarningRootMessage(title: string, summary: string): ChatMessage {
  return {
    summary: say`Early warning: ${title}`,
    parts: [
      {
        kind: 'paragraph',
        text: rich(say`${icon('warning')} ${strong('Early warning:')} ${title}`, br, multiline(summary)),
        role: 'verdict',
      },
      { kind: 'note', text: plain('Found by the rollout-doctor watch before any alert fired.') },
    ],
  };
}

/** A user name from an AdmissionReview, as a thread shows it: one clean line of at most 64 characters. */
function appliedBy(user: string): string {
  const name = cleanText(user, { singleLine: true }).trim();
  return name === '' ? 'an unnamed user' : clip(name, 64);
}

/**
 * The root of a thread the admission webhook opened: a warned apply, before the rollout
 * has started. The user, the names and the reason are untrusted text (text spans).
 */
export function admissionWarningRootMessage(job: AdmissionWarningJob): ChatMessage {
  const { workload } = job;
  const ref = `${typeOfKind(workload.kind)}/${workload.name}`;
  const headline = say`A rollout that can never finish was just applied to ${ref} by ${appliedBy(job.user)}`;
  const where = say`Namespace ${workload.namespace}, cluster ${job.cluster}.`;
  const why = job.reason !== undefined ? say` It cannot finish: ${clip(job.reason, 300)}.` : plain('');
  const fix = job.fix !== undefined ? say` ${clip(job.fix, 100)} would let it.` : plain('');
  return {
    summary: headline,
    parts: [
      {
        kind: 'paragraph',
        text: rich(
          icon('warning'),
          plain(' '),
          strong('Before the rollout:'),
          plain(' '),
          headline,
          br,
          where,
          why,
          fix,
        ),
        role: 'verdict',
      },
      {
        kind: 'note',
        text: plain(
          'Warned by the rollout-doctor admission webhook as the change was applied, and posted once the cluster showed the change; the diagnosis follows here.',
        ),
      },
    ],
  };
}

/** The one line per channel and minute for early warnings past the shared thread budget. */
export function earlyWarningOverflowMessage(limit: number, first: string): ChatMessage {
  const text = say`${icon('warning')} More new incident threads this minute than rollout-doctor opens: the early warning for ${first} got no thread, and later ones this minute are only counted in the app's log (limit ${limit} per minute for alert and early-warning threads together, ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE).`;
  return { summary: text, parts: [{ kind: 'paragraph', text }] };
}

/** The one line per channel and minute for warned applies past their own thread budget. */
export function admissionOverflowMessage(limit: number, first: string): ChatMessage {
  const text = say`${icon('warning')} More warned applies this minute than rollout-doctor opens threads for: ${first} got no thread, and later ones this minute are only counted in the app's log (limit ${limit} per minute for warned applies, ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE; alerts have their own).`;
  return { summary: text, parts: [{ kind: 'paragraph', text }] };
}

/**
 * Posted in a thread a warned apply opened when the first real alert joins it: the
 * root came from the admission webhook, and was only a warning.
 */
export function admissionJoinMessage(title: string): ChatMessage {
  const text = say`${icon('alert')} Alert firing: ${title}. This thread was opened by the admission webhook's announcement of an apply; what its first message says was a warning at apply time, not an alert. The alert's diagnosis follows here.`;
  return { summary: text, parts: [{ kind: 'paragraph', text }] };
}

/** The one summary of the workloads of a notification (or minute) past the caps. */
export function overflowMessage(job: AlertOverflowJob): ChatMessage {
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
