/**
 * `check -o sarif`: SARIF 2.1.0 as GitHub code scanning ingests it. Each result sits on
 * the line a reviewer changed (the template field whose change starts the rollout, else
 * the strategy: CheckResult.focus), in the chart's template file where `helm template`
 * names it; each rule carries a full description, help with the fix and a page per code
 * (sarif-rules.ts); the run names its cluster (runAutomationDetails, so several uploads
 * per commit coexist) and says whether it ran (invocations): a run that could not read
 * its manifests or its cluster is still a valid file with the reason as a
 * tool-execution notification, so the upload step does not fail on an empty file.
 * Messages are our words with values quoted and defanged (sarifText, sarifQuoted).
 */
import { sarifMessage, sarifQuoted, sarifText } from '../text/clean.js';
import type { CheckResult } from './check.js';
import type { Accepted } from './acceptance.js';
import { jsonText, refOf, type CheckReport } from './render.js';
import { CHECK_RULES, ruleText } from './sarif-rules.js';
import { wordsIn } from '../i18n/catalogue.js';
import { DEFAULT_LANG, type Lang } from '../i18n/lang.js';
import { CHECK_WORDS, checkSummary } from './words.js';
import { ruleWords } from './sarif-words.js';

interface SarifOptions {
  /** The tool's version, as SARIF names the driver. */
  version: string;
  /**
   * The line of a field in a chart's template file (`# Source:` path), where it can be
   * told (the CLI reads the file); else the result sits on the template's first line.
   */
  templateLine?: (template: string, path: string) => number | undefined;
  /**
   * The language of the results' `message.text` (default English). Rule ids, levels,
   * locations, fingerprints and the rules' own texts (sarif-rules.ts) stay English.
   */
  lang?: Lang;
}

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const DRIVER = 'rollout-doctor check';
const TOOL_PAGE = 'https://github.com/rollout-doctor/rollout-doctor';

