/**
 * `npm run demo [-- --timeout-seconds N] [--time-scale N] [--dra] [--kind deployment|daemonset|statefulset|rollout]`
 *
 * The whole on-call story on one machine, with no Slack workspace and no cluster:
 * the Kubernetes API simulator with both seed incidents, Redis (a private
 * redis-server when one is on PATH, else the one at REDIS_URL, cleaned of this run's
 * keys at the end), the real app and worker processes, and a Slack stand-in whose
 * messages are printed here. Exits 0 when both incidents are fixed, 1 with the reason
 * otherwise (or on the overall timeout; the process logs are then kept and their
 * directory named), 2 on a bad option or value, 130 on Ctrl-C, and always stops what
 * it started. Ctrl-C stops the story at once: no step acts (command, click, write,
 * alert) and nothing more is printed once it is pressed. `--dra` plays the tracker's
 * incident as its DRA twin (sim/scenarios/gpu-deadlock-dra.yaml: the GPU comes
 * through a ResourceClaim). `--kind daemonset` plays the node agent DaemonSet's surge
 * deadlock instead (sim/scenarios/node-agent-surge.yaml), `--kind statefulset` the
 * ledger's blocked release and its forced rollback (statefulset-bad-release.yaml),
 * `--kind rollout` the tracker as an Argo Rollout whose canary deadlocks
 * (gpu-deadlock-rollout.yaml). `--chat teams` plays both seed incidents through the
 * Teams path instead (scripts/demo/teams-story.ts): the Bot Framework endpoint, signed
 * activities from the Teams stand-in, the checkout alert opening a Teams alert thread,
 * Adaptive Cards printed as text, Approve by invoke.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { CHANNEL_NAMES, SLACK_NAMES, type StoryContext } from './demo/context.js';
import type { DemoProcess } from './demo/processes.js';
import { DemoError } from './demo/demo-error.js';
import type { SlackPrinter } from './demo/slack-printer.js';
import { auditLines, keepAuditLog } from './demo/audit.js';
import { createCleanup, runScript } from './demo/cleanup.js';
import type { DemoKind } from './demo-scenario.js';

const USAGE = `Usage: npm run demo [-- --timeout-seconds N] [--time-scale N] [--dra] [--kind KIND] [--chat CHAT]

Plays both seed incidents end to end on one machine: the Kubernetes API simulator, Redis,
the real app and worker, and a Slack stand-in whose messages are printed here.
  --timeout-seconds N  give up after N seconds (default 150)
  --time-scale N       simulated controllers run N times faster (default 30)
  --dra                the tracker's GPU through Dynamic Resource Allocation (its DRA twin)
  --kind KIND          deployment (default: both seed incidents), daemonset (the node
                       agent whose hostPort surge deadlocks its rollout), statefulset
                       (the ledger whose bad release blocks even after the revert) or
                       rollout (the GPU tracker as an Argo Rollout: its canary deadlocks)
  --chat CHAT          slack (default) or teams: both seed incidents through a Microsoft
                       Teams stand-in (signed Bot Framework activities, Adaptive Cards)
  -h, --help           this text
Redis: a private redis-server when one is on PATH, else REDIS_URL (a Redis no
rollout-doctor deployment uses; the keys this run wrote are deleted at the end).
Exit status: 0 both incidents fixed, 1 not fixed (the reason, the last log lines, and
the logs kept), 2 bad option or value, 130 interrupted (Ctrl-C, SIGTERM).
`;

/** How the narration names the incident of a kind other than the seeds'. */
const KIND_WORDS: Record<Exclude<DemoKind, 'deployment'>, string> = {
  daemonset: 'a DaemonSet',
  statefulset: 'a StatefulSet',
  rollout: 'an Argo Rollout',
};

const argsSchema = z.object({
  'timeout-seconds': z.coerce.number().positive().default(150),
  'time-scale': z.coerce.number().positive().default(30),
  kind: z.enum(['deployment', 'daemonset', 'statefulset', 'rollout']).default('deployment'),
  chat: z.enum(['slack', 'teams']).default('slack'),
});

