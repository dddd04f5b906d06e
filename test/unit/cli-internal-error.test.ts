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
