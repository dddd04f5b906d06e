/**
 * `rollout-doctor check -f PATH [-f PATH…] [-n NS] [--context C] [--kubeconfig F]
 * [--from-file DUMP] [-o text|json|sarif] [--allow-unknown]`: for each Deployment,
 * DaemonSet, StatefulSet and Argo Rollout in the manifests, whether applying them starts
 * a rollout and whether it will finish in the cluster as it is now. Exit: 0 every
 * rollout started will finish (or none starts), 1 one can never finish (or is not
 * known, unless --allow-unknown), 2 bad arguments or manifests, 3 cluster unreachable
 * or forbidden, 4 internal error.
 */
import { checkAll, type CheckItem } from '../../check/check.js';
import type { CheckSource } from '../../check/source.js';
import { ManifestError, type ManifestSet } from '../../check/manifests.js';
import { readManifests } from '../../check/manifest-files.js';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { fails, parseBaseline, withAcceptance, type Baseline } from '../../check/acceptance.js';
import { FINDING_CODES, type FindingCode } from '../../diagnosis/finding.js';
import { renderJson, renderText, type CheckReport } from '../../check/render.js';
import { renderSarif, renderSarifFailure } from '../../check/sarif.js';
import { templateLines } from '../../check/template-lines.js';
import { ClusterError, KubeconfigError } from '../../kube/errors.js';
import {
  checkNamespace,
  cliLang,
  clusterOptions,
  LANG_OPTION,
  parseCommandArgs,
  wantsHelp,
} from '../args.js';
import { langFromEnvironment, type Lang } from '../../i18n/lang.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import { CHECK_WORDS } from '../../check/words.js';
import { CHECK_FLAGS, HELP_WORDS, CHECK_VALUES } from '../help-words.js';
import { EXIT, readAllWithin, UsageError, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import { packageVersion } from '../version.js';
import { quoted } from '../../text/clean.js';
import { titleOfKind, titlesPhrase, WORKLOAD_KINDS } from '../../diagnosis/workload-ref.js';

const USAGE = `rollout-doctor check -f PATH [-f PATH...] [-n NAMESPACE] [--context C] [--kubeconfig F]
                             [--from-file DUMP] [-o text|json|sarif] [--allow-unknown]
                             [--baseline FILE] [--warn CODE...] [--sarif FILE] [--lang en|ko]`;

/** The help in `lang` (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'checkHelp', {
    usage: USAGE,
    kinds: lang === 'en' ? titlesPhrase('', 'and') : WORKLOAD_KINDS.map(titleOfKind).join(', '),
    flags: [...CHECK_FLAGS],
    values: [...CHECK_VALUES],
  });
}

type Output = 'text' | 'json' | 'sarif';

interface CheckArgs {
  files: string[];
  namespace?: string;
  output: Output;
  allowUnknown: boolean;
  baseline?: string;
  warn: Set<FindingCode>;
  context?: string;
  kubeconfig?: string;
  fromFile?: string;
  /** --sarif: SARIF also written to this file. */
  sarifFile?: string;
}

export function parseCheckArgs(argv: string[]): CheckArgs {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      filename: { type: 'string', short: 'f', multiple: true },
      namespace: { type: 'string', short: 'n' },
      context: { type: 'string' },
      kubeconfig: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'from-file': { type: 'string' },
      'allow-unknown': { type: 'boolean' },
      baseline: { type: 'string' },
      warn: { type: 'string', multiple: true },
      sarif: { type: 'string' },
      ...LANG_OPTION,
    },
  });
  if (values.sarif === '') throw usageError('needsFile', { flag: '--sarif', stdin: false });
  if (positionals.length > 0) throw usageError('unexpectedArgument', { value: positionals[0] ?? '' });
  const files = values.filename ?? [];
  if (files.length === 0) throw usageError('whichManifests', {});
  if (files.some((f) => f === '')) throw usageError('fileOrFolder', {});
  const fromFile = values['from-file'];
  if (fromFile !== undefined && (values.context !== undefined || values.kubeconfig !== undefined))
    throw usageError('dumpOrCluster', {});
  if (fromFile === '') throw usageError('needsFile', { flag: '--from-file', stdin: true });
  if (fromFile === '-' && files.includes('-')) throw usageError('stdinOnce', {});
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json' && output !== 'sarif')
    throw usageError('outputFormat', { value: output, formats: ['text', 'json', 'sarif'] });
  const warn = new Set<FindingCode>();
  for (const word of values.warn ?? []) {
    if (!(FINDING_CODES as readonly string[]).includes(word))
      throw usageError('warnCode', { value: word, codes: FINDING_CODES.join(', ') });
    warn.add(word as FindingCode);
  }
  if (values.baseline === '') throw usageError('needsFile', { flag: '--baseline', stdin: false });
  return {
    files,
    output,
    allowUnknown: values['allow-unknown'] ?? false,
    warn,
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(values.namespace !== undefined ? { namespace: checkNamespace(values.namespace) } : {}),
    ...clusterOptions(values),
    ...(fromFile !== undefined ? { fromFile } : {}),
    ...(values.sarif !== undefined ? { sarifFile: values.sarif } : {}),
  };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  // The language is read inside the try: a bad --lang is bad input, and -o sarif or
  // --sarif still gets its file, in the shell's language.
  let lang: Lang = langFromEnvironment(io.env);
  try {
    lang = cliLang(argv, io.env);
    if (wantsHelp(argv)) {
      io.stdout.write(help(lang));
      return EXIT.ok;
    }
    return await checkCommand(argv, io, lang);
  } catch (error) {
    // SARIF asked for: a file the upload step can still read, saying why there are no
    // results (exit 2 bad input, 3 the cluster). The error itself goes on to stderr.
    const exitCode = error instanceof ClusterError ? EXIT.cluster : EXIT.usage;
    if (error instanceof UsageError || error instanceof ClusterError || error instanceof KubeconfigError) {
      const sarif = (): string =>
        renderSarifFailure({
          version: packageVersion(),
          exitCode,
          message: (error as Error).message,
          lang,
          ...sourceNamed(argv),
        });
      if (wantsSarif(argv)) io.stdout.write(sarif());
      const file = flagValue(argv, '--sarif');
      if (file) await writeFile(file, sarif()).catch(() => undefined);
    }
    throw error;
  }
}

