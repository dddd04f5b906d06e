/**
 * The package works wherever it says it does: `npm pack` (from a copy of the checkout,
 * so the prepack build never lands in the working tree, where bin/rollout-doctor.js
 * would prefer it over the sources other tests run), `npm install -g --offline` of the
 * tarball into a temporary prefix (never the real global; no project and so no
 * `overrides` around it; offline, so the bundled tree is all it gets), then every
 * command through the installed bin on this machine's Node 20 and on Node 24
 * (scripts/second-node.ts): keygen, diagnose and scan from a dump and live against the
 * simulator, apply and undo live, and an internal error exiting 4.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { secondNode, SECOND_NODE_VERSION } from '../../scripts/second-node.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { onCI } from '../support/tools.js';

const run = promisify(execFile);
const ROOT = resolve('.');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
};
const FIXTURE = resolve('test/fixtures/dumps/incident-a-gpu-surge.yaml');
const TARGET = ['deployment/vision-object-tracker', '-n', 'vision'];
/** Each run of the installed CLI starts a fresh Node: seconds each on a busy 2-core machine. */
const CLI_TIMEOUT = 90_000;

/** The environment without npm_* variables inherited from an `npm test` parent. */
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
);

const node24 = secondNode();
if (!node24) {
  const message = `node ${SECOND_NODE_VERSION} is not fetched (npx tsx scripts/second-node.ts)`;
  if (onCI) throw new Error(`${message}; CI must provide it (.ci/run fetches it)`);
  console.warn(`npm-pack: running on this machine's Node only: ${message}`);
}
const nodes: [string, string][] = [[`node ${process.version}`, process.execPath]];
if (node24) nodes.push([`node v${SECOND_NODE_VERSION}`, node24]);

let dir: string;
let prefix: string;
let installed: string;
let files: string[] = [];
let checkoutLeftovers: string[] = [];
let installLog = '';
const timings: Record<string, number> = {};

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[label] = (Date.now() - started) / 1000;
  }
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the installed bin as a user would: its `#!/usr/bin/env node` line picks the
 * first node on the PATH, which is `nodeBin`. Never throws on exit codes.
 */
