/**
 * Every `npm run` script a person starts with options answers `--help` with its usage
 * (exit 0) and refuses an option it does not know with one line and the usage (exit 2),
 * never a stack trace (issue 55: `npm run teams:package -- --help` ended in one). The
 * scripts are read from package.json, so a new one is held to this without editing here.
 * Each is started once (`--help`: its imports load and the usage prints); the refusal is
 * scriptArgs' (tested below), which every script but those with tests of their own uses.
 * A start costs 0.3-2.9 s of CPU, so each script is started once, not once a case.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refuse, scriptArgs } from '../../scripts/script-args.js';
import { transpiledEntry } from '../../scripts/transpiled-tree.js';

/** Scripts whose command line has tests of its own: sim (cli-sim-help), demo (demo.test.ts), cli (cli-*.test.ts). */
const OWN_TESTS = new Set(['sim', 'demo', 'cli']);
/** The processes that serve until stopped (the app, the worker) take their settings from the environment. */
const SERVERS = new Set(['start', 'worker']);

const scripts = Object.entries(
  (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts,
)
  .map(([name, command]) => [name, /^tsx (\S+)$/.exec(command)?.[1]] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined && !SERVERS.has(entry[0]));

function run(
  entry: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The script's JavaScript with plain node: what tsx runs, without the loader's seconds of CPU.
    const child = spawn(process.execPath, [transpiledEntry(entry), ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const STACK = /\n\s+at .+[:(]\d+/;

describe('npm run <script> -- --help', () => {
  it('finds the scripts that take options', () => {
    expect(scripts.map(([name]) => name)).toEqual(
      expect.arrayContaining(['sim', 'demo', 'preview', 'teams:package', 'verify:states', 'bench', 'cli']),
    );
  });

  it.each(scripts.filter(([name]) => !OWN_TESTS.has(name)))(
    '%s prints its usage and exits 0, and reads its options with scriptArgs',
    async (_name, entry) => {
      const result = await run(entry, ['--help']);
      expect(result.stderr, entry).not.toMatch(STACK);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Usage: /);
      expect(readFileSync(entry, 'utf8')).toMatch(/\bscriptArgs\(/);
    },
  );

  // They take no options: --help says where their settings are, instead of starting the service.
  it.each([...SERVERS])('%s answers --help without starting, and refuses an argument', async (name) => {
    const entry = name === 'start' ? 'src/app/main.ts' : 'workers/main.ts';
    const help = await run(entry, ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm (start|run worker)\n[\s\S]*docs\/configuration\.md/);
    const refused = await run(entry, ['--port', '80']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/takes no arguments, got "--port" "80"\n\nUsage: /);
    expect(refused.stderr).not.toMatch(STACK);
  });

  it('a script that reads options its own way fails here until it has its own tests', () => {
    for (const name of OWN_TESTS) expect(scripts.map(([n]) => n)).toContain(name);
  });
});

describe('scriptArgs', () => {
  const seen = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
  };

  it('reads the values, answers --help and -h, refuses the rest with the usage', () => {
    const options = {
      count: { type: 'string', default: '3' },
      json: { type: 'boolean', default: false },
    } as const;
    expect(scriptArgs('x', 'Usage: x\n', options, ['--count', '5'])).toEqual({
      values: { count: '5', json: false },
    });
    for (const help of ['--help', '-h']) {
      const s = seen();
      expect(scriptArgs('x', 'Usage: x\n', options, [help], s.io)).toEqual({ exit: 0 });
      expect(s.out.join('')).toBe('Usage: x\n');
    }
    for (const bad of [['--bogus'], ['stray'], ['--count']]) {
      const s = seen();
      expect(scriptArgs('x', 'Usage: x\n', options, bad, s.io)).toEqual({ exit: 2 });
      expect(s.err.join('')).toMatch(/^x: .+\n\nUsage: x\n$/);
    }
    const s = seen();
    expect(refuse('x', 'Usage: x\n', '--count takes a number', s.io)).toBe(2);
    expect(s.err.join('')).toBe('x: --count takes a number\n\nUsage: x\n');
  });
});
