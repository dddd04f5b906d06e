/**
 * `check`'s outputs: text for a terminal or a CI log, JSON (per object: the verdict,
 * diagnose's finding codes, the explanation, the evidence, the fix); SARIF is sarif.ts.
 * Values we did not write (the manifest's paths and keys, `# Source:` comments, names
 * and messages from the cluster, finding summaries that embed them) enter the text as
 * one line each, their breaks and controls shown as escapes, nothing in them a CI
 * runner reads as a command (lineValue); JSON escaping covers the rest. SARIF is sarif.ts.
 */
import { renderEvidence } from '../report/terminal.js';
import { indent, makeStyle } from '../report/format.js';
import { titlesPhrase, typeOfKind } from '../diagnosis/workload-ref.js';
import { ciSafeLine, cleanText, escapeJsonControls, lineValue } from '../text/clean.js';
import type { Evidence } from '../diagnosis/finding.js';
import type { CheckResult } from './check.js';
import type { Judged } from './acceptance.js';

export interface CheckReport {
  source: { mode: 'live'; context: string } | { mode: 'dump'; file: string };
  /** With the team's acceptance of each finding, where any (acceptance.ts). */
  results: Judged[];
  /** Documents of other kinds in the manifests (Services, ConfigMaps, …), not judged. */
  others: number;
  notes: string[];
}

export function counts(results: readonly CheckResult[]): Record<CheckResult['verdict'], number> {
  const tally = { finishes: 0, 'never-finishes': 0, unknown: 0, 'no-rollout': 0 };
  for (const r of results) tally[r.verdict] += 1;
  return tally;
}

const LABEL: Record<CheckResult['verdict'], string> = {
  finishes: 'will finish',
  'never-finishes': 'CAN NEVER FINISH',
  unknown: 'not known',
  'no-rollout': 'no rollout',
};

export function refOf(r: CheckResult): string {
  return `${lineValue(r.target.namespace)}/${typeOfKind(r.target.kind)}/${lineValue(r.target.name)}`;
}

function where(r: CheckResult): string {
  if (!r.at) return '';
  return ` (${lineValue(r.at.file)}:${r.at.line}${r.at.template ? `, from ${lineValue(r.at.template)}` : ''})`;
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

function evidenceLines(evidence: Evidence, style: ReturnType<typeof makeStyle>): string[] {
  return renderEvidence(oneLineEvidence(evidence), style);
}

export function renderText(report: CheckReport, color = false): string {
  const style = makeStyle(color);
  const lines: string[] = [];
  for (const r of report.results) {
    const label =
      r.verdict === 'never-finishes'
        ? style.red(LABEL[r.verdict])
        : r.verdict === 'unknown'
          ? style.yellow(LABEL[r.verdict])
          : LABEL[r.verdict];
    const why =
      r.rollout === 'new'
        ? 'new object'
        : r.rollout === 'template'
          ? `template changes: ${r.changes.slice(0, 3).map(lineValue).join(', ')}${r.changes.length > 3 ? ', …' : ''}`
          : '';
    lines.push(`${style.bold(refOf(r))}${where(r)}: ${label}${why ? ` (${why})` : ''}`);
    for (const o of r.omitted ?? []) {
      if (o.stored === 'unknown') continue;
      const what =
        o.stored === 'live'
          ? `keeps the live value ${lineValue(JSON.stringify(o.live) ?? String(o.live))}`
          : 'removes it (the default applies)';
      lines.push(
        ...indent([`The manifest leaves out spec.${o.field}: the apply ${what}; ${lineValue(o.why)}.`], 2),
      );
    }
    for (const [i, f] of r.findings.entries()) {
      const accepted = r.accepted?.[i];
      const mark = accepted ? ` (accepted in the ${accepted.by}: ${lineValue(accepted.reason)})` : '';
      lines.push(...indent([`${f.code}: ${lineValue(f.summary)}${mark}`], 2));
      if (r.verdict === 'never-finishes') lines.push(...indent([lineValue(f.explanation)], 4));
      for (const e of f.evidence) lines.push(...indent(evidenceLines(e, style), 4));
    }
    if (r.fix) {
      lines.push(
        ...indent([`Fix: set ${lineValue(r.fix.words)} in the manifest (a merge into the object):`], 2),
      );
      lines.push(...indent(r.fix.yaml.split('\n').map(lineValue), 6));
    }
  }
  const tally = counts(report.results);
  if (report.results.length === 0) lines.push(`No ${titlesPhrase('', 'or')} in the manifests.`);
  lines.push(
    '',
    `${report.results.length} workload(s): ${tally['never-finishes']} can never finish, ${tally.unknown} not known, ${tally.finishes} will finish, ${tally['no-rollout']} start no rollout${report.others > 0 ? ` (${report.others} other object(s) not judged)` : ''}.`,
  );
  for (const note of report.notes) lines.push(`Note: ${lineValue(note)}`);
  // Every value went in as one line above; this guard stays for what a change adds later.
  return `${cleanText(lines.join('\n')).split('\n').map(ciSafeLine).join('\n')}\n`;
}

export function renderJson(report: CheckReport): string {
  return jsonText({ ...report, summary: counts(report.results) });
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
