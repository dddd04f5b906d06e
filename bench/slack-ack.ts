/**
 * Slack acknowledgement latency: signed slash commands at a fixed rate (open loop,
 * 200 per second for 5 s by default) against the real app, with its Redis, and
 * against a bare Bolt app that only acks, both as child processes started the same
 * way. Every command of the real app names a different Deployment, so each one is
 * validated, enqueued in Redis and answered (no joins).
 *
 * Run: npx tsx bench/slack-ack.ts
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { freePort, startRedis } from '../test/support/redis.js';
import { signedHeaders, slashCommandBody } from '../test/support/slack-sign.js';
import { startSlackStandin } from '../test/support/slack-standin.js';
import { spawnEntry, type Child } from './lib/children.js';
import { median, percentile, round2 } from './lib/stats.js';

const SECRET = 'ack-bench-secret';
const TOKEN = 'xoxb-ack-bench';

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
}

/** Runs `runs` rounds, alternating real app and bare Bolt app, and takes medians. */
export async function runAckBench(
  options: { rate?: number; seconds?: number; runs?: number } = {},
): Promise<AckBench> {
  const rate = options.rate ?? 200;
  const seconds = options.seconds ?? 5;
  const runs = options.runs ?? 3;
  const redis = await startRedis();
  const slack = await startSlackStandin({ botToken: TOKEN });
  const children: Child[] = [];
  try {
    const appPort = await freePort();
    const barePort = await freePort();
    const common = { SLACK_BOT_TOKEN: TOKEN, SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl };
    // LOG_LEVEL info: the production default, so logging cost is counted.
    const app = await spawnEntry(
      'src/app/main.ts',
      { ...common, REDIS_URL: redis.url, PORT: String(appPort), LOG_LEVEL: 'info' },
      { ready: /rollout-doctor app started/ },
    );
    children.push(app);
    const bare = await spawnEntry(
      'bench/bare-bolt.ts',
      { ...common, PORT: String(barePort) },
      { ready: /bare bolt app started/ },
    );
    children.push(bare);
    const appUrl = `http://127.0.0.1:${appPort}/slack/events`;
    const bareUrl = `http://127.0.0.1:${barePort}/slack/events`;
    // Warm-up: JIT, connection pools, Redis scripts.
    await sendLoad(appUrl, { rate: 50, seconds: 1, label: 'warm' });
    await sendLoad(bareUrl, { rate: 50, seconds: 1, label: 'warm' });
    const appResults: LoadResult[] = [];
    const bareResults: LoadResult[] = [];
    for (let run = 0; run < runs; run += 1) {
      appResults.push(await sendLoad(appUrl, { rate, seconds, label: `svc-r${run}` }));
      bareResults.push(await sendLoad(bareUrl, { rate, seconds, label: `svc-r${run}` }));
    }
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
    };
  } finally {
    for (const child of children) await child.stop('SIGTERM');
    await slack.close();
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
