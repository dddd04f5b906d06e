import {
  DEFAULT_WORKLOAD_KIND,
  titleOfKind,
  typeOfKind,
  type WorkloadKind,
} from '../../../diagnosis/workload-ref.js';
import { messageTime } from '../../../text/time.js';
import type { Diagnosis } from '../../../engine/diagnosis.js';
import type { Evidence, Finding } from '../../../diagnosis/finding.js';
import type { RemediationPlan } from '../../../remediation/plan.js';
import type { DiagnosisOutcome } from '../../../queue/schemas.js';
import type { ShownPlan } from '../../../trust/plan-seal.js';
import type { DryRunSummary } from '../../../queue/plan-store.js';
import { ACTION, ROOT_BLOCK, rerunValue, type Requester, type RerunTarget } from './action-ids.js';
import { clueLine, clueOf, evidenceBlocks, evidenceLine } from './evidence.js';
import { clip, firstSentence, headline, recommendedPlan } from '../../use-cases/plan-text.js';

export { headline, recommendedPlan } from '../../use-cases/plan-text.js';
import { approvalLine, driftLine, planButton, planDetailBlocks, type PlanView } from './plan-blocks.js';
import { asIs, escapeMrkdwn, joinMrkdwn, mrkdwn, trusted, type Mrkdwn } from './mrkdwn.js';
import {
  LIMITS,
  codeSections,
  context,
  plain,
  proseSections,
  section,
  truncate,
  type Block,
} from './text.js';

/** Slack refuses messages far below the per-block limits (~13k characters in blocks). */
export const MAX_BLOCKS_CHARS = 11_000;
/** Blocks per thread-report message: below Slack's 50, with room for the part line. */
const THREAD_BLOCKS = 45;

/** One Slack message: fallback text (parsed like mrkdwn by Slack, so Mrkdwn too) and blocks. */
export interface SlackMessage {
  text: Mrkdwn;
  blocks: Block[];
}

export interface RenderedMessage extends SlackMessage {
  /**
   * The thread report posted under a final result: full explanations, every evidence
   * item whole, every plan with its dry run and exact patch. Split over as many
   * messages as Slack's limits need; empty when there is nothing more to say.
   */
  thread: SlackMessage[];
}

const SEVERITY_ICON: Record<string, string> = {
  critical: ':red_circle:',
  warning: ':large_orange_circle:',
  info: ':large_blue_circle:',
};

function icon(severity: string): Mrkdwn {
  return trusted(SEVERITY_ICON[severity] ?? '');
}

const TOOL_NAMES: Record<string, string> = {
  argocd: 'Argo CD application',
  'flux-kustomize': 'Flux Kustomization',
  'flux-helm': 'Flux HelmRelease',
  helm: 'Helm release',
  kubectl: 'kubectl apply by',
};

/** "managed by Argo CD application shop" for the context line; null when no owner was seen. */
function managedByPhrase(diagnosis: Diagnosis): Mrkdwn | null {
  const owner = diagnosis.managedBy;
  if (!owner?.tool) return null;
  return mrkdwn`managed by ${TOOL_NAMES[owner.tool] ?? owner.tool} ${owner.name}${owner.namespace ? ` (${owner.namespace})` : ''}`;
}

/** Evidence types in the order they decide a verdict: who holds what, where it crashes, what differs. */
const DECISIVE_ORDER: Evidence['type'][] = [
  'node-capacity',
  'quota',
  'device-health',
  'crash-table',
  'node-diff',
  'log',
  'strategy',
  'scheduling',
  'condition',
  'pods',
  'note',
];
const MAX_EVIDENCE_LINES = 5;
const MAX_EVIDENCE_CHARS = 700;

