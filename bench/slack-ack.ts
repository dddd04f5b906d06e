/**
 * Slack acknowledgement latency: signed slash commands at a fixed rate (open loop,
 * 200 per second for 5 s by default) against the real app, with its Redis, and
 * against a bare Bolt app that only acks, both as child processes started the same
 * way: compiled with the project's build settings and run with plain node, as in
 * production (bench/lib/build.ts). Every command of the real app names a different
 * Deployment, so each one is validated, enqueued in Redis and answered (no joins),
 * then announced with chat.postMessage on the Slack stand-in, which runs in a
 * process of its own so that answering those posts does not slow the load
 * generator down for the real app only. The real app runs with its heap flags
 * (src/app/node-flags.ts); a second phase sets it against the same app on Node's
 * default heap settings, the evidence for those flags. A third phase is one person's
 * flood on an app with the default command budgets: from the eleventh command of the
 * minute on, each is refused (the budget read, a private answer, an audit line) and
 * nothing is queued.
 *
 * Run: npx tsx bench/slack-ack.ts
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { freePort, startRedis } from '../test/support/redis.js';
import { signedHeaders, slashCommandBody } from '../test/support/slack-sign.js';
import { buildCompiled } from './lib/build.js';
import { spawnEntry, type Child } from './lib/children.js';
import { median, percentile, round2 } from './lib/stats.js';
import { appKeyEnv, generatePlanKeys } from '../src/trust/keygen.js';
import { APP_NODE_FLAGS } from '../src/app/node-flags.js';

const SECRET = 'ack-bench-secret';
const TOKEN = 'xoxb-ack-bench';
/**
 * Load each app takes before it is measured (not counted). 15 s: after 5 s the p99 of
 * both apps still fell from one round to the next (six 5 s rounds alternating the two,
 * 2026-11-26: real app 5.33 → 2.49 ms, bare Bolt 4.85 → 1.01 ms), so the first rounds
 * measured warming up, not the running service.
 */
export const WARM_UP_SECONDS = 15;

export interface LoadResult {
  sent: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  /** Completed requests per second over the whole run. */
  throughput: number;
}

function post(agent: Agent, url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers, timeout: 10_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end(body);
  });
}

/** Open-loop load: request i leaves at start + i/rate whatever the earlier ones do. */
export async function sendLoad(
  url: string,
  options: { rate: number; seconds: number; label: string },
): Promise<LoadResult> {
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let ok = 0;
  // node:http with keep-alive: cheaper per request than fetch, so the load generator
  // is not what limits the figures on a small machine.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const body = slashCommandBody({ text: `${options.label}-${i} -n bench`, user_id: 'U0BENCH' });
    const headers = signedHeaders(SECRET, body);
    const t0 = performance.now();
    inflight.push(
      post(agent, url, headers, body).then(
        (status) => {
          latencies.push(performance.now() - t0);
          if (status === 200) ok += 1;
        },
        () => {
          latencies.push(performance.now() - t0);
        },
      ),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    sent: total,
    ok,
    p50Ms: round2(percentile(sorted, 50)),
    p99Ms: round2(percentile(sorted, 99)),
    throughput: round2(ok / elapsed),
  };
}

/**
 * `runs` rounds of the same load sent to `a`, then to `b` (each command names a
 * Deployment `<label>-r<round>-<i>`); the per-round results of each.
 */
async function alternate(
  a: string,
  aLabel: string,
  b: string,
  bLabel: string,
  options: { rate: number; seconds: number; runs: number },
): Promise<[LoadResult[], LoadResult[]]> {
  const fromA: LoadResult[] = [];
  const fromB: LoadResult[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    fromA.push(await sendLoad(a, { ...options, label: `${aLabel}-r${run}` }));
    fromB.push(await sendLoad(b, { ...options, label: `${bLabel}-r${run}` }));
  }
  return [fromA, fromB];
}

