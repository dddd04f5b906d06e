/**
 * A run's messages in the chat port's model (src/chat/model.ts), for every platform:
 * the "diagnosing…" line, the result (verdict, decisive evidence, the recommended fix
 * with its impact, Apply buttons naming the plan as shown and who asked, Re-run,
 * Dismiss), a failed run or a scan, and the thread report under a result. Cluster
 * text is only ever interpolated into `say` (text spans): each adapter escapes it.
 *
 * Slack renders results with its richer Block Kit builders (src/chat/slack/blocks/),
 * which share the plain-text pieces (./plan-text.ts, ./confirm-text.ts); the Teams
 * adapter renders these messages as Adaptive Cards.
 */
import { DEFAULT_WORKLOAD_KIND, typeOfKind, type WorkloadKind } from '../../diagnosis/workload-ref.js';
import type { Evidence, Finding } from '../../diagnosis/finding.js';
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { DryRunSummary } from '../../queue/plan-store.js';
import type { DiagnosisOutcome, RunUpdate } from '../../queue/schemas.js';
import { messageTime } from '../../text/time.js';
import { shownDigest, type ShownPlan } from '../../trust/plan-seal.js';
import type { Requester } from '../actions.js';
import type { Button, ChatMessage, Icon, Part, Rich } from '../model.js';
import { icon, join, plain, say } from '../rich.js';
import { confirmDialogText } from './confirm-text.js';
import { approversText } from './outcome.js';
import { clip, dryRunText, firstSentence, headline, patchText, recommendedPlan } from './plan-text.js';

/** Where a plan stands, as the message shows it. */
export type PlanView =
  | { state: 'open'; expiresAt: number; approvals?: number; required?: number }
  | { state: 'expired' }
  | { state: 'claimed'; approvers: string[]; at: number };

/** A message and, under a final result, its thread report. */
export interface RunMessages {
  message: ChatMessage;
  thread: ChatMessage[];
}

export interface ResultInput {
  cluster: string;
  diagnosis: Diagnosis;
  dryRuns: Record<string, DryRunSummary>;
  plans: Record<string, PlanView>;
  /** The plan approved on this message (its other plans are withdrawn). */
  approvedPlan?: string;
  /** Who asked for the run in this message (NO_REQUESTER: nobody); null: not known. */
  requester: Requester | null;
  /** The platform of the people the message names (approvers). */
  platform: string;
  /** The approval policy's names of approvers, for platforms that cannot show ids (outcome.ts approversText). */
  names?: Readonly<Record<string, string>>;
}

const SEVERITY: Record<string, Icon> = { critical: 'red', warning: 'orange', info: 'blue' };

/** The plans in the order offered (the recommended first), each with its dry run. */
function orderedPlans(input: Pick<ResultInput, 'cluster' | 'diagnosis' | 'dryRuns'>): ShownPlan[] {
  const first = recommendedPlan(input.diagnosis);
  const rest = input.diagnosis.remediations.filter((p) => p.id !== first?.id);
  return [...(first ? [first] : []), ...rest].map((plan) => ({
    plan,
    cluster: input.cluster,
    ...(input.dryRuns[plan.id] ? { dryRun: input.dryRuns[plan.id] } : {}),
  }));
}

/** One decisive line of evidence, plain; null for evidence only the thread report shows. */
function evidenceLine(e: Evidence): Rich | null {
  switch (e.type) {
    case 'scheduling':
      return say`${icon('calendar')} Scheduler: ${clip(firstSentence(e.message), 200)}`;
    case 'condition':
      return say`${icon('progress')} ${`${e.condition}=${e.status}`}${e.reason ? ` (${e.reason})` : ''}${e.message ? `: ${clip(firstSentence(e.message), 160)}` : ''}`;
    case 'note':
      return say`${icon('note')} ${clip(firstSentence(e.text), 200)}`;
    case 'quota':
      return say`${icon('balance')} ResourceQuota ${e.quota}: ${e.rows
        .slice(0, 2)
        .map((r) => `${r.resource} ${r.used} of ${r.hard} used, a new pod asks ${r.requested}`)
        .join('; ')}`;
    case 'pods':
      return say`${icon('inspect')} ${e.title}: ${e.pods
        .slice(0, 3)
        .map((p) => p.name)
        .join(', ')}${e.pods.length > 3 ? ` and ${e.pods.length - 3} more` : ''}`;
    case 'node-diff':
      return e.clue?.text ? say`${icon('log')} Log clue: ${clip(e.clue.text, 160)}` : null;
    default:
      return null;
  }
}

/** The whole of one evidence item, for the thread report. */
function evidencePart(e: Evidence): Part | null {
  if (e.type === 'log') return { kind: 'code', title: say`Log of ${e.pod}/${e.container}`, body: e.tail };
  const line = evidenceLine(e);
  if (line) return { kind: 'paragraph', text: line };
  return { kind: 'code', title: say`Evidence: ${e.type}`, body: JSON.stringify(e, null, 2) };
}