/** 3 to 5 lines of decisive evidence for the top finding; the log clue follows what differs. */
export function decisiveLines(finding: Finding): Mrkdwn[] {
  const hasClue = finding.evidence.some((e) => clueOf(e) !== undefined);
  const ordered = [...finding.evidence].sort(
    (a, b) => DECISIVE_ORDER.indexOf(a.type) - DECISIVE_ORDER.indexOf(b.type),
  );
  const lines: Mrkdwn[] = [];
  let size = 0;
  for (const evidence of ordered) {
    // The engine's clue is the decisive log line; the raw tail then stays in the thread.
    if (evidence.type === 'log' && hasClue) continue;
    const clue = clueOf(evidence);
    // A clue that points at no difference of the Node objects explains the crash: it
    // comes first, and the differences follow, marked as what it does not point at.
    const candidates =
      clue && clue.pointsAt === undefined
        ? [clueLine(clue), evidenceLine(evidence, { clueElsewhere: true })]
        : [evidenceLine(evidence), ...(clue ? [clueLine(clue)] : [])];
    for (const line of candidates) {
      if (!line || lines.length >= MAX_EVIDENCE_LINES) continue;
      if (lines.length >= 3 && size + line.length > MAX_EVIDENCE_CHARS) continue;
      lines.push(line);
      size += line.length;
    }
  }
  return lines;
}

/**
 * Plans in the order the message offers them (the recommended one first, then the rest
 * as the engine ranked them), each with the dry run shown beside it: the one
 * `ShownPlan` that the message, the thread report, the confirm dialog and the button's
 * digest are all rendered from.
 */
function orderedPlans(input: {
  cluster: string;
  diagnosis: Diagnosis;
  dryRuns: Record<string, DryRunSummary>;
}): ShownPlan[] {
  const { diagnosis } = input;
  const first = recommendedPlan(diagnosis);
  const plans = first ? [first, ...diagnosis.remediations.filter((p) => p.id !== first.id)] : [];
  return plans.map((plan) => ({
    plan,
    cluster: input.cluster,
    ...(input.dryRuns[plan.id] ? { dryRun: input.dryRuns[plan.id] } : {}),
  }));
}

function fallbackText(diagnosis: Diagnosis): Mrkdwn {
  const t = diagnosis.target;
  const top = diagnosis.findings[0];
  if (top)
    return mrkdwn`${typeOfKind(t.kind)}/${t.name} in ${t.namespace}: ${top.code}: ${headline(top.summary)}`;
  return diagnosis.analyzerErrors.length > 0
    ? mrkdwn`${typeOfKind(t.kind)}/${t.name} in ${t.namespace}: no verdict, some checks failed`
    : mrkdwn`${typeOfKind(t.kind)}/${t.name} in ${t.namespace}: no problem found`;
}

function verdict(diagnosis: Diagnosis): Mrkdwn {
  const t = diagnosis.target;
  const top = diagnosis.findings[0];
  if (!top && diagnosis.analyzerErrors.length > 0)
    return mrkdwn`:warning: *${typeOfKind(t.kind)}/${t.name}* in *${t.namespace}*: no verdict, some checks failed.`;
  if (!top)
    return mrkdwn`:white_check_mark: *${typeOfKind(t.kind)}/${t.name}* in *${t.namespace}*: no problem found.`;
  return mrkdwn`${asIs(icon(top.severity))} *${top.code}*: ${headline(top.summary)}`;
}

/** The recommended fix and its impact in one line each (plus the owner's drift, when known). */
function fixSection({ plan, dryRun }: ShownPlan): Block {
  const lines = [
    mrkdwn`:wrench: *Recommended fix:* ${firstSentence(plan.summary)}`,
    mrkdwn`*Impact:* ${clip(firstSentence(plan.impact), 220)}`,
  ];
  const drift = driftLine(plan, { short: true });
  if (drift) lines.push(drift);
  // A fix the API server would refuse is worth knowing before the click.
  if (dryRun && !dryRun.ok)
    lines.push(
      mrkdwn`:warning: The server-side dry run refused it: ${clip(firstSentence(dryRun.reason), 200)}`,
    );
  return section(joinMrkdwn(lines, '\n'));
}

/**
 * The result message an SRE reads in ten seconds: the verdict, 3 to 5 lines of
 * decisive evidence, the recommended fix with its impact, and the buttons (one
 * primary: the recommended fix). Everything else goes to the thread report
 * (`thread`), whole: explanations, tables, dry runs, patches, the other fixes.
 * Once a plan of the message is approved, the other Apply buttons are withdrawn.
 */
