/**
 * End-to-end harness: everything rollout-doctor needs, real except Slack and the
 * cluster, in one test process.
 *
 * - a private `redis-server` (test/support/redis.ts),
 * - the Kubernetes API simulator with a scenario (sim/),
 * - the Slack Web API stand-in (test/support/slack-standin.ts), reached via SLACK_API_URL,
 * - the app runtime (Bolt over HTTP, notify consumer) started in-process from an
 *   environment parsed by loadAppConfig, exactly as `npm start` does,
 * - the workers with the REAL Kubernetes wiring of workers/main.ts (kubeClusterDeps)
 *   over a kubeconfig that points at the simulator,
 *
 * plus helpers that send slash commands and block_actions clicks signed and shaped
 * as Slack sends them, and wait for messages on the stand-in.
 *
 * @example
 *   const h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml' });
 *   await h.command('vision-object-tracker -n vision');
 *   const result = await h.waitForResult('vision', 'vision-object-tracker');
 *   await h.click(result, 'approve_plan.0', h.approver);
 *   await h.waitForReply(result.ts, 'rolled out');
 *   await h.close();
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { AuditEvent } from '../../src/audit.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { createKubeClient } from '../../src/kube/client.js';
import { createLogger } from '../../src/logger.js';
import { kubeClusterDeps } from '../../src/worker/kube-deps.js';
import { startWorkers, type WorkerRuntime } from '../../src/worker/runtime.js';
import { startRedis, type TestRedis } from './redis.js';
import { buttonsOf, postClick, postSigned, slashCommandBody, type Button } from './slack-sign.js';
import { startSlackStandin, type SlackCall, type SlackStandin, type StoredMessage } from './slack-standin.js';
import { testKeys } from './plan-keys.js';
import { SIGNAL_WAIT_MS } from './timeouts.js';

export type { StoredMessage } from './slack-standin.js';

export const E2E_SECRET = 'e2e-signing-secret';
export const E2E_TOKEN = 'xoxb-e2e-bot-token';
/** The configured approver (ROLLOUT_DOCTOR_APPROVERS) unless `approvers` says otherwise. */
export const E2E_APPROVER = 'U0LEAD';
export const E2E_CHANNEL = 'C0INCIDENT';

export interface E2eOptions {
  /** Simulator scenario file (plain Kubernetes YAML), e.g. 'sim/scenarios/gpu-deadlock.yaml', or its objects. */
  scenario: string | object[];
  /** Simulator speed-up (back-off, progress deadline, kubelet delays). Default 50. */
  timeScale?: number;
  /** ROLLOUT_DOCTOR_APPROVERS. Default [E2E_APPROVER]. */
  approvers?: string[];
  /** ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS for the remediate worker. Default 20. */
  rolloutTimeoutSeconds?: number;
  /** Extra app / worker environment (strings, as in process.env). */
  appEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  /** Log level of app and worker; lines are kept in `logs`. Default 'info' (audit lines are info). */
  logLevel?: string;
  /** false: the workers' early warning without its API watch streams (the periodic scan alone). */
  earlyWarningWatch?: boolean;
  /**
   * The bearer token of the workers' kubeconfig (default: the simulator's admin token). A
   * service-account token Secret holding it makes the workers that service account
   * (sim/server/identity.ts), so admission policies matching it judge their writes.
   */
  workerToken?: string;
}

/** One button of a message, as the stand-in holds it. */
export type { Button } from './slack-sign.js';

export interface E2eHarness {
  sim: Simulator;
  redis: TestRedis;
  slack: SlackStandin;
  app: AppRuntime;
  workers: WorkerRuntime;
  /** `${app url}/slack/events` */
  eventsUrl: string;
  approver: string;
  channel: string;
  /** JSON log lines of app and worker. */
  logs: string[];
  /** The audit events logged so far (app and worker). */
  audit(): AuditEvent[];
  /** A signed `/rollout-doctor <text>` as Slack posts it; returns the HTTP answer. */
  command(
    text: string,
    options?: { user?: string; channel?: string },
  ): Promise<{ status: number; body: string; ms: number }>;
  /** The buttons of a message's actions blocks. */
  buttons(message: StoredMessage): Button[];
  /** A signed block_actions click on the message's button `actionId`, by `user`. */
  click(
    message: StoredMessage,
    actionId: string,
    user: string,
    /** The message's selects chosen, by action id (`exclusion_lasts.0`: '3d'); else their initial option. */
    chosen?: Readonly<Record<string, string>>,
  ): Promise<{ status: number; body: string; ms: number }>;
  /** The current state of a message on the stand-in. */
  message(channel: string, ts: string): StoredMessage | undefined;
  /**
   * Waits for a diagnosis result of deployment/NAME in NS (the run's message, updated
   * in place); with `threadTs`, one posted in that thread (Re-run).
   */
  waitForResult(
    namespace: string,
    name: string,
    options?: { threadTs?: string; timeoutMs?: number },
  ): Promise<StoredMessage>;
  /** Waits for a thread reply under `rootTs` whose text starts with `prefix` ('applied', 'rolled out', ...). */
  waitForReply(rootTs: string, prefix: string, timeoutMs?: number): Promise<StoredMessage>;
  /** Thread replies under `rootTs`, oldest first. */
  replies(rootTs: string): StoredMessage[];
  /** Waits for an ephemeral message to `user` whose text contains `fragment`. */
  waitForEphemeral(user: string, fragment: string, timeoutMs?: number): Promise<SlackCall>;
  /** Stops workers, app, stand-in, simulator and Redis; removes the temp dir. */
  close(): Promise<void>;
}