type Chat = z.infer<typeof argsSchema>['chat'];

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const bold = (line: string): string => (color ? `\u001b[1m${line}\u001b[22m` : line);

const cleanup = createCleanup(say);

const processes: DemoProcess[] = [];

async function run(
  timeScale: number,
  stepTimeoutMs: number,
  dra: boolean,
  kind: DemoKind,
  chat: Chat,
  signal: AbortSignal,
  keepLogs: () => boolean,
): Promise<void> {
  // The stack and the stories are loaded once the options are good: --help and bad
  // input answer at once, without loading the app, the simulator and the stand-ins.
  const [{ startDemoStack }, { startSlackPrinter }, { startTeamsPrinter }, { slackUser }, teamsStory] =
    await Promise.all([
      import('./demo/stack.js'),
      import('./demo/slack-printer.js'),
      import('./demo/teams-printer.js'),
      import('./demo/slack-user.js'),
      import('./demo/teams-story.js'),
    ]);
  const { playTeamsStories, startDemoTeams, TEAMS_CHANNEL_NAMES } = teamsStory;
  const teams = chat === 'teams' ? await startDemoTeams(cleanup) : undefined;
  if (teams)
    say(`Teams:      stand-in Bot Connector, OpenID keys and token service at ${teams.teams.baseUrl}`);
  const { sim, slack, appUrl, eventsUrl, signingSecret, alertToken, app, worker } = await startDemoStack({
    cleanup,
    say,
    timeScale,
    processes,
    dra,
    kind,
    keepLogs,
    // With Teams the app is Teams-only, as a Teams install runs it: no Slack stand-in.
    ...(teams ? { teams: teams.settings, slack: false } : {}),
  });
  signal.throwIfAborted();
  // Once the demo is stopping, the story says nothing more: no Slack message, no narration.
  const storySay = (line: string): void => {
    if (!signal.aborted) say(line);
  };
  let printer: SlackPrinter;
  if (teams)
    printer = startTeamsPrinter(teams.teams, { color, write: storySay, channelNames: TEAMS_CHANNEL_NAMES });
  else if (slack) printer = startSlackPrinter(slack, { color, channels: CHANNEL_NAMES, write: storySay });
  else throw new DemoError('the Slack stand-in did not start');
  cleanup.register('printer', async () => printer.stop());
  // Slack messages first, then the narration that follows from them.
  const narrate = (line: string): void => {
    printer.flush();
    storySay(line);
  };

  const ctx: StoryContext = {
    sim,
    slack,
    user: slackUser({ eventsUrl, signingSecret }),
    appUrl,
    alertToken,
    say: narrate,
    done: (line) => narrate(bold(line)),
    stepTimeoutMs,
    signal,
  };
  const story = (async () => {
    const [
      { playTrackerStory },
      { playCheckoutStory },
      { playNodeAgentStory },
      { playLedgerStory },
      { playCanaryStory },
    ] = await Promise.all([
      import('./demo/tracker-story.js'),
      import('./demo/checkout-story.js'),
      import('./demo/node-agent-story.js'),
      import('./demo/ledger-story.js'),
      import('./demo/canary-story.js'),
    ]);
    if (teams) {
      await playTeamsStories(ctx, teams.teams);
      return;
    }
    if (kind === 'daemonset') {
      await playNodeAgentStory(ctx);
      return;
    }
    if (kind === 'statefulset') {
      await playLedgerStory(ctx);
      return;
    }
    if (kind === 'rollout') {
      await playCanaryStory(ctx);
      return;
    }
    await playTrackerStory(ctx, { dra });
    await playCheckoutStory(ctx);
  })();
  await Promise.race([story, app.exited, worker.exited]);
  printer.flush();
}

type Parsed =
  | { help: true }
  | { error: string }
  | { timeoutMs: number; timeScale: number; dra: boolean; kind: DemoKind; chat: Chat };

