import { ClusterError, KubeconfigError, WorkloadNotFoundError } from '../kube/errors.js';
import { cleanText, errorLineText } from '../text/clean.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { usageMessage, usageWords } from './usage-words.js';
import { packageVersion } from './version.js';
import { PLAN_KEY_HOLDERS } from '../trust/keygen.js';
import { titleOfKind, titlesPhrase, WORKLOAD_KINDS } from '../diagnosis/workload-ref.js';
import { DEFAULT_LANG, langFromEnvironment, type Lang } from '../i18n/lang.js';
import { translate } from '../i18n/catalogue.js';
import { COMMAND_NAMES, HELP_WORDS, USAGE_FLAGS } from './help-words.js';
import { cliLang } from './args.js';

type Command = (argv: string[], io: CliIo) => Promise<number>;

/**
 * Subcommands, loaded on demand so `explain-scheduling` does not pay for the Kubernetes
 * client. Their one-line summaries are the help's (help-words.ts, in COMMAND_NAMES order).
 */
const commands: Record<(typeof COMMAND_NAMES)[number], { load: () => Promise<Command> }> = {
  diagnose: {
    load: async () => (await import('./commands/diagnose.js')).run,
  },
  'explain-scheduling': {
    load: async () => (await import('./commands/explain-scheduling.js')).run,
  },
  check: {
    load: async () => (await import('./commands/check.js')).run,
  },
  'serve-admission': {
    load: async () => (await import('./commands/serve-admission.js')).run,
  },
  scan: {
    load: async () => (await import('./commands/scan.js')).run,
  },
  apply: {
    load: async () => (await import('./commands/apply.js')).run,
  },
  propose: {
    load: async () => (await import('./commands/propose.js')).run,
  },
  undo: {
    load: async () => (await import('./commands/undo.js')).run,
  },
  postmortem: {
    load: async () => (await import('./commands/postmortem.js')).run,
  },
  keygen: {
    load: async () => (await import('./commands/keygen.js')).run,
  },
};

/** The command list in `lang` (help-words.ts): command names and flags as typed. */
export function usage(lang: Lang = DEFAULT_LANG): string {
  const list = WORKLOAD_KINDS.map(titleOfKind).join(', ');
  return translate(HELP_WORDS, lang, 'usage', {
    names: [...COMMAND_NAMES],
    flags: [...USAGE_FLAGS],
    one: lang === 'en' ? titlesPhrase('', 'or') : list,
    all: lang === 'en' ? titlesPhrase('s', 'and') : list,
    keys: PLAN_KEY_HOLDERS.length,
  });
}

/** The reader's language for the command list: --lang, else the shell's (a bad --lang: the shell's). */
function usageLang(argv: readonly string[], env: NodeJS.ProcessEnv): Lang {
  try {
    return cliLang(argv, env);
  } catch {
    return langFromEnvironment(env);
  }
}

/**
 * `--lang X` (or `--lang=X`) before the command moved after it, where every command that
 * has one reads it: `rollout-doctor --lang ko check …` is `check … --lang ko`, and
 * `rollout-doctor --lang ko --help` the command list in Korean.
 */
function langAfterCommand(argv: string[]): string[] {
  const first = argv[0];
  if (first === '--lang') return [...argv.slice(2), ...argv.slice(0, 2)];
  if (first?.startsWith('--lang=')) return [...argv.slice(1), first];
  return argv;
}

export async function runCli(given: string[], io: CliIo): Promise<number> {
  const argv = langAfterCommand(given);
  const [name, ...rest] = argv;
  const none = !name || name.startsWith('--lang'); // no command, or only --lang
  if (none || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(usage(usageLang(argv, io.env)));
    return none ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = (commands as Record<string, (typeof commands)[keyof typeof commands] | undefined>)[name];
  if (!command) {
    const lang = usageLang(argv, io.env);
    io.stderr.write(
      `rollout-doctor: ${usageWords(lang, 'unknownCommand', { value: name })}\n\n${usage(lang)}`,
    );
    return EXIT.usage;
  }
  try {
    return await (
      await command.load()
    )(rest, io);
  } catch (error) {
    // One place maps errors to exit statuses (DESIGN.md §3): bad input (a kubeconfig or
    // context that cannot be used included) or a missing Deployment 2, an unreachable or
    // forbidding cluster 3, anything else 4.
    if (error instanceof WorkloadNotFoundError) {
      // Names come from the cluster or the dump: cleaned for the terminal.
      const guess = error.suggestions.map((s) => `${error.type}/${cleanText(s)}`);
      const end = /[.!?]$/.test(error.message) ? '' : '.';
      const hint = guess.length > 0 ? `${end} Did you mean ${guess.join(' or ')}?` : '';
      io.stderr.write(errorLine(name, `${error.message}${hint}`));
      return EXIT.usage;
    }
    if (error instanceof UsageError) {
      io.stderr.write(errorLine(name, usageMessage(error, usageLang(argv, io.env))));
      return EXIT.usage;
    }
    if (error instanceof KubeconfigError) {
      io.stderr.write(errorLine(name, error.message));
      return EXIT.usage;
    }
    if (error instanceof ClusterError) {
      io.stderr.write(errorLine(name, error.message));
      return EXIT.cluster;
    }
    // Anything else is a bug: one line and exit 4, never 1 ("problems found") or a
    // stack trace that could carry cluster text to the terminal.
    io.stderr.write(internalErrorLine(name, error));
    return EXIT.internal;
  }
}

/**
 * The one line an error prints. Messages can quote an argument, a dump or the API
 * server: their controls are shown as escapes, never removed or acted on (a value
 * silently changed would name another), on one line of bounded length (DESIGN.md §3).
 */
function errorLine(command: string, message: string): string {
  return `rollout-doctor ${command}: ${errorLineText(message)}\n`;
}

/** The one line an internal error prints: the error's name and first message line, cleaned. */
export function internalErrorLine(command: string | undefined, error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const where = command ? `rollout-doctor ${command}` : 'rollout-doctor';
  return `${where}: internal error (a bug, please report it): ${cleanText(message).split('\n')[0]?.slice(0, 300) ?? ''}\n`;
}
