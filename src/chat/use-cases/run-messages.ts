/**
 * A run's messages in the port's model, whatever the run came to: its result
 * (result.ts resultMessage), a failed run (with Re-run, or the names close to one that
 * does not exist), a finished scan, or the "diagnosing…" message while it runs.
 */
import {
  DEFAULT_WORKLOAD_KIND,
  titleOfKind,
  typeOfKind,
  type WorkloadKind,
} from '../../diagnosis/workload-ref.js';
import type { Lang } from '../../i18n/lang.js';
import type { DiagnosisOutcome, RunUpdate } from '../../queue/schemas.js';
import type { Requester } from '../actions.js';
import type { ChatMessage, Rich } from '../model.js';
import { clip as cut, code, icon, join, multiline, say, strong } from '../../message/rich.js';
import {
  resultButtons,
  resultMessage,
  type PlanView,
  type ResultTarget,
  type RunMessages,
} from './result.js';

type NotFound = NonNullable<Extract<DiagnosisOutcome, { status: 'failed' }>['notFound']>;

/**
 * The answer to a workload name that does not exist, with the closest names of the kind
 * looked for the worker found in the namespace: "daemonset/nod-agent not found in
 * namespace telemetry (cluster prod); did you mean daemonset/node-agent?" The kind is
 * the one the worker looked for (`notFound.kind`), else the run's, else a Deployment.
 */
export function notFoundText(cluster: string, notFound: NotFound, runKind?: WorkloadKind): Rich {
  const kind = notFound.kind ?? runKind ?? DEFAULT_WORKLOAD_KIND;
  const type = typeOfKind(kind);
  const head = say`${icon('inspect')} ${type}/${notFound.name} not found in namespace ${notFound.namespace} (cluster ${cluster})`;
  const names = notFound.suggestions.map((n) => say`${strong(`${type}/${n}`)}`);
  if (names.length === 0)
    return say`${head}; no ${titleOfKind(kind)} there has a similar name. Check the kind, the name and the namespace (${code('-n')}).`;
  const last = names.at(-1) ?? say``;
  const options = names.length === 1 ? last : say`${join(names.slice(0, -1), ', ')} or ${last}`;
  return say`${head}; did you mean ${options}?`;
}

type Finished = Exclude<DiagnosisOutcome, { status: 'diagnosed' }>;

/** A failed run (with Re-run) or a finished scan. A name that does not exist says what is close. */
export function outcomeMessage(cluster: string, outcome: Finished, rerun: ResultTarget | null): ChatMessage {
  // A name that does not exist: Re-run would only fail again.
  if (outcome.status === 'failed' && outcome.notFound) {
    const text = notFoundText(cluster, outcome.notFound, rerun?.kind);
    return { summary: text, parts: [{ kind: 'paragraph', text }] };
  }
  if (outcome.status === 'failed') {
    const text = say`Diagnosis failed: ${cut(outcome.reason, 500)}`;
    return {
      summary: text,
      parts: [
        { kind: 'paragraph', text: say`${icon('failed')} ${text}` },
        { kind: 'note', text: say`cluster ${cluster}` },
        resultButtons(cluster, rerun, []),
      ],
    };
  }
  const rows = outcome.items
    .slice(0, 20)
    .map(
      (i) =>
        say`• ${strong(`${i.namespace}/${typeOfKind(i.kind ?? DEFAULT_WORKLOAD_KIND)}/${i.name}`)} ${i.code}: ${cut(i.summary, 150)}`,
    );
  const text = say`Scan: ${cut(outcome.summary, 500)}`;
  return {
    summary: text,
    parts: [
      { kind: 'paragraph', text: say`${icon('inspect')} ${text}` },
      ...(rows.length > 0 ? [{ kind: 'paragraph' as const, text: join(rows, '\n') }] : []),
      ...(outcome.items.length > 20
        ? [{ kind: 'note' as const, text: say`… ${outcome.items.length - 20} more` }]
        : []),
      { kind: 'note', text: say`cluster ${cluster}` },
      resultButtons(cluster, rerun, []),
    ],
  };
}

/** The "diagnosing…" message while a run is in progress. */
export function progressMessage(progress: string): ChatMessage {
  const text = multiline(cut(progress, 500));
  return { summary: text, parts: [{ kind: 'paragraph', text: say`${icon('waiting')} ${text}` }] };
}

/** A run's latest update as port messages, plan states as given. */
export function runMessages(
  update: RunUpdate,
  views: Record<string, PlanView>,
  message: {
    requester: Requester;
    approvedPlan: string | null;
    platform: string;
    names?: Readonly<Record<string, string>>;
    /** The thread's language (whoever started it); absent: English. */
    lang?: Lang;
    /** As ResultInput.proposeInGit. */
    proposeInGit?: boolean;
  },
): RunMessages {
  if (update.kind === 'diagnosis-progress') return { message: progressMessage(update.text), thread: [] };
  const { outcome } = update;
  if (outcome.status === 'diagnosed')
    return resultMessage({
      cluster: update.cluster,
      diagnosis: outcome.diagnosis,
      dryRuns: outcome.dryRuns,
      plans: views,
      requester: message.requester,
      platform: message.platform,
      ...(message.names ? { names: message.names } : {}),
      ...(message.approvedPlan ? { approvedPlan: message.approvedPlan } : {}),
      ...(message.lang ? { lang: message.lang } : {}),
      ...(message.proposeInGit ? { proposeInGit: true } : {}),
    });
  return { message: outcomeMessage(update.cluster, outcome, update.target ?? null), thread: [] };
}