function sinkInto(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
}

/** Starts Redis, the simulator, the Slack stand-in, the app and the real-kube workers. */
export async function startE2e(options: E2eOptions): Promise<E2eHarness> {
  const started: { close(): Promise<void> }[] = [];
  const closeAll = async (): Promise<void> => {
    for (const part of started.splice(0).reverse()) await part.close().catch(() => undefined);
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), 'rd-e2e-'));
    started.push({ close: () => rm(dir, { recursive: true, force: true }) });
    const redis = await startRedis();
    started.push(redis);
    const sim = await startSimulator({ scenario: options.scenario, timeScale: options.timeScale ?? 50 });
    started.push(sim);
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig);
    const workerKubeconfig = options.workerToken ? join(dir, 'worker-kubeconfig') : kubeconfig;
    if (options.workerToken) {
      await writeFile(workerKubeconfig, sim.kubeconfig.replace(/token: .*/, `token: ${options.workerToken}`));
    }
    const slack = await startSlackStandin({ botToken: E2E_TOKEN });
    started.push(slack);

    const logs: string[] = [];
    const level = options.logLevel ?? 'info';
    const approvers = options.approvers ?? [E2E_APPROVER];
    const app = await startAppRuntime(
      loadAppConfig({
        ...testKeys.appEnv,
        // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
        ROLLOUT_DOCTOR_READERS: '*',
        SLACK_BOT_TOKEN: E2E_TOKEN,
        SLACK_SIGNING_SECRET: E2E_SECRET,
        SLACK_API_URL: slack.apiUrl,
        REDIS_URL: redis.url,
        ROLLOUT_DOCTOR_APPROVERS: approvers.join(','),
        LOG_LEVEL: level,
        ...options.appEnv,
      }),
      createLogger({ level, name: 'e2e-app' }, sinkInto(logs)),
      { host: '127.0.0.1', port: 0 },
    );
    started.push({ close: () => app.stop() });
    const workerConfig = loadWorkerConfig({
      ...testKeys.workerEnv,
      REDIS_URL: redis.url,
      KUBECONFIG: workerKubeconfig,
      ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: String(options.rolloutTimeoutSeconds ?? 20),
      ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
      LOG_LEVEL: level,
      ...options.workerEnv,
    });
    const client = createKubeClient({
      kubeconfig: workerConfig.kubeconfig,
      requestTimeoutMs: workerConfig.kubeRequestTimeoutMs,
    });
    const { listWatch, ...withoutWatch } = kubeClusterDeps(client, {
      rolloutTimeoutMs: workerConfig.rolloutTimeoutMs,
    });
    const workers = startWorkers(
      workerConfig,
      createLogger({ level, name: 'e2e-worker' }, sinkInto(logs)),
      options.earlyWarningWatch === false ? withoutWatch : { ...withoutWatch, listWatch },
      { lockDurationMs: workerConfig.jobLockMs, stalledIntervalMs: workerConfig.stalledIntervalMs },
    );
    started.push({ close: () => workers.stop() });

    const eventsUrl = `${app.handle.url}/slack/events`;
    const all = (): StoredMessage[] => [...slack.messages.values()];
    const harness: E2eHarness = {
      sim,
      redis,
      slack,
      app,
      workers,
      eventsUrl,
      approver: approvers[0] ?? E2E_APPROVER,
      channel: E2E_CHANNEL,
      logs,
      audit: () =>
        logs
          .map((line) => JSON.parse(line) as { audit?: boolean; event?: AuditEvent })
          .flatMap((entry) => (entry.audit && entry.event ? [entry.event] : [])),
      command: (text, opts = {}) =>
        postSigned(
          eventsUrl,
          E2E_SECRET,
          slashCommandBody({
            text,
            user_id: opts.user ?? 'U0ONCALL',
            channel_id: opts.channel ?? E2E_CHANNEL,
          }),
        ),
      buttons: buttonsOf,
      click: (message, actionId, user, chosen) => {
        return postClick(eventsUrl, E2E_SECRET, message, actionId, user, chosen);
      },
      message: (channel, ts) => slack.messages.get(`${channel}/${ts}`),
      waitForResult: (namespace, name, opts = {}) =>
        slack.waitFor(
          () =>
            all().find(
              (m) =>
                m.text.startsWith(`deployment/${name} in ${namespace}:`) &&
                m.threadTs === opts.threadTs &&
                buttonsOf(m).length > 0,
            ),
          opts.timeoutMs ?? SIGNAL_WAIT_MS,
        ),
      waitForReply: (rootTs, prefix, timeoutMs = SIGNAL_WAIT_MS) =>
        slack.waitFor(() => all().find((m) => m.threadTs === rootTs && m.text.startsWith(prefix)), timeoutMs),
      replies: (rootTs) => all().filter((m) => m.threadTs === rootTs),
      waitForEphemeral: (user, fragment, timeoutMs = SIGNAL_WAIT_MS) =>
        slack.waitFor(
          (s) =>
            s
              .callsOf('chat.postEphemeral')
              .find((c) => c.args.user === user && String(c.args.text).includes(fragment)),
          timeoutMs,
        ),
      close: closeAll,
    };
    return harness;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

