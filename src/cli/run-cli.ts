import { ClusterError, KubeconfigError, WorkloadNotFoundError } from '../kube/errors.js';
import { cleanText, errorLineText, quoted } from '../text/clean.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { packageVersion } from './version.js';
import { PLAN_KEY_HOLDERS } from '../trust/keygen.js';
import { titlesPhrase } from '../diagnosis/workload-ref.js';

type Command = (argv: string[], io: CliIo) => Promise<number>;

/** Subcommands, loaded on demand so `explain-scheduling` does not pay for the Kubernetes client. */
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  diagnose: {
    summary: `explain a stuck rollout or crashing pods of one ${titlesPhrase('', 'or')} (live or --from-file)`,
    load: async () => (await import('./commands/diagnose.js')).run,
  },
  'explain-scheduling': {
    summary: 'explain FailedScheduling messages read on stdin and what would let the pod schedule',
    load: async () => (await import('./commands/explain-scheduling.js')).run,
  },
  check: {
    summary:
      'before you apply: will the rollouts these manifests start finish in this cluster? (-f FILE|DIR|-, CI and GitOps)',
    load: async () => (await import('./commands/check.js')).run,
  },
  'serve-admission': {
    summary: 'serve the admission webhook that warns at kubectl apply about a rollout that can never finish',
    load: async () => (await import('./commands/serve-admission.js')).run,
  },
  scan: {
    summary: `list ${titlesPhrase('s', 'and')} that are stuck or at risk (-n NS or -A)`,
    load: async () => (await import('./commands/scan.js')).run,
  },
  apply: {
    summary:
      'apply one remediation to a workload (any of the four kinds) after showing the patch and confirming',
    load: async () => (await import('./commands/apply.js')).run,
  },
  propose: {
    summary: 'propose the proved fix to the Git repository that applies the workload, as a pull request',
    load: async () => (await import('./commands/propose.js')).run,
  },
  undo: {
    summary: 'put back what apply wrote, by the undo id it printed, if nothing moved on since',
    load: async () => (await import('./commands/undo.js')).run,
  },
  postmortem: {
    summary:
      'draft the post-mortem of an incident from the audit log (--from-audit FILE) or its record in Redis (--incident ID)',
    load: async () => (await import('./commands/postmortem.js')).run,
  },
  keygen: {
    summary: `print the ${PLAN_KEY_HOLDERS.length} keys the app and the workers sign and check with (keygen --help lists them)`,
    load: async () => (await import('./commands/keygen.js')).run,
  },
};

export function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(20)} ${c.summary}`);
  return [
    'Usage: rollout-doctor <command> [options]',
    '       rollout-doctor --version',
    '',
    'Commands:',
    ...lines,
    '',
    'Run rollout-doctor <command> --help for its options.',
    '',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(usage());
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = commands[name];
  if (!command) {
    io.stderr.write(`rollout-doctor: unknown command ${quoted(name)}\n\n${usage()}`);
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
    if (error instanceof UsageError || error instanceof KubeconfigError) {
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
