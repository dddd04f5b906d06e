/** `npm run sim -- --help` (sim/main.ts): usage on stdout, exit 0; mistakes exit 2 with the usage, no stack. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROLLER_WORDS, startControllers } from '../../sim/controllers/index.js';
import type { ControllerManager } from '../../sim/controllers/manager.js';
import { transpiledEntry } from '../../scripts/transpiled-tree.js';

const sim = (args: string[]) =>
  // sim/main.ts's JavaScript with plain node: what tsx runs, without the loader's seconds of CPU.
  spawnSync(process.execPath, [transpiledEntry('sim/main.ts'), ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('npm run sim -- --help', () => {
  it.each([['--help'], ['-h']])('%s prints the usage and exits 0 without starting a server', (flag) => {
    const run = sim([flag]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run sim -- --scenario FILE/);
    for (const option of ['--port', '--write-kubeconfig', '--time-scale', '--latency-ms'])
      expect(run.stdout).toContain(option);
    // Several scenarios make one cluster (the demo's), and dumps of any kind are taken.
    expect(run.stdout).toContain(
      '--scenario sim/scenarios/gpu-deadlock.yaml --scenario sim/scenarios/crashloop-node.yaml',
    );
    expect(run.stdout).toContain('kubectl get deploy,rs,pods,nodes,events,resourcequotas -A -o yaml');
    expect(run.stdout).not.toContain('simulator serving');
    expect(run.stderr).toBe('');
  });

  it('lists every controller the simulator runs, from the controllers themselves (issue 55)', () => {
    // StatefulSets and DaemonSets were run but left out of the text.
    const started: string[] = [];
    startControllers({
      context: {},
      add: (c: { name: string }) => started.push(c.name),
    } as unknown as ControllerManager);
    expect(Object.keys(CONTROLLER_WORDS).sort()).toEqual([...started].sort());
    const run = sim(['--help']);
    for (const words of Object.values(CONTROLLER_WORDS)) expect(run.stdout).toContain(`  - ${words}`);
    expect(run.stdout).toMatch(/StatefulSets[\s\S]*DaemonSets/);
  });

  it.each([
    ['an unknown option', ['--bogus'], "Unknown option '--bogus'"],
    ['no scenario', [], 'scenario: --scenario FILE is required'],
  ])('exits 2 on %s with one line and the usage', (_name, args, message) => {
    const run = sim(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`sim: ${message}`);
    expect(run.stderr).toContain('Usage: npm run sim');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['an empty file', '# only a comment\n---\n', 'holds no Kubernetes objects'],
    [
      'an unknown kind without apiVersion (its group cannot be told)',
      'kind: Widget\nmetadata: {name: w}\n',
      'Widget "w" has no apiVersion, so its API group is unknown: it cannot be stored',
    ],
    ['an object without a name', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n', 'metadata.name'],
    ['YAML that does not parse', 'kind: [\n', 'scenario YAML:'],
  ])('refuses a scenario that is %s: exit 2, one line, no server', (_name, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-scenario-'));
    try {
      const file = join(dir, 'scenario.yaml');
      writeFileSync(file, text);
      const run = sim(['--scenario', file]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`sim: `);
      expect(run.stderr).toContain(message);
      expect(run.stdout).not.toContain('simulator serving');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a scenario file that does not exist: exit 2', () => {
    const run = sim(['--scenario', '/nonexistent/scenario.yaml']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('cannot read scenario /nonexistent/scenario.yaml: ENOENT');
  });
});
