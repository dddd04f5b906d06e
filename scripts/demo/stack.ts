/**
 * The demo's machinery, shared by `npm run demo` and `npm run preview`: a temporary
 * directory, Redis (a private redis-server, else REDIS_URL: redis.ts), the
 * Kubernetes API simulator with both seed incidents, the Slack Web API stand-in, and
 * the real app and worker processes (`npm start`, `npm run worker` entry files) wired
 * to them with fresh keys and a fresh signing secret. Everything is registered with
 * the caller's cleanup, so it is undone on success, failure, timeout or a signal.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/cli/version.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { parsePublicKeys, parseSigningKey } from '../../src/trust/approval-signature.js';
import { appKeyEnv, generatePlanKeys, keyPairProblems, workerKeyEnv } from '../../src/trust/keygen.js';
import { freePort } from '../../test/support/redis.js';
import { startSlackStandin, type SlackStandin } from '../../test/support/slack-standin.js';
import { demoScenarioObjects, type DemoKind } from '../demo-scenario.js';
import type { Cleanup } from './cleanup.js';
import { CHANNELS, PEOPLE } from './context.js';
import { startProcess, waitForHttp, type DemoProcess } from './processes.js';
import { DemoError } from './demo-error.js';
import { demoRedis } from './redis.js';

/** The checkout: the processes run there (also when the demo runs from scripts/transpiled-tree.ts' tree). */
const ROOT = packageRoot(import.meta.url);
export const DEMO_BOT_TOKEN = 'xoxb-demo-not-a-real-token';

/** The app's Teams settings: TEAMS_* pointing at the Teams stand-in, and the Entra ids that may approve and read. */
export interface TeamsSettings {
  env: Record<string, string>;
  approvers: string[];
  readers: string[];
  /** The names cards show for them (a policy file's `names:`). */
  names?: Record<string, string>;
}

export interface DemoStack {
  /** Temporary directory: kubeconfig and process logs. */
  dir: string;
  sim: Simulator;
  /** The Slack Web API stand-in; none in a Teams-only stack (`slack: false`). */
  slack: SlackStandin | undefined;
  /** The app's base URL (loopback). */
  appUrl: string;
  /** `${appUrl}/slack/events`, where Slack's signed requests go. */
  eventsUrl: string;
  /** The app's SLACK_SIGNING_SECRET, to sign requests as Slack would. */
  signingSecret: string;
  /** The app's ALERTMANAGER_TOKEN. */
  alertToken: string;
  app: DemoProcess;
  worker: DemoProcess;
}

/**
 * Starts everything and waits until the app is ready. Progress lines go to `say`
 * (the demo test reads "private redis-server on port", "kubeconfig …" and "pid N;").
 * Started processes are also pushed to `processes` as they start, so a caller can
 * show their logs when a later step fails.
 */
