/** Long dump reads show progress on a terminal: stderr only, never in -o json or when piped. */
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { PROGRESS_MIN_CHARACTERS } from '../../src/cli/progress.js';
import { runCli } from '../../src/cli/run-cli.js';

const fixture = readFileSync('test/fixtures/dumps/incident-a-gpu-surge.yaml', 'utf8');
/** The incident A List repeated (the same objects: one object each) past the progress threshold. */
const big = Array.from(
  { length: Math.ceil(PROGRESS_MIN_CHARACTERS / fixture.length) + 1 },
  () => fixture,
).join('---\n');
const small = fixture;

function io(stdin: string, tty: { stdout: boolean; stderr: boolean }) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[], isTTY: boolean) =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          chunks.push(chunk.toString());
          done();
        },
      }),
      { isTTY },
    );
  const cli: CliIo = {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: sink(out, tty.stdout),
    stderr: sink(err, tty.stderr),
    env: {},
  };
  return { cli, stdout: () => out.join(''), stderr: () => err.join('') };
}

const DIAGNOSE = ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', '-'];
const terminal = { stdout: true, stderr: true };

describe('dump progress', () => {
  it('on a terminal, a large dump shows its percentage on stderr, rising to 100%, then erases it', async () => {
    const run = io(big, terminal);
    expect(await runCli(DIAGNOSE, run.cli)).toBe(1);
    const shown = [...run.stderr().matchAll(/\rreading stdin \((\d+) MB\): (\d+)%/g)];
    expect(shown.length).toBeGreaterThan(5);
    expect(shown[0]?.[1]).toBe(String(Math.round(big.length / (1 << 20))));
    const percents = shown.map((m) => Number(m[2]));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expect(run.stderr().endsWith('\r\u001b[K')).toBe(true);
    expect(run.stdout()).toContain('RolloutSurgeDeadlock');
    expect(run.stdout()).not.toContain('reading stdin');
  });

  it('scan shows it too', async () => {
    const run = io(big, terminal);
    await runCli(['scan', '-n', 'vision', '--from-file', '-'], run.cli);
    expect(run.stderr()).toMatch(/\rreading stdin \(\d+ MB\): 100%/);
  });

  it.each([
    ['-o json', [...DIAGNOSE, '-o', 'json'], terminal, big],
    ['stdout piped', DIAGNOSE, { stdout: false, stderr: true }, big],
    ['stderr piped', DIAGNOSE, { stdout: true, stderr: false }, big],
    ['a small dump', DIAGNOSE, terminal, small],
  ] as const)('nothing with %s', async (_case, argv, tty, dump) => {
    const run = io(dump, tty);
    expect(await runCli([...argv], run.cli)).toBe(1);
    expect(run.stderr()).toBe('');
  });
});