// Simulator helpers: the cluster side of the seed incidents and of the checks.

/** The Deployment as the simulator holds it now. */
export function deployment(h: E2eHarness, namespace: string, name: string): Deployment {
  const found = h.sim.get('Deployment', namespace, name) as Deployment | undefined;
  if (!found) throw new Error(`no deployment ${namespace}/${name} in the simulator`);
  return found;
}

/** Pods of a namespace that are not being deleted. */
export function livePods(h: E2eHarness, namespace: string): Pod[] {
  return (h.sim.list('Pod', namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
}

/** Running with the Ready condition True. */
export const isReady = (p: Pod): boolean =>
  p.status?.phase === 'Running' &&
  (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Real (non-dry-run) writes the simulator received since request index `from`. */
export function writesSince(
  h: E2eHarness,
  from: number,
  options: { accepted?: boolean } = {},
): { verb: string; resource: string; name?: string }[] {
  return (
    h.sim.requests
      .slice(from)
      .filter((r) => ['patch', 'create', 'delete'].includes(r.verb) && !r.dryRun)
      // accepted: what the server took (a 409 the executor re-read and retried changed nothing).
      .filter((r) => !options.accepted || (r.status >= 200 && r.status < 300))
      .map((r) => ({ verb: r.verb, resource: r.resource, ...(r.name ? { name: r.name } : {}) }))
  );
}

/** The rollout is finished: observed, every replica updated, ready and available. */
export function rolledOut(d: Deployment): boolean {
  const s = d.status;
  const want = d.spec.replicas ?? 1;
  return (
    (s?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) &&
    s?.updatedReplicas === want &&
    s.readyReplicas === want &&
    s.availableReplicas === want &&
    (s.replicas ?? 0) === want
  );
}

/** Seed incident A live (gpu-deadlock.yaml): the tracker runs on the only GPU node, then a new image deadlocks the rollout. */
export async function reproduceSurgeDeadlock(h: E2eHarness): Promise<void> {
  await h.sim.settle();
  await h.sim.waitFor(
    () => (deployment(h, 'vision', 'vision-object-tracker').status?.availableReplicas ?? 0) === 1,
  );
  const d = deployment(h, 'vision', 'vision-object-tracker');
  const container = d.spec.template.spec.containers[0];
  if (!container) throw new Error('tracker has no container');
  container.image = 'vision/boost-track-app:1.1';
  h.sim.apply(d);
  await h.sim.waitFor(() =>
    (h.sim.list('Event', 'vision') as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );
}

/** Seed incident B live (crashloop-node.yaml): the checkout pod on node-b has crashed at least twice. */
export async function reproduceNodeCrashLoop(h: E2eHarness): Promise<void> {
  await h.sim.settle();
  await h.sim.waitFor(() =>
    livePods(h, 'shop').some(
      (p) => p.spec.nodeName === 'node-b' && (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2,
    ),
  );
}