export async function startDemoStack(options: {
  cleanup: Cleanup;
  say: (line: string) => void;
  timeScale: number;
  processes: DemoProcess[];
  /** Changes the scenario objects before the simulator starts (tests: hostile cluster text). */
  editScenario?: (objects: object[]) => object[];
  /** The tracker's incident as its DRA twin (demo-scenario.ts). */
  dra?: boolean;
  /** The incidents of a workload kind (demo-scenario.ts): the seeds, or the node agent DaemonSet's. */
  kind?: DemoKind;
  /**
   * Asked when cleanup reaches the temporary directory (after the processes stopped):
   * true keeps it with the process logs (a failed run names them), removing only the
   * kubeconfig of the simulator that is gone.
   */
  keepLogs?: () => boolean;
  /**
   * Microsoft Teams too (`npm run demo -- --chat teams`): the app's TEAMS_* settings
   * (pointing at the Teams stand-in), the Entra object ids that may approve and read,
   * and the names cards show for them (a policy file's `names:`).
   */
  teams?: TeamsSettings | Promise<TeamsSettings>;
  /**
   * The Slack Web API stand-in and the app's SLACK_* settings (default true); false for a
   * Teams-only app, as `npm run demo -- --chat teams` runs it (docs/configuration.md).
   */
  slack?: boolean;
}): Promise<DemoStack> {
  const { cleanup, say, timeScale, processes } = options;
  // A promise (the preview starts the Teams stand-in meanwhile) is awaited only where the app needs it.
  const pendingTeams = options.teams === undefined ? undefined : Promise.resolve(options.teams);
  pendingTeams?.catch(() => undefined); // awaited below
  const { register, starting } = cleanup;
  const dir = await starting(() => mkdtemp(join(tmpdir(), 'rollout-doctor-demo-')));
  register('temporary directory', () =>
    options.keepLogs?.()
      ? rm(join(dir, 'kubeconfig'), { force: true })
      : rm(dir, { recursive: true, force: true }),
  );

  const redis = await starting(() => demoRedis(process.env.REDIS_URL));
  register('redis', () => redis.close());
  // A shared Redis may serve a real deployment: a cluster name of our own keeps our queues apart.
  const cluster = redis.shared ? `demo-${randomBytes(3).toString('hex')}` : 'demo';
  say(`Redis:      ${redis.origin}`);

  const objects = await demoScenarioObjects({
    dra: options.dra === true,
    kind: options.kind ?? 'deployment',
  });
  const scenario = options.editScenario ? options.editScenario(objects) : objects;
  const sim = await starting(() => startSimulator({ scenario, timeScale }));
  register('simulator', () => sim.close());
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  // Teams cannot show an Entra object id as a person: the policy file names the approvers.
  const policyFile = join(dir, 'policy.json');
  say(`Cluster:    Kubernetes API simulator at ${sim.url} (time ×${timeScale}), kubeconfig ${kubeconfig}`);

  const slack =
    options.slack === false
      ? undefined
      : await starting(() => startSlackStandin({ botToken: DEMO_BOT_TOKEN }));
  if (slack) {
    register('Slack stand-in', () => slack.close());
    say(`Slack:      stand-in Web API at ${slack.apiUrl}`);
  }

  const signingSecret = randomBytes(16).toString('hex');
  const alertToken = randomBytes(16).toString('hex');
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const common = { REDIS_URL: redis.url, ROLLOUT_DOCTOR_CLUSTER: cluster, LOG_LEVEL: 'info' };
  // Fresh keys for this run only: the app signs approvals, the worker seals plans and
  // signs what it reports. Both halves are known here, so check that they fit.
  const keys = generatePlanKeys({ seal: 'demo-seal', approval: 'demo-approval', notify: 'demo-notify' });
  const mismatch = keyPairProblems(
    {
      approvalSigningKey: parseSigningKey(keys.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY),
      notifyPublicKeys: parsePublicKeys(keys.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS),
    },
    {
      approvalPublicKeys: parsePublicKeys(keys.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS),
      notifySigningKey: parseSigningKey(keys.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY),
    },
  );
  if (mismatch.length > 0) throw new DemoError(mismatch.join('; '));
  const teams = await pendingTeams;
  if (teams?.names) await writeFile(policyFile, JSON.stringify({ rules: [], names: teams.names }));
  const start = (name: string, entry: string, env: Record<string, string>): DemoProcess => {
    if (cleanup.began) throw new DemoError('interrupted');
    const proc = startProcess({ name, entry, env: { ...common, ...env }, cwd: ROOT, logDir: dir });
    processes.push(proc);
    register(name, () => proc.stop());
    return proc;
  };
  const app = start('app', 'src/app/main.ts', {
    ...(slack
      ? { SLACK_BOT_TOKEN: DEMO_BOT_TOKEN, SLACK_SIGNING_SECRET: signingSecret, SLACK_API_URL: slack.apiUrl }
      : {}),
    PORT: String(port),
    // Loopback only, like everything else the demo and the preview start.
    HOST: '127.0.0.1',
    ROLLOUT_DOCTOR_CLUSTERS: cluster,
    ROLLOUT_DOCTOR_APPROVERS: [PEOPLE.lead, ...(teams?.approvers ?? [])].join(','),
    // The on-call engineer may diagnose; only the lead may approve.
    ROLLOUT_DOCTOR_READERS: [PEOPLE.oncall, ...(teams?.readers ?? [])].join(','),
    ALERTMANAGER_TOKEN: alertToken,
    // With Teams, alert threads open in its channel (TEAMS_ALERT_CONVERSATION, in `teams.env`).
    ...(teams ? {} : { ROLLOUT_DOCTOR_ALERT_CHANNEL: CHANNELS.alerts }),
    // The demo's alert says its Alertmanager is here: shown as a link, not defanged text.
    ROLLOUT_DOCTOR_ALERT_LINK_HOSTS: 'alertmanager.example:9093',
    ...appKeyEnv(keys),
    ...(teams?.names ? { ROLLOUT_DOCTOR_POLICY_FILE: policyFile } : {}),
    ...teams?.env,
  });
  const worker = start('worker', 'workers/main.ts', {
    KUBECONFIG: kubeconfig,
    ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
    ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '60',
    ...workerKeyEnv(keys),
  });
  say(`App:        ${appUrl} (npm start, pid ${String(app.pid)}; log ${app.logFile})`);
  say(`Worker:     cluster "${cluster}" (npm run worker, pid ${String(worker.pid)}; log ${worker.logFile})`);
  await waitForHttp(`${appUrl}/readyz`, app, 60_000);
  say(
    slack
      ? 'App ready (Redis answers, Slack auth.test passed).'
      : 'App ready (Redis answers; Teams only, no Slack).',
  );
  return {
    dir,
    sim,
    slack,
    appUrl,
    eventsUrl: `${appUrl}/slack/events`,
    signingSecret,
    alertToken,
    app,
    worker,
  };
}
