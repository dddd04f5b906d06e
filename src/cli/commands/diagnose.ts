/**
 * `rollout-doctor diagnose deployment/NAME -n NS [--context C] [--kubeconfig F]
 * [--from-file DUMP] [--argocd-namespace NS] [-o text|json]`: diagnoses one Deployment from a live cluster or
 * a saved dump. Exit: 0 no problem, 1 problems found, 2 bad arguments or input or
 * not found, 3 cluster unreachable or forbidden, 4 internal error (a check that threw).
 */
import { ciSafeText, escapeJsonControls } from '../../text/clean.js';
import { assembleSnapshot } from '../../diagnosis/snapshot/dump/assemble.js';
import { withDump } from '../dump-file.js';
import { dumpReading, relevantTo } from '../../diagnosis/snapshot/dump/dump-relevance.js';
import { diagnose } from '../../engine/diagnose.js';
import type { WorkloadRef, WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { hasProblems, renderJson } from '../../report/json.js';
import { renderText } from '../../report/text.js';
import {
  argocdNamespace,
  cliLang,
  clusterOptions,
  LANG_OPTION,
  workloadRefArg,
  outputFormat,
  parseCommandArgs,
  wantsHelp,
} from '../args.js';
import { EXIT, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import { DIAGNOSE_FLAGS, DIAGNOSE_VALUES, HELP_WORDS } from '../help-words.js';
import { translate } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';

const USAGE = `rollout-doctor diagnose TYPE/NAME [-n NAMESPACE] [--context C] [--kubeconfig F]
                                [--from-file DUMP] [--argocd-namespace NS] [-o text|json]`;

/** The help in `lang` (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'diagnoseHelp', {
    usage: USAGE,
    flags: [...DIAGNOSE_FLAGS],
    values: [...DIAGNOSE_VALUES],
  });
}

interface Options {
  ref: WorkloadRef;
  /** -n was given; otherwise a live read uses the kubeconfig context's namespace, as kubectl does. */
  namespaceGiven: boolean;
  output: 'text' | 'json';
  fromFile?: string;
  context?: string;
  kubeconfig?: string;
  /** --argocd-namespace as given; run() falls back to the environment. */
  argocdNamespace?: string;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const lang = cliLang(argv, io.env);
  if (wantsHelp(argv)) {
    io.stdout.write(help(lang));
    return EXIT.ok;
  }
  const options = parseOptions(argv);
  const argocd = argocdNamespace(options.argocdNamespace, io.env);
  const snapshot: WorkloadSnapshot = options.fromFile
    ? await fromFile(options.fromFile, options.ref, argocd, io, options.output)
    : await fromCluster(options, argocd, io);
  const diagnosis = diagnose(snapshot);
  const color = Boolean(io.stdout.isTTY) && !io.env['NO_COLOR'];
  io.stdout.write(
    ciSafeText(
      options.output === 'json'
        ? escapeJsonControls(renderJson(diagnosis))
        : renderText(diagnosis, { color, lang }),
    ),
  );
  if (hasProblems(diagnosis)) return EXIT.problems;
  // A check that threw is a bug, and its silence is not an all clear.
  return diagnosis.analyzerErrors.length > 0 ? EXIT.internal : EXIT.ok;
}

/** Parses and validates the arguments; every mistake is a UsageError (exit 2). */
export function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      namespace: { type: 'string', short: 'n' },
      context: { type: 'string' },
      kubeconfig: { type: 'string' },
      'from-file': { type: 'string' },
      output: { type: 'string', short: 'o' },
      'argocd-namespace': { type: 'string' },
      ...LANG_OPTION,
    },
  });
  const ref = workloadRefArg(positionals, values.namespace, 'diagnosed');
  const output = outputFormat(values.output);
  const fromFile = values['from-file'];
  if (fromFile !== undefined && (values.context !== undefined || values.kubeconfig !== undefined)) {
    throw usageError('dumpOrCluster', {});
  }
  if (fromFile === '') throw usageError('needsFile', { flag: '--from-file', stdin: true });
  return {
    ref,
    namespaceGiven: values.namespace !== undefined,
    output,
    ...(fromFile !== undefined ? { fromFile } : {}),
    ...(values['argocd-namespace'] !== undefined ? { argocdNamespace: values['argocd-namespace'] } : {}),
    ...clusterOptions(values),
  };
}

function fromFile(
  file: string,
  ref: WorkloadRef,
  argocd: string | undefined,
  io: CliIo,
  output: 'text' | 'json',
): Promise<WorkloadSnapshot> {
  // Other namespaces' pods are parsed only on the nodes the diagnosis looks at, as the
  // objects read without them say (so a big YAML dump costs only what the diagnosis reads: dump-relevance.ts).
  const reading = dumpReading(ref, (kept) => {
    try {
      const nodes = assembleSnapshot(ref, [...kept]).nodes.map((n) => n.metadata.name ?? '');
      return nodes.length > 0 ? new Set(nodes) : undefined;
    } catch {
      return undefined;
    }
  });
  const { summary, ...load } = reading;
  return withDump(
    file,
    io,
    { keep: relevantTo(ref), ...load },
    (objects) =>
      assembleSnapshot(ref, objects, {
        ...(argocd !== undefined ? { argocdNamespace: argocd } : {}),
        unparsed: summary,
      }),
    output,
  );
}

async function fromCluster(
  options: Options,
  argocd: string | undefined,
  io: CliIo,
): Promise<WorkloadSnapshot> {
  // Loaded on demand so that dump mode never pulls in the Kubernetes client.
  const { collectFromCluster } = await import('../../kube/read/source.js');
  const stderr = io.stderr as CliIo['stderr'] & { isTTY?: boolean };
  return collectFromCluster({
    ref: options.ref,
    namespaceFromContext: !options.namespaceGiven,
    ...(options.kubeconfig !== undefined ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    environment: io.env,
    ...(argocd !== undefined ? { argocdNamespace: argocd } : {}),
    onProgress: (step) => {
      if (stderr.isTTY) stderr.write(`… ${step}\n`);
    },
  });
}
