import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeIo } from '../support/cli-io.js';

describe('rollout-doctor on an internal error', () => {
  afterEach(() => {
    vi.doUnmock('../../src/cli/commands/explain-scheduling.js');
    vi.resetModules();
  });

  it('exits 4 with one clean line, never 1 ("problems found") or a stack', async () => {
    vi.doMock('../../src/cli/commands/explain-scheduling.js', () => ({
      run: () => {
        throw new TypeError('cannot read x of undefined\n    at analyzer (evil \u001b]52;c;aGk=\u0007)');
      },
    }));
    const { runCli } = await import('../../src/cli/run-cli.js');
    const run = fakeIo();
    expect(await runCli(['explain-scheduling'], run.io)).toBe(4);
    expect(run.stderr()).toBe(
      'rollout-doctor explain-scheduling: internal error (a bug, please report it): TypeError: cannot read x of undefined\n',
    );
  });
});

describe('rollout-doctor on a usage or cluster error whose message quotes raw text', () => {
  afterEach(() => {
    vi.doUnmock('../../src/cli/commands/explain-scheduling.js');
    vi.resetModules();
  });

  it.each([
    { kind: 'usage', exit: 2 },
    { kind: 'cluster', exit: 3 },
  ])('$kind: one line, controls shown as escapes, at most 500 characters of it', async ({ kind, exit }) => {
    const raw = `bad \u001b]52;c;aGk=\u0007value\nsecond line ${'x'.repeat(2000)}`;
    const { UsageError } = await import('../../src/cli/io.js');
    const { ClusterError } = await import('../../src/kube/errors.js');
    vi.doMock('../../src/cli/commands/explain-scheduling.js', () => ({
      run: () => {
        throw kind === 'usage' ? new UsageError(raw) : new ClusterError(raw);
      },
    }));
    const { runCli } = await import('../../src/cli/run-cli.js');
    const run = fakeIo();
    expect(await runCli(['explain-scheduling'], run.io)).toBe(exit);
    const out = run.stderr();
    expect(out.endsWith('\n')).toBe(true);
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(out).toContain('bad \\u001b]52;c;aGk=\\u0007value\\nsecond line xxx');
    expect(out.trimEnd()).toMatch(/… \(\d+ more characters\)$/);
    expect(out.length).toBeLessThan(600);
  });
});

describe('rollout-doctor on an error nothing awaited', () => {
  function fakeProcess(exitCode?: number) {
    const listeners = new Map<string, (error: unknown) => void>();
    const exits: number[] = [];
    let stderr = '';
    const proc = {
      exitCode,
      on: (event: string, listener: (error: unknown) => void) => listeners.set(event, listener),
      exit: (code: number): never => {
        exits.push(code);
        return undefined as never;
      },
      stderr: { write: (text: string) => (stderr += text) },
    };
    return { proc, listeners, exits, stderr: () => stderr };
  }

  it.each(['uncaughtException', 'unhandledRejection'])('%s exits 4 with one clean line', async (event) => {
    const { exitFourOnStrayErrors } = await import('../../src/cli/stray-errors.js');
    const fake = fakeProcess();
    exitFourOnStrayErrors(fake.proc, 'diagnose');
    fake.listeners.get(event)?.(
      new TypeError("Cannot read properties of undefined (reading 'bind')\n    at x"),
    );
    expect(fake.exits).toEqual([4]);
    expect(fake.stderr()).toBe(
      "rollout-doctor diagnose: internal error (a bug, please report it): TypeError: Cannot read properties of undefined (reading 'bind')\n",
    );
  });

  it('does not print the line twice when the command already reported the bug', async () => {
    const { exitFourOnStrayErrors } = await import('../../src/cli/stray-errors.js');
    const fake = fakeProcess(4);
    exitFourOnStrayErrors(fake.proc, 'scan');
    fake.listeners.get('uncaughtException')?.(new Error('again'));
    expect(fake.exits).toEqual([4]);
    expect(fake.stderr()).toBe('');
  });
});