function verdict(diagnosis: Diagnosis): Rich {
  const t = diagnosis.target;
  const top = diagnosis.findings[0];
  const what = `${typeOfKind(t.kind)}/${t.name}`;
  if (!top && diagnosis.analyzerErrors.length > 0)
    return say`${icon('warning')} ${what} in ${t.namespace}: no verdict, some checks failed.`;
  if (!top) return say`${icon('ok')} ${what} in ${t.namespace}: no problem found.`;
  return say`${icon(SEVERITY[top.severity] ?? 'unknown')} ${top.code}: ${headline(top.summary)}`;
}

/** The Apply (or status) button of one plan, as the viewer's card shows it. */
function planButton(shown: ShownPlan, view: PlanView, primary: boolean, requester: Requester | null): Button {
  const { plan } = shown;
  if (view.state === 'expired')
    return { label: `Expired: ${plan.kind} (re-run)`, action: { kind: 'status', planId: plan.id } };
  if (view.state === 'claimed')
    return { label: `Approved: ${plan.kind}`, action: { kind: 'status', planId: plan.id } };
  const counted =
    view.required && view.required > 1 ? ` (${view.approvals ?? 0}/${view.required} approvals)` : '';
  return {
    label: `Apply: ${plan.kind}${counted}`,
    action: { kind: 'approve', planId: plan.id, shown: shownDigest(shown), requester },
    ...(primary ? { style: 'primary' as const } : {}),
    confirm: {
      title: `Apply ${plan.kind} to ${plan.target.name}?`,
      text: confirmDialogText(plan),
      yes: 'Apply it',
      no: 'Cancel',
    },
  };
}

function resultButtons(cluster: string, target: ResultTarget | null, buttons: Button[]): Part {
  const all = [...buttons];
  if (target)
    all.push({
      label: 'Re-run',
      action: {
        kind: 'rerun',
        cluster,
        target: {
          namespace: target.namespace,
          name: target.name,
          kind: target.kind ?? DEFAULT_WORKLOAD_KIND,
        },
      },
    });
  all.push({ label: 'Dismiss', action: { kind: 'dismiss' } });
  return { kind: 'actions', buttons: all };
}

type ResultTarget = { namespace: string; name: string; kind?: WorkloadKind };

/** The result of a diagnosis, and its thread report. */
export function resultMessage(input: ResultInput): RunMessages {
  const { cluster, diagnosis } = input;
  const t = diagnosis.target;
  const top: Finding | undefined = diagnosis.findings[0];
  const plans = orderedPlans(input).slice(0, 20);
  const claimed = input.approvedPlan ? plans.find((p) => p.plan.id === input.approvedPlan) : undefined;
  const parts: Part[] = [
    { kind: 'paragraph', text: verdict(diagnosis), role: 'verdict' },
    {
      kind: 'note',
      text: say`${typeOfKind(t.kind)}/${t.name} · namespace ${t.namespace} · cluster ${cluster} · captured ${messageTime(diagnosis.capturedAt)}`,
    },
  ];
  const evidence = (top?.evidence ?? [])
    .map(evidenceLine)
    .filter((l): l is Rich => l !== null)
    .slice(0, 5);
  if (evidence.length > 0) parts.push({ kind: 'paragraph', text: join(evidence, '\n') });
  const recommended = plans[0];
  if (recommended && !claimed) {
    const { plan, dryRun } = recommended;
    parts.push({
      kind: 'paragraph',
      text: say`${icon('fix')} Recommended fix: ${firstSentence(plan.summary)}\nImpact: ${clip(firstSentence(plan.impact), 220)}`,
    });
    if (dryRun && !dryRun.ok)
      parts.push({
        kind: 'note',
        text: say`${icon('warning')} The server-side dry run refused it: ${clip(firstSentence(dryRun.reason), 200)}`,
      });
  }
  const others = diagnosis.findings.slice(1);
  if (others.length > 0)
    parts.push({
      kind: 'note',
      text: say`Also found: ${others
        .slice(0, 3)
        .map((f) => f.code)
        .join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}`,
    });
  const buttons: Button[] = [];
  plans.forEach((shown, i) => {
    if (claimed && shown.plan.id !== claimed.plan.id) return;
    const view = input.plans[shown.plan.id] ?? { state: 'expired' };
    if (view.state === 'claimed') {
      const who = approversText(input.platform, view.approvers, input.names);
      parts.push({
        kind: 'paragraph',
        text: say`${icon('ok')} ${shown.plan.kind} approved by ${who} at ${messageTime(view.at)}`,
        role: 'state',
      });
    }
    buttons.push(planButton(shown, view, i === 0, input.requester));
  });
  const thread = threadReport(input, plans);
  if (thread.length > 0)
    parts.push({
      kind: 'note',
      text: say`${icon('thread')} Full evidence, every dry run and exact patch: in the thread.`,
    });
  parts.push(resultButtons(cluster, t, buttons));
  const summary = top
    ? say`${typeOfKind(t.kind)}/${t.name} in ${t.namespace}: ${top.code}: ${headline(top.summary)}`
    : say`${typeOfKind(t.kind)}/${t.name} in ${t.namespace}: ${diagnosis.analyzerErrors.length > 0 ? 'no verdict, some checks failed' : 'no problem found'}`;
  return { message: { summary, parts }, thread };
}

