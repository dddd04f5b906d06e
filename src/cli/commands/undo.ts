/**
 * `rollout-doctor undo ID|FILE [--yes] [--context C] [--kubeconfig F] [--timeout SECONDS]`:
 * puts back what an earlier `apply` wrote, from the Undo it kept (src/cli/undo-store.ts),
 * with the same checks as the Slack Undo button: the exact write and the server's dry
 * run shown, confirmation asked, and the executor's preconditions (the generation that
 * apply produced, each changed field still at its new value) refusing once anything
 * moved on. Exit as apply (DESIGN.md §3): 0 undone and rolled out; 1 not undone
 * (refused, failed or declined) or not rolled out; 2 bad arguments, no such undo, or an
 * undo made for another cluster; 3 cluster unreachable or forbidden; 4 internal error.
 */
import { cleanText } from '../../text/clean.js';
import { cliLang, clusterOptions, LANG_OPTION, parseCommandArgs, wantsHelp } from '../args.js';
import { applyAndFollow } from '../apply-flow.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import { loadUndo } from '../undo-store.js';
import { HELP_WORDS, UNDO_FLAGS, UNDO_VALUES } from '../help-words.js';
import { translate } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';

const USAGE =
  'rollout-doctor undo ID|FILE [--yes] [--context C] [--kubeconfig F] [--timeout SECONDS] [--lang en|ko]';

/** The help in `lang` (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'undoHelp', {
    usage: USAGE,
    flags: [...UNDO_FLAGS],
    values: [...UNDO_VALUES],
  });
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout.write(help(cliLang(argv, io.env)));
    return EXIT.ok;
  }
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      yes: { type: 'boolean', short: 'y' },
      timeout: { type: 'string' },
      context: { type: 'string' },
      kubeconfig: { type: 'string' },
      ...LANG_OPTION,
    },
  });
  const lang = cliLang(argv, io.env);
  if (positionals.length !== 1) throw usageError('whichUndo', {});
  const seconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw usageError('positiveTimeout', {});
  const loaded = await loadUndo(positionals[0] ?? '', io.env);
  if (!loaded.ok) throw new UsageError(loaded.reason);
  const { undo } = loaded;

  const { createKubeClient } = await import('../../kube/client.js');
  const client = createKubeClient({ ...clusterOptions(values), environment: io.env });
  if (client.server !== undo.cluster.server) {
    io.stderr.write(
      cleanText(
        `rollout-doctor undo: this undo was made for the cluster at ${undo.cluster.server} (context ${undo.cluster.context}); the kubeconfig now points at ${client.server}: pick its context with --context\n`,
      ),
    );
    return EXIT.usage;
  }
  return applyAndFollow(
    client,
    undo.plan,
    { command: 'undo', yes: values.yes ?? false, timeoutMs: seconds * 1000, lang },
    io,
  );
}