async function rolloutDoctor(nodeBin: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  const PATH = `${dirname(nodeBin)}:${baseEnv['PATH'] ?? ''}`;
  try {
    const { stdout, stderr } = await run(join(prefix, 'bin', 'rollout-doctor'), args, {
      env: { ...baseEnv, ...env, PATH },
      cwd: dir,
      maxBuffer: 16 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rollout-doctor-pack-'));
  const checkout = join(dir, 'checkout');
  // Everything a clone has, including sim/ and test/, so the package's "files" list
  // is what keeps them out. node_modules is hard-linked (a copy where /tmp is another
  // file system), not symlinked: npm bundles only what it finds inside the package.
  cpSync(ROOT, checkout, {
    recursive: true,
    filter: (src) => !/^(node_modules|\.git|dist|coverage)(\/|$)/.test(relative(ROOT, src)),
  });
  await timed('node_modules hard links', () =>
    run('cp', ['-al', join(ROOT, 'node_modules'), join(checkout, 'node_modules')]).catch(() =>
      run('cp', ['-a', join(ROOT, 'node_modules'), join(checkout, 'node_modules')]),
    ),
  );
  const packed = await timed('npm pack (prepack build)', () =>
    run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: checkout,
      env: baseEnv,
      maxBuffer: 64 << 20,
    }),
  );
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no result: ${packed.stdout}`);
  files = info.files.map((f) => f.path);
  checkoutLeftovers = ['dist'].filter((p) => existsSync(join(checkout, p)));

  // Installed from a folder with no package.json, so no project's overrides apply, and
  // offline: whatever the package does not bring itself cannot be installed.
  prefix = join(dir, 'prefix');
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const install = await timed('npm install -g --offline', () =>
    run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(dir, info.filename)],
      { cwd: elsewhere, env: baseEnv, maxBuffer: 16 << 20 },
    ),
  );
  installLog = install.stdout + install.stderr;
  installed = join(prefix, 'lib', 'node_modules', pkg.name);
}, 900_000); // pack 240–275 s and install 80–112 s measured on a busy 2-core machine

afterAll(() => {
  console.log(
    `npm-pack: ${Object.entries(timings)
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(', ')}`,
  );
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('packs the compiled command line, the bin, the README and the bundled runtime dependencies; no sources, tests or simulator', () => {
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'bin/rollout-doctor.js', 'dist/src/cli/main.js']),
    );
    expect(files).toEqual(expect.arrayContaining(['dist/src/app/main.js', 'dist/workers/main.js']));
    const own = files.filter((f) => !f.startsWith('node_modules/'));
    const unwanted = own.filter(
      (f) =>
        /^(src|sim|test|scripts|bench|deploy|docs|dist\/sim|dist\/test)\//.test(f) ||
        /\.(ts|map)$/.test(f) ||
        f.startsWith('.env') ||
        f === 'package-lock.json',
    );
    expect(unwanted).toEqual([]);
    // postpack removed the build again: no dist/ left to shadow the sources.
    expect(checkoutLeftovers).toEqual([]);
  });

  it('bundles the runtime tree as the lockfile resolves it: undici 7 for the Kubernetes client, no dev dependency', () => {
    const version = (name: string, from = installed): string | undefined => {
      const file = join(from, 'node_modules', name, 'package.json');
      return existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
        : undefined;
    };
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    expect(version('undici')).toBe(lock.packages['node_modules/undici']?.version);
    expect(version('undici')).toMatch(/^7\./);
    // No second undici nested under the client (the 8.x a plain install picks).
    expect(version('undici', join(installed, 'node_modules', '@kubernetes', 'client-node'))).toBeUndefined();
    expect(version('msgpackr-extract')).toBe(lock.packages['node_modules/msgpackr-extract']?.version);
    expect(version('@kubernetes/client-node')).toBe(
      lock.packages['node_modules/@kubernetes/client-node']?.version,
    );
    for (const dev of ['tsx', 'typescript', 'vitest', 'eslint', 'esbuild'])
      expect(version(dev)).toBeUndefined();
    expect(installLog).not.toMatch(/ERR!/);
  });

  it('says in engines what it is tested on', () => {
    expect(pkg.engines.node).toBe('>=20.19');
  });

  describe.each(nodes)('installed globally, on %s', (_label, nodeBin) => {
    it(
      'runs on that Node',
      async () => {
        const { stdout } = await run('sh', ['-c', 'node --version'], {
          env: { ...baseEnv, PATH: `${dirname(nodeBin)}:${baseEnv['PATH'] ?? ''}` },
        });
        const expected = nodeBin === process.execPath ? process.version : `v${SECOND_NODE_VERSION}`;
        expect(stdout.trim()).toBe(expected);
      },
      CLI_TIMEOUT,
    );

    it(
      '--version, --help and keygen',
      async () => {
        expect(await rolloutDoctor(nodeBin, ['--version'])).toEqual({
          code: 0,
          stdout: `${pkg.version}\n`,
          stderr: '',
        });
        const help = await rolloutDoctor(nodeBin, ['--help']);
        expect(help.code).toBe(0);
        for (const command of ['diagnose', 'scan', 'explain-scheduling', 'apply', 'undo', 'keygen'])
          expect(help.stdout).toContain(`  ${command} `);
        const keys = await rolloutDoctor(nodeBin, ['keygen']);
        expect(keys.code).toBe(0);
        const names = keys.stdout
          .split('\n')
          .filter((line) => /^[A-Z_]+=/.test(line))
          .map((line) => line.split('=')[0])
          .sort();
        expect(names).toEqual([
          'ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS',
          'ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY',
          'ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS',
          'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY',
          'ROLLOUT_DOCTOR_PLAN_SEAL_KEY',
        ]);
      },
      CLI_TIMEOUT,
    );

    it(
      'diagnose and scan from a dump find the surge deadlock (exit 1)',
      async () => {
        const diagnosed = await rolloutDoctor(nodeBin, [
          'diagnose',
          ...TARGET,
          '--from-file',
          FIXTURE,
          '-o',
          'json',
        ]);
        expect(diagnosed.stderr).toBe('');
        expect(diagnosed.code).toBe(1);
        const diagnosis = JSON.parse(diagnosed.stdout) as { findings: { code: string }[] };
        expect(diagnosis.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
        const scanned = await rolloutDoctor(nodeBin, ['scan', '-n', 'vision', '--from-file', FIXTURE]);
        expect(scanned.code).toBe(1);
        expect(scanned.stdout).toContain('vision-object-tracker');
      },
      CLI_TIMEOUT,
    );

    describe('against a live (simulated) cluster', () => {
      let sim: Simulator | undefined;
      afterAll(async () => {
        await sim?.close();
      });

      it(
        'diagnose, scan, apply and undo',
        async () => {
          sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
          const s = sim;
          const kubeconfig = join(dir, `kubeconfig-${nodes.findIndex(([, bin]) => bin === nodeBin)}`);
          await s.writeKubeconfig(kubeconfig);
          await s.settle();
          const tracker = (): Deployment =>
            s.get('Deployment', 'vision', 'vision-object-tracker') as Deployment;
          await s.waitFor(() => (tracker().status?.availableReplicas ?? 0) === 1);
          const next = tracker();
          const container = next.spec.template.spec.containers[0];
          if (container) container.image = 'vision/boost-track-app:1.1';
          next.metadata.generation = (next.metadata.generation ?? 1) + 1;
          s.apply(next);
          await s.waitFor(() =>
            (s.list('Event', 'vision') as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
          );
          const live = ['--kubeconfig', kubeconfig];

          const diagnosed = await rolloutDoctor(nodeBin, ['diagnose', ...TARGET, ...live, '-o', 'json']);
          expect(diagnosed.stderr).not.toContain('internal error');
          expect(diagnosed.code).toBe(1);
          const diagnosis = JSON.parse(diagnosed.stdout) as { findings: { code: string }[] };
          expect(diagnosis.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');

          const scanned = await rolloutDoctor(nodeBin, ['scan', '-n', 'vision', ...live]);
          expect(scanned.code).toBe(1);
          expect(scanned.stdout).toContain('vision-object-tracker');

          const env = { ROLLOUT_DOCTOR_STATE_DIR: join(dir, `state-${_label.replace(/\W/g, '')}`) };
          const applied = await rolloutDoctor(
            nodeBin,
            ['apply', ...TARGET, '--remediation', 'set-rolling-update', '--yes', '--timeout', '30', ...live],
            env,
          );
          expect(applied.stdout).toContain('Rollout complete');
          expect(applied.code).toBe(0);
          expect(tracker().spec.strategy?.rollingUpdate?.maxSurge).toBe(0);
          const id = /To undo: rollout-doctor undo (\S+)/.exec(applied.stdout)?.[1] ?? '';
          expect(id).toMatch(/^undo-set-rolling-update-[0-9a-f]{16}$/);

          const undone = await rolloutDoctor(nodeBin, ['undo', id, '--yes', '--timeout', '30', ...live], env);
          expect(undone.stdout).toContain('spec.strategy.rollingUpdate.maxSurge: 0 -> "25%"');
          expect(undone.code).toBe(0);
          expect(tracker().spec.strategy?.rollingUpdate?.maxSurge).toBe('25%');
        },
        4 * CLI_TIMEOUT,
      );
    });
  });

  it(
    'a dependency that throws at import is an internal error: exit 4 and one line, on every Node',
    async () => {
      // The class of the Node 20 crash this package once had (undici 8 throwing at import):
      // the bundled undici made to throw, then put back.
      const entry = join(installed, 'node_modules', 'undici', 'index.js');
      const original = readFileSync(entry);
      // Thrown before the module's own code, which stays below for Node's static scan of
      // its CommonJS exports (the named imports still resolve, as with the real crash).
      const thrower = 'throw new TypeError("Cannot read properties of undefined (reading \'bind\')");\n';
      writeFileSync(entry, Buffer.concat([Buffer.from(thrower), original]));
      try {
        for (const [, nodeBin] of nodes) {
          const result = await rolloutDoctor(nodeBin, [
            'diagnose',
            ...TARGET,
            '--kubeconfig',
            join(dir, 'none'),
          ]);
          expect(result.code).toBe(4);
          expect(result.stderr).toBe(
            "rollout-doctor diagnose: internal error (a bug, please report it): TypeError: Cannot read properties of undefined (reading 'bind')\n",
          );
        }
      } finally {
        writeFileSync(entry, original);
      }
    },
    CLI_TIMEOUT,
  );
});
