import type { Diagnosis } from '../../diagnosis/diagnosis.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { DiagnosisOutcome } from '../../queue/schemas.js';
import type { DryRunSummary } from '../../plans/store.js';
import { ACTION, rerunValue } from './action-ids.js';
import { evidenceBlock } from './evidence.js';
import { approvalLine, planButton, planSection, showsWholePatch, type PlanView } from './plan-blocks.js';
import { asIs, codeBlock, escapeMrkdwn, joinMrkdwn, mrkdwn, trusted, type Mrkdwn } from './mrkdwn.js';
import { LIMITS, context, plain, section, truncate, type Block } from './text.js';

/** Slack refuses messages far below the per-block limits (~13k characters in blocks). */
export const MAX_BLOCKS_CHARS = 11_000;

export interface RenderedMessage {
  /** The notification fallback: Slack parses `<…>` in it as in mrkdwn, so it is Mrkdwn too. */
  text: Mrkdwn;
  blocks: Block[];
  /** True when evidence was cut: post the full report as a thread reply. */
  truncated: boolean;
}

const SEVERITY_ICON: Record<string, string> = {
  critical: ':red_circle:',
  warning: ':large_orange_circle:',
  info: ':large_blue_circle:',
};

function icon(severity: string): Mrkdwn {
  return trusted(SEVERITY_ICON[severity] ?? '');
}

function verdict(diagnosis: Diagnosis): Mrkdwn {
  const t = diagnosis.target;
  const top = diagnosis.findings[0];
  if (!top && diagnosis.analyzerErrors.length > 0)
    return mrkdwn`:warning: *deployment/${t.name}* in *${t.namespace}*: no verdict, some checks failed.`;
  if (!top) return mrkdwn`:white_check_mark: *deployment/${t.name}* in *${t.namespace}*: no problem found.`;
  return mrkdwn`${asIs(icon(top.severity))} *${top.code}*: ${top.summary}`;
}

/** A finding's blocks; the first finding's summary is already the verdict, so only its explanation follows. */
function findingBlocks(finding: Finding, withEvidence: boolean, isVerdict: boolean): Block[] {
  const summary = mrkdwn`${asIs(icon(finding.severity))} *${finding.code}*: ${finding.summary}`;
  const explanation = finding.explanation ? escapeMrkdwn(truncate(finding.explanation, 600)) : trusted('');
  const headText = isVerdict ? explanation : joinMrkdwn([summary, explanation].filter(Boolean), '\n');
  const head = headText ? [section(headText)] : [];
  if (!withEvidence) return head;
  return [...head, ...finding.evidence.map(evidenceBlock).filter((b): b is Block => b !== null)];
}

/**
 * The result message: verdict first, evidence next, then one button per plan
 * (confirm dialog with the exact patch and impact), Re-run and Dismiss. Evidence is
 * dropped from the least important finding up until the message fits.
 */
