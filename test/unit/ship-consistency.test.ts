/**
 * The ways to ship rollout-doctor (Dockerfile, docker-compose.yml, deploy/, README,
 * docs/configuration.md, .env.example) must agree with the code: the same entry
 * commands (as laid out by `npm run build`), ports, health paths and environment
 * variables as the config schema actually reads. A renamed variable or moved entry
 * file fails here instead of in someone's cluster.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { healthzRoute, readyzRoute } from '../../src/app/routes/health.js';
import { WORKER_LIVE_PATH, WORKER_READY_PATH } from '../../src/worker/health.js';
import { ALERTMANAGER_PATH } from '../../src/app/routes/alertmanager.js';
import { APP_NODE_FLAGS } from '../../src/app/node-flags.js';
import { FOREIGN_SECRETS } from '../../src/config/foreign-secrets.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { testKeys } from '../support/plan-keys.js';
import { restrictedViolations } from '../support/pod-security.js';
import { ciValues, helmTemplate } from '../support/helm.js';
import { CHART } from '../../scripts/chart-render.js';

type Env = Record<string, string | undefined>;

/** The variables a loader reads, observed rather than listed: it parses a recording environment. */
function without(names: Set<string>, drop: readonly string[]): Set<string> {
  return new Set([...names].filter((n) => !drop.includes(n)));
}

function variablesRead(load: (env: Env) => unknown): Set<string> {
  const seen = new Set<string>();
  const env = new Proxy({} as Env, {
    get(_target, key) {
      if (typeof key === 'string') seen.add(key);
      return undefined;
    },
  });
  try {
    load(env);
  } catch {
    // Required variables are missing on purpose; only the names matter.
  }
  return seen;
}

/** Set by the platform, not by the operator: Kubernetes in every pod, the image for Node. */
const PLATFORM = new Set(['KUBERNETES_SERVICE_HOST', 'NODE_ENV']);
// A process also looks at the other side's secret, only to refuse it (FOREIGN_SECRETS),
// and a worker at KUBERNETES_SERVICE_HOST (documented under "Set by the platform").
const APP_VARS = without(variablesRead(loadAppConfig), FOREIGN_SECRETS.app);
const WORKER_VARS = without(variablesRead(loadWorkerConfig), [...FOREIGN_SECRETS.worker, ...PLATFORM]);
const ALL_VARS = new Set([...APP_VARS, ...WORKER_VARS]);
/** Read by the command line alone (src/cli), from its own environment (a locale: src/i18n/lang.ts): documented, never deployed. */
const CLI_ONLY = new Set([
  'ROLLOUT_DOCTOR_STATE_DIR',
  'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY',
  'LC_ALL',
  'LC_MESSAGES',
]);
/** Read by `npm run bench` alone (bench/), never deployed. */
const BENCH_ONLY = new Set(['BENCH_FAILOVER', 'BENCH_FAILOVER_ROUNDS']);
/** Read where the image is built or released, or by the tests, by the file named: never by a process of ours. */
const BUILD_ONLY = new Map([
  ['ROLLOUT_DOCTOR_BUILD_CA', 'scripts/image/build.sh'],
  ['NPM_TOKEN', '.github/workflows/release.yml'],
  ['NODE_EXTRA_CA_CERTS', 'scripts/image/build.sh'],
  // The test suite's own limits (its waits scaled on a slow machine), never a process of ours.
  ['ROLLOUT_DOCTOR_TEST_TIME_SCALE', 'test/support/timeouts.ts'],
]);
/** docker-compose.yml interpolation only (the host kubeconfig path); no process reads it. */
const COMPOSE_ONLY = new Set([
  'WORKER_KUBECONFIG',
  'WORKER_USER',
  'REDIS_APP_PASSWORD',
  'REDIS_WORKER_PASSWORD',
]);
/**
 * Variables docker-compose.yml sets itself instead of forwarding from .env, and why:
 * the ports its `ports:` publish, the Redis URL with its own user, the mount point of
 * the kubeconfig, and a drain that must stay under `stop_grace_period`.
 */
const COMPOSE_FIXED = {
  app: ['PORT', 'HOST', 'METRICS_PORT', 'METRICS_HOST', 'REDIS_URL'],
  worker: ['REDIS_URL', 'KUBECONFIG', 'ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS'],
} as const;

const text = (path: string): string => readFileSync(path, 'utf8');
const sorted = (values: Iterable<string>): string[] => [...values].sort();

const packageJson = z
  .object({ scripts: z.record(z.string(), z.string()) })
  .parse(JSON.parse(text('package.json')));
const buildConfig = z
  .object({
    compilerOptions: z.object({ outDir: z.string(), rootDir: z.string() }),
    include: z.array(z.string()),
  })
  .parse(JSON.parse(text('tsconfig.build.json')));

/** `tsx src/app/main.ts` → src/app/main.ts. */
function sourceEntry(script: string): string {
  return /^tsx (\S+\.ts)$/.exec(packageJson.scripts[script] ?? '')?.[1] ?? '';
}

/** Where `npm run build` writes a source file (outDir + path under rootDir, .ts → .js). */
function builtPath(source: string): string {
  const { outDir, rootDir } = buildConfig.compilerOptions;
  return join(outDir, relative(rootDir, source)).replace(/\.ts$/, '.js');
}

const APP_SOURCE = sourceEntry('start');
const WORKER_SOURCE = sourceEntry('worker');
const APP_ENTRY = builtPath(APP_SOURCE);
const WORKER_ENTRY = builtPath(WORKER_SOURCE);
const DEFAULT_PORT = loadAppConfig({
  ...testKeys.appEnv,
  SLACK_BOT_TOKEN: 'xoxb-x',
  SLACK_SIGNING_SECRET: 's',
}).port;
const DEFAULT_DRAIN_SECONDS =
  loadWorkerConfig({
    ...testKeys.workerEnv,
  }).drainGraceMs / 1000;

