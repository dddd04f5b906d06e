/**
 * `check`'s outputs: text for a terminal or a CI log, JSON (per object: the verdict,
 * diagnose's finding codes, the explanation, the evidence, the fix); SARIF is sarif.ts.
 * Values we did not write (the manifest's paths and keys, `# Source:` comments, names
 * and messages from the cluster, finding summaries that embed them) enter the text as
 * one line each, their breaks and controls shown as escapes, nothing in them a CI
 * runner reads as a command (lineValue); JSON escaping covers the rest. SARIF is sarif.ts.
 */
import { indent, makeStyle } from '../report/format.js';
import { titleOfKind, titlesPhrase, typeOfKind, WORKLOAD_KINDS } from '../diagnosis/workload-ref.js';
import { ciSafeLine, cleanText, escapeJsonControls, lineValue } from '../text/clean.js';
import { checkEvidenceLines } from './evidence-words.js';
import { plainEvidence, type CheckEvidence } from './check-evidence.js';
import type { CheckResult } from './check.js';
import type { Judged } from './acceptance.js';
import { wordsIn } from '../i18n/catalogue.js';
import { DEFAULT_LANG, type Lang } from '../i18n/lang.js';
import { CHECK_WORDS, checkExplanation, checkSummary, storedWhy } from './words.js';
import { waitsForJobs } from './job-wait.js';
import { refusesApply } from './refused-apply.js';
import { storedDefault } from './stored-fields.js';

type Words = ReturnType<typeof wordsIn<typeof CHECK_WORDS>>;

export interface CheckReport {
  source: { mode: 'live'; context: string } | { mode: 'dump'; file: string };
  /** With the team's acceptance of each finding, where any (acceptance.ts). */
  results: Judged[];
  /** Documents of other kinds in the manifests (Services, ConfigMaps, …), not judged. */
  others: number;
  notes: string[];
}

/**
 * Each result counted once, as its label reads: a refused apply and a rollout that waits
 * for Jobs are not "can never finish", though their verdict is `never-finishes` for the gate.
 */
function counts(
  results: readonly CheckResult[],
): Record<CheckResult['verdict'] | 'waiting' | 'refused', number> {
  const tally = { finishes: 0, 'never-finishes': 0, waiting: 0, refused: 0, unknown: 0, 'no-rollout': 0 };
  for (const r of results) tally[waitsForJobs(r) ? 'waiting' : refusesApply(r) ? 'refused' : r.verdict] += 1;
  return tally;
}

function label(r: CheckResult, w: Words): string {
  const { verdict } = r;
  if (verdict === 'finishes') return w.finishes({});
  // Blocked only while Jobs run (job-wait.ts): not "never".
  if (waitsForJobs(r)) return w.whileJobsRun({});
  if (refusesApply(r)) return w.applyRefusedLabel({});
  if (verdict === 'never-finishes') return w.neverFinishes({});
  return verdict === 'unknown' ? w.unknown({}) : w.noRollout({});
}

export function refOf(r: CheckResult): string {
  return `${lineValue(r.target.namespace)}/${typeOfKind(r.target.kind)}/${lineValue(r.target.name)}`;
}

function where(r: CheckResult, w: Words): string {
  if (!r.at) return '';
  const from = r.at.template ? `, ${w.renderedFrom({ template: lineValue(r.at.template) })}` : '';
  return ` (${lineValue(r.at.file)}:${r.at.line}${from})`;
}

/** Evidence with every string in it one line (lineValue): node, pod and quota names, notes. */
function oneLineEvidence<T>(value: T): T {
  if (typeof value === 'string') return lineValue(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => oneLineEvidence(v)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, oneLineEvidence(v)]),
    ) as T;
  return value;
}

function evidenceLines(evidence: CheckEvidence, style: ReturnType<typeof makeStyle>, lang: Lang): string[] {
  return checkEvidenceLines(oneLineEvidence(evidence), style, lang);
}