export function renderDiagnosis(input: {
  cluster: string;
  diagnosis: Diagnosis;
  dryRuns: Record<string, DryRunSummary>;
  plans: Record<string, PlanView>;
}): RenderedMessage {
  const { cluster, diagnosis } = input;
  const t = diagnosis.target;
  const text = diagnosis.findings[0]
    ? mrkdwn`deployment/${t.name} in ${t.namespace}: ${diagnosis.findings[0].code}: ${truncate(diagnosis.findings[0].summary, 200)}`
    : diagnosis.analyzerErrors.length > 0
      ? mrkdwn`deployment/${t.name} in ${t.namespace}: no verdict, some checks failed`
      : mrkdwn`deployment/${t.name} in ${t.namespace}: no problem found`;
  const header = [
    section(verdict(diagnosis)),
    context(
      mrkdwn`deployment/${t.name} · namespace ${t.namespace} · cluster ${cluster} · captured ${diagnosis.capturedAt}${diagnosis.analyzerErrors.length ? ` · ${diagnosis.analyzerErrors.length} analyzer(s) failed` : ''}`,
    ),
  ];

  const plans = diagnosis.remediations.slice(0, 20);
  const planBlocks: Block[] = [];
  // A plan whose patch the message cannot show whole (or a plan past the 20 shown)
  // sends the reader to the full report, so the report must then be posted.
  let patchCut = diagnosis.remediations.length > plans.length;
  for (const plan of plans) {
    const view = input.plans[plan.id] ?? { state: 'expired' as const };
    const block = planSection(plan, input.dryRuns[plan.id]);
    if (!showsWholePatch(block, plan)) patchCut = true;
    planBlocks.push(block);
    const line = approvalLine(plan, view);
    if (line) planBlocks.push(line);
  }
  const actions = resultActions(
    plans.map((plan, i) => planButton(plan, i, input.plans[plan.id] ?? { state: 'expired' })),
    cluster,
    t,
  );

  const findings = diagnosis.findings;
  // Try full evidence for all findings, then only for the first k, then none.
  for (let withEvidence = findings.length; withEvidence >= 0; withEvidence -= 1) {
    const body = findings.slice(0, 10).flatMap((f, i) => findingBlocks(f, i < withEvidence, i === 0));
    const truncated = withEvidence < findings.length || findings.length > 10 || patchCut;
    const note = truncated
      ? [
          context(
            trusted(
              ':page_facing_up: Some evidence or a patch did not fit; the full report is in the thread.',
            ),
          ),
        ]
      : [];
    const blocks = [...header, ...body, ...note, ...planBlocks, actions];
    if (blocks.length <= LIMITS.blocks && JSON.stringify(blocks).length <= MAX_BLOCKS_CHARS)
      return { text, blocks, truncated };
  }
  // Still too big (many plans): keep verdict, the plan buttons and a pointer to the thread.
  const blocks = [...header, context(trusted(':page_facing_up: The full report is in the thread.')), actions];
  return { text, blocks, truncated: true };
}

/** The result's actions block: the given buttons, then Re-run (when there is a target) and Dismiss. */
function resultActions(
  buttons: Block[],
  cluster: string,
  rerun: { namespace: string; name: string } | null,
): Block {
  const elements = [...buttons];
  if (rerun)
    elements.push({
      type: 'button',
      action_id: ACTION.rerun,
      text: plain('Re-run', LIMITS.buttonText),
      value: rerunValue(cluster, rerun.namespace, rerun.name),
    });
  elements.push({
    type: 'button',
    action_id: ACTION.dismiss,
    text: plain('Dismiss', LIMITS.buttonText),
    value: 'dismiss',
  });
  return { type: 'actions', block_id: 'result_actions', elements };
}

/** A finished scan or a failed diagnosis. */
export function renderOutcome(
  cluster: string,
  outcome: Exclude<DiagnosisOutcome, { status: 'diagnosed' }>,
  rerun: { namespace: string; name: string } | null,
): RenderedMessage {
  const actions = resultActions([], cluster, rerun);
  if (outcome.status === 'failed') {
    const text = mrkdwn`Diagnosis failed: ${truncate(outcome.reason, 500)}`;
    return {
      text,
      blocks: [section(mrkdwn`:x: ${asIs(text)}`), context(mrkdwn`cluster ${cluster}`), actions],
      truncated: false,
    };
  }
  const rows = outcome.items
    .slice(0, 20)
    .map((i) => mrkdwn`• *${i.namespace}/${i.name}* ${i.code}: ${truncate(i.summary, 150)}`);
  const text = mrkdwn`Scan: ${truncate(outcome.summary, 500)}`;
  const blocks = [
    section(mrkdwn`:mag: ${asIs(text)}`),
    ...(rows.length ? [section(joinMrkdwn(rows, '\n'))] : []),
    ...(outcome.items.length > 20 ? [context(mrkdwn`… ${outcome.items.length - 20} more`)] : []),
    context(mrkdwn`cluster ${cluster}`),
    actions,
  ];
  return { text, blocks, truncated: false };
}

/** The "diagnosing…" message while a run is in progress. */
export function renderProgress(progress: string): RenderedMessage {
  const text = escapeMrkdwn(truncate(progress, 500));
  return { text, blocks: [section(mrkdwn`:hourglass_flowing_sand: ${asIs(text)}`)], truncated: false };
}

/**
 * The thread reply holding the full plain-text report of a cut message. The report
 * carries cluster text, so it goes in as an unbreakable code block (./mrkdwn.ts),
 * within Slack's 40,000-character message limit.
 */
export function fullReportReply(report: string): Mrkdwn {
  return mrkdwn`Full report:\n${asIs(codeBlock(report, 35_000))}`;
}