const envEntry = z.object({ name: z.string(), value: z.string().optional() }).loose();
const probe = z.object({
  httpGet: z.object({ path: z.string(), port: z.union([z.string(), z.number()]) }),
  periodSeconds: z.number(),
  failureThreshold: z.number(),
});
const container = z
  .object({
    command: z.array(z.string()),
    env: z.array(envEntry).default([]),
    envFrom: z.array(z.object({ secretRef: z.object({ name: z.string() }) })).default([]),
    ports: z.array(z.object({ name: z.string(), containerPort: z.number() })).default([]),
    resources: z.object({
      requests: z.record(z.string(), z.unknown()),
      limits: z.record(z.string(), z.unknown()),
    }),
    readinessProbe: probe.optional(),
    livenessProbe: probe.optional(),
    startupProbe: probe.optional(),
  })
  .loose();
const deploymentSchema = z
  .object({
    kind: z.literal('Deployment'),
    metadata: z.object({ name: z.string() }).loose(),
    spec: z
      .object({
        template: z
          .object({
            spec: z
              .object({
                serviceAccountName: z.string(),
                terminationGracePeriodSeconds: z.number(),
                containers: z.array(container).length(1),
              })
              .loose(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

function yamlDocs(path: string): Record<string, unknown>[] {
  return parseAllDocuments(text(path))
    .map((d) => d.toJS() as unknown)
    .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null);
}

function deploymentIn(path: string): z.infer<typeof deploymentSchema> {
  const doc = yamlDocs(path).find((d) => d.kind === 'Deployment');
  return deploymentSchema.parse(doc);
}

const envValue = (env: z.infer<typeof envEntry>[], name: string): string | undefined =>
  env.find((e) => e.name === name)?.value;

const secretKeyRef = z.object({
  valueFrom: z.object({ secretKeyRef: z.object({ name: z.string(), key: z.string() }).loose() }),
});
/** The variables an env list takes from Secret `secret`, each under its own name as key. */
function secretRefs(env: z.infer<typeof envEntry>[], secret: string): string[] {
  return env.flatMap((e) => {
    const ref = secretKeyRef.safeParse(e);
    if (!ref.success || ref.data.valueFrom.secretKeyRef.name !== secret) return [];
    expect(ref.data.valueFrom.secretKeyRef.key, `${e.name} reads the key of its own name`).toBe(e.name);
    return [e.name];
  });
}

describe('entry commands', () => {
  it('npm start and npm run worker are compiled by npm run build to the files the images run', () => {
    for (const source of [APP_SOURCE, WORKER_SOURCE]) {
      expect(existsSync(source), `${source} exists`).toBe(true);
      expect(buildConfig.include.some((dir) => source.startsWith(`${dir}/`))).toBe(true);
    }
    expect(APP_ENTRY).toBe('dist/src/app/main.js');
    expect(WORKER_ENTRY).toBe('dist/workers/main.js');
    expect(packageJson.scripts.build).toBe('tsc -p tsconfig.build.json');
  });
});

describe('Dockerfile', () => {
  // The base is an ARG (scripts/image/build.sh passes a locally made one where no registry
  // answers); its default, the official image, is what the stages are checked against.
  const raw = text('Dockerfile');
  const base = /^ARG NODE_BASE=(\S+)$/m.exec(raw)?.[1] ?? '';
  const dockerfile = raw.replaceAll('${NODE_BASE}', base);
  const stages = dockerfile.split(/^(?=FROM )/m).filter((s) => s.startsWith('FROM '));
  const final = stages.at(-1) ?? '';

  it('is multi-stage on a Node LTS slim base, and the build stage copies everything tsconfig.build.json compiles', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages.filter((s) => /^FROM node:/.test(s))) {
      const major = Number(/^FROM node:(\d+)-[\w-]*slim\b/.exec(stage)?.[1]);
      expect(major % 2, 'even Node majors are the LTS lines').toBe(0);
      expect(major).toBeGreaterThanOrEqual(22);
    }
    const build = stages[0] ?? '';
    expect(build).toMatch(/RUN npm run build/);
    for (const dir of buildConfig.include) expect(build).toContain(`COPY ${dir} ./${dir}`);
  });

  it('final stage: production dependencies only, non-root, the app command, its port and a health check', () => {
    // One RUN, continued over lines (its cache and build-CA mounts), ending in the production install.
    expect(final).toMatch(/^RUN (?:[^\n]*\\\n)*\s*npm ci --omit=dev/m);
    expect(final).toMatch(/COPY --from=build \/app\/dist\/src \.\/dist\/src/);
    expect(final).toMatch(/COPY --from=build \/app\/dist\/workers \.\/dist\/workers/);
    const user = /^USER (\S+)/m.exec(final)?.[1] ?? 'root';
    expect(['root', '0', '0:0']).not.toContain(user);
    const cmd = /^CMD (\[.*\])$/m.exec(final)?.[1] ?? '[]';
    expect(JSON.parse(cmd)).toEqual(['node', ...APP_NODE_FLAGS, APP_ENTRY]);
    expect(final).toContain(`EXPOSE ${DEFAULT_PORT}`);
    expect(final).toMatch(/^HEALTHCHECK /m);
    expect(final).toContain(healthzRoute().path);
    expect(final).toContain(`process.env.PORT || ${DEFAULT_PORT}`);
  });

  it('the runtime image ships no simulator, tests or TypeScript: what it copies, what the build compiles, what the context holds', () => {
    // The final stage starts from a clean base, not from the build or demo-sim stage.
    expect(final).toMatch(/^FROM node:\S+ AS runtime\s*$/m);
    const copies = [...final.matchAll(/^COPY (.+)$/gm)].map((m) => (m[1] ?? '').trim());
    expect(copies).toEqual([
      'package.json package-lock.json ./',
      '--from=build /app/dist/src ./dist/src',
      '--from=build /app/dist/workers ./dist/workers',
      'bin/rollout-doctor.js ./bin/rollout-doctor.js',
    ]);
    // dist/ holds only what tsconfig.build.json compiles: src/ and workers/, never sim/, test/ or scripts/.
    expect(buildConfig.include).toEqual(['src', 'workers']);
    const build = stages[0] ?? '';
    for (const dir of ['sim', 'test', 'scripts', 'bench'])
      expect(build, `build stage copies ${dir}/`).not.toMatch(new RegExp(`^COPY ${dir}\\b`, 'm'));
    // The simulator stage exists for compose's demo profile only and is never the default target.
    const demo = stages.find((st) => / AS demo-sim\b/.test(st)) ?? '';
    expect(demo).toMatch(/^COPY sim \.\/sim$/m);
    expect(final).not.toContain('demo-sim');
    // The build context never carries tests, credentials or a local build.
    const ignored = text('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['test', '.git', 'node_modules', 'dist', '.env', 'kubeconfig', '*.kubeconfig'])
      expect(ignored, `.dockerignore: ${entry}`).toContain(entry);
  });
});

describe('docker-compose.yml', () => {
  const raw = text('docker-compose.yml');
  const compose = z
    .object({
      services: z.record(
        z.string(),
        z
          .object({
            command: z.array(z.string()).optional(),
            environment: z.record(z.string(), z.string()).optional(),
            ports: z.array(z.string()).optional(),
            volumes: z.array(z.string()).optional(),
            profiles: z.array(z.string()).optional(),
            healthcheck: z.record(z.string(), z.unknown()).optional(),
            stop_grace_period: z.string().optional(),
            network_mode: z.string().optional(),
            user: z.string().optional(),
          })
          .loose(),
      ),
    })
    .parse(parseYaml(raw));
  const { redis, app, worker, simulator } = compose.services;

  it('runs the same commands as the image and deploy/', () => {
    expect(app?.command).toEqual(['node', ...APP_NODE_FLAGS, APP_ENTRY]);
    expect(worker?.command).toEqual(['node', WORKER_ENTRY]);
  });

  it('passes the app and the worker only variables their schemas read, and interpolates nothing unknown', () => {
    for (const name of Object.keys(app?.environment ?? {})) expect(APP_VARS, `app: ${name}`).toContain(name);
    for (const name of Object.keys(worker?.environment ?? {}))
      expect(WORKER_VARS, `worker: ${name}`).toContain(name);
    expect(Object.keys(worker?.environment ?? {}).filter((n) => n.startsWith('SLACK_'))).toEqual([]);
    const interpolated = [...raw.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] ?? '');
    for (const name of interpolated) expect([...ALL_VARS, ...COMPOSE_ONLY]).toContain(name);
  });

  it('forwards every variable each process reads from .env, except the few it sets itself', () => {
    for (const [name, service, vars] of [
      ['app', app, APP_VARS],
      ['worker', worker, WORKER_VARS],
    ] as const) {
      const env = service?.environment ?? {};
      expect(sorted(Object.keys(env)), `${name}: the variables its schema reads`).toEqual(sorted(vars));
      const fixed: readonly string[] = COMPOSE_FIXED[name];
      for (const [key, value] of Object.entries(env)) {
        const forwarded = new RegExp(`^\\$\\{${key}(:[-?][^}]*)?\\}$`).test(value);
        expect(
          forwarded,
          `${name}: ${key}=${value} ${fixed.includes(key) ? 'is set here' : 'is forwarded'}`,
        ).toBe(!fixed.includes(key));
      }
    }
  });

  it('checks the worker through its health port, which compose turns on', () => {
    expect(worker?.environment?.['ROLLOUT_DOCTOR_HEALTH_PORT']).toMatch(
      /^\$\{ROLLOUT_DOCTOR_HEALTH_PORT:-\d+\}$/,
    );
    const probe = JSON.stringify(worker?.healthcheck?.['test'] ?? null);
    expect(probe).toContain('ROLLOUT_DOCTOR_HEALTH_PORT');
    // Healthy once it can take jobs (compose restarts nothing on it).
    expect(probe).toContain(`'${WORKER_READY_PATH}'`);
    expect(worker?.healthcheck?.['disable']).toBeUndefined();
  });

  it('.env.example lists each variable under a process that reads it', () => {
    const sections = text('.env.example').split(/^# --- /m);
    const names = (title: RegExp): string[] =>
      sections
        .filter((section) => title.test(section))
        .flatMap((section) => [...section.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? ''))
        .filter((n) => !COMPOSE_ONLY.has(n));
    const app = names(/^Slack app/);
    const worker = names(/^Worker/);
    const shared = names(/^Shared/);
    expect(app.length + worker.length + shared.length).toBeGreaterThan(30);
    for (const n of app) expect(APP_VARS, `app section: ${n}`).toContain(n);
    for (const n of worker) expect(WORKER_VARS, `worker section: ${n}`).toContain(n);
    for (const n of shared) expect(APP_VARS.has(n) && WORKER_VARS.has(n), `shared section: ${n}`).toBe(true);
    expect(sorted(new Set([...app, ...worker, ...shared]))).toEqual(sorted(ALL_VARS));
  });

  it('the worker runs as the image user by default and as WORKER_USER to read a kubeconfig of another owner', () => {
    const imageUser = /^USER (\S+)/m.exec(
      text('Dockerfile')
        .split(/^(?=FROM )/m)
        .at(-1) ?? '',
    )?.[1];
    expect(worker?.user).toBe(`\${WORKER_USER:-${imageUser ?? ''}}`);
    expect(imageUser).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    expect(text('docs/operations.md')).toContain('## A kubeconfig the container can read');
  });

  it('caps Redis memory with the noeviction policy BullMQ requires', () => {
    const args = redis?.command ?? [];
    expect(args[args.indexOf('--maxmemory-policy') + 1]).toBe('noeviction');
    expect(args[args.indexOf('--maxmemory') + 1]).toMatch(/^\d+mb$/);
  });

  it('the app offers the cluster the worker serves', () => {
    const clusters = loadAppConfig({
      ...testKeys.appEnv,
      ...interpolated(app?.environment ?? {}),
      SLACK_BOT_TOKEN: 'xoxb-x',
      SLACK_SIGNING_SECRET: 's',
    }).clusters;
    expect(clusters).toContain(loadWorkerConfig(interpolated(worker?.environment ?? {})).cluster);
  });

  it('publishes the app port the config listens on', () => {
    const port = Number(app?.environment?.PORT);
    expect(port).toBe(DEFAULT_PORT);
    expect(app?.ports?.some((p) => p.endsWith(`:${port}`))).toBe(true);
  });

  it('Redis persists append-only with a health check; the worker mounts a kubeconfig read-only', () => {
    expect(redis?.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(redis?.healthcheck?.test).toBeDefined();
    // Each process logs in as its own Redis user (deploy/redis-users.yaml), password from .env.
    expect(app?.environment?.REDIS_URL).toBe(
      'redis://app:${REDIS_APP_PASSWORD:?set REDIS_APP_PASSWORD in .env}@redis:6379',
    );
    expect(worker?.environment?.REDIS_URL).toBe(
      'redis://worker:${REDIS_WORKER_PASSWORD:?set REDIS_WORKER_PASSWORD in .env}@redis:6379',
    );
    expect(redis?.command).toEqual(expect.arrayContaining(['--user', 'default', 'off']));
    const kubeconfig = worker?.environment?.KUBECONFIG ?? '';
    expect(worker?.volumes?.some((v) => v.endsWith(`:${kubeconfig}:ro`))).toBe(true);
    const drain = Number(worker?.environment?.ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS ?? DEFAULT_DRAIN_SECONDS);
    expect(Number.parseInt(worker?.stop_grace_period ?? '0', 10)).toBeGreaterThan(drain);
  });

  it('the demo profile adds the simulator, reachable only from the worker, at the address of scripts/demo-kubeconfig.yaml', () => {
    expect(simulator?.profiles).toEqual(['demo']);
    expect(simulator?.network_mode).toBe('service:worker');
    const port = simulator?.command?.at(-1) ?? '';
    expect(text('scripts/demo-kubeconfig.yaml')).toContain(`server: http://127.0.0.1:${port}`);
    expect(worker?.volumes?.join()).toContain('./scripts/demo-kubeconfig.yaml');
    expect(existsSync(simulator?.command?.find((a) => a.endsWith('.ts')) ?? '')).toBe(true);
  });
});

/** "160mb", "256Mi" → bytes (Redis units are 1024-based for mb/gb, as are Kubernetes' Mi/Gi). */
function bytes(quantity: string): number {
  const m = /^(\d+)\s*(mb|gb|kb|Mi|Gi|Ki|M|G)?$/.exec(quantity.trim());
  if (!m) return Number.NaN;
  const unit = {
    kb: 1024,
    mb: 1024 ** 2,
    gb: 1024 ** 3,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    M: 1e6,
    G: 1e9,
  };
  return Number(m[1]) * (m[2] ? unit[m[2] as keyof typeof unit] : 1);
}

/** Compose values with `${VAR:-default}` resolved to their defaults (an empty .env). */
function interpolated(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      // ${X:-default} becomes the default; a required ${X:?message} a sample value.
      // A required ${X:?message} becomes a sample value: a real key for key variables.
      v
        .replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1')
        .replace(
          /\$\{([A-Z0-9_]+):\?[^}]*\}/g,
          (_m, name: string) =>
            (testKeys.env as Record<string, string | undefined>)[name] ?? 'sample-password',
        ),
    ]),
  );
}

describe('deploy/', () => {
  const app = deploymentIn('deploy/app.yaml');
  const worker = deploymentIn('deploy/worker.yaml');
  const appPod = app.spec.template.spec;
  const workerPod = worker.spec.template.spec;
  const appContainer = appPod.containers[0];
  const workerContainer = workerPod.containers[0];
  const drainSeconds = Number(
    envValue(workerContainer?.env ?? [], 'ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS') ?? DEFAULT_DRAIN_SECONDS,
  );

  it('runs the same commands as the image and compose', () => {
    expect(appContainer?.command).toEqual(['node', ...APP_NODE_FLAGS, APP_ENTRY]);
    expect(workerContainer?.command).toEqual(['node', WORKER_ENTRY]);
  });

  it('sets only variables the schemas read; the Secret is the app’s alone', () => {
    // REDIS_PASSWORD only feeds $(REDIS_PASSWORD) in REDIS_URL, from Secret rollout-doctor-redis.
    const kubeOnly = (name: string): boolean => name === 'REDIS_PASSWORD';
    for (const e of appContainer?.env ?? [])
      if (!kubeOnly(e.name)) expect(APP_VARS, `app: ${e.name}`).toContain(e.name);
    for (const e of workerContainer?.env ?? [])
      if (!kubeOnly(e.name)) expect(WORKER_VARS, `worker: ${e.name}`).toContain(e.name);
    const secret = z
      .object({
        metadata: z.object({ name: z.string() }).loose(),
        stringData: z.record(z.string(), z.string()),
      })
      .loose()
      .parse(yamlDocs('deploy/secret.yaml')[0]);
    for (const key of Object.keys(secret.stringData)) expect(APP_VARS).toContain(key);
    // Socket Mode has its slot: set SLACK_APP_TOKEN and the app dials out instead of taking /slack/events.
    expect(Object.keys(secret.stringData)).toContain('SLACK_APP_TOKEN');
    // Each key of the Secret reaches the app by name, and the app reads no other Secret but Redis's.
    expect(secretRefs(appContainer?.env ?? [], secret.metadata.name).sort()).toEqual(
      Object.keys(secret.stringData).sort(),
    );
    // The workers' Secret holds the seal key, the notify signing key, the approval public keys and
    // the Git token of Propose in Git (the workers alone push), nothing of the app's.
    const workerSecret = z
      .object({
        metadata: z.object({ name: z.string() }).loose(),
        stringData: z.record(z.string(), z.string()),
      })
      .loose()
      .parse(yamlDocs('deploy/secret.yaml')[1]);
    expect(Object.keys(workerSecret.stringData).sort()).toEqual([
      'ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS',
      'ROLLOUT_DOCTOR_GIT_TOKEN',
      'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY',
      'ROLLOUT_DOCTOR_PLAN_SEAL_KEY',
    ]);
    expect(Object.keys(secret.stringData)).not.toContain('ROLLOUT_DOCTOR_GIT_TOKEN');
    expect(secretRefs(workerContainer?.env ?? [], workerSecret.metadata.name).sort()).toEqual(
      Object.keys(workerSecret.stringData).sort(),
    );
    expect(secretRefs(workerContainer?.env ?? [], secret.metadata.name)).toEqual([]);
    expect(secretRefs(appContainer?.env ?? [], workerSecret.metadata.name)).toEqual([]);
    for (const c of [appContainer, workerContainer]) expect(c?.envFrom).toEqual([]);
    expect(Object.keys(secret.stringData)).not.toContain('ROLLOUT_DOCTOR_PLAN_SEAL_KEY');
    expect(Object.keys(secret.stringData)).not.toContain('ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY');
  });

  it('listens on the configured port, with readiness on /readyz, a looser liveness on /healthz and a startup probe', () => {
    const http = appContainer?.ports.find((p) => p.name === 'http');
    expect(http?.containerPort).toBe(DEFAULT_PORT);
    expect(Number(envValue(appContainer?.env ?? [], 'PORT') ?? DEFAULT_PORT)).toBe(DEFAULT_PORT);
    const readyPath = readyzRoute({
      pingRedis: async () => undefined,
      slackReady: () => true,
      logger: console,
    }).path;
    const { readinessProbe: ready, livenessProbe: live, startupProbe: startup } = appContainer ?? {};
    expect(ready?.httpGet).toEqual({ path: readyPath, port: 'http' });
    expect(live?.httpGet).toEqual({ path: healthzRoute().path, port: 'http' });
    expect(startup?.httpGet.path).toBe(healthzRoute().path);
    if (!ready || !live) throw new Error('probes missing');
    expect(live.periodSeconds).toBeGreaterThan(ready.periodSeconds);
    expect(live.failureThreshold).toBeGreaterThanOrEqual(ready.failureThreshold);
    expect(live.periodSeconds * live.failureThreshold).toBeGreaterThan(
      ready.periodSeconds * ready.failureThreshold,
    );
  });

  it('the worker: readiness on /readyz of its health port, a looser liveness on /healthz', () => {
    const health = workerContainer?.ports.find((p) => p.name === 'health');
    expect(health?.containerPort).toBe(
      Number(envValue(workerContainer?.env ?? [], 'ROLLOUT_DOCTOR_HEALTH_PORT') ?? Number.NaN),
    );
    const { readinessProbe: ready, livenessProbe: live } = workerContainer ?? {};
    expect(ready?.httpGet).toEqual({ path: WORKER_READY_PATH, port: 'health' });
    expect(live?.httpGet).toEqual({ path: WORKER_LIVE_PATH, port: 'health' });
    if (!ready || !live) throw new Error('probes missing');
    // A failover makes the worker unready for seconds; only a Redis lost for good restarts it.
    expect(live.periodSeconds * live.failureThreshold).toBeGreaterThan(
      ready.periodSeconds * ready.failureThreshold,
    );
  });

  it('the app offers the cluster the worker serves', () => {
    const env = (c: typeof appContainer): Record<string, string> =>
      Object.fromEntries((c?.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])));
    const clusters = loadAppConfig({
      ...testKeys.appEnv,
      SLACK_BOT_TOKEN: 'xoxb-x',
      SLACK_SIGNING_SECRET: 's',
      ...env(appContainer),
    }).clusters;
    expect(clusters).toContain(loadWorkerConfig({ ...testKeys.workerEnv, ...env(workerContainer) }).cluster);
  });

  it('has requests and limits, and grace periods that cover the worker drain', () => {
    for (const c of [appContainer, workerContainer]) {
      expect(Object.keys(c?.resources.requests ?? {})).toEqual(expect.arrayContaining(['cpu', 'memory']));
      expect(Object.keys(c?.resources.limits ?? {})).toContain('memory');
    }
    expect(workerPod.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds);
    expect(appPod.terminationGracePeriodSeconds).toBe(workerPod.terminationGracePeriodSeconds);
  });

  it('renders with kubectl kustomize into one namespace with both service accounts and the worker RBAC', () => {
    const rendered = parseAllDocuments(
      execFileSync('kubectl', ['kustomize', 'deploy/'], { encoding: 'utf8' }),
    )
      .map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } })
      .filter((d) => d !== null);
    const kinds = sorted(rendered.map((d) => `${d.kind}/${d.metadata.name}`));
    expect(kinds).toEqual(
      expect.arrayContaining([
        'ClusterRole/rollout-doctor-worker',
        'ClusterRoleBinding/rollout-doctor-worker',
        'Deployment/rollout-doctor-app',
        'Deployment/rollout-doctor-worker',
        'Namespace/rollout-doctor',
        'PodDisruptionBudget/rollout-doctor-app',
        'Secret/rollout-doctor-redis',
        'Secret/rollout-doctor-slack',
        'Secret/rollout-doctor-worker-keys',
        'Service/redis',
        'Service/rollout-doctor-app',
        'ServiceAccount/rollout-doctor-app',
        'ServiceAccount/rollout-doctor-worker',
        'StatefulSet/redis',
      ]),
    );
    const clusterScoped = new Set([
      'Namespace',
      'ClusterRole',
      'ClusterRoleBinding',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    for (const d of rendered) {
      const expected = clusterScoped.has(d.kind) ? undefined : 'rollout-doctor';
      expect(d.metadata.namespace, `${d.kind}/${d.metadata.name}`).toBe(expected);
    }
  });

  const render = (dir: string) =>
    parseAllDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' }))
      .map(
        (d) =>
          d.toJS() as {
            kind: string;
            metadata: { name: string; namespace?: string };
            roleRef?: { kind: string; name: string };
            rules?: { resources: string[]; verbs: string[] }[];
          },
      )
      .filter((d) => d !== null);

  /** Every pod template in deploy/ and its owner, as kubectl kustomize renders them. */
  const podTemplates = () =>
    parseAllDocuments(execFileSync('kubectl', ['kustomize', 'deploy/'], { encoding: 'utf8' }))
      .map((d) => d.toJS() as Record<string, unknown> | null)
      .filter((d): d is Record<string, unknown> => d !== null)
      .filter((d) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(String(d.kind)))
      .map((d) =>
        z
          .object({
            kind: z.string(),
            metadata: z.object({ name: z.string() }).loose(),
            spec: z
              .object({
                replicas: z.number().optional(),
                template: z.object({
                  metadata: z.object({ labels: z.record(z.string(), z.string()) }).loose(),
                  spec: z.record(z.string(), z.unknown()),
                }),
              })
              .loose(),
          })
          .loose()
          .parse(d),
      );

  it('every pod meets the restricted Pod Security Standard, which the namespace enforces', () => {
    const namespace = yamlDocs('deploy/namespace.yaml')[0] as {
      metadata: { labels?: Record<string, string> };
    };
    expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const templates = podTemplates();
    expect(templates.map((t) => `${t.kind}/${t.metadata.name}`).sort()).toEqual(
      expect.arrayContaining([
        'Deployment/rollout-doctor-app',
        'Deployment/rollout-doctor-worker',
        'StatefulSet/redis',
      ]),
    );
    for (const t of templates) {
      const name = `${t.kind}/${t.metadata.name}`;
      expect(restrictedViolations(t.spec.template.spec), name).toEqual([]);
    }
  });

  it('Redis caps its memory below the container limit with the noeviction policy BullMQ requires', () => {
    const redis = z
      .object({
        spec: z.object({
          template: z.object({
            spec: z.object({
              containers: z.array(
                z
                  .object({
                    args: z.array(z.string()),
                    resources: z.object({ limits: z.object({ memory: z.string() }) }),
                  })
                  .loose(),
              ),
            }),
          }),
        }),
      })
      .parse(yamlDocs('deploy/redis.yaml').find((d) => d.kind === 'StatefulSet'));
    const container = redis.spec.template.spec.containers[0];
    const args = container?.args ?? [];
    expect(args[args.indexOf('--maxmemory-policy') + 1]).toBe('noeviction');
    const maxmemory = bytes(args[args.indexOf('--maxmemory') + 1] ?? '');
    const limit = bytes(container?.resources.limits.memory ?? '');
    expect(maxmemory).toBeGreaterThan(0);
    // Headroom for the AOF rewrite's fork and Redis's own overhead.
    expect(maxmemory).toBeLessThanOrEqual(limit * 0.75);
  });

  it('a PodDisruptionBudget keeps an app replica through drains without blocking them', () => {
    const pdb = z
      .object({
        kind: z.literal('PodDisruptionBudget'),
        spec: z.object({
          minAvailable: z.number().optional(),
          maxUnavailable: z.number().optional(),
          selector: z.object({ matchLabels: z.record(z.string(), z.string()) }),
        }),
      })
      .parse(yamlDocs('deploy/app-pdb.yaml')[0]);
    const appTemplate = podTemplates().find((t) => t.metadata.name === 'rollout-doctor-app');
    const labels = appTemplate?.spec.template.metadata.labels ?? {};
    for (const [k, v] of Object.entries(pdb.spec.selector.matchLabels)) expect(labels[k]).toBe(v);
    // It selects the app only, never the worker.
    const workerTemplate = podTemplates().find((t) => t.metadata.name === 'rollout-doctor-worker');
    expect(
      Object.entries(pdb.spec.selector.matchLabels).every(
        ([k, v]) => workerTemplate?.spec.template.metadata.labels[k] === v,
      ),
    ).toBe(false);
    const replicas = appTemplate?.spec.replicas ?? 1;
    const available = pdb.spec.minAvailable ?? replicas - (pdb.spec.maxUnavailable ?? 0);
    expect(available).toBeGreaterThanOrEqual(1);
    expect(available, 'a drain can still evict one replica').toBeLessThan(replicas);
  });

  it('a kubeconfig Secret mounted into the worker is readable by its user (fsGroup = the image group)', () => {
    const imageUser = /^USER (\d+):(\d+)/m.exec(
      text('Dockerfile')
        .split(/^(?=FROM )/m)
        .at(-1) ?? '',
    );
    const pod = z
      .object({
        securityContext: z.object({ runAsUser: z.number(), runAsGroup: z.number(), fsGroup: z.number() }),
      })
      .loose()
      .parse(workerPod);
    expect([pod.securityContext.runAsUser, pod.securityContext.runAsGroup]).toEqual([
      Number(imageUser?.[1]),
      Number(imageUser?.[2]),
    ]);
    expect(pod.securityContext.fsGroup).toBe(pod.securityContext.runAsGroup);
  });

  it('overlays/namespaced binds the worker per namespace: no cluster-wide binding but a read-only one for the cluster-scoped reads (Nodes, PersistentVolumes, StorageClasses)', () => {
    const rendered = render('overlays/namespaced');
    const bindings = rendered.filter((d) => d.kind === 'ClusterRoleBinding');
    expect(bindings.map((b) => b.roleRef?.name)).toEqual(['rollout-doctor-worker-nodes']);
    const nodes = rendered.find(
      (d) => d.kind === 'ClusterRole' && d.metadata.name === 'rollout-doctor-worker-nodes',
    );
    // Cluster-scoped objects a RoleBinding cannot grant; read-only, nothing else.
    expect(nodes?.rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get'] },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['list'] },
    ]);
    const roleBindings = rendered.filter((d) => d.kind === 'RoleBinding');
    expect(roleBindings.length).toBeGreaterThan(0);
    for (const b of roleBindings) {
      expect(b.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'rollout-doctor-worker',
      });
      expect(b.metadata.namespace).not.toBe('rollout-doctor');
    }
    // Everything else is the base, unchanged.
    const base = render('deploy/').filter((d) => d.kind !== 'ClusterRoleBinding');
    expect(rendered).toEqual(expect.arrayContaining(base));
  });

  it('the base includes the admission policies (cluster-scoped, each binding naming its policy, matching the worker it deploys); overlays/without-admission-policy drops exactly them', () => {
    const rendered = render('deploy/') as unknown as {
      kind: string;
      metadata: { name: string; namespace?: string };
      spec: { policyName?: string; matchConditions?: { expression: string }[] };
    }[];
    const policies = rendered.filter((d) => d.kind === 'ValidatingAdmissionPolicy');
    const bound = rendered
      .filter((d) => d.kind === 'ValidatingAdmissionPolicyBinding')
      .map((d) => d.spec.policyName);
    expect(sorted(bound as string[])).toEqual(sorted(policies.map((p) => p.metadata.name)));
    expect(policies).toHaveLength(8);
    for (const p of policies)
      expect(p.spec.matchConditions?.map((c) => c.expression)).toEqual([
        "request.userInfo.username == 'system:serviceaccount:rollout-doctor:rollout-doctor-worker'",
      ]);
    const without = render('overlays/without-admission-policy');
    expect(without).toEqual(rendered.filter((d) => !d.kind.startsWith('ValidatingAdmissionPolicy')));
  });
});