/** `check`'s text in `lang` (default English): codes, kinds, paths and the fix's YAML as written. */
export function renderText(report: CheckReport, color = false, lang: Lang = DEFAULT_LANG): string {
  const style = makeStyle(color);
  const w = wordsIn(CHECK_WORDS, lang);
  const lines: string[] = [];
  for (const r of report.results) lines.push(...resultLines(r, style, w, lang));
  const tally = counts(report.results);
  if (report.results.length === 0) {
    const titles = lang === 'en' ? titlesPhrase('', 'or') : WORKLOAD_KINDS.map(titleOfKind).join(', ');
    lines.push(w.noWorkloads({ titles }));
  }
  lines.push(
    '',
    w.tally({
      total: report.results.length,
      never: tally['never-finishes'],
      waiting: tally.waiting,
      refused: tally.refused,
      unknown: tally.unknown,
      finishes: tally.finishes,
      none: tally['no-rollout'],
      others: report.others,
    }),
  );
  for (const note of report.notes) lines.push(w.note({ text: lineValue(note) }));
  // Every value went in as one line above; this guard stays for what a change adds later.
  return `${cleanText(lines.join('\n')).split('\n').map(ciSafeLine).join('\n')}\n`;
}

/** One object's lines: its verdict, the fields it leaves out, its findings and the fix. */
function resultLines(r: Judged, style: ReturnType<typeof makeStyle>, w: Words, lang: Lang): string[] {
  const lines: string[] = [];
  const text = label(r, w);
  const shown =
    r.verdict === 'never-finishes' ? style.red(text) : r.verdict === 'unknown' ? style.yellow(text) : text;
  const why =
    r.rollout === 'new'
      ? w.newObject({})
      : r.rollout === 'template'
        ? w.templateChanges({
            changes: `${r.changes.slice(0, 3).map(lineValue).join(', ')}${r.changes.length > 3 ? ', …' : ''}`,
          })
        : '';
  lines.push(`${style.bold(refOf(r))}${where(r, w)}: ${shown}${why ? ` (${why})` : ''}`);
  for (const o of r.omitted ?? []) {
    if (o.stored === 'unknown') continue;
    const live = o.stored === 'live' ? lineValue(JSON.stringify(o.live) ?? String(o.live)) : undefined;
    const stored = o.stored === 'default' ? storedDefault(o.field) : undefined;
    lines.push(
      ...indent(
        [
          w.omitted({
            path: `spec.${o.field}`,
            ...(live !== undefined ? { live } : {}),
            ...(stored !== undefined ? { stored } : {}),
            why: lineValue(storedWhy(o, lang)),
          }),
        ],
        2,
      ),
    );
  }
  for (const [i, f] of r.findings.entries()) {
    const accepted = r.accepted?.[i];
    const reason = accepted ? { reason: lineValue(accepted.reason) } : undefined;
    const mark = !reason
      ? ''
      : accepted?.by === 'annotation'
        ? w.acceptedAnnotation(reason)
        : w.acceptedBaseline(reason);
    lines.push(...indent([`${f.code}: ${lineValue(checkSummary(f, lang))}${mark}`], 2));
    if (r.verdict === 'never-finishes') lines.push(...indent([lineValue(checkExplanation(f, lang))], 4));
    for (const e of f.evidence) lines.push(...indent(evidenceLines(e, style, lang), 4));
  }
  if (r.fix) {
    lines.push(...indent([w.fix({ words: lineValue(r.fix.words) })], 2));
    lines.push(...indent(r.fix.yaml.split('\n').map(lineValue), 6));
  }
  return lines;
}

export function renderJson(report: CheckReport): string {
  // A finding's catalogue words (`says`) are for the text; the JSON is as it always was.
  const results = report.results.map((r) => ({
    ...r,
    findings: r.findings.map(({ says: _says, ...f }) => ({ ...f, evidence: f.evidence.map(plainEvidence) })),
    ...(r.omitted ? { omitted: r.omitted.map(({ says: _says, ...o }) => o) } : {}),
  }));
  return jsonText({ ...report, results, summary: counts(report.results) });
}

/**
 * JSON for stdout (a CI log): C1, bidi and line separators as \u escapes
 * (escapeJsonControls), and `##vso[` / `##[` inside strings as `\u0023#…` (ciSafeLine),
 * which JSON decodes to the same value.
 */
export function jsonText(value: unknown): string {
  const json = escapeJsonControls(JSON.stringify(value, null, 2));
  return `${json.split('\n').map(ciSafeLine).join('\n')}\n`;
}