export function renderDiagnosis(input: {
  cluster: string;
  diagnosis: Diagnosis;
  dryRuns: Record<string, DryRunSummary>;
  plans: Record<string, PlanView>;
  /** The plan approved on the message being rendered, if any (one fix per message). */
  approvedPlan?: string;
  /**
   * Who asked for the diagnosis in the message being rendered (NO_REQUESTER: nobody, an
   * alert thread), carried in its Apply buttons; absent or null: not known, and a
   * two-person approval on them is refused.
   */
  requester?: Requester | null;
}): RenderedMessage {
  const { cluster, diagnosis } = input;
  const t = diagnosis.target;
  const owner = managedByPhrase(diagnosis);
  const header = [
    { ...section(verdict(diagnosis)), block_id: ROOT_BLOCK.verdict },
    context(
      mrkdwn`${typeOfKind(t.kind)}/${t.name} · namespace ${t.namespace} · cluster ${cluster} · captured ${messageTime(diagnosis.capturedAt)}${asIs(owner ? mrkdwn` · ${asIs(owner)}` : trusted(''))}${diagnosis.analyzerErrors.length ? ` · ${diagnosis.analyzerErrors.length} analyzer(s) failed` : ''}`,
    ),
  ];
  const top = diagnosis.findings[0];
  const evidence = top ? decisiveLines(top) : [];
  const plans = orderedPlans(input).slice(0, 20);
  const view = (plan: RemediationPlan): PlanView => input.plans[plan.id] ?? { state: 'expired' };
  // The plan approved on this very message (src/app/approvals/approve.ts records it):
  // its other plans are withdrawn. A plan approved from another message of the same
  // cluster state only shows as approved here.
  const claimed = input.approvedPlan ? plans.find((p) => p.plan.id === input.approvedPlan) : undefined;
  const recommended = plans[0];

  const body: Block[] = [];
  if (evidence.length) body.push(section(joinMrkdwn(evidence, '\n')));
  if (recommended && !claimed) body.push(fixSection(recommended));
  const others = diagnosis.findings.slice(1);
  if (others.length)
    body.push(
      context(
        mrkdwn`Also found: ${asIs(
          joinMrkdwn(
            others.slice(0, 3).map((f) => mrkdwn`*${f.code}*`),
            ', ',
          ),
        )}${others.length > 3 ? ` and ${others.length - 3} more` : ''}`,
      ),
    );
  const thread = threadReport(input);
  if (thread.length)
    body.push(
      context(
        plans.length > 1
          ? trusted(':thread: Full evidence, the other fixes, every dry run and exact patch: in the thread.')
          : trusted(':thread: Full evidence, the dry run and the exact patch: in the thread.'),
      ),
    );

  // Approved or expired plans say so above the buttons; once one is approved, the
  // others are withdrawn (src/app/approvals/approve.ts refuses them too).
  const marks: Block[] = [];
  const buttons: Block[] = [];
  plans.forEach((shown, i) => {
    const v = view(shown.plan);
    if (claimed && shown.plan.id !== claimed.plan.id) return;
    const line = approvalLine(shown.plan, v);
    if (line) marks.push(line);
    buttons.push(planButton(shown, i, v, { primary: i === 0, requester: input.requester ?? null }));
  });
  if (claimed && plans.length > 1)
    marks.push(context(trusted('The other fixes were withdrawn; press Re-run for a fresh diagnosis.')));
  const actions = resultActions(buttons, cluster, t);

  let blocks = [...header, ...body, ...marks, actions];
  // Defensive: a message that still does not fit keeps the verdict, the marks and the buttons.
  if (blocks.length > LIMITS.blocks || JSON.stringify(blocks).length > MAX_BLOCKS_CHARS)
    blocks = [...header, context(trusted(':thread: The full report is in the thread.')), ...marks, actions];
  return { text: fallbackText(diagnosis), blocks, thread };
}

/** The result's actions block: the given buttons, then Re-run (when there is a target) and Dismiss. */
function resultActions(buttons: Block[], cluster: string, rerun: RerunTarget | null): Block {
  const elements = [...buttons];
  if (rerun)
    elements.push({
      type: 'button',
      action_id: ACTION.rerun,
      text: plain('Re-run', LIMITS.buttonText),
      value: rerunValue(cluster, rerun),
    });
  elements.push({
    type: 'button',
    action_id: ACTION.dismiss,
    text: plain('Dismiss', LIMITS.buttonText),
    value: 'dismiss',
  });
  return { type: 'actions', block_id: 'result_actions', elements };
}