describe('charts/rollout-doctor', () => {
  const values = z
    .object({
      app: z.object({ env: z.record(z.string(), z.unknown()) }).loose(),
      worker: z.object({ env: z.record(z.string(), z.unknown()) }).loose(),
    })
    .loose()
    .parse(parseYaml(text(`${CHART}/values.yaml`)));
  const schema = z
    .object({
      properties: z.object({
        app: z.object({
          properties: z.object({ env: z.object({ properties: z.record(z.string(), z.unknown()) }) }),
        }),
        worker: z.object({
          properties: z.object({ env: z.object({ properties: z.record(z.string(), z.unknown()) }) }),
        }),
      }),
    })
    .parse(JSON.parse(text(`${CHART}/values.schema.json`)));
  /** Kubernetes-only plumbing: the Redis password feeding $(REDIS_PASSWORD), Node's CA bundle. */
  const KUBE_ONLY = ['REDIS_PASSWORD', 'NODE_EXTRA_CA_CERTS'];
  /** Rendered only with an external Sentinel URL, which every-setting (bundled Redis) is not: helm-chart.test.ts checks them. */
  const SENTINEL_ONLY = ['REDIS_SENTINEL_PASSWORD', 'REDIS_SENTINEL_USERNAME', 'REDIS_SENTINEL_TLS'];

  it('sets every variable the app and the worker read, and no other, when every setting is given', () => {
    const objects = helmTemplate({ values: [ciValues('every-setting')] });
    const container = (name: string) =>
      deploymentSchema.parse(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name)).spec
        .template.spec.containers[0];
    const names = (name: string) =>
      sorted((container(name)?.env ?? []).map((e) => e.name).filter((n) => !KUBE_ONLY.includes(n)));
    expect(names('rollout-doctor-app')).toEqual(sorted(without(APP_VARS, SENTINEL_ONLY)));
    expect(names('rollout-doctor-worker')).toEqual(sorted(without(WORKER_VARS, SENTINEL_ONLY)));
  });

  it('app.env and worker.env hold only variables their process reads, each set once, and values.schema.json admits exactly those', () => {
    const objects = helmTemplate({ values: [ciValues('every-setting')] });
    for (const [side, vars, map, allowed] of [
      ['app', APP_VARS, values.app.env, schema.properties.app.properties.env.properties],
      ['worker', WORKER_VARS, values.worker.env, schema.properties.worker.properties.env.properties],
    ] as const) {
      for (const name of Object.keys(map)) expect(vars, `${side}.env: ${name}`).toContain(name);
      expect(sorted(Object.keys(allowed)), `${side}.env in values.schema.json`).toEqual(
        sorted(Object.keys(map)),
      );
      const env = (
        deploymentSchema.parse(
          objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `rollout-doctor-${side}`),
        ).spec.template.spec.containers[0]?.env ?? []
      ).map((e) => e.name);
      expect(env.length, `${side}: no variable set twice (by a value and by ${side}.env)`).toBe(
        new Set(env).size,
      );
    }
  });

  it('values.yaml names every variable it sets and no variable the code does not know', () => {
    const names = new Set(
      [...text(`${CHART}/values.yaml`).matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]),
    );
    // CLI_ONLY: the admission webhook's key, which the chart gives `serve-admission`.
    expect(
      sorted([...names].filter((n) => !ALL_VARS.has(n) && !CLI_ONLY.has(n) && !KUBE_ONLY.includes(n))),
    ).toEqual([]);
    const valuesText = text(`${CHART}/values.yaml`);
    expect(sorted([...ALL_VARS].filter((n) => !new RegExp(`\\b${n}\\b`).test(valuesText)))).toEqual([]);
  });

  it('runs the same commands as the image, compose and deploy/, and ships the version package.json names', () => {
    const objects = helmTemplate();
    const command = (name: string) =>
      deploymentSchema.parse(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name)).spec
        .template.spec.containers[0]?.command;
    expect(command('rollout-doctor-app')).toEqual(['node', ...APP_NODE_FLAGS, APP_ENTRY]);
    expect(command('rollout-doctor-worker')).toEqual(['node', WORKER_ENTRY]);
    const chart = z
      .object({ appVersion: z.string() })
      .loose()
      .parse(parseYaml(text(`${CHART}/Chart.yaml`)));
    const { version } = z
      .object({ version: z.string() })
      .loose()
      .parse(JSON.parse(text('package.json')));
    expect(chart.appVersion).toBe(version);
  });
});

