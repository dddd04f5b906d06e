/**
 * The plain-text diagnosis report: verdict first, then each finding's explanation and
 * evidence, then the remediations with their exact patches. Pure (no I/O, no clock):
 * the command line prints it and the Slack app attaches it as the full report.
 */
import { proofSentence, proofSteps } from '../remediation/proof-text.js';
import { planImpact, planWarnings } from '../remediation/plan-words.js';
import { cleanDeep } from '../text/clean.js';
import { clip } from '../text/sentences.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Evidence, Finding, Severity } from '../diagnosis/finding.js';
import { pausesEndByThemselves } from '../diagnosis/finding-words.js';
import type { Patch, PlanDrift, RemediationPlan } from '../remediation/plan.js';
import { indent, makeStyle, oneLine, wrap, type Style } from './format.js';
import { renderEvidence } from './terminal.js';
import { allClear } from './json.js';
import { unreadGuardLines } from '../diagnosis/guards/guard-gaps.js';
import { wordsIn } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { findingExplanation, findingSummary, planSummary } from '../message/words/finding.js';
import { REPORT_WORDS } from './words.js';
import { sentenceIn } from '../message/sentences.js';

type Words = ReturnType<typeof wordsIn<typeof REPORT_WORDS>>;

interface TextOptions {
  /** ANSI colours (the CLI enables them on a TTY). */
  color?: boolean;
  /** The reader's language (default English); codes, kinds, ids and patches stay as they are. */
  lang?: Lang;
}

const WIDTH = 100;
/** The longest summary a findings list line shows (the finding below it is whole, wrapped). */
const SUMMARY_MAX = 600;

/**
 * Renders a diagnosis as a readable report.
 *
 * @example process.stdout.write(renderText(diagnose(snapshot), { color: process.stdout.isTTY }))
 */