export interface AckBench {
  rate: number;
  seconds: number;
  app: LoadResult[];
  bare: LoadResult[];
  appP50: number;
  appP99: number;
  appThroughput: number;
  bareP50: number;
  bareP99: number;
  bareThroughput: number;
  /** median app p99 / median bare p99 */
  ratio: number;
  /**
   * CPU time each process spent per command over the compared runs (/proc utime +
   * stime): all the app's work for a command (ack, then announcement and subscription)
   * against an ack alone. Unlike p99 it hardly moves with the machine's load.
   */
  appCpuMsPerCommand: number;
  bareCpuMsPerCommand: number;
  /**
   * Young-generation collections (scavenges, from --trace-gc) per 1,000 commands over the
   * compared runs, and their mean pause in ms: a scavenge stops the event loop, so an ack
   * arriving during one waits. Counted, so load-independent like the CPU figure.
   */
  scavenges: { appPer1000: number; barePer1000: number; appMeanMs: number; bareMeanMs: number };
  /**
   * One person's flood: the same load on an app with the default command budgets, so all
   * but the first commands of the minute are refused privately (nothing queued), against
   * bare Bolt in rounds of their own. The whole benchmark once measured this path by
   * mistake: the budgets refused every command after the tenth.
   */
  refused: { app: LoadResult[]; bare: LoadResult[]; appP99: number; bareP99: number; ratio: number };
  /**
   * The app with its heap flags (src/app/node-flags.ts) against the same app with
   * Node's defaults, in rounds of their own after the comparison with bare Bolt.
   */
  heapFlags: {
    tuned: LoadResult[];
    defaults: LoadResult[];
    tunedP99: number;
    defaultsP99: number;
    /** Peak RSS (VmHWM) of each app process at the end, in MB. */
    tunedPeakMb: number;
    defaultsPeakMb: number;
  };
}