/** Blocks of one finding in full: summary, explanation, every evidence item. */
function findingReport(finding: Finding, index: number): Block[] {
  return [
    ...proseSections(
      mrkdwn`${asIs(icon(finding.severity))} *${index + 1}. ${finding.code}*: ${asIs(escapeMrkdwn(finding.summary))}`,
    ),
    ...(finding.explanation ? proseSections(escapeMrkdwn(finding.explanation)) : []),
    ...finding.evidence.flatMap(evidenceBlocks),
  ];
}

/** Packs blocks into messages within Slack's per-message limits, in order, never splitting a block. */
function pack(blocks: Block[], fallback: (part: number, parts: number) => Mrkdwn): SlackMessage[] {
  const groups: Block[][] = [];
  let current: Block[] = [];
  let size = 0;
  for (const block of blocks) {
    const cost = JSON.stringify(block).length + 1;
    if (current.length > 0 && (current.length >= THREAD_BLOCKS || size + cost > MAX_BLOCKS_CHARS - 400)) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(block);
    size += cost;
  }
  if (current.length) groups.push(current);
  return groups.map((group, i) => ({
    text: fallback(i + 1, groups.length),
    blocks:
      groups.length > 1 ? [context(mrkdwn`Full report, part ${i + 1} of ${groups.length}`), ...group] : group,
  }));
}

/**
 * The thread report under a result: every finding whole (summary, explanation, all
 * evidence with untruncated tables), the owner, every plan (recommended first) with
 * its impact, warnings, dry-run diff and exact patch: the one place a patch is shown.
 */
export function threadReport(input: {
  cluster: string;
  diagnosis: Diagnosis;
  dryRuns: Record<string, DryRunSummary>;
}): SlackMessage[] {
  const { diagnosis } = input;
  const t = diagnosis.target;
  if (
    diagnosis.findings.length === 0 &&
    diagnosis.remediations.length === 0 &&
    diagnosis.analyzerErrors.length === 0
  )
    return [];
  const blocks: Block[] = [
    section(
      mrkdwn`:page_facing_up: *Full report* for ${typeOfKind(t.kind)}/${t.name} in ${t.namespace} (cluster ${input.cluster}, captured ${messageTime(diagnosis.capturedAt)})`,
    ),
  ];
  const owner = diagnosis.managedBy;
  if (owner?.tool)
    blocks.push(
      section(
        mrkdwn`:link: Managed by ${TOOL_NAMES[owner.tool] ?? owner.tool} ${owner.name}${owner.namespace ? ` in ${owner.namespace}` : ''} (${owner.evidence})`,
      ),
    );
  diagnosis.findings.forEach((finding, i) => blocks.push(...findingReport(finding, i)));
  orderedPlans(input).forEach((shown, i) => {
    const { plan } = shown;
    const heading =
      i === 0
        ? mrkdwn`:wrench: *Fix ${i + 1} (recommended): ${plan.kind}*. ${plan.summary}`
        : mrkdwn`:wrench: *Fix ${i + 1}: ${plan.kind}*. ${plan.summary}`;
    blocks.push(...planDetailBlocks(shown, heading));
  });
  for (const note of diagnosis.notOffered ?? []) {
    blocks.push(
      ...proseSections(
        mrkdwn`:no_entry_sign: *Not offered: ${note.kind}*, for ${note.addresses}: ${note.reason}.`,
      ),
    );
  }
  // The permanent fix, for the source of truth: never a button, always a diff to commit.
  for (const change of diagnosis.manifestChanges ?? []) {
    blocks.push(
      ...codeSections(
        mrkdwn`:memo: *Change to commit* (the permanent fix; no button applies it) in ${change.where}, for ${change.addresses}`,
        change.diff,
      ),
    );
    if (change.notes.length > 0)
      blocks.push(
        ...proseSections(
          joinMrkdwn(
            change.notes.map((note) => mrkdwn`• ${note}`),
            '\n',
          ),
        ),
      );
  }
  if (diagnosis.analyzerErrors.length)
    blocks.push(
      ...proseSections(
        joinMrkdwn(
          [
            trusted(':warning: *Some checks failed*; the report above is partial:'),
            ...diagnosis.analyzerErrors.map((e) => mrkdwn`• ${e.analyzer}: ${e.message}`),
          ],
          '\n',
        ),
      ),
    );
  return pack(
    blocks,
    (part, parts) =>
      mrkdwn`Full report for ${typeOfKind(t.kind)}/${t.name} in ${t.namespace}${parts > 1 ? ` (part ${part} of ${parts})` : ''}`,
  );
}