describe('documentation of every variable', () => {
  /** Rows of docs/configuration.md tables: | `NAME` | read by | default | meaning |. */
  const rows = (): { name: string; readBy: string }[] =>
    [...text('docs/configuration.md').matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|([^|]*)\|/gm)].map((m) => ({
      name: m[1] ?? '',
      readBy: (m[2] ?? '').toLowerCase(),
    }));

  it('docs/configuration.md has one row per variable the schemas read, saying which process reads it', () => {
    const table = rows();
    const documented = table.map((r) => r.name).filter((n) => !COMPOSE_ONLY.has(n) && !CLI_ONLY.has(n));
    expect(sorted(new Set(documented))).toEqual(sorted(ALL_VARS));
    for (const name of CLI_ONLY) expect(table.find((r) => r.name === name)?.readBy.trim()).toBe('cli');
    expect(documented.length, 'no duplicate rows').toBe(new Set(documented).size);
    for (const row of table.filter((r) => !COMPOSE_ONLY.has(r.name) && !CLI_ONLY.has(r.name))) {
      expect(row.readBy.includes('app'), `${row.name} read by app`).toBe(APP_VARS.has(row.name));
      expect(row.readBy.includes('worker'), `${row.name} read by worker`).toBe(WORKER_VARS.has(row.name));
    }
    for (const name of COMPOSE_ONLY) expect(table.find((r) => r.name === name)?.readBy).toContain('compose');
  });

  it('.env.example lists exactly the variables the schemas read', () => {
    const listed = [...text('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '');
    // Plus the Compose-only settings (Redis passwords, the kubeconfig and its reader).
    expect(sorted(new Set(listed))).toEqual(sorted(new Set([...ALL_VARS, ...COMPOSE_ONLY])));
  });

  it('README and the docs name no variable the code does not know, and link the configuration reference', () => {
    const readme = text('README.md');
    expect(readme).toContain('docs/configuration.md');
    for (const [name, reader] of BUILD_ONLY) expect(text(reader), `${reader} reads ${name}`).toContain(name);
    for (const file of ['README.md', 'docs/operations.md', 'docs/security.md', 'docs/architecture.md']) {
      const names = [...text(file).matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]);
      const unknown = names.filter(
        (n) =>
          !ALL_VARS.has(n) &&
          !COMPOSE_ONLY.has(n) &&
          !PLATFORM.has(n) &&
          !CLI_ONLY.has(n) &&
          !BENCH_ONLY.has(n) &&
          !BUILD_ONLY.has(n),
      );
      expect(sorted(new Set(unknown)), file).toEqual([]);
    }
  });
});

