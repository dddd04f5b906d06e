/**
 * `rollout-doctor keygen [--seal-id ID] [--approval-id ID] [--notify-id ID]`: prints a
 * fresh plan seal key, approval key pair and notify key pair as environment lines. The
 * app takes the approval signing key and the notify public key, the workers the seal
 * key, the approval public key and the notify signing key (docs/operations.md, "Keys").
 */
import { generatePlanKeys, PLAN_KEY_HOLDERS } from '../../trust/keygen.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import { HELP_WORDS, type KeyHolder } from '../help-words.js';
import { translate } from '../../i18n/catalogue.js';
import { langFromEnvironment } from '../../i18n/lang.js';

/** The help in the shell's language (cli/help-words.ts): names, flags and paths as typed. */
function help(env: NodeJS.ProcessEnv): string {
  return translate(HELP_WORDS, langFromEnvironment(env), 'keygenHelp', {
    usage: 'rollout-doctor keygen [--seal-id ID] [--approval-id ID] [--notify-id ID]',
    names: PLAN_KEY_HOLDERS.map(([name]) => name),
    holders: PLAN_KEY_HOLDERS.map(([, holder]): KeyHolder => ({
      who: holder.startsWith('app') ? 'app' : 'workers',
      only: holder.endsWith(' only'),
    })),
    doc: 'docs/operations.md ("Keys")',
  });
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    options: {
      'seal-id': { type: 'string' },
      'approval-id': { type: 'string' },
      'notify-id': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(help(io.env));
    return EXIT.ok;
  }
  if (positionals.length > 0) throw usageError('noArguments', { command: 'keygen', given: positionals });
  const day = new Date().toISOString().slice(0, 10);
  let keys;
  try {
    keys = generatePlanKeys({
      seal: values['seal-id'] ?? `seal-${day}`,
      approval: values['approval-id'] ?? `approval-${day}`,
      notify: values['notify-id'] ?? `notify-${day}`,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  // Grouped by who holds them, each group under a comment naming it.
  const lines = PLAN_KEY_HOLDERS.flatMap(([name, holder], i) => [
    ...(PLAN_KEY_HOLDERS[i - 1]?.[1] === holder ? [] : [`# ${holder}`]),
    `${name}=${keys[name]}`,
  ]);
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
