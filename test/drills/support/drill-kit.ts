/**
 * Shared pieces of the failure drills: seed incident A made live on the simulator,
 * counters of real writes, a rolled-out check, and replacement workers (the real
 * Kubernetes wiring of workers/main.ts) for drills that take workers down and bring
 * them back next to an in-process e2e harness.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Simulator } from '../../../sim/index.js';
import { loadWorkerConfig } from '../../../src/config/worker-environment.js';
import type { Deployment } from '../../../src/diagnosis/k8s-workloads.js';
import { createKubeClient } from '../../../src/kube/client.js';
import { createLogger } from '../../../src/logger.js';
import { NOTIFY_QUEUES, diagnoseQueueName, remediateQueueName } from '../../../src/queue/names.js';
import { kubeClusterDeps } from '../../../src/worker/kube-deps.js';
import { startWorkers, type WorkerRuntime } from '../../../src/worker/runtime.js';
import { waitForIdleQueues } from '../../support/queue-idle.js';
import { buttonsOf } from '../../support/slack-sign.js';
import type { SlackStandin, StoredMessage } from '../../support/slack-standin.js';
import { testKeys } from '../../support/plan-keys.js';
import { SIGNAL_WAIT_MS } from '../../support/timeouts.js';

export const NS = 'vision';
export const NAME = 'vision-object-tracker';

/** Worker settings for drills: locks lapse in 1.5 s and are checked twice a second, so a dead worker's job moves on quickly. */
export const FAST_RECOVERY = {
  ROLLOUT_DOCTOR_JOB_LOCK_MS: '1500',
  ROLLOUT_DOCTOR_STALLED_INTERVAL_MS: '500',
  ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '1',
  ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '20',
};

/** The diagnosis results of incident A in the channel (not thread replies): the tracker's surge deadlock. */
export function deadlockResults(slack: SlackStandin): StoredMessage[] {
  return [...slack.messages.values()].filter(
    (m) =>
      m.threadTs === undefined &&
      m.text.startsWith(`deployment/${NAME} in ${NS}:`) &&
      JSON.stringify(m.blocks).includes('RolloutSurgeDeadlock'),
  );
}

/** The Deployment as the simulator holds it now. */
export function deployment(sim: Simulator, namespace = NS, name = NAME): Deployment {
  const found = sim.get('Deployment', namespace, name) as Deployment | undefined;
  if (!found) throw new Error(`no deployment ${namespace}/${name} in the simulator`);
  return found;
}

/** Incident A live: the tracker runs on the only GPU node, then a new image deadlocks its rollout. */
export async function deadlockTracker(sim: Simulator): Promise<void> {
  await sim.waitFor(() => (deployment(sim).status?.availableReplicas ?? 0) === 1, SIGNAL_WAIT_MS);
  const d = deployment(sim);
  const container = d.spec.template.spec.containers[0];
  if (!container) throw new Error('tracker has no container');
  container.image = 'vision/boost-track-app:1.1';
  sim.apply(d);
  await sim.waitFor(
    () => (sim.list('Event', NS) as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
    SIGNAL_WAIT_MS,
  );
}

/** The rollout is finished: observed, every replica updated, ready and available, no old pod left. */
export function rolledOut(d: Deployment): boolean {
  const s = d.status;
  const want = d.spec.replicas ?? 1;
  return (
    (s?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) &&
    s?.updatedReplicas === want &&
    s.availableReplicas === want &&
    (s.replicas ?? 0) === want
  );
}

/** Real (not dry-run) PATCH requests the simulator received for the tracker Deployment, refused ones too. */
export function patchAttempts(sim: Simulator, name = NAME): number {
  return sim.requests.filter(
    (r) => r.verb === 'patch' && r.resource === 'deployments' && r.name === name && !r.dryRun,
  ).length;
}

/**
 * Real (not dry-run) PATCHes of the tracker Deployment the simulator accepted: what
 * "applied once" counts. A PATCH refused with 409 (a controller wrote between the
 * executor's read and its write, as a loaded machine makes likely) changed nothing:
 * the executor re-reads and re-checks, then writes once.
 */
export function realPatches(sim: Simulator, name = NAME): number {
  return sim.requests.filter(
    (r) =>
      r.verb === 'patch' &&
      r.resource === 'deployments' &&
      r.name === name &&
      !r.dryRun &&
      r.status >= 200 &&
      r.status < 300,
  ).length;
}

/**
 * Resolves once no diagnose, remediate or notify job is pending or running (stalled
 * jobs of a killed worker count as running until another worker takes them). Every
 * apply and every Slack message comes from one of those jobs, so after this a
 * duplicate that would be a bug has already happened: the positive signal to wait for
 * before asserting that something happened only once.
 */
export function queuesSettled(redisUrl: string, timeoutMs = SIGNAL_WAIT_MS): Promise<void> {
  return waitForIdleQueues(
    redisUrl,
    [diagnoseQueueName('default'), remediateQueueName('default'), ...NOTIFY_QUEUES],
    { timeoutMs },
  );
}

/** The suite's one wait for a signal (test/support/wait.ts), here too for the drills that import it from the kit. */
export { waitUntil } from '../../support/wait.js';

export interface DrillWorkers {
  runtime: WorkerRuntime;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Starts one more set of diagnose/remediate workers in this process, wired exactly as
 * workers/main.ts wires them, against `sim` and `redisUrl`. `env` is worker
 * environment (ROLLOUT_DOCTOR_*), parsed by loadWorkerConfig.
 */
export async function startDrillWorkers(
  sim: Simulator,
  redisUrl: string,
  env: Record<string, string> = {},
  options: {
    /**
     * The clock the workers judge jobs by (a plan's expiry): a drill that must be
     * minutes later moves it instead of waiting them out. Their clock watch still
     * compares the real clock with Redis.
     */
    now?: () => number;
  } = {},
): Promise<DrillWorkers> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-drill-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  const config = loadWorkerConfig({
    ...testKeys.workerEnv,
    REDIS_URL: redisUrl,
    KUBECONFIG: kubeconfig,
    ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '20',
    ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
    LOG_LEVEL: 'info',
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const client = createKubeClient({
    kubeconfig: config.kubeconfig,
    requestTimeoutMs: config.kubeRequestTimeoutMs,
  });
  const runtime = startWorkers(
    config,
    createLogger({ level: config.logLevel, name: 'drill-worker' }, sink),
    {
      ...kubeClusterDeps(client, { rolloutTimeoutMs: config.rolloutTimeoutMs }),
      ...(options.now ? { now: options.now } : {}),
    },
    { lockDurationMs: config.jobLockMs, stalledIntervalMs: config.stalledIntervalMs },
  );
  let stopped = false;
  return {
    runtime,
    logs,
    async stop() {
      if (stopped) return;
      stopped = true;
      await runtime.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh diagnosis of the tracker in the channel, with its Approve buttons. */
export async function freshResult(stack: {
  slack: SlackStandin;
  command(text: string): Promise<{ status: number }>;
}): Promise<StoredMessage> {
  const known = new Set(stack.slack.messages.keys());
  const answered = await stack.command(`${NAME} -n ${NS}`);
  if (answered.status !== 200) throw new Error(`the command was answered ${answered.status}`);
  return stack.slack.waitFor(
    () =>
      [...stack.slack.messages.entries()].find(
        ([key, m]) =>
          !known.has(key) &&
          m.threadTs === undefined &&
          buttonsOf(m).some((b) => b.action_id.startsWith('approve_plan')),
      )?.[1],
    SIGNAL_WAIT_MS,
  );
}
