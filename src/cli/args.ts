/**
 * Argument parsing shared by the subcommands: every mistake becomes a UsageError
 * (exit 2) with a sentence that says what is wrong.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  DEFAULT_WORKLOAD_KIND,
  WORKLOAD_KINDS,
  workloadTypes,
  splitTypeName,
  type WorkloadRef,
} from '../diagnosis/workload-ref.js';
import type { UsageError } from './io.js';
import { usageError } from './usage-words.js';
import { LANGS, langFromEnvironment, type Lang } from '../i18n/lang.js';

/** What a command does to the workload, and the error that names the kinds it takes. */
const ONLY = { diagnosed: 'onlyDiagnosed', remediated: 'onlyRemediated', proposed: 'onlyProposed' } as const;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * What node:util's parser refused, in our words: its message's first sentence (the
 * rest advises `--` for a positional that starts with '-', which no command here
 * takes), and where to look.
 */
function parseArgsProblem(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /^Unknown option '([^']*)'/.exec(message)?.[1];
    if (option !== undefined) return usageError('unknownOption', { value: option });
  }
  // The first sentence: node:util's later ones ("Did you forget …") end it with a line break.
  return usageError('badOption', { problem: message.split(/\.\s/)[0]?.replace(/\.$/, '') ?? message });
}

/** node:util parseArgs, with its errors turned into UsageErrors. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw parseArgsProblem(error);
  }
}

/** A namespace must be a DNS-1123 label. */
export function checkNamespace(namespace: string): string {
  if (!DNS_LABEL.test(namespace) || namespace.length > 63) {
    throw usageError('badNamespace', { value: namespace });
  }
  return namespace;
}

/**
 * The one workload a command is about: TYPE/NAME as kubectl spells it (deployment/NAME,
 * deploy/NAME, deployments/NAME, also *.apps), or NAME for a Deployment, in
 * `namespace` (default "default").
 * @example workloadRefArg(['deploy/web'], 'shop', 'diagnosed') // {kind:'Deployment', namespace:'shop', name:'web'}
 */
export function workloadRefArg(
  positionals: string[],
  namespace: string | undefined,
  verb: keyof typeof ONLY,
): WorkloadRef {
  if (positionals.length !== 1) {
    throw positionals.length === 0
      ? usageError('whichWorkload', {
          kinds: WORKLOAD_KINDS,
          types: workloadTypes()
            .map((t) => `${t}/NAME`)
            .join(', '),
          kind: DEFAULT_WORKLOAD_KIND,
        })
      : usageError('oneWorkload', { kinds: WORKLOAD_KINDS, given: positionals });
  }
  const target = splitTypeName(positionals[0] ?? '');
  if ('unknownType' in target) {
    throw usageError(ONLY[verb], { value: target.unknownType, kinds: WORKLOAD_KINDS });
  }
  const { kind, name } = target;
  if (!name || !DNS_SUBDOMAIN.test(name) || name.length > 253) {
    throw usageError('badName', { value: name, kind });
  }
  return { kind, namespace: checkNamespace(namespace ?? 'default'), name };
}

/**
 * Argo CD's namespace, where the Application named by a tracking id without `<ns>_`
 * lives: `--argocd-namespace`, else ROLLOUT_DOCTOR_ARGOCD_NAMESPACE (the worker's
 * setting), else undefined (Argo CD's own default, "argocd").
 */
export function argocdNamespace(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env['ROLLOUT_DOCTOR_ARGOCD_NAMESPACE'] || undefined;
  const value = flag ?? fromEnv;
  if (value === undefined) return undefined;
  if (!DNS_LABEL.test(value) || value.length > 63) {
    const source = flag !== undefined ? '--argocd-namespace' : 'ROLLOUT_DOCTOR_ARGOCD_NAMESPACE';
    throw usageError('badArgocdNamespace', { source, value });
  }
  return value;
}

/** `-o text|json`. */
export function outputFormat(value: string | undefined): 'text' | 'json' {
  const output = value ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw usageError('outputFormat', { value: output, formats: ['text', 'json'] });
  return output;
}

/** The live-cluster options, present only when given. */
export function clusterOptions(values: { context?: string; kubeconfig?: string }): {
  context?: string;
  kubeconfig?: string;
} {
  return {
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
  };
}

/** True when the command was asked for its help text. */
export function wantsHelp(argv: string[]): boolean {
  return argv.includes('-h') || argv.includes('--help');
}

/**
 * The reader's language: `--lang en|ko` (also `--lang=ko`), else the shell's
 * (LC_ALL, LC_MESSAGES, LANG, as gettext reads them), else English. Read before the
 * other options so that `--help` and a usage error speak it too. Only text output
 * translates: `-o json`, codes and exit statuses never do.
 */
export function cliLang(argv: readonly string[], env: NodeJS.ProcessEnv): Lang {
  const at = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
  if (at < 0) return langFromEnvironment(env);
  const arg = argv[at] ?? '';
  return langFlag(arg === '--lang' ? argv[at + 1] : arg.slice('--lang='.length));
}

/** The value given to `--lang`, one of LANGS; anything else is a usage error. */
export function langFlag(value: string | undefined): Lang {
  const lang = LANGS.find((l) => l === value);
  if (lang === undefined) throw usageError('langFlag', { value: value ?? '', langs: LANGS });
  return lang;
}

/** The `--lang` option for parseCommandArgs (its value is read by cliLang). */
export const LANG_OPTION = { lang: { type: 'string' } } as const;
