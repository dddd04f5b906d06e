/**
 * The command line against a live (simulated) cluster, in-process: diagnose, scan
 * and apply, with their exit statuses and the confirmation rules of apply.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { writeUnreachableKubeconfig } from '../support/unreachable-kubeconfig.js';
import { waitUntil } from '../support/wait.js';

let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-live-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(
  argv: string[],
  options: { tty?: boolean; input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = options.tty ?? false;
  if (options.input !== undefined) stdin.end(options.input);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const io: CliIo = { stdin, stdout, stderr, env: options.env ?? {} };
  const code = await runCli(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** Incident A mid-deadlock; returns the kubeconfig path. */
async function deadlocked(): Promise<string> {
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  const s = sim;
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, s.kubeconfig);
  await s.settle();
  const tracker = (): Deployment => s.get('Deployment', 'vision', 'vision-object-tracker') as Deployment;
  await s.waitFor(() => (tracker().status?.availableReplicas ?? 0) === 1);
  const next = tracker();
  const container = next.spec.template.spec.containers[0];
  if (container) container.image = 'vision/boost-track-app:1.1';
  next.metadata.generation = (next.metadata.generation ?? 1) + 1;
  s.apply(next);
  await s.waitFor(() =>
    (s.list('Event', 'vision') as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );
  return file;
}

const TARGET = ['deployment/vision-object-tracker', '-n', 'vision'];