describe('README commands', () => {
  const readme = (): string => text('README.md');

  it('gives the two-command quick start, the process commands, and only npm scripts that exist', () => {
    expect(readme()).toContain('npm ci && npm run demo');
    expect(readme()).toMatch(/^npm test\b/m);
    for (const cmd of [
      'npm start',
      'npm run worker',
      'npm run typecheck',
      'npm run lint',
      'npm run bench',
      'bash .ci/run',
    ]) {
      expect(readme()).toContain(cmd);
    }
    for (const m of readme().matchAll(/npm run ([a-z][\w:-]*)/g))
      expect(Object.keys(packageJson.scripts)).toContain(m[1]);
    expect(existsSync('.ci/run')).toBe(true);
  });

  it('names the routes the app serves and the deploy and compose commands', () => {
    for (const path of ['/slack/events', ALERTMANAGER_PATH, healthzRoute().path, '/readyz', '/metrics']) {
      expect(readme()).toContain(path);
    }
    expect(readme()).toContain('docker compose --profile demo up');
    expect(readme()).toContain('kubectl apply -k deploy/');
  });
});

describe('slack/manifest.yaml', () => {
  const manifest = z
    .object({
      features: z
        .object({
          slash_commands: z.array(z.object({ command: z.string(), url: z.string() }).loose()),
        })
        .loose(),
      oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
      settings: z
        .object({ interactivity: z.object({ is_enabled: z.boolean(), request_url: z.string() }) })
        .loose(),
    })
    .loose();
  /** The bot scope each Web API method the app calls needs; a method missing here fails the test. */
  const SCOPE_OF: Record<string, string | null> = {
    'chat.postMessage': 'chat:write',
    'chat.update': 'chat:write',
    'chat.postEphemeral': 'chat:write',
    'chat.delete': 'chat:write',
    'usergroups.users.list': 'usergroups:read',
    'users.info': 'users:read',
    'files.uploadV2': 'files:write',
    'auth.test': null,
    'chat.getPermalink': null,
    'views.open': null,
  };
  const sources = (readdirSync('src', { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => text(join('src', f)));

  it('declares the command the app registers, pointing both URLs at the route Bolt serves', () => {
    const m = manifest.parse(parseYaml(text('slack/manifest.yaml')));
    const registered = [
      ...text('src/chat/slack/listeners/commands/index.ts').matchAll(/app\.command\('([^']+)'/g),
    ].map((x) => x[1]);
    expect(m.features.slash_commands.map((c) => c.command)).toEqual(registered);
    expect(text('src/app/slack-app.ts')).toContain("endpoints: '/slack/events'");
    for (const url of [
      ...m.features.slash_commands.map((c) => c.url),
      m.settings.interactivity.request_url,
    ]) {
      expect(new URL(url).pathname).toBe('/slack/events');
    }
    expect(m.settings.interactivity.is_enabled).toBe(true);
  });

  it('asks for exactly the bot scopes of the Web API methods the code calls', () => {
    const methods = new Set(
      sources.flatMap((src) =>
        [
          ...src.matchAll(
            // On a Web API client (`client`, `notifyClient`, `app.client`), not any object
            // that happens to have a `users` array.
            /[cC]lient\.(chat|usergroups|views|files|conversations|reactions|users|auth|pins)\.([a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z][a-zA-Z0-9]*)?)\(/g,
          ),
        ].map((x) => `${x[1] ?? ''}.${x[2] ?? ''}`),
      ),
    );
    expect(methods.size).toBeGreaterThan(0);
    for (const method of methods) expect(Object.keys(SCOPE_OF), `scope of ${method}`).toContain(method);
    const needed = new Set([
      'commands',
      ...[...methods].map((x) => SCOPE_OF[x]).filter((x): x is string => !!x),
    ]);
    const m = manifest.parse(parseYaml(text('slack/manifest.yaml')));
    expect(sorted(m.oauth_config.scopes.bot)).toEqual(sorted(needed));
  });

  it('the README walks through installing it', () => {
    const readme = text('README.md');
    expect(readme).toContain('slack/manifest.yaml');
    const m = manifest.parse(parseYaml(text('slack/manifest.yaml')));
    for (const scope of m.oauth_config.scopes.bot) expect(readme).toContain(`\`${scope}\``);
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_APP_TOKEN',
      'ROLLOUT_DOCTOR_APPROVERS',
    ]) {
      expect(readme).toContain(name);
    }
  });
});