type NotFound = NonNullable<Extract<DiagnosisOutcome, { status: 'failed' }>['notFound']>;

/**
 * The answer to a workload name that does not exist, with the closest names of the kind
 * looked for the worker found in the namespace: "daemonset/nod-agent not found in
 * namespace telemetry (cluster prod); did you mean daemonset/node-agent?" The kind is
 * the one the worker looked for (`notFound.kind`), else the run's, else a Deployment.
 */
export function notFoundText(cluster: string, notFound: NotFound, runKind?: WorkloadKind): Mrkdwn {
  const kind = notFound.kind ?? runKind ?? DEFAULT_WORKLOAD_KIND;
  const type = typeOfKind(kind);
  const head = mrkdwn`:mag: ${type}/${notFound.name} not found in namespace ${notFound.namespace} (cluster ${cluster})`;
  const names = notFound.suggestions.map((n) => mrkdwn`*${type}/${n}*`);
  if (names.length === 0)
    return mrkdwn`${asIs(head)}; no ${titleOfKind(kind)} there has a similar name. Check the kind, the name and the namespace (\`-n\`).`;
  const last = names.at(-1) ?? trusted('');
  const options =
    names.length === 1 ? last : mrkdwn`${asIs(joinMrkdwn(names.slice(0, -1), ', '))} or ${asIs(last)}`;
  return mrkdwn`${asIs(head)}; did you mean ${asIs(options)}?`;
}

/** A finished scan or a failed diagnosis. */
export function renderOutcome(
  cluster: string,
  outcome: Exclude<DiagnosisOutcome, { status: 'diagnosed' }>,
  rerun: RerunTarget | null,
): RenderedMessage {
  const actions = resultActions([], cluster, rerun);
  // A name that does not exist: Re-run would only fail again.
  if (outcome.status === 'failed' && outcome.notFound) {
    const text = notFoundText(cluster, outcome.notFound, rerun?.kind);
    return { text, blocks: [section(text)], thread: [] };
  }
  if (outcome.status === 'failed') {
    const text = mrkdwn`Diagnosis failed: ${truncate(outcome.reason, 500)}`;
    return {
      text,
      blocks: [section(mrkdwn`:x: ${asIs(text)}`), context(mrkdwn`cluster ${cluster}`), actions],
      thread: [],
    };
  }
  const rows = outcome.items
    .slice(0, 20)
    .map(
      (i) =>
        mrkdwn`• *${i.namespace}/${typeOfKind(i.kind ?? DEFAULT_WORKLOAD_KIND)}/${i.name}* ${i.code}: ${truncate(i.summary, 150)}`,
    );
  const text = mrkdwn`Scan: ${truncate(outcome.summary, 500)}`;
  const blocks = [
    section(mrkdwn`:mag: ${asIs(text)}`),
    ...(rows.length ? [section(joinMrkdwn(rows, '\n'))] : []),
    ...(outcome.items.length > 20 ? [context(mrkdwn`… ${outcome.items.length - 20} more`)] : []),
    context(mrkdwn`cluster ${cluster}`),
    actions,
  ];
  return { text, blocks, thread: [] };
}

/** The "diagnosing…" message while a run is in progress. */
export function renderProgress(progress: string): RenderedMessage {
  const text = escapeMrkdwn(truncate(progress, 500));
  return { text, blocks: [section(mrkdwn`:hourglass_flowing_sand: ${asIs(text)}`)], thread: [] };
}
