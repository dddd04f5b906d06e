/**
 * The built image, run for real (`npm run test:image`, its own CI step in .ci/run: the build
 * takes minutes). `npm run image` builds it (scripts/image/build.sh; layers cached after the
 * first build), then the app and the worker run as containers of that image on the host's
 * network, against a private Redis, the Slack stand-in and the simulator, all on loopback.
 * The chart is installed into the simulator with the real helm first and the worker holds
 * its service account's token, so the chart's admission policies judge the worker's writes.
 * Seed incident A goes from /rollout-doctor to "rolled out".
 *
 * It also inspects what the image trusts (issue 54.4): the distribution's CA bundle, nothing of
 * the build host's (its bundle, a TLS-intercepting proxy's CA), no NODE_EXTRA_CA_CERTS.
 *
 * Skipped when no container engine exists; under CI=true a missing engine fails instead.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART } from '../../scripts/chart-render.js';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { ciValues } from '../support/helm.js';
import { testKeys } from '../support/plan-keys.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';
import { buttonsOf, postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';

const run = promisify(execFile);

/** The base64 bodies of the PEM certificates in `text`, whitespace removed. */
function pemBodies(text: string): string[] {
  return [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) =>
    (m[1] ?? '').replace(/\s+/g, ''),
  );
}
const IMAGE = process.env.ROLLOUT_DOCTOR_IMAGE ?? 'rollout-doctor:local';
const SECRET = 'image-e2e-signing-secret';
const BOT = 'xoxb-image-e2e';
const APPROVER = 'U0LEAD';
const CHANNEL = 'C0INCIDENT';
const NS = 'rollout-doctor';
const WORKER_USER = `system:serviceaccount:${NS}:rollout-doctor-worker`;
const WORKER_TOKEN = 'image-e2e-worker-token';

/** `podman` (with this machine's flags, scripts/image/engine.sh) or `docker`, or undefined. */
async function engine(): Promise<string[] | undefined> {
  try {
    const { stdout } = await run(
      'bash',
      ['-c', '. scripts/image/engine.sh && printf "%s\\n" "${CONTAINERS_CONF:-}" "${ENGINE[@]}"'],
      {
        env: { ...process.env },
      },
    );
    // First line: the containers.conf podman needs here (engine.sh exports it; '' for docker).
    const [conf = '', ...argv] = stdout.split('\n');
    if (conf !== '') process.env.CONTAINERS_CONF = conf;
    const engineArgv = argv.filter(Boolean);
    return engineArgv.length > 0 ? engineArgv : undefined;
  } catch {
    return undefined;
  }
}

const found = await engine();
if (!found && process.env.CI === 'true') {
  throw new Error(
    'CI=true but no container engine (docker with a daemon, or podman): the image cannot be tested',
  );
}

