/**
 * `npm run demo [-- --timeout-seconds N] [--time-scale N]`
 *
 * The whole on-call story on one machine, with no Slack workspace and no cluster:
 * the Kubernetes API simulator with both seed incidents, Redis (REDIS_URL when it
 * answers, else a private redis-server), the real app and worker processes, and a
 * Slack stand-in whose messages are printed here. Exits 0 when both incidents are
 * fixed, 1 with the reason otherwise (or on the overall timeout), 130 on Ctrl-C, and
 * always removes what it started.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startSimulator } from '../sim/index.js';
import { freePort } from '../test/support/redis.js';
import { startSlackStandin } from '../test/support/slack-standin.js';
import { playCheckoutStory } from './demo/checkout-story.js';
import { CHANNEL_NAMES, CHANNELS, PEOPLE, type StoryContext } from './demo/context.js';
import { startProcess, waitForHttp, type DemoProcess } from './demo/processes.js';
import { DemoError, demoRedis } from './demo/redis.js';
import { startSlackPrinter } from './demo/slack-printer.js';
import { auditLines } from './demo/audit.js';
import { createCleanup } from './demo/cleanup.js';
import { slackUser } from './demo/slack-user.js';
import { playTrackerStory } from './demo/tracker-story.js';
import { demoScenarioObjects } from './demo-scenario.js';
import { appKeyEnv, generatePlanKeys, workerKeyEnv } from '../src/plans/keygen.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BOT_TOKEN = 'xoxb-demo-not-a-real-token';

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
const { register, starting } = cleanup;

const processes: DemoProcess[] = [];

async function run(timeScale: number, stepTimeoutMs: number): Promise<void> {
  const dir = await starting(() => mkdtemp(join(tmpdir(), 'rollout-doctor-demo-')));
  register('temporary directory', () => rm(dir, { recursive: true, force: true }));

  const redis = await starting(() => demoRedis(process.env.REDIS_URL));
  register('redis', () => redis.close());
  // A shared Redis may serve a real deployment: a cluster name of our own keeps our queues apart.
  const cluster = redis.shared ? `demo-${randomBytes(3).toString('hex')}` : 'demo';
  say(`Redis:      ${redis.origin}`);

  const scenario = await demoScenarioObjects();
  const sim = await starting(() => startSimulator({ scenario, timeScale }));
  register('simulator', () => sim.close());
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  say(`Cluster:    Kubernetes API simulator at ${sim.url} (time ×${timeScale}), kubeconfig ${kubeconfig}`);

  const slack = await starting(() => startSlackStandin({ botToken: BOT_TOKEN }));
  register('Slack stand-in', () => slack.close());
  say(`Slack:      stand-in Web API at ${slack.apiUrl}`);
  const printer = startSlackPrinter(slack, { color, channels: CHANNEL_NAMES, write: say });
  register('printer', async () => printer.stop());
  // Slack messages first, then the narration that follows from them.
  const narrate = (line: string): void => {
    printer.flush();
    say(line);
  };

  const signingSecret = randomBytes(16).toString('hex');
  const alertToken = randomBytes(16).toString('hex');
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const common = { REDIS_URL: redis.url, ROLLOUT_DOCTOR_CLUSTER: cluster, LOG_LEVEL: 'info' };
  // Fresh keys for this run only: the app signs approvals, the worker seals plans.
  const keys = generatePlanKeys({ seal: 'demo-seal', approval: 'demo-approval' });
  const start = (name: string, entry: string, env: Record<string, string>): DemoProcess => {
    if (cleanup.began) throw new DemoError('interrupted');
    const proc = startProcess({ name, entry, env: { ...common, ...env }, cwd: ROOT, logDir: dir });
    processes.push(proc);
    register(name, () => proc.stop());
    return proc;
  };
  const app = start('app', 'src/app/main.ts', {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    PORT: String(port),
    ROLLOUT_DOCTOR_CLUSTERS: cluster,
    ROLLOUT_DOCTOR_APPROVERS: PEOPLE.lead,
    // The on-call engineer may diagnose; only the lead may approve.
    ROLLOUT_DOCTOR_READERS: PEOPLE.oncall,
    ALERTMANAGER_TOKEN: alertToken,
    ROLLOUT_DOCTOR_ALERT_CHANNEL: CHANNELS.alerts,
    ...appKeyEnv(keys),
  });
  const worker = start('worker', 'src/worker/main.ts', {
    KUBECONFIG: kubeconfig,
    ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
    ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '60',
    ...workerKeyEnv(keys),
  });
  say(`App:        ${appUrl} (npm start, pid ${String(app.pid)}; log ${app.logFile})`);
  say(`Worker:     cluster "${cluster}" (npm run worker, pid ${String(worker.pid)}; log ${worker.logFile})`);
  await waitForHttp(`${appUrl}/readyz`, app, 60_000);
  say('App ready (Redis answers, Slack auth.test passed).');

  const ctx: StoryContext = {
    sim,
    slack,
    user: slackUser({ eventsUrl: `${appUrl}/slack/events`, signingSecret }),
    appUrl,
    alertToken,
    say: narrate,
    done: (line) => narrate(bold(line)),
    stepTimeoutMs,
  };
  const story = (async () => {
    await playTrackerStory(ctx);
    await playCheckoutStory(ctx);
  })();
  await Promise.race([story, app.exited, worker.exited]);
  printer.flush();
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'timeout-seconds': { type: 'string' }, 'time-scale': { type: 'string' } },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    say(`demo: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return 2;
  }
  const timeoutMs = parsed.data['timeout-seconds'] * 1000;
  say(bold('rollout-doctor demo: two incidents, one simulated cluster, a stand-in Slack'));
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const overall = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new DemoError(`overall timeout of ${timeoutMs / 1000} s reached`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([run(parsed.data['time-scale'], Math.min(60_000, timeoutMs)), overall]);
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
    if (interrupted) return 130;
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

/**
 * Ctrl-C, SIGTERM, SIGHUP or a closed stdout: stop everything the demo started (the
 * app and the worker run in process groups of their own, so the terminal's Ctrl-C
 * reaches only the demo, which stops them in order) and exit 130, quietly: one line,
 * no "Demo failed", no log tails, no stack trace.
 */
let interrupted = false;
const interrupt = (why: string): void => {
  if (interrupted) return;
  interrupted = true;
  try {
    say(`\n${why}: stopping everything the demo started…`);
  } catch {
    // stdout is gone (closed pipe): clean up silently
  }
  void cleanup.run().then(
    () => process.exit(130),
    () => process.exit(130),
  );
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => interrupt(signal));
// `npm run demo | head` closes our stdout early: still stop the processes we started.
process.stdout.on('error', () => interrupt('stdout closed'));

main().then(
  (code) => process.exit(interrupted ? 130 : code),
  (error: unknown) => {
    if (!interrupted) say(`demo: ${error instanceof Error ? error.message : String(error)}`);
    void cleanup.run().then(() => process.exit(interrupted ? 130 : 1));
  },
);
