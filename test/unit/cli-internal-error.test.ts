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
