/**
 * The whole system on loopback for benchmarks and drills: a private redis-server,
 * the Slack stand-in, the Kubernetes API simulator, the app (`src/app/main.ts`) and
 * N workers (`workers/main.ts`) as child processes (transpiled, or compiled with
 * `compiled`). Everything it starts, `close()`
 * stops.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type SimOptions, type Simulator } from '../../sim/index.js';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { startSentinelSet, type SentinelSet } from '../../test/support/redis-sentinel.js';
import { startRedisPartition, type RedisPartition } from '../../test/support/redis-faults.js';
import { postClick, postSigned, slashCommandBody } from '../../test/support/slack-sign.js';
import type { StoredMessage } from '../../test/support/slack-standin.js';
import { startSlackStandin, type SlackStandin } from '../../test/support/slack-standin.js';
import { spawnEntry, startedAppUrl, type Child } from './children.js';
import { appKeyEnv, generatePlanKeys, workerKeyEnv } from '../../src/trust/keygen.js';

export const STACK_SECRET = 'stack-signing-secret';
export const STACK_TOKEN = 'xoxb-stack-token';
export const STACK_APPROVER = 'U0APPROVER';
/** A start on a loaded machine (a worker loads client-node, seconds of CPU): generous. */
const START_TIMEOUT_MS = 60_000;

export interface StackOptions {
  sim: SimOptions;
  workers?: number;
  appendonly?: boolean;
  /** 'sentinel': a Sentinel set (test/support/redis-sentinel.ts) behind a redis+sentinel:// REDIS_URL. */
  redis?: 'single' | 'sentinel';
  appEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  /**
   * The app reaches Redis through a TCP proxy the caller can cut (stall) and heal
   * (test/support/redis-faults.ts), as `appLink`; the workers reach Redis directly.
   */
  appRedisLink?: boolean;
  /**
   * Run the app and workers compiled by tsc into this directory (bench/lib/build.ts);
   * default: transpiled (scripts/transpiled-tree.ts). Plain node either way, as in production.
   */
  compiled?: string;
}

export interface Stack {
  /** The private redis-server; with a Sentinel set, the node first started as master. */
  redis: TestRedis;
  /** REDIS_URL as the app and the workers got it. */
  redisUrl: string;
  /** The Sentinel set, when `redis: 'sentinel'`. */
  sentinel?: SentinelSet;
  /** The app's link to Redis, with `appRedisLink`: `cut()` stalls it (open, nothing moves), `heal()` ends that. */
  appLink?: RedisPartition;
  slack: SlackStandin;
  sim: Simulator;
  app: Child;
  appUrl: string;
  workers: Child[];
  kubeconfig: string;
  /** Starts one more worker process (added to `workers`); `tsx: true` runs the source through tsx instead (development). */
  startWorker(env?: Record<string, string>, options?: { tsx?: boolean }): Promise<Child>;
  /** Starts one more app process (another replica: same Redis, Slack and keys) on a port of its own. */
  startApp(): Promise<{ app: Child; url: string }>;
  /** Posts a signed `/rollout-doctor <text>` to the app. */
  command(text: string, user?: string): Promise<{ status: number; body: string; ms: number }>;
  /**
   * Posts a signed click of `message`'s button `actionId`: by the approver unless `user`
   * is given, to the app unless `appUrl` names another replica (`startApp`).
   */
  click(
    message: StoredMessage,
    actionId: string,
    by?: { user?: string; appUrl?: string },
  ): Promise<{ status: number; body: string; ms: number }>;
  close(): Promise<void>;
}

/** Starts every part; on failure stops what already started. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), 'rd-stack-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let sentinel: SentinelSet | undefined;
    let redis: TestRedis;
    if (options.redis === 'sentinel') {
      const set = await startSentinelSet();
      cleanups.push(() => set.close());
      sentinel = set;
      redis = await set.master();
    } else {
      const single = await startRedis({ appendonly: options.appendonly ?? false });
      cleanups.push(() => single.close());
      redis = single;
    }
    const redisUrl = sentinel?.url ?? redis.url;
    let appLink: RedisPartition | undefined;
    if (options.appRedisLink) {
      const link = await startRedisPartition(redis.port);
      cleanups.push(() => link.close());
      appLink = link;
    }
    const slack = await startSlackStandin({ botToken: STACK_TOKEN });
    cleanups.push(() => slack.close());
    const sim = await startSimulator(options.sim);
    cleanups.push(() => sim.close());
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig);
    const keys = generatePlanKeys({ seal: 'bench-seal', approval: 'bench-approval' });
    const startApp = async (): Promise<{ app: Child; url: string }> => {
      const child = await spawnEntry(
        'src/app/main.ts',
        {
          SLACK_BOT_TOKEN: STACK_TOKEN,
          SLACK_SIGNING_SECRET: STACK_SECRET,
          SLACK_API_URL: slack.apiUrl,
          REDIS_URL: appLink?.url ?? redisUrl,
          // Any free port: the app says which in its start line (startedAppUrl).
          PORT: '0',
          HOST: '127.0.0.1',
          ROLLOUT_DOCTOR_APPROVERS: STACK_APPROVER,
          ROLLOUT_DOCTOR_READERS: '*',
          ...appKeyEnv(keys),
          LOG_LEVEL: 'info',
          ...options.appEnv,
        },
        {
          ready: /rollout-doctor app started/,
          timeoutMs: START_TIMEOUT_MS,
          ...(options.compiled ? { compiled: options.compiled } : {}),
        },
      );
      cleanups.push(() => child.stop('SIGTERM'));
      return { app: child, url: startedAppUrl(child) };
    };
    const { app, url: appUrl } = await startApp();
    const workers: Child[] = [];
    const startWorker = async (
      env: Record<string, string> = {},
      how: { tsx?: boolean } = {},
    ): Promise<Child> => {
      const worker = await spawnEntry(
        'workers/main.ts',
        {
          REDIS_URL: redisUrl,
          KUBECONFIG: kubeconfig,
          ...workerKeyEnv(keys),
          LOG_LEVEL: 'info',
          ...options.workerEnv,
          ...env,
        },
        {
          ready: /workers started/,
          timeoutMs: START_TIMEOUT_MS,
          compiled: options.compiled,
          tsx: how.tsx,
        },
      );
      workers.push(worker);
      return worker;
    };
    cleanups.push(() => Promise.all(workers.map((w) => w.stop('SIGKILL'))));
    for (let i = 0; i < (options.workers ?? 1); i += 1) await startWorker();
    return {
      redis,
      redisUrl,
      ...(sentinel ? { sentinel } : {}),
      ...(appLink ? { appLink } : {}),
      slack,
      sim,
      app,
      appUrl,
      workers,
      kubeconfig,
      startWorker,
      startApp,
      command: (text, user = 'U0ONCALL') =>
        postSigned(`${appUrl}/slack/events`, STACK_SECRET, slashCommandBody({ text, user_id: user })),
      click: (message, actionId, by = {}) =>
        postClick(
          `${by.appUrl ?? appUrl}/slack/events`,
          STACK_SECRET,
          message,
          actionId,
          by.user ?? STACK_APPROVER,
        ),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