function parse(argv: string[]): Parsed {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'timeout-seconds': { type: 'string' },
        'time-scale': { type: 'string' },
        dra: { type: 'boolean', default: false },
        kind: { type: 'string' },
        chat: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // An unknown option or a missing value is bad input, like a bad value.
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success)
    return { error: parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ') };
  if (parsed.data.chat === 'teams' && (values.dra === true || parsed.data.kind !== 'deployment'))
    return { error: '--chat teams plays the two seed incidents: --dra and --kind are for Slack only' };
  return {
    timeoutMs: parsed.data['timeout-seconds'] * 1000,
    timeScale: parsed.data['time-scale'],
    dra: values.dra === true,
    kind: parsed.data.kind,
    chat: parsed.data.chat,
  };
}

/** How to draft the post-mortem of the demo's incidents from the audit lines it kept. */
async function sayPostmortem(kept: { file: string; incidents: string[] } | undefined): Promise<void> {
  if (!kept) return;
  say('');
  say(bold('Draft the post-mortem of an incident (Markdown; --lang ko for Korean, -o json for the record):'));
  for (const incident of kept.incidents)
    say(`  npx rollout-doctor postmortem --from-audit ${kept.file} --incident ${incident}`);
  say(`(The audit lines stay in ${kept.file}; remove its directory when done.)`);
}

async function main(interrupted: () => boolean, signal: AbortSignal): Promise<number> {
  const args = parse(process.argv.slice(2));
  if ('help' in args) {
    say(USAGE.trimEnd());
    return 0;
  }
  if ('error' in args) {
    process.stderr.write(`demo: ${args.error}\n\n${USAGE}`);
    return 2;
  }
  const { timeoutMs, dra, kind, chat } = args;
  say(
    bold(
      kind !== 'deployment'
        ? `rollout-doctor demo: ${KIND_WORDS[kind]} incident, one simulated cluster, a stand-in Slack`
        : `rollout-doctor demo: two incidents, one simulated cluster, a stand-in ${chat === 'teams' ? 'Microsoft Teams' : 'Slack'}${dra ? ' (the GPU through Dynamic Resource Allocation)' : ''}`,
    ),
  );
  const started = Date.now();
  // The story stops on Ctrl-C (signal) and on the overall timeout alike.
  const timedOut = new AbortController();
  const storySignal = AbortSignal.any([signal, timedOut.signal]);
  const timer = setTimeout(
    () => timedOut.abort(new DemoError(`overall timeout of ${timeoutMs / 1000} s reached`)),
    timeoutMs,
  );
  const stopped = new Promise<never>((_resolve, reject) => {
    storySignal.addEventListener('abort', () => reject(storySignal.reason as Error), { once: true });
  });
  stopped.catch(() => undefined);
  let failed = false;
  try {
    await Promise.race([
      run(args.timeScale, Math.min(60_000, timeoutMs), dra, kind, chat, storySignal, () => failed),
      stopped,
    ]);
    const names = chat === 'teams' ? (await import('./demo/teams-story.js')).TEAMS_NAMES : SLACK_NAMES;
    const audit = await auditLines(processes, names);
    if (audit.length > 0) {
      say('');
      say('Audit events logged:');
      for (const line of audit) say(line);
    }
    await sayPostmortem(await keepAuditLog(processes));
    say('');
    const fixed =
      kind === 'deployment'
        ? 'both incidents fixed'
        : `${KIND_WORDS[kind].replace(/^an? /, 'the ')} incident fixed`;
    say(bold(`Demo finished: ${fixed} in ${((Date.now() - started) / 1000).toFixed(1)} s.`));
    return 0;
  } catch (error) {
    // Ctrl-C (or SIGTERM) ends the story by stopping what it waits on: that is no
    // failure to report, and the logs of processes being stopped are no news.
    if (interrupted()) return 130;
    failed = true;
    say('');
    say(bold(`Demo failed: ${error instanceof Error ? error.message : String(error)}`));
    if (!(error instanceof DemoError) && error instanceof Error && error.stack) say(error.stack);
    for (const proc of processes) {
      say(`--- last lines of the ${proc.name} log (${proc.logFile}, kept) ---`);
      say(await proc.logTail());
    }
    const dir = processes[0]?.logFile.replace(/\/[^/]+$/, '');
    if (dir) say(`The full logs stay in ${dir} (remove it when done).`);
    return 1;
  } finally {
    clearTimeout(timer);
    await cleanup.run();
  }
}

runScript('demo', main, cleanup, say);