export function renderText(raw: Diagnosis, options: TextOptions = {}): string {
  // Cluster text (messages, logs, labels) may carry terminal escapes (OSC 8 links,
  // OSC 52 clipboard writes, CSI, C1) or bidi overrides: cleaned before any line is
  // built, so only our own styling reaches the terminal. The same report is posted
  // to Slack threads, where it is escaped again as a code block.
  const diagnosis = cleanDeep(raw);
  const style = makeStyle(options.color ?? false);
  const lang = options.lang ?? 'en';
  const w = wordsIn(REPORT_WORDS, lang);
  const { target } = diagnosis;
  const lines: string[] = [
    style.bold(w.target(target)) + style.dim(w.asOf({ at: diagnosis.capturedAt })),
    ...(diagnosis.managedBy
      ? [
          style.dim(
            w.managedBy({
              ...diagnosis.managedBy,
              tool: w[`tool-${diagnosis.managedBy.tool}`]({}),
              evidence: sentenceIn(diagnosis.managedBy.evidence, lang),
            }),
          ),
        ]
      : []),
    '',
    ...verdict(diagnosis, style, w, lang),
  ];

  const shownLogs = new Map<string, string>();
  diagnosis.findings.forEach((finding, index) => {
    lines.push('', ...findingSection(finding, index, diagnosis, { style, w, lang }, shownLogs));
  });

  if (diagnosis.remediations.length > 0) {
    lines.push('', style.bold(w.remediations({})));
    diagnosis.remediations.forEach((plan, index) =>
      lines.push('', ...remediation(plan, index, { style, w, lang })),
    );
    // What guards the workload and was not read: the fixes above could not be checked against it.
    const unread = diagnosis.coverage ? unreadGuardLines(diagnosis.coverage) : [];
    if (unread.length > 0) {
      lines.push('', style.yellow(w.notChecked({})));
      for (const line of unread) lines.push(...indent(wrap(sentenceIn(line, lang), WIDTH - 2), 2));
    }
  }

  for (const note of diagnosis.notOffered ?? []) {
    lines.push('', ...wrap(w.notOffered({ ...note, reason: sentenceIn(note.reason, lang) }), WIDTH));
  }

  if (diagnosis.manifestChanges && diagnosis.manifestChanges.length > 0) {
    lines.push('', style.bold(w.changeToCommit({})));
    for (const change of diagnosis.manifestChanges) {
      const where = sentenceIn(change.where, lang);
      lines.push('', ...indent(wrap(w.changeWhere({ ...change, where }), WIDTH - 4), 4));
      lines.push(...indent(change.diff.split('\n'), 6));
      for (const note of change.notes)
        lines.push(...indent(wrap(w.note({ text: sentenceIn(note, lang) }), WIDTH - 4), 4));
    }
  }

  if (diagnosis.analyzerErrors.length > 0) {
    lines.push('', style.yellow(w.partial({})));
    for (const e of diagnosis.analyzerErrors) lines.push(`  ${e.analyzer}: ${oneLine(e.message)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A pause alone: one that waits for a person, or timed pauses that all end by themselves. */
function pausedHead(findings: readonly Finding[], w: Words): string {
  return pausesEndByThemselves(findings) ? w.pausedTimedNotes({}) : w.pausedNotes({});
}

function verdict(diagnosis: Diagnosis, style: Style, w: Words, lang: Lang): string[] {
  const problems = diagnosis.findings.filter((f) => f.severity !== 'info');
  const clear = allClear(diagnosis);
  if (diagnosis.findings.length === 0) {
    return [clear ? style.green(w.noProblem({})) : style.yellow(w.noVerdictFailed({}))];
  }
  const failed = diagnosis.analyzerErrors.length > 0;
  const unread = diagnosis.findings.some((f) => f.code === 'IncompleteEvidence');
  const head =
    problems.length > 0
      ? style.bold(w.verdict({}))
      : clear
        ? // A paused rollout is not finished: never "no problem", whatever its severity says.
          diagnosis.findings.some((f) => f.code === 'RolloutPaused')
          ? style.yellow(pausedHead(diagnosis.findings, w))
          : style.green(w.noProblemNotes({}))
        : style.yellow(
            failed && unread
              ? w.noVerdictBoth({})
              : failed
                ? w.noVerdictFailedNotes({})
                : w.noVerdictUnread({}),
          );
  return [
    head,
    ...diagnosis.findings.map(
      (f) =>
        `  ${severityTag(f.severity, style, w)} ${f.code}: ${clip(oneLine(findingSummary(f, lang)), SUMMARY_MAX)}`,
    ),
  ];
}

function severityTag(severity: Severity, style: Style, w: Words): string {
  if (severity === 'critical') return style.red(w.critical({}));
  if (severity === 'warning') return style.yellow(w.warning({}));
  return style.cyan(w.info({}));
}

/** What every section of the report is written with: the styling and the reader's words. */
interface Voice {
  style: Style;
  w: Words;
  lang: Lang;
}

function findingSection(
  finding: Finding,
  index: number,
  diagnosis: Diagnosis,
  { style, w, lang }: Voice,
  shownLogs: Map<string, string>,
): string[] {
  const lines = [
    style.bold(`${index + 1}. ${finding.code}`) + ` ${severityTag(finding.severity, style, w)}`,
    ...indent(wrap(findingSummary(finding, lang), WIDTH - 3), 3),
  ];
  const explanation = findingExplanation(finding, lang);
  if (explanation) lines.push('', ...indent(wrap(explanation, WIDTH - 3), 3));
  if (finding.evidence.length > 0) {
    lines.push('', `   ${style.bold(w.evidence({}))}`);
    for (const evidence of logsOnce(finding.evidence, shownLogs, `finding ${index + 1}`))
      lines.push(...indent(renderEvidence(evidence, style, lang), 5));
  }
  const indices = finding.remediations
    .map((id) => diagnosis.remediations.findIndex((p) => p.id === id))
    .filter((i) => i >= 0);
  const label = (i: number): string => `[${i + 1}] ${diagnosis.remediations[i]?.kind ?? ''}`;
  // A plan meant for after another's write reads as its second step, not an alternative.
  const follows = new Map(indices.map((i) => [stepAfter(diagnosis.remediations, i), i]));
  const plans = indices
    .filter((i) => !indices.includes(stepAfter(diagnosis.remediations, i)))
    .map((i) =>
      follows.has(i) ? w.fixThen({ first: label(i), then: label(follows.get(i) ?? i) }) : label(i),
    );
  if (plans.length > 0) lines.push('', `   ${w.fixes({ plans })}`);
  return lines;
}

/**
 * The plan whose write plan `i` waits for, or -1: its preconditions are fields alone (not
 * the generation it was diagnosed at) that another plan's JSON patch writes (a StatefulSet's
 * delete-pods after the exclusion, builders/delete-pods.ts).
 */
function stepAfter(plans: Diagnosis['remediations'], i: number): number {
  const { preconditions } = plans[i] ?? {};
  if (preconditions?.fieldsOnly !== true) return -1;
  const paths = new Set(preconditions.fields.map((f) => f.path));
  return plans.findIndex(
    (p, j) =>
      j !== i &&
      p.patch?.type === 'json' &&
      (p.patch.body as { op?: string; path?: string }[]).some(
        (op) => (op.op === 'add' || op.op === 'replace') && paths.has(op.path ?? ''),
      ),
  );
}

/**
 * Each log tail once per report. A crash loop's previous-container log reaches the
 * evidence twice (in its node's crash-table row and as the `log` evidence naming pod
 * and container), and the same pod's log can back several findings. Within a finding
 * the `log` evidence keeps the lines and the row drops them; a tail already printed
 * by an earlier finding becomes a one-line pointer back to it.
 */
function logsOnce(evidence: readonly Evidence[], shown: Map<string, string>, where: string): Evidence[] {
  const key = (tail: string): string => tail.trimEnd();
  const inLogs = new Set(evidence.flatMap((e) => (e.type === 'log' ? [key(e.tail)] : [])));
  return evidence.map((e): Evidence => {
    if (e.type === 'crash-table') {
      return {
        ...e,
        rows: e.rows.map((row) => {
          if (row.logTail === undefined) return row;
          const tail = key(row.logTail);
          if (!inLogs.has(tail) && !shown.has(tail)) {
            shown.set(tail, `${where}, node ${row.node}`);
            return row;
          }
          const { logTail: _dropped, ...rest } = row;
          return rest;
        }),
      };
    }
    if (e.type === 'log') {
      const tail = key(e.tail);
      const first = shown.get(tail);
      if (first !== undefined)
        return {
          type: 'note',
          text: `Previous log of ${e.pod}/${e.container}: the lines shown in ${first}.`,
        };
      shown.set(tail, `${where} (${e.pod}/${e.container})`);
    }
    return e;
  });
}

function remediation(plan: RemediationPlan, index: number, { style, w, lang }: Voice): string[] {
  const lines = [
    style.bold(`[${index + 1}] ${plan.kind}`) + style.dim(w.planHead(plan)),
    ...indent(wrap(planSummary(plan, lang), WIDTH - 4), 4),
    ...indent(wrap(w.impact({ text: planImpact(plan, lang) }), WIDTH - 4), 4),
  ];
  if (plan.proof) {
    lines.push(...indent(wrap(proofSentence(plan.proof, lang), WIDTH - 4), 4));
    const steps = proofSteps(plan.proof, lang);
    if (steps) lines.push(...indent(wrap(steps, WIDTH - 4), 4));
  }
  for (const warning of planWarnings(plan, lang))
    lines.push(...indent(wrap(style.yellow(w.planWarning({ text: warning })), WIDTH - 4), 4));
  if (plan.drift) lines.push(...indent(wrap(driftLine(plan.drift, lang), WIDTH - 4), 4));
  if (plan.pods && plan.pods.length > 0) {
    lines.push(
      w.podsToDelete({ namespace: plan.target.namespace, pods: plan.pods.map((p) => p.name).join(', ') }),
    );
  }
  if (plan.replicaSet) {
    lines.push(w.scalesReplicaSet({ namespace: plan.target.namespace, name: plan.replicaSet.name }));
  }
  if (plan.patch) lines.push(...patchLines(w.patch(plan.patch), plan.patch));
  if (plan.inverse) lines.push(...patchLines(w.undo(plan.inverse), plan.inverse));
  return lines;
}

/** "Reverted: no, by Argo CD application shop: spec.strategy.type: not in …" (the why names the fields). */
function driftLine(drift: PlanDrift, lang: Lang = 'en'): string {
  const reverted = drift.reverted === 'unknown' ? null : drift.reverted;
  const w = wordsIn(REPORT_WORDS, lang);
  const why = sentenceIn(drift.why, lang);
  if (drift.ownerRecognised === false) return w.reverted({ reverted, why });
  return w.reverted({ reverted, by: sentenceIn(drift.by, lang), why });
}

function patchLines(head: string, patch: Patch): string[] {
  return [head, ...indent(JSON.stringify(patch.body, null, 2).split('\n'), 6)];
}