describe('rollout-doctor against a live cluster', () => {
  it('diagnose finds the deadlock (exit 1), names a missing Deployment (exit 2)', async () => {
    const kubeconfig = await deadlocked();
    const found = await cli(['diagnose', ...TARGET, '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(found.code).toBe(1);
    const json = JSON.parse(found.stdout) as { findings: { code: string }[] };
    expect(json.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    const missing = await cli(['diagnose', 'deployment/nope', '-n', 'vision', '--kubeconfig', kubeconfig]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('deployment "nope" not found in namespace "vision"');
    // A typo gets the closest names, after a full stop.
    const typo = await cli([
      'diagnose',
      'deployment/vison-object-tracker',
      '-n',
      'vision',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'not found in namespace "vision". Did you mean deployment/vision-object-tracker?',
    );
  });

  it('without -n uses the kubeconfig context namespace, as kubectl does', async () => {
    const kubeconfig = await deadlocked();
    const pinned = join(dir, 'kubeconfig-vision');
    writeFileSync(
      pinned,
      readFileSync(kubeconfig, 'utf8').replace('    namespace: default', '    namespace: vision'),
    );
    const scan = await cli(['scan', '--kubeconfig', pinned]);
    expect(scan.code).toBe(1);
    expect(scan.stdout).toContain('vision-object-tracker');
    const found = await cli([
      'diagnose',
      'deployment/vision-object-tracker',
      '--kubeconfig',
      pinned,
      '-o',
      'json',
    ]);
    expect(found.code).toBe(1);
    expect((JSON.parse(found.stdout) as { target: { namespace: string } }).target.namespace).toBe('vision');
    // The context's namespace is only a default: -n still wins, and a dump has no context.
    expect((await cli(['scan', '-n', 'default', '--kubeconfig', pinned])).code).toBe(0);
  });

  it('exits 3 when the cluster is unreachable', async () => {
    const file = join(dir, 'unreachable');
    writeUnreachableKubeconfig(file);
    const scan = await cli(['scan', '-n', 'vision', '--kubeconfig', file]);
    expect(scan.code).toBe(3);
    expect(scan.stderr).toContain('cannot reach the API server at http://127.0.0.1:9');
  });

  it('exits 2, not 3, for a kubeconfig that cannot be read or a context it does not have: bad input, not an outage', async () => {
    const missing = await cli(['scan', '-n', 'vision', '--kubeconfig', join(dir, 'absent')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot load kubeconfig "${join(dir, 'absent')}"`);
    // The file KUBECONFIG names is said, not "the default kubeconfig".
    const named = await cli(['scan', '-n', 'vision'], { env: { KUBECONFIG: join(dir, 'gone') } });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`cannot load the kubeconfig KUBECONFIG names ("${join(dir, 'gone')}")`);
    const file = join(dir, 'one-context');
    writeUnreachableKubeconfig(file);
    const context = await cli(['diagnose', 'web', '-n', 'shop', '--kubeconfig', file, '--context', 'nosuch']);
    expect(context.code).toBe(2);
    expect(context.stderr).toContain('context "nosuch" is not in the kubeconfig');
  });

  it('scan lists the stuck Deployment (exit 1) and rejects -n with -A (exit 2)', async () => {
    const kubeconfig = await deadlocked();
    const scan = await cli(['scan', '-A', '--kubeconfig', kubeconfig]);
    expect(scan.code).toBe(1);
    expect(scan.stdout).toMatch(/STUCK\s+vision\/deployment\/vision-object-tracker\s+RolloutSurgeDeadlock/);
    expect(scan.stderr).toBe('');
    expect((await cli(['scan', '-n', 'a', '-A'])).code).toBe(2);
  });

  it('apply refuses without confirmation when not on a terminal, changing nothing', async () => {
    const kubeconfig = await deadlocked();
    const run = await cli([
      'apply',
      ...TARGET,
      '--remediation',
      'set-rolling-update',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('"maxSurge": 0');
    expect(run.stdout).toContain('Server dry run (dryRun=All) would change:');
    expect(run.stderr).toContain('pass --yes or run on a terminal');
    expect(sim?.requests.filter((r) => r.verb === 'patch' && !r.dryRun)).toEqual([]);
  });

  it('apply asks on a terminal and does nothing on "n"', async () => {
    const kubeconfig = await deadlocked();
    const run = await cli(
      ['apply', ...TARGET, '--remediation', 'set-rolling-update', '--kubeconfig', kubeconfig],
      {
        tty: true,
        input: 'n\n',
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Apply this to deployment/vision-object-tracker in namespace vision? [y/N]');
    expect(run.stdout).toContain('Not applied.');
    expect(sim?.requests.filter((r) => r.verb === 'patch' && !r.dryRun)).toEqual([]);
  });

  it('apply on a terminal applies after "y"', async () => {
    const kubeconfig = await deadlocked();
    const run = await cli(
      ['apply', ...TARGET, '--remediation', 'set-recreate', '--timeout', '20', '--kubeconfig', kubeconfig],
      { tty: true, input: 'y\n' },
    );
    expect(run.stdout).toContain(
      'Applied to deployments/vision-object-tracker in namespace vision (now generation 3):',
    );
    expect(run.stdout).toContain('spec.strategy.type: "RollingUpdate" -> "Recreate"');
    expect(run.code).toBe(0);
    expect(sim?.requests.filter((r) => r.verb === 'patch').map((r) => r.dryRun)).toEqual([true, true, false]);
  });

  it('apply --yes patches, follows the rollout and exits 0 when it completes', async () => {
    const kubeconfig = await deadlocked();
    const run = await cli([
      'apply',
      ...TARGET,
      '--remediation',
      'set-rolling-update',
      '--yes',
      '--timeout',
      '20',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(run.stdout).toContain('Patch (application/strategic-merge-patch+json)');
    expect(run.stdout).toContain('spec.strategy.rollingUpdate.maxSurge: "25%" -> 0');
    expect(run.stdout).toContain('Rollout complete');
    expect(run.code).toBe(0);
  });

  it('apply prints how to undo; undo puts the strategy back once, with the same checks as the Undo button', async () => {
    const kubeconfig = await deadlocked();
    const env = { ROLLOUT_DOCTOR_STATE_DIR: join(dir, 'state') };
    const applied = await cli(
      [
        'apply',
        ...TARGET,
        '--remediation',
        'set-rolling-update',
        '--yes',
        '--timeout',
        '20',
        '--kubeconfig',
        kubeconfig,
      ],
      { env },
    );
    expect(applied.code).toBe(0);
    const id = /To undo: rollout-doctor undo (\S+)/.exec(applied.stdout)?.[1];
    expect(id).toMatch(/^undo-set-rolling-update-[0-9a-f]{16}$/);
    const strategy = () =>
      (sim?.get('Deployment', 'vision', 'vision-object-tracker') as Deployment).spec.strategy;
    expect(strategy()?.rollingUpdate?.maxSurge).toBe(0);

    // Without --yes and no terminal: nothing changes.
    const unconfirmed = await cli(['undo', id ?? '', '--kubeconfig', kubeconfig], { env });
    expect(unconfirmed.code).toBe(2);
    expect(strategy()?.rollingUpdate?.maxSurge).toBe(0);

    const undone = await cli(['undo', id ?? '', '--yes', '--timeout', '20', '--kubeconfig', kubeconfig], {
      env,
    });
    expect(undone.stdout).toContain('spec.strategy.rollingUpdate.maxSurge: 0 -> "25%"');
    expect(undone.code).toBe(0);
    expect(strategy()).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });

    // The same undo again: the Deployment moved on (its generation), so the executor refuses.
    const again = await cli(['undo', id ?? '', '--yes', '--kubeconfig', kubeconfig], { env });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/Not applied \(refused\)|Server dry run: not applicable/);

    // An undo made for another cluster is refused before anything is read or written.
    const elsewhere = join(dir, 'kubeconfig-elsewhere');
    writeFileSync(
      elsewhere,
      readFileSync(kubeconfig, 'utf8').replace(/server: \S+/, 'server: http://127.0.0.1:1'),
    );
    const other = await cli(['undo', id ?? '', '--yes', '--kubeconfig', elsewhere], { env });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('this undo was made for the cluster at');

    const unknown = await cli(['undo', 'set-recreate-0123456789abcdef', '--kubeconfig', kubeconfig], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no undo set-recreate-0123456789abcdef');
  });

  it('apply --remediation ID applies the plan an earlier diagnose printed, restarting at apply time', async () => {
    const kubeconfig = await deadlocked();
    const diagnosed = await cli(['diagnose', ...TARGET, '--kubeconfig', kubeconfig, '-o', 'json']);
    const plans = (JSON.parse(diagnosed.stdout) as { remediations: { id: string; kind: string }[] })
      .remediations;
    const id = plans.find((p) => p.kind === 'set-rolling-update')?.id ?? '';
    expect(id).toMatch(/^set-rolling-update-[0-9a-f]{16}$/);
    // A later diagnosis of the same state, in a later second of the clock, offers the same id.
    const second = Math.floor(Date.now() / 1000);
    await waitUntil('the next second', () => Math.floor(Date.now() / 1000) > second);
    const again = await cli(['diagnose', ...TARGET, '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(
      (JSON.parse(again.stdout) as { remediations: { id: string }[] }).remediations.map((p) => p.id),
    ).toEqual(plans.map((p) => p.id));
    const startedAt = Math.floor(Date.now() / 1000) * 1000;
    const run = await cli([
      'apply',
      ...TARGET,
      '--remediation',
      id,
      '--yes',
      '--timeout',
      '20',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(run.stdout).toContain(`Remediation set-rolling-update (${id})`);
    expect(run.stdout).toContain('"kubectl.kubernetes.io/restartedAt": "$NOW"');
    expect(run.stdout).toContain('Rollout complete');
    expect(run.code).toBe(0);
    const restartedAt =
      (sim?.get('Deployment', 'vision', 'vision-object-tracker') as Deployment).spec.template.metadata
        ?.annotations?.['kubectl.kubernetes.io/restartedAt'] ?? '';
    expect(restartedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(restartedAt)).toBeGreaterThanOrEqual(startedAt);
    expect(Date.parse(restartedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('apply scale-old-replicaset names the ReplicaSet scale it patches and what it scaled, no generation', async () => {
    const kubeconfig = await deadlocked();
    const run = await cli([
      'apply',
      ...TARGET,
      '--remediation',
      'scale-old-replicaset',
      '--yes',
      '--timeout',
      '20',
      '--kubeconfig',
      kubeconfig,
    ]);
    const patched = sim?.requests.filter((r) => r.verb === 'patch' && !r.dryRun) ?? [];
    expect(patched.map((r) => `${r.resource}/${r.subresource ?? ''}`)).toEqual(['replicasets/scale']);
    const rs = patched[0]?.name ?? '?';
    expect(run.stdout).toContain(
      `Patch (application/json-patch+json) to replicasets/${rs}/scale in namespace vision`,
    );
    expect(run.stdout).not.toContain('to deployments/');
    expect(run.stdout).toContain(`Applied: scaled replicasets/${rs} in namespace vision:`);
    expect(run.stdout).toContain(`replicasets/${rs}/spec/replicas: 1 -> 0`);
    expect(run.stdout).not.toMatch(/generation \d/);
    expect(run.code).toBe(0);
  });

  it('apply names the remediations on offer when the one asked for is not', async () => {
    const kubeconfig = await deadlocked();
    const run = await cli([
      'apply',
      ...TARGET,
      '--remediation',
      'exclude-node',
      '--yes',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no remediation "exclude-node".*offered: set-rolling-update/);
  });
});
