/**
 * `check`'s outputs: text for a terminal or a CI log, JSON (per object: the verdict,
 * diagnose's finding codes, the explanation, the evidence, the fix), and SARIF 2.1.0 so
 * GitHub code scanning puts each finding on the manifest's line in the pull request.
 * Values we did not write (the manifest's paths and keys, `# Source:` comments, names
 * and messages from the cluster, finding summaries that embed them) enter the text as
 * one line each, their breaks and controls shown as escapes, nothing in them a CI
 * runner reads as a command (lineValue); SARIF messages are our words with such values
 * quoted and defanged (sarifText, sarifQuoted); JSON escaping covers the rest.
 */
import { renderEvidence } from '../report/terminal.js';
import { indent, makeStyle } from '../report/format.js';
import { typeOfKind } from '../diagnosis/workload-ref.js';
import {
  ciSafeLine,
  cleanText,
  escapeJsonControls,
  lineValue,
  sarifMessage,
  sarifQuoted,
  sarifText,
} from '../text/clean.js';
import type { Evidence } from '../diagnosis/finding.js';
import type { CheckResult } from './check.js';

export interface CheckReport {
  source: { mode: 'live'; context: string } | { mode: 'dump'; file: string };
  results: CheckResult[];
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

function refOf(r: CheckResult): string {
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
    for (const f of r.findings) {
      lines.push(...indent([`${f.code}: ${lineValue(f.summary)}`], 2));
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
  if (report.results.length === 0)
    lines.push('No Deployment, DaemonSet, StatefulSet or Argo Rollout in the manifests.');
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
function jsonText(value: unknown): string {
  const json = escapeJsonControls(JSON.stringify(value, null, 2));
  return `${json.split('\n').map(ciSafeLine).join('\n')}\n`;
}

/** A file path as a SARIF artifact URI: relative paths stay relative (to the checkout), "-" is stdin. */
function artifactUri(file: string): string {
  if (file === '-') return 'stdin';
  return file
    .replace(/^\.\//, '')
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

const RULES = {
  RolloutSurgeDeadlock:
    'A rollout that can never finish: the new pods need room the old pods hold, and a surging strategy keeps them.',
  Unschedulable: 'A rollout that can never finish: the new pods fit no node, whatever the strategy.',
  QuotaExceeded: 'A rollout that can never finish: a ResourceQuota refuses the new pods.',
  RolloutStuck: 'A rollout that will not finish: its new pods do not become Ready.',
  IncompleteEvidence:
    'Whether the rollout finishes is not known: part of the cluster was not read, or the model does not follow this update.',
} as const;

/** `version`: the tool's, as SARIF names the driver (the command line passes the package's). */
export function renderSarif(report: CheckReport, version: string): string {
  const ruleIds = Object.keys(RULES) as (keyof typeof RULES)[];
  const results = report.results.flatMap((r) =>
    r.findings.map((f) => ({
      ruleId: f.code,
      ruleIndex: Math.max(0, ruleIds.indexOf(f.code as keyof typeof RULES)),
      level: f.severity === 'critical' ? 'error' : 'warning',
      // Our words with the values quoted and defanged: the summary embeds names (escaped
      // as a whole, its own words hold nothing to escape but parentheses), the template
      // path is the `# Source:` comment's word as written. The fix's YAML is in properties.
      message: {
        text: sarifMessage(
          `${sarifText(f.summary)}${r.at?.template ? ` (rendered from ${sarifQuoted(r.at.template)})` : ''}${r.fix ? ` Fix: set ${sarifText(r.fix.words)} in the manifest (a merge into the object, properties.fix).` : ''}`,
        ),
      },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(r.at?.file ?? 'manifest') },
            region: { startLine: r.at?.line ?? 1, startColumn: r.at?.column ?? 1 },
          },
          logicalLocations: [{ name: refOf(r), kind: 'resource' }],
        },
      ],
      partialFingerprints: { workload: `${refOf(r)}:${f.code}` },
      ...(r.fix ? { properties: { fix: r.fix.yaml } } : {}),
    })),
  );
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'rollout-doctor check',
            version,
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: RULES[id] } })),
          },
        },
        results,
      },
    ],
  };
  return jsonText(sarif);
}