/**
 * The dump or context the arguments name, read as plainly as `-o sarif` is (the rest may
 * be wrong): a failed run's SARIF then carries the same category as that cluster's runs,
 * so its upload replaces that cluster's alerts and no other's.
 */
function sourceNamed(argv: readonly string[]): { source?: CheckReport['source'] } {
  const file = flagValue(argv, '--from-file');
  if (file) return { source: { mode: 'dump', file } };
  const context = flagValue(argv, '--context');
  return context ? { source: { mode: 'live', context } } : {};
}

/** A long flag's value (`--flag V` or `--flag=V`), read without the parser. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (i < 0) return undefined;
  const arg = argv[i] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
}

/** `-o sarif` anywhere in the arguments, even where the rest of them are wrong. */
function wantsSarif(argv: readonly string[]): boolean {
  return argv.some(
    (arg, i) =>
      arg === '-osarif' ||
      arg === '--output=sarif' ||
      ((arg === '-o' || arg === '--output') && argv[i + 1] === 'sarif'),
  );
}

async function checkCommand(argv: string[], io: CliIo, lang: Lang): Promise<number> {
  const args = parseCheckArgs(argv);
  let manifests: ManifestSet;
  try {
    manifests = await readManifests(args.files, { readStdin: (limit) => readAllWithin(io.stdin, limit) });
  } catch (error) {
    if (error instanceof ManifestError) throw new UsageError(error.message);
    throw error;
  }
  const items: CheckItem[] = manifests.workloads.map((w) => ({
    kind: w.kind,
    object: w.object,
    at: w.at,
    locate: w.locate,
    createdClasses: manifests.priorityClasses,
    createdQuotas: manifests.resourceQuotas,
    createdLimitRanges: manifests.limitRanges,
    createdNames: manifests.created,
  }));
  const { source, namespace, described, notes } =
    args.fromFile !== undefined
      ? await fromDump(args, args.fromFile, io)
      : await live(args, io, args.output === 'json' ? 'en' : lang);
  const baseline = args.baseline !== undefined ? await readBaseline(args.baseline) : undefined;
  const judged = withAcceptance(
    await checkAll(items, source, namespace),
    items.map((i) => i.object),
    baseline,
  );
  const results = judged.results;
  const report: CheckReport = {
    source: described,
    results,
    others: manifests.others,
    notes: [...notes(), ...judged.notes],
  };
  const stdout = io.stdout as CliIo['stdout'] & { isTTY?: boolean };
  const sarif = (): string =>
    renderSarif(report, { version: packageVersion(), templateLine: templateLines(), lang });
  if (args.sarifFile !== undefined) await writeSarifFile(args.sarifFile, sarif());
  io.stdout.write(
    args.output === 'json'
      ? renderJson(report)
      : args.output === 'sarif'
        ? sarif()
        : renderText(report, stdout.isTTY === true && !io.env['NO_COLOR'], lang),
  );
  return results.some((r) => fails(r, args)) ? EXIT.problems : EXIT.ok;
}

/** --sarif's file; one that cannot be written is bad input (exit 2), said before any output. */
async function writeSarifFile(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new UsageError(
      `cannot write the SARIF file ${quoted(file)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

/** The baseline file: a regular file of at most 1 MiB, exit 2 for anything else. */
async function readBaseline(file: string): Promise<Baseline> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read the baseline ${quoted(file)}: ${error.code ?? String(error)}`);
  });
  if (!info.isFile() || info.size > 1024 * 1024)
    throw new UsageError(`the baseline ${quoted(file)} is not a regular file of at most 1 MiB`);
  try {
    return parseBaseline(await readFile(file, 'utf8'), file);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

interface Opened {
  source: CheckSource;
  namespace: string;
  described: CheckReport['source'];
  notes: () => string[];
}

async function fromDump(args: CheckArgs, file: string, io: CliIo): Promise<Opened> {
  const { withDump } = await import('../dump-file.js');
  const { dumpSource } = await import('../../check/dump-source.js');
  const source = await withDump(
    file,
    io,
    {},
    (objects) => dumpSource(objects),
    args.output === 'text' ? 'text' : 'json',
  );
  return {
    source,
    namespace: args.namespace ?? 'default',
    described: { mode: 'dump', file },
    notes: () => [],
  };
}

async function live(args: CheckArgs, io: CliIo, lang: Lang): Promise<Opened> {
  const { createKubeClient } = await import('../../kube/client.js');
  const { liveSource } = await import('../../check/live-source.js');
  const client = createKubeClient({
    kubeconfig: args.kubeconfig,
    context: args.context,
    environment: io.env,
  });
  const namespace = args.namespace ?? client.namespace ?? 'default';
  const source = liveSource(client);
  return {
    source,
    namespace,
    described: { mode: 'live', context: client.context },
    notes: () => source.problems.map((p) => wordsIn(CHECK_WORDS, lang).notRead({ text: p.message })),
  };
}