/** The scavenges a process reported so far (--trace-gc lines in its output): their pauses in ms. */
function scavengePauses(child: Child): number[] {
  return child
    .output()
    .split('\n')
    .filter((line) => line.includes(': Scavenge '))
    .map((line) => Number(/MB, ([\d.]+) \//.exec(line)?.[1] ?? 0));
}

/** CPU time a process used so far, in ms (/proc/<pid>/stat utime + stime, at 100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command name: state is field 3, utime field 14 and stime field 15.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Runs `runs` rounds alternating the real app and a bare Bolt app, then `runs`
 * rounds alternating the real app and the same app on Node's default heap settings,
 * and takes medians.
 */
export async function runAckBench(
  options: { rate?: number; seconds?: number; runs?: number } = {},
): Promise<AckBench> {
  const rate = options.rate ?? 200;
  const seconds = options.seconds ?? 5;
  const runs = options.runs ?? 3;
  const compiled = await buildCompiled();
  const redis = await startRedis();
  const children: Child[] = [];
  try {
    const slack = await spawnEntry(
      'bench/slack-standin-child.ts',
      { SLACK_BOT_TOKEN: TOKEN },
      {
        ready: /slack stand-in http/,
      },
    );
    children.push(slack);
    const apiUrl = /slack stand-in (\S+)/.exec(slack.output())?.[1];
    if (!apiUrl) throw new Error(`no stand-in URL in: ${slack.output()}`);
    const common = {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: apiUrl,
      ROLLOUT_DOCTOR_READERS: '*',
      ...appKeyEnv(generatePlanKeys({ seal: 'bench-seal', approval: 'bench-approval' })),
    };
    // LOG_LEVEL info: the production default, so logging cost is counted.
    // One bench user and channel send 200 commands a second: unless `budgets` is
    // 'default', budgets far above that, so every command takes its budget (one EVALSHA)
    // and is queued, the path measured, instead of refused from the eleventh on.
    const unlimited = {
      ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE: '1000000000',
      ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE: '1000000000',
    };
    const startApp = async (
      nodeFlags?: readonly string[],
      budgets: 'unlimited' | 'default' = 'unlimited',
    ): Promise<{ url: string; app: Child }> => {
      const port = await freePort();
      const app = await spawnEntry(
        'src/app/main.ts',
        {
          ...common,
          REDIS_URL: redis.url,
          PORT: String(port),
          LOG_LEVEL: 'info',
          ...(budgets === 'unlimited' ? unlimited : {}),
        },
        // --trace-gc: one line per collection, counted below (scavengePauses).
        {
          ready: /rollout-doctor app started/,
          compiled,
          nodeFlags: [...(nodeFlags ?? APP_NODE_FLAGS), '--trace-gc'],
        },
      );
      children.push(app);
      return { url: `http://127.0.0.1:${port}/slack/events`, app };
    };
    const { url: appUrl, app } = await startApp();
    const barePort = await freePort();
    const bare = await spawnEntry(
      'bench/bare-bolt.ts',
      { ...common, PORT: String(barePort) },
      { ready: /bare bolt app started/, compiled, nodeFlags: ['--trace-gc'] },
    );
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}/slack/events`;
    // Warm-up, the same for both apps, at the measured rate: the figures are the
    // steady state of a running service (optimized code, grown heaps, open
    // connections, loaded Redis scripts) rather than the first thousand commands
    // after a start, while V8 still compiles the larger real app.
    await sendLoad(appUrl, { rate, seconds: WARM_UP_SECONDS, label: 'warm' });
    await sendLoad(bareUrl, { rate, seconds: WARM_UP_SECONDS, label: 'warm' });
    const load = { rate, seconds, runs };
    const cpuBefore = { app: cpuMs(app.pid), bare: cpuMs(bare.pid) };
    const gcBefore = { app: scavengePauses(app).length, bare: scavengePauses(bare).length };
    const [appResults, bareResults] = await alternate(appUrl, 'svc', bareUrl, 'svc', load);
    const commands = runs * Math.round(rate * seconds);
    const perCommand = (pid: number, before: number): number =>
      Math.round(((cpuMs(pid) - before) / commands) * 1000) / 1000;
    const appCpuMsPerCommand = perCommand(app.pid, cpuBefore.app);
    const bareCpuMsPerCommand = perCommand(bare.pid, cpuBefore.bare);
    const during = (child: Child, before: number): number[] => scavengePauses(child).slice(before);
    const [appGc, bareGc] = [during(app, gcBefore.app), during(bare, gcBefore.bare)];
    const mean = (xs: number[]): number => round2(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
    const scavenges = {
      appPer1000: round2((appGc.length / commands) * 1000),
      barePer1000: round2((bareGc.length / commands) * 1000),
      appMeanMs: mean(appGc),
      bareMeanMs: mean(bareGc),
    };
    // The same app started with Node's default heap settings, alternating with the
    // tuned one: the evidence for the flags.
    const { url: defaultsUrl, app: defaultsApp } = await startApp([]);
    await sendLoad(defaultsUrl, { rate, seconds: WARM_UP_SECONDS, label: 'warm-defaults' });
    // Own labels: the two apps share Redis, and the same names would join runs.
    const [tuned, defaults] = await alternate(appUrl, 'tuned', defaultsUrl, 'defaults', load);
    const tunedPeakMb = app.memory().peakMb;
    const defaultsPeakMb = defaultsApp.memory().peakMb;
    await defaultsApp.stop('SIGTERM');
    // One person's flood, refused past the default budgets (the budget keys are the
    // bench user's and channel's: the earlier phases' unlimited apps counted them too).
    const { url: budgetedUrl } = await startApp(undefined, 'default');
    await sendLoad(budgetedUrl, { rate, seconds: WARM_UP_SECONDS, label: 'warm-refused' });
    const [refusedApp, refusedBare] = await alternate(budgetedUrl, 'refused', bareUrl, 'bare', load);
    const m = (rows: LoadResult[], key: keyof LoadResult): number => median(rows.map((r) => r[key]));
    return {
      rate,
      seconds,
      app: appResults,
      bare: bareResults,
      appP50: m(appResults, 'p50Ms'),
      appP99: m(appResults, 'p99Ms'),
      appThroughput: m(appResults, 'throughput'),
      bareP50: m(bareResults, 'p50Ms'),
      bareP99: m(bareResults, 'p99Ms'),
      bareThroughput: m(bareResults, 'throughput'),
      ratio: round2(m(appResults, 'p99Ms') / m(bareResults, 'p99Ms')),
      appCpuMsPerCommand,
      bareCpuMsPerCommand,
      scavenges,
      refused: {
        app: refusedApp,
        bare: refusedBare,
        appP99: m(refusedApp, 'p99Ms'),
        bareP99: m(refusedBare, 'p99Ms'),
        ratio: round2(m(refusedApp, 'p99Ms') / m(refusedBare, 'p99Ms')),
      },
      heapFlags: {
        tuned,
        defaults,
        tunedP99: m(tuned, 'p99Ms'),
        defaultsP99: m(defaults, 'p99Ms'),
        tunedPeakMb,
        defaultsPeakMb,
      },
    };
  } finally {
    for (const child of children.reverse()) await child.stop('SIGTERM');
    await redis.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAckBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
