/**
 * `npm pack` makes a package that installs and runs without dev dependencies: packed
 * from a copy of the checkout (so the prepack build never lands in the working tree,
 * where bin/rollout-doctor.js would prefer it over the sources other tests run),
 * installed with `npm install --omit=dev` into a fresh project, and run through its
 * installed bin: --version, --help, diagnose --from-file, and diagnose against a live
 * (simulated) cluster, which loads the Kubernetes client.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';

const run = promisify(execFile);
const ROOT = resolve('.');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  version: string;
  overrides?: Record<string, string>;
};
const FIXTURE = resolve('test/fixtures/dumps/incident-a-gpu-surge.yaml');

/** The environment without npm_* variables inherited from an `npm test` parent. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
);

let dir: string;
let bin: string;
let files: string[] = [];
let checkoutLeftovers: string[] = [];
let installed = '';
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

/** Runs the installed bin as a user would (its #! line picks node), never throwing on exit codes. */
async function rolloutDoctor(args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(bin, args, { env, cwd: dir, maxBuffer: 16 << 20 });
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
  // is what keeps them out; the dependencies of the checkout are linked, not copied.
  cpSync(ROOT, checkout, {
    recursive: true,
    filter: (src) => !/^(node_modules|\.git|dist|coverage)(\/|$)/.test(relative(ROOT, src)),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  const packed = await timed('npm pack (prepack build)', () =>
    run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: checkout, env, maxBuffer: 16 << 20 }),
  );
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no result: ${packed.stdout}`);
  files = info.files.map((f) => f.path);
  checkoutLeftovers = ['dist'].filter((p) => existsSync(join(checkout, p)));

  // A fresh project, as a user makes one. npm applies only the root project's
  // overrides, so on Node 20 it carries ours (README "Command line").
  const project = join(dir, 'project');
  cpSync(join(dir, info.filename), join(project, info.filename));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'uses-rollout-doctor', private: true, overrides: pkg.overrides ?? {} }),
  );
  await timed('npm install --omit=dev', () =>
    run(
      'npm',
      ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', `./${info.filename}`],
      { cwd: project, env, maxBuffer: 16 << 20 },
    ),
  );
  installed = (await run('npm', ['ls', '--all', '--parseable'], { cwd: project, env, maxBuffer: 16 << 20 }))
    .stdout;
  bin = join(project, 'node_modules', '.bin', 'rollout-doctor');
}, 240_000);

afterAll(() => {
  console.log(
    `npm-pack: ${Object.entries(timings)
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(', ')}`,
  );
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('packs the compiled command line, the bin and the README; no sources, tests, simulator or source maps', () => {
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'bin/rollout-doctor.js', 'dist/src/cli/main.js']),
    );
    expect(files).toEqual(expect.arrayContaining(['dist/src/app/main.js', 'dist/src/worker/main.js']));
    const unwanted = files.filter(
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

  it('installs without dev dependencies: no tsx, TypeScript or vitest in the tree', () => {
    const names = installed
      .split('\n')
      .filter(Boolean)
      .map((p) => p.split('/node_modules/').at(-1) ?? '');
    expect(names).toContain('rollout-doctor');
    expect(names).toContain('@kubernetes/client-node');
    for (const dev of ['tsx', 'typescript', 'vitest', 'eslint', 'esbuild']) expect(names).not.toContain(dev);
  });

  it('--version and -V print the package version', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await rolloutDoctor([flag]);
      expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('--help lists the commands and exits 0', async () => {
    const result = await rolloutDoctor(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['diagnose', 'scan', 'explain-scheduling', 'apply', 'keygen'])
      expect(result.stdout).toContain(`  ${command} `);
  });

  it('diagnose --from-file finds the surge deadlock in the incident A dump (exit 1, JSON)', async () => {
    const result = await rolloutDoctor([
      'diagnose',
      'deployment/vision-object-tracker',
      '-n',
      'vision',
      '--from-file',
      FIXTURE,
      '-o',
      'json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const diagnosis = JSON.parse(result.stdout) as { findings: { code: string }[] };
    expect(diagnosis.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });

  describe('against a live (simulated) cluster', () => {
    let sim: Simulator | undefined;
    afterAll(async () => {
      await sim?.close();
    });

    it('diagnose loads the Kubernetes client and reads the Deployment', async () => {
      sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
      await sim.settle();
      const kubeconfig = join(dir, 'kubeconfig');
      await sim.writeKubeconfig(kubeconfig);
      const result = await rolloutDoctor([
        'diagnose',
        'deployment/vision-object-tracker',
        '-n',
        'vision',
        '--kubeconfig',
        kubeconfig,
        '-o',
        'json',
      ]);
      expect(result.stderr).not.toContain('internal error');
      expect([0, 1]).toContain(result.code);
      const diagnosis = JSON.parse(result.stdout) as { target: { name: string } };
      expect(diagnosis.target.name).toBe('vision-object-tracker');
    });
  });
});