/** Every finding whole, every plan with its dry run and exact patch: one reply in the thread. */
function threadReport(input: ResultInput, plans: ShownPlan[]): ChatMessage[] {
  const { diagnosis } = input;
  const t = diagnosis.target;
  if (diagnosis.findings.length === 0 && plans.length === 0 && diagnosis.analyzerErrors.length === 0)
    return [];
  const parts: Part[] = [
    {
      kind: 'paragraph',
      text: say`${icon('report')} Full report for ${typeOfKind(t.kind)}/${t.name} in ${t.namespace} (cluster ${input.cluster}, captured ${messageTime(diagnosis.capturedAt)})`,
    },
  ];
  diagnosis.findings.forEach((f, i) => {
    parts.push({
      kind: 'paragraph',
      text: say`${icon(SEVERITY[f.severity] ?? 'unknown')} ${`${i + 1}. ${f.code}`}: ${f.summary}`,
    });
    if (f.explanation) parts.push({ kind: 'paragraph', text: say`${f.explanation}` });
    for (const e of f.evidence) {
      const part = evidencePart(e);
      if (part) parts.push(part);
    }
  });
  plans.forEach(({ plan, dryRun }, i) => {
    parts.push({
      kind: 'paragraph',
      text: say`${icon('fix')} Fix ${String(i + 1)}${i === 0 ? ' (recommended)' : ''}: ${plan.kind}. ${plan.summary}\nImpact: ${plan.impact}`,
    });
    for (const w of plan.warnings) parts.push({ kind: 'note', text: say`${icon('warning')} ${w}` });
    parts.push({ kind: 'code', title: plain('Server-side dry run'), body: dryRunText(dryRun) });
    parts.push({ kind: 'code', title: say`Exact change of ${plan.id}`, body: patchText(plan), whole: true });
  });
  for (const e of diagnosis.analyzerErrors)
    parts.push({ kind: 'note', text: say`${icon('warning')} Check failed: ${e.analyzer}: ${e.message}` });
  return [{ summary: say`Full report for ${typeOfKind(t.kind)}/${t.name} in ${t.namespace}`, parts }];
}

type Finished = Exclude<DiagnosisOutcome, { status: 'diagnosed' }>;

/** A failed run (with Re-run) or a finished scan. A name that does not exist says what is close. */
export function outcomeMessage(cluster: string, outcome: Finished, rerun: ResultTarget | null): ChatMessage {
  if (outcome.status === 'failed' && outcome.notFound) {
    const nf = outcome.notFound;
    const type = typeOfKind(nf.kind ?? rerun?.kind ?? DEFAULT_WORKLOAD_KIND);
    const names = nf.suggestions.map((n) => `${type}/${n}`).join(', ');
    const text = say`${icon('inspect')} ${type}/${nf.name} not found in namespace ${nf.namespace} (cluster ${cluster})${names ? `; did you mean ${names}?` : '; check the kind, the name and the namespace.'}`;
    return { summary: text, parts: [] };
  }
  if (outcome.status === 'failed') {
    const text = say`Diagnosis failed: ${clip(outcome.reason, 500)}`;
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
        say`${`${i.namespace}/${typeOfKind(i.kind ?? DEFAULT_WORKLOAD_KIND)}/${i.name}`} ${i.code}: ${clip(i.summary, 150)}`,
    );
  const text = say`Scan: ${clip(outcome.summary, 500)}`;
  return {
    summary: text,
    parts: [
      { kind: 'paragraph', text: say`${icon('inspect')} ${text}` },
      ...(rows.length > 0 ? [{ kind: 'paragraph' as const, text: join(rows, '\n') }] : []),
      { kind: 'note', text: say`cluster ${cluster}` },
      resultButtons(cluster, rerun, []),
    ],
  };
}

/** The "diagnosing…" message while a run is in progress. */
export function progressMessage(progress: string): ChatMessage {
  const text = say`${icon('waiting')} ${clip(progress, 500)}`;
  return { summary: say`${clip(progress, 500)}`, parts: [{ kind: 'paragraph', text }] };
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
    });
  return { message: outcomeMessage(update.cluster, outcome, update.target ?? null), thread: [] };
}