/** A file path as a SARIF artifact URI: relative paths stay relative (to the checkout), "-" is stdin. */
function artifactUri(file: string): string {
  if (file === '-') return 'stdin';
  return file
    .replace(/^\.\//, '')
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/**
 * The run's category for GitHub (`runAutomationDetails.id`, "category/"): one per
 * cluster or dump, so the uploads for several clusters on one commit do not replace
 * each other. Only [A-Za-z0-9._-] of the name is kept.
 */
export function automationId(source: CheckReport['source']): string {
  const name = source.mode === 'live' ? source.context : `dump-${source.file.split('/').pop() ?? ''}`;
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'cluster';
  return `rollout-doctor-check/${safe}/`;
}

/**
 * A `# Source:` path that can name a file of the repository: relative, inside it, in
 * the characters chart paths use. Anything else (the comment is manifest text) is not
 * made a location; the result stays on the rendered file's line.
 */
export function templatePath(template: string | undefined): string | undefined {
  if (!template || template.length > 512 || !/^[A-Za-z0-9._/-]+$/.test(template)) return undefined;
  const parts = template.split('/');
  return parts.some((p) => p === '' || p === '.' || p === '..') ? undefined : template;
}

function physical(r: CheckResult, options: SarifOptions) {
  const at = r.focus ?? r.at;
  const template = templatePath(r.at?.template);
  if (template) {
    const line = r.focus ? options.templateLine?.(template, r.focus.path) : undefined;
    return { artifactLocation: { uri: artifactUri(template) }, region: { startLine: line ?? 1 } };
  }
  return {
    artifactLocation: { uri: artifactUri(at?.file ?? 'manifest') },
    region: { startLine: at?.line ?? 1, startColumn: at?.column ?? 1 },
  };
}

/** An accepted finding as SARIF says it: suppressed in the source (its annotation) or outside it (the baseline). */
function suppressed(accepted: Accepted | null | undefined) {
  if (!accepted) return {};
  const kind = accepted.by === 'annotation' ? 'inSource' : 'external';
  return { suppressions: [{ kind, status: 'accepted', justification: sarifText(accepted.reason) }] };
}

/** A rule as SARIF declares it; its descriptions and help in `lang` (sarif-words.ts), its page English. */
function rule(id: string, lang: Lang) {
  const text = ruleText(id);
  const words = ruleWords(id, lang) ?? text;
  return {
    id,
    name: id,
    shortDescription: { text: words.short },
    fullDescription: { text: words.full },
    help: { text: words.help.replace(/\*\*|`/g, ''), markdown: words.help },
    helpUri: text.page,
    defaultConfiguration: { level: text.level },
    properties: { tags: ['kubernetes', 'rollout'], precision: 'high', 'problem.severity': text.level },
  };
}

export function renderSarif(report: CheckReport, options: SarifOptions): string {
  const lang = options.lang ?? DEFAULT_LANG;
  const w = wordsIn(CHECK_WORDS, lang);
  const ids = [
    ...new Set([
      ...Object.keys(CHECK_RULES),
      ...report.results.flatMap((r) => r.findings.map((f) => f.code)),
    ]),
  ];
  const results = report.results.flatMap((r) =>
    r.findings.map((f, i) => ({
      ruleId: f.code,
      ruleIndex: ids.indexOf(f.code),
      level: f.severity === 'critical' ? 'error' : f.severity === 'info' ? 'note' : 'warning',
      // Our words with the values quoted and defanged: the summary embeds names (escaped
      // as a whole, its own words hold nothing to escape but parentheses), the template
      // path is the `# Source:` comment's word as written. The fix's YAML is in properties.
      message: {
        text: sarifMessage(
          `${sarifText(checkSummary(f, lang))}${r.at?.template ? w.sarifRendered({ template: sarifQuoted(r.at.template) }) : ''}${r.fix ? w.sarifFix({ words: sarifText(r.fix.words), field: 'properties.fix' }) : ''}`,
        ),
      },
      locations: [
        { physicalLocation: physical(r, options), logicalLocations: [{ name: refOf(r), kind: 'resource' }] },
      ],
      partialFingerprints: { workload: `${refOf(r)}:${f.code}` },
      ...suppressed(r.accepted?.[i]),
      ...(r.fix ? { properties: { fix: r.fix.yaml } } : {}),
    })),
  );
  const notifications = report.notes.map((note) => ({
    level: 'warning',
    message: { text: sarifText(note) },
  }));
  return jsonText(
    document(lang, options.version, automationId(report.source), ids, results, {
      executionSuccessful: true,
      ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
    }),
  );
}

/**
 * The SARIF of a run that could not judge (exit 2 bad input, 3 cluster unreachable or
 * forbidden): no results, the reason as an error notification.
 */
export function renderSarifFailure(
  options: Pick<SarifOptions, 'version'> & {
    exitCode: number;
    message: string;
    /** The cluster or dump the arguments named, so the failure replaces that upload's alerts only. */
    source?: CheckReport['source'];
    /** The rules' descriptions' language (the error message is the CLI's, English). */
    lang?: Lang;
  },
): string {
  const id = automationId(options.source ?? { mode: 'live', context: 'unknown' });
  return jsonText(
    document(options.lang ?? DEFAULT_LANG, options.version, id, Object.keys(CHECK_RULES), [], {
      executionSuccessful: false,
      exitCode: options.exitCode,
      toolExecutionNotifications: [
        { level: 'error', message: { text: sarifMessage(sarifText(options.message)) } },
      ],
    }),
  );
}

function document(
  lang: Lang,
  version: string,
  id: string,
  ruleIds: readonly string[],
  results: readonly unknown[],
  invocation: Record<string, unknown>,
) {
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: DRIVER,
            version,
            informationUri: TOOL_PAGE,
            rules: ruleIds.map((id) => rule(id, lang)),
          },
        },
        automationDetails: { id },
        invocations: [invocation],
        results,
      },
    ],
  };
}
