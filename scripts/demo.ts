/**
 * `npm run demo [-- --timeout-seconds N] [--time-scale N] [--dra]`
 *
 * The whole on-call story on one machine, with no Slack workspace and no cluster:
 * the Kubernetes API simulator with both seed incidents, Redis (REDIS_URL when it
 * answers, else a private redis-server), the real app and worker processes, and a
 * Slack stand-in whose messages are printed here. Exits 0 when both incidents are
 * fixed, 1 with the reason otherwise (or on the overall timeout), 130 on Ctrl-C, and
 * always removes what it started. `--dra` plays the tracker's incident as its DRA twin
 * (sim/scenarios/gpu-deadlock-dra.yaml: the GPU comes through a ResourceClaim).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { playCheckoutStory } from './demo/checkout-story.js';
import { CHANNEL_NAMES, type StoryContext } from './demo/context.js';
import type { DemoProcess } from './demo/processes.js';
import { DemoError } from './demo/redis.js';
import { startSlackPrinter } from './demo/slack-printer.js';
import { auditLines } from './demo/audit.js';
import { createCleanup, runScript } from './demo/cleanup.js';
import { slackUser } from './demo/slack-user.js';
import { startDemoStack } from './demo/stack.js';
import { playTrackerStory } from './demo/tracker-story.js';

const argsSchema = z.object({
  'timeout-seconds': z.coerce.number().positive().default(150),
  'time-scale': z.coerce.number().positive().default(30),
});

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const bold = (line: string): string => (color ? `\u001b[1m${line}\u001b[22m` : line);

const cleanup = createCleanup(say);

const processes: DemoProcess[] = [];

async function run(timeScale: number, stepTimeoutMs: number, dra: boolean): Promise<void> {
  const { sim, slack, appUrl, eventsUrl, signingSecret, alertToken, app, worker } = await startDemoStack({
    cleanup,
    say,
    timeScale,
    processes,
    dra,
  });
  const printer = startSlackPrinter(slack, { color, channels: CHANNEL_NAMES, write: say });
  cleanup.register('printer', async () => printer.stop());
  // Slack messages first, then the narration that follows from them.
  const narrate = (line: string): void => {
    printer.flush();
    say(line);
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
  };
  const story = (async () => {
    await playTrackerStory(ctx, { dra });
    await playCheckoutStory(ctx);
  })();
  await Promise.race([story, app.exited, worker.exited]);
  printer.flush();
}

async function main(interrupted: () => boolean): Promise<number> {
  const { values } = parseArgs({
    options: {
      'timeout-seconds': { type: 'string' },
      'time-scale': { type: 'string' },
      dra: { type: 'boolean', default: false },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    say(`demo: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return 2;
  }
  const timeoutMs = parsed.data['timeout-seconds'] * 1000;
  const dra = values.dra === true;
  say(
    bold(
      `rollout-doctor demo: two incidents, one simulated cluster, a stand-in Slack${dra ? ' (the GPU through Dynamic Resource Allocation)' : ''}`,
    ),
  );
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const overall = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new DemoError(`overall timeout of ${timeoutMs / 1000} s reached`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([run(parsed.data['time-scale'], Math.min(60_000, timeoutMs), dra), overall]);
    const audit = await auditLines(processes);
    if (audit.length > 0) {
      say('');
      say('Audit events logged:');
      for (const line of audit) say(line);
    }
    say('');
    say(bold(`Demo finished: both incidents fixed in ${((Date.now() - started) / 1000).toFixed(1)} s.`));
    return 0;
  } catch (error) {
    // Ctrl-C (or SIGTERM) ends the story by stopping what it waits on: that is no
    // failure to report, and the logs of processes being stopped are no news.
    if (interrupted()) return 130;
    say('');
    say(bold(`Demo failed: ${error instanceof Error ? error.message : String(error)}`));
    if (!(error instanceof DemoError) && error instanceof Error && error.stack) say(error.stack);
    for (const proc of processes) {
      say(`--- last lines of the ${proc.name} log (${proc.logFile}) ---`);
      say(await proc.logTail());
    }
    return 1;
  } finally {
    clearTimeout(timer);
    await cleanup.run();
  }
}

runScript('demo', main, cleanup, say);
