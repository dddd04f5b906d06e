/**
 * `rollout-doctor scan [-n NS | -A] [--context C] [--kubeconfig F] [-o text|json]`:
 * lists Deployments that are stuck or at risk of a surge deadlock. Exit: 0 nothing
 * found, 1 something found, 2 bad arguments, 3 cluster unreachable or forbidden,
 * 4 internal error.
 */
import {
  kindsPhrase,
  titleOfKind,
  titlesPhrase,
  typeOfKind,
  WORKLOAD_KINDS,
} from '../../diagnosis/workload-ref.js';
import { ciSafeText, cleanText, escapeJsonControls } from '../../text/clean.js';
import { table } from '../../report/format.js';
import {
  checkNamespace,
  cliLang,
  clusterOptions,
  LANG_OPTION,
  outputFormat,
  parseCommandArgs,
  wantsHelp,
} from '../args.js';
import { SCAN_FLAGS, HELP_WORDS, SCAN_VALUES } from '../help-words.js';
import { EXIT, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import type { ScanEntry, ScanReport } from '../../kube/read/scan.js';
import type { ScanExclusion } from '../../kube/read/exclusion-reads.js';
import { DEFAULT_LANG, type Lang } from '../../i18n/lang.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import { exclusionWords, spanWords } from '../../remediation/exclusion-words.js';
import { findingSummary } from '../../message/words/finding.js';
import { SCAN_WORDS } from '../scan-words.js';
import { pausesEndByThemselves } from '../../diagnosis/finding-words.js';

const USAGE = `rollout-doctor scan [-n NAMESPACE | -A] [--context C] [--kubeconfig F] [--from-file DUMP] [-o text|json]
                           [--lang en|ko]`;

/** The help in `lang` (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'scanHelp', {
    usage: USAGE,
    kinds: lang === 'en' ? titlesPhrase('s', 'and') : WORKLOAD_KINDS.map(titleOfKind).join(', '),
    flags: [...SCAN_FLAGS],
    values: [...SCAN_VALUES],
  });
}

interface ScanArgs {
  namespace?: string;
  allNamespaces: boolean;
  output: 'text' | 'json';
  context?: string;
  kubeconfig?: string;
  fromFile?: string;
}

export function parseScanArgs(argv: string[]): ScanArgs {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      namespace: { type: 'string', short: 'n' },
      'all-namespaces': { type: 'boolean', short: 'A' },
      context: { type: 'string' },
      kubeconfig: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'from-file': { type: 'string' },
      ...LANG_OPTION,
    },
  });
  const fromFile = values['from-file'];
  if (fromFile !== undefined && (values.context !== undefined || values.kubeconfig !== undefined)) {
    throw usageError('dumpOrCluster', {});
  }
  if (fromFile === '') throw usageError('needsFile', { flag: '--from-file', stdin: true });
  if (values.namespace !== undefined && values['all-namespaces']) {
    throw usageError('namespaceOrAll', {});
  }
  return {
    allNamespaces: values['all-namespaces'] ?? false,
    output: outputFormat(values.output),
    ...(values.namespace !== undefined ? { namespace: checkNamespace(values.namespace) } : {}),
    ...clusterOptions(values),
    ...(fromFile !== undefined ? { fromFile } : {}),
  };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const lang = cliLang(argv, io.env);
  if (wantsHelp(argv)) {
    io.stdout.write(help(lang));
    return EXIT.ok;
  }
  const args = parseScanArgs(argv);
  const report =
    args.fromFile !== undefined ? await fromDump(args, args.fromFile, io) : await live(args, io, lang);
  // JSON output stays raw data (JSON escaping covers controls); text is for a terminal.
  io.stdout.write(
    ciSafeText(
      args.output === 'json'
        ? escapeJsonControls(`${JSON.stringify(withoutWords(report), null, 2)}\n`)
        : cleanText(renderScan(report, lang)),
    ),
  );
  // A pause alone is no problem (diagnose exits 0 for it); it is listed, not counted.
  return report.entries.some((e) => e.state !== 'paused') ? EXIT.problems : EXIT.ok;
}

async function fromDump(args: ScanArgs, file: string, io: CliIo): Promise<ScanReport> {
  const { withDump } = await import('../dump-file.js');
  const { scanDump } = await import('../scan-dump.js');
  const scope = { allNamespaces: args.allNamespaces, namespace: args.namespace ?? 'default' };
  return withDump(file, io, {}, (objects) => scanDump(objects, scope), args.output);
}

/** The report as JSON has always had it: a finding's catalogue words (`says`) are for the text. */
function withoutWords(report: ScanReport): ScanReport {
  return {
    ...report,
    entries: report.entries.map((e) => ({ ...e, findings: e.findings.map(({ says: _says, ...f }) => f) })),
  };
}

async function live(args: ScanArgs, io: CliIo, lang: Lang): Promise<ScanReport> {
  const { createKubeClient } = await import('../../kube/client.js');
  const { scanCluster } = await import('../../kube/read/scan.js');
  const stderr = io.stderr as CliIo['stderr'] & { isTTY?: boolean };
  const client = createKubeClient({
    kubeconfig: args.kubeconfig,
    context: args.context,
    environment: io.env,
  });
  const report: ScanReport = await scanCluster(client, {
    allNamespaces: args.allNamespaces,
    namespace: args.namespace ?? client.namespace,
    onProgress: (done, total) => {
      if (stderr.isTTY)
        stderr.write(
          `\r${wordsIn(SCAN_WORDS, lang).progress({ done, ...(total !== undefined ? { total } : {}) })}`,
        );
    },
  });
  if (stderr.isTTY) stderr.write('\n');
  return report;
}

export function renderScan(report: ScanReport, lang: Lang = DEFAULT_LANG): string {
  const w = wordsIn(SCAN_WORDS, lang);
  const where = report.scope.allNamespaces
    ? w.allNamespaces({})
    : w.namespace({ namespace: report.scope.namespace ?? '' });
  const lines: string[] = [];
  const state = {
    stuck: w.stuck({}),
    'at-risk': w.atRisk({}),
    problems: w.problems({}),
    paused: w.paused({}),
  };
  const entries = (list: readonly ScanEntry[]): string[] =>
    table(
      [w.columnState({}), w.columnWorkload({}), w.columnFindings({}), w.columnSummary({})],
      list.map((e) => [
        state[e.state],
        `${e.namespace}/${typeOfKind(e.kind)}/${e.name}`,
        e.findings.map((f) => f.code).join(','),
        e.findings[0] ? findingSummary(e.findings[0], lang) : '',
      ]),
    );
  const attention = report.entries.filter((e) => e.state !== 'paused');
  const paused = report.entries.filter((e) => e.state === 'paused');
  if (attention.length === 0) {
    const kinds = lang === 'en' ? kindsPhrase('s', 'and') : WORKLOAD_KINDS.join(', ');
    lines.push(w.allClear({ where, scanned: report.scanned, kinds }));
  } else {
    lines.push(...entries(attention));
    lines.push('', w.needAttention({ count: attention.length, scanned: report.scanned, where }));
  }
  // Paused is not finished: listed apart, never passed over as if it were.
  if (paused.length > 0) lines.push('', ...pausedLines(paused, w), ...entries(paused));
  if (report.entries.length > 0)
    lines.push(w.runDiagnose({ command: 'rollout-doctor diagnose TYPE/NAME -n NAMESPACE' }));
  if (!report.nodesComplete) lines.push(w.nodesIncomplete({}));
  lines.push(...exclusionLines(report.exclusions ?? [], lang));
  for (const p of report.accessProblems) lines.push(w.note({ text: p.message }));
  if (report.notServed?.includes('Rollout'))
    lines.push(w.noRollouts({ crd: 'rollouts.argoproj.io', product: 'Argo Rollouts' }));
  return `${lines.join('\n')}\n`;
}

/** The live node exclusions: which workload, what it keeps off, since when, until when. */
/** Who ends the pauses: a person, or the controller at a timed pause's end (said apart). */
function pausedLines(
  paused: readonly ScanEntry[],
  w: ReturnType<typeof wordsIn<typeof SCAN_WORDS>>,
): string[] {
  const timed = paused.filter((e) => pausesEndByThemselves(e.findings)).length;
  const person = paused.length - timed;
  return [
    ...(person > 0 ? [w.pausedWaiting({ count: person })] : []),
    ...(timed > 0 ? [w.pausedTimed({ count: timed })] : []),
  ];
}

function exclusionLines(exclusions: readonly ScanExclusion[], lang: Lang): string[] {
  if (exclusions.length === 0) return [];
  const w = wordsIn(exclusionWords, lang);
  const ends = (e: ScanExclusion): string => {
    const left = e.expiresInSeconds === undefined ? undefined : e.expiresInSeconds * 1000;
    if (e.state === 'until-removed') return w.untilRemoved({});
    if (e.state === 'unreadable' || left === undefined) return w.unreadable({ value: e.expiresAt });
    return e.state === 'expired'
      ? w.expired({ span: spanWords(-left) })
      : w.endsIn({ span: spanWords(left) });
  };
  const rows = exclusions.map((e) => [
    `${e.namespace}/${typeOfKind(e.kind)}/${e.name}`,
    Object.entries(e.values)
      .map(([key, values]) => `${key} NotIn ${values.join(',')}`)
      .join('; '),
    e.ageSeconds === undefined ? '?' : spanWords(e.ageSeconds * 1000),
    ends(e),
  ]);
  return [
    '',
    w.scanHeading({ count: exclusions.length }),
    ...table([w.columnWorkload({}), w.columnExcluded({}), w.columnAge({}), w.columnEnds({})], rows),
  ];
}