describe.skipIf(!found)('the image: app and worker containers through an approved fix', () => {
  const [bin = 'podman', ...flags] = found ?? [];
  const containers: string[] = [];
  let dir: string;
  let redis: TestRedis;
  let sim: Simulator;
  let slack: SlackStandin;
  let appUrl: string;
  let appTimes = { createdMs: 0, readyMs: 0 };
  let workerTimes = { createdMs: 0, readyMs: 0 };

  const container = (...args: string[]): Promise<{ stdout: string }> =>
    run(bin, [...flags, ...args], { maxBuffer: 16 * 1024 * 1024 });

  async function runContainer(
    name: string,
    env: Record<string, string>,
    extra: string[],
    command: string[],
  ): Promise<void> {
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    await container('rm', '-f', name).catch(() => undefined);
    await container(
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      ...envArgs,
      ...extra,
      IMAGE,
      ...command,
    );
    containers.push(name);
  }

  /** Runs a container and waits for its health check; returns when `run -d` returned and when it was healthy (ms). */
  async function startUntilHealthy(
    ...args: Parameters<typeof runContainer>
  ): Promise<{ createdMs: number; readyMs: number }> {
    const started = performance.now();
    await runContainer(...args);
    const createdMs = performance.now() - started;
    const [name] = args;
    for (;;) {
      const healthy = await container('healthcheck', 'run', name).then(
        () => true,
        () => false,
      );
      if (healthy) return { createdMs, readyMs: performance.now() - started };
      if (performance.now() - started > 180_000) throw new Error(`${name} never became healthy`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  const helm = (args: string[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const child = spawn(k8sTools().helm, args, {
        env: {
          ...process.env,
          KUBECONFIG: join(dir, 'admin-kubeconfig'),
          HELM_CACHE_HOME: dir,
          HELM_CONFIG_HOME: dir,
          HELM_DATA_HOME: dir,
        },
      });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('close', (code) =>
        code === 0 ? resolve(undefined) : reject(new Error(`helm ${args[0]}: ${err}`)),
      );
    });

  beforeAll(async () => {
    // The build: cached layers make a repeat quick; the first one takes minutes (docs/benchmarks.md).
    const built = await run('bash', ['scripts/image/build.sh', '--tag', IMAGE], {
      maxBuffer: 64 * 1024 * 1024,
    });
    // build.sh's own account of the base image and the build time ("image: …" lines on stderr).
    for (const line of built.stderr.split('\n').filter((l) => l.startsWith('image: ')))
      process.stdout.write(`image e2e: ${line.slice('image: '.length)}\n`);
    dir = await mkdtemp(join(tmpdir(), 'rd-image-e2e-'));
    await chmod(dir, 0o755); // the containers' user (1000) reads the kubeconfig in here
    redis = await startRedis();
    sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
    await sim.writeKubeconfig(join(dir, 'admin-kubeconfig'));
    // The chart's worker side (RBAC, admission policies), installed with the real helm; no pods.
    await helm([
      'install',
      'rollout-doctor',
      CHART,
      '--namespace',
      NS,
      '--create-namespace',
      '--values',
      ciValues('worker-only'),
      '--set',
      'worker.replicas=0',
    ]);
    sim.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: {
        name: 'worker-token',
        namespace: NS,
        annotations: { 'kubernetes.io/service-account.name': 'rollout-doctor-worker' },
      },
      data: { token: Buffer.from(WORKER_TOKEN).toString('base64') },
    });
    const workerKubeconfig = join(dir, 'worker-kubeconfig');
    await writeFile(workerKubeconfig, sim.kubeconfig.replace(/token: .*/, `token: ${WORKER_TOKEN}`), {
      mode: 0o644,
    });
    slack = await startSlackStandin({ botToken: BOT });
    const port = await freePort();
    const healthPort = await freePort();
    appUrl = `http://127.0.0.1:${port}`;

    // One container after the other, each timed from `run -d` until its health check passes
    // (`healthcheck run`: podman has no systemd timer here; the app's is the image's own
    // HEALTHCHECK, the worker's its health port). With vfs storage most of the wait is podman
    // copying the image for the new container (docs/benchmarks.md).
    appTimes = await startUntilHealthy(
      'rd-image-e2e-app',
      {
        ...testKeys.appEnv,
        ROLLOUT_DOCTOR_READERS: '*',
        SLACK_BOT_TOKEN: BOT,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        REDIS_URL: redis.url,
        ROLLOUT_DOCTOR_APPROVERS: APPROVER,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: String(await freePort()),
      },
      [],
      [],
    );
    workerTimes = await startUntilHealthy(
      'rd-image-e2e-worker',
      {
        ...testKeys.workerEnv,
        REDIS_URL: redis.url,
        KUBECONFIG: '/kube/config',
        ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '30',
        ROLLOUT_DOCTOR_HEALTH_PORT: String(healthPort),
      },
      [
        '-v',
        `${workerKubeconfig}:/kube/config:ro`,
        // The image's HEALTHCHECK probes the app's port; the worker's is its health port.
        '--health-cmd',
        `node -e "fetch('http://127.0.0.1:${healthPort}/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"`,
      ],
      ['node', 'dist/workers/main.js'],
    );
  }, 45 * 60_000);

  afterAll(async () => {
    for (const name of containers) {
      const { stdout } = await container('logs', name).catch(() => ({ stdout: '' }));
      if (process.env.IMAGE_E2E_LOGS) process.stdout.write(`--- ${name}\n${stdout}\n`);
      await container('rm', '-f', name).catch(() => undefined);
    }
    await slack?.close();
    await sim?.close();
    await redis?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs as a non-root user and holds no build, test or secret files', { timeout: 300_000 }, async () => {
    const { stdout: user } = await container('image', 'inspect', IMAGE, '--format', '{{.Config.User}}');
    expect(user.trim()).toBe('1000:1000');
    // One container for every look inside (with vfs storage each `run` copies the whole image):
    // the script prints one section per question, split on the marker lines below.
    const sections = [
      'id -u',
      'ls -A /app',
      'ls -A /app/dist',
      // No TypeScript sources, tests, simulator, env files, keys, kubeconfigs or npm credentials
      // (find's exit status ignored: uid 1000 cannot read every directory; its output is judged).
      // The distribution's CA certificates (/etc/ssl/certs, /usr/share/ca-certificates, and
      // openssl's /usr/lib/ssl/cert.pem link to them) are public: the trust test judges them.
      'find / -xdev \\( -name "*.ts" -o -name "*.test.*" -o -name ".env*" -o -name "*.pem" -o -name "*kubeconfig*" -o -name ".npmrc" -o -path "/app/sim" -o -path "/app/test" \\) -not -path "*/node_modules/*" -not -path "/etc/ssl/certs/*" -not -path "/usr/share/ca-certificates/*" -not -path "/usr/lib/ssl/*" 2>/dev/null; true',
      // Only production dependencies.
      'for p in vitest typescript tsx eslint playwright-core; do [ -e /app/node_modules/$p ] && echo $p; done; true',
    ];
    const script = sections.map((cmd, i) => `echo "--- ${i}"; ${cmd}`).join('\n');
    const { stdout } = await container('run', '--rm', '--network', 'host', IMAGE, 'sh', '-c', script);
    const [id, app, dist, leftovers, devDependencies] = stdout
      .split(/^--- \d+\n/m)
      .slice(1)
      .map((part) => part.trim());
    expect(id).toBe('1000');
    expect(app?.split('\n')).toEqual(['bin', 'dist', 'node_modules', 'package-lock.json', 'package.json']);
    expect(dist?.split('\n')).toEqual(['src', 'workers']);
    expect(leftovers).toBe('');
    expect(devDependencies).toBe('');
  });

  it(
    "carries no build-host trust material: the distribution's CA bundle, no NODE_EXTRA_CA_CERTS",
    { timeout: 300_000 },
    async () => {
      // Issue 54.4. The image's environment names no extra CA; one is added only at run time.
      const { stdout: env } = await container('image', 'inspect', IMAGE, '--format', '{{json .Config.Env}}');
      expect(env).not.toMatch(/NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR/);
      // The build host's trust: its bundle and the CA its own tools are told to add (a
      // TLS-intercepting proxy's, on this machine).
      const hostCerts = new Set([
        ...pemBodies(await readFile('/etc/ssl/certs/ca-certificates.crt', 'utf8').catch(() => '')),
        ...pemBodies(
          await readFile(process.env.NODE_EXTRA_CA_CERTS ?? '/nonexistent', 'utf8').catch(() => ''),
        ),
      ]);
      const marks = [...hostCerts].map((body) => body.slice(64, 128));
      const sections = [
        'node -e \'console.log(process.env.NODE_EXTRA_CA_CERTS ?? "unset")\'',
        'cat /etc/ssl/certs/ca-certificates.crt 2>/dev/null; true',
        // The distribution's certificates, as its ca-certificates package installed them.
        'cat /usr/share/ca-certificates/mozilla/*.crt 2>/dev/null; true',
        // Any file that holds one of the build host's certificates, wherever a CA could hide.
        // (file:mark lines; judged below against the build host's certificates the distribution does not ship).
        'printf "%s\\n" $HOST_CA_MARKS | grep -rHoF -f - /etc /usr/local/share /usr/local/etc /usr/share/ca-certificates /app/dist /home 2>/dev/null | sort -u; true',
      ];
      const script = sections.map((cmd, i) => `echo "--- ${i}"; ${cmd}`).join('\n');
      const { stdout } = await container(
        'run',
        '--rm',
        '--network',
        'host',
        '-e',
        `HOST_CA_MARKS=${marks.join(' ')}`,
        IMAGE,
        'sh',
        '-c',
        script,
      );
      const [extra, bundle = '', distribution = '', holders] = stdout
        .split(/^--- \d+\n/m)
        .slice(1)
        .map((part) => part.trim());
      expect(extra).toBe('unset');
      const shipped = pemBodies(distribution);
      const trusted = pemBodies(bundle);
      // Every certificate the image trusts is one its distribution ships (an official
      // node:…-slim has no bundle at all: Node's own store), none is only the build host's.
      for (const body of trusted) expect(shipped).toContain(body);
      const hostOnly = [...hostCerts].filter((body) => !shipped.includes(body));
      for (const body of hostOnly) expect(trusted).not.toContain(body);
      const hostOnlyMarks = new Set(hostOnly.map((body) => body.slice(64, 128)));
      const holding = (holders ?? '')
        .split('\n')
        .filter((line) => hostOnlyMarks.has(line.slice(line.indexOf(':') + 1)));
      expect(holding).toEqual([]);
      process.stdout.write(
        `image e2e: ${trusted.length} CAs trusted, all the distribution's; ${hostOnly.length} of the build host's kept out\n`,
      );
      // The user may still add a CA at run time.
      const { stdout: added } = await container(
        'run',
        '--rm',
        '-e',
        'NODE_EXTRA_CA_CERTS=/run/ca.pem',
        IMAGE,
        'node',
        '-e',
        'console.log(process.env.NODE_EXTRA_CA_CERTS)',
      );
      expect(added.trim()).toBe('/run/ca.pem');
      // A base made here is named as what it is, never as the official node image: an image of
      // that name on this host came from a registry (it has a repository digest) or is absent.
      const official = await container(
        'image',
        'inspect',
        'docker.io/library/node:24-bookworm-slim',
        '--format',
        '{{len .RepoDigests}} {{json .Config.Labels}}',
      ).then(
        (r) => r.stdout.trim(),
        () => 'absent',
      );
      expect(official).not.toContain('rollout-doctor-node-base');
      expect(official === 'absent' || !official.startsWith('0 ')).toBe(true);
    },
  );

  it('diagnoses seed incident A, applies the approved fix through the policy, and reports it rolled out', async () => {
    const d = (): { status?: { availableReplicas?: number } } =>
      sim.get('Deployment', 'vision', 'vision-object-tracker') as { status?: { availableReplicas?: number } };
    await sim.settle();
    await sim.waitFor(() => (d().status?.availableReplicas ?? 0) === 1);
    const tracker = sim.get('Deployment', 'vision', 'vision-object-tracker') as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    const first = tracker.spec.template.spec.containers[0];
    if (!first) throw new Error('no container');
    first.image = 'vision/boost-track-app:1.1';
    sim.apply(tracker);

    const events = `${appUrl}/slack/events`;
    const answer = await postSigned(
      events,
      SECRET,
      slashCommandBody({ text: 'vision-object-tracker -n vision', user_id: 'U0ONCALL', channel_id: CHANNEL }),
    );
    expect(answer.status).toBe(200);
    const all = (): StoredMessage[] => [...slack.messages.values()];
    const result = await slack.waitFor(
      () =>
        all().find(
          (m) => m.text.startsWith('deployment/vision-object-tracker in vision:') && buttonsOf(m).length > 0,
        ),
      60_000,
    );
    expect(result.text).toMatch(/surge|GPU|nvidia/i);
    const from = sim.requests.length;
    expect((await postClick(events, SECRET, result, 'approve_plan.0', APPROVER)).status).toBe(200);
    const done = await slack.waitFor(
      () => all().find((m) => m.threadTs === result.ts && m.text.startsWith('rolled out')),
      90_000,
    );
    expect(done.text).toMatch(/^rolled out: deployment\/vision-object-tracker: /);
    // The worker's write came from the container as its service account, and the chart's policy admitted it.
    const patches = sim.requests
      .slice(from)
      .filter((r) => r.verb === 'patch' && r.resource === 'deployments' && !r.dryRun);
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.every((r) => r.user === WORKER_USER && r.status === 200)).toBe(true);
    const times = (t: { createdMs: number; readyMs: number }): string =>
      `run -d returned after ${Math.round(t.createdMs)} ms, healthy after ${Math.round(t.readyMs)} ms`;
    process.stdout.write(
      `image e2e: app container ${times(appTimes)}; worker container ${times(workerTimes)}\n`,
    );
  }, 180_000);
});
