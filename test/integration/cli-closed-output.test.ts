/**
 * A reader that goes away (`rollout-doctor … | head -1`) is not an internal error: the
 * command ends with the status it would have had, and prints no "internal error" line
 * (src/cli/stray-errors.ts, dropOutputToClosedReaders). The real command line, in a process
 * of its own, with its stdout's reading end closed before it writes anything.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { transpiledEntry } from '../../scripts/transpiled-tree.js';
import { dropOutputToClosedReaders } from '../../src/cli/stray-errors.js';

const MESSAGE = '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n';

function runCli(
  args: string[],
  options: { closeStdout: boolean; stdin?: string },
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [transpiledEntry('src/cli/main.ts'), ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.resume();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

describe('rollout-doctor writing to a reader that went away', () => {
  it.each([
    { what: '--help', args: ['--help'] },
    { what: 'a usage error (exit 2)', args: ['diagnose'] },
    { what: 'explain-scheduling on stdin', args: ['explain-scheduling'], stdin: MESSAGE },
  ])('$what ends with its own status and no internal error', async ({ args, stdin }) => {
    const open = await runCli(args, { closeStdout: false, ...(stdin ? { stdin } : {}) });
    const closed = await runCli(args, { closeStdout: true, ...(stdin ? { stdin } : {}) });
    expect(closed.code).toBe(open.code);
    expect(closed.code).not.toBe(4);
    expect(closed.stderr).not.toMatch(/internal error/);
    expect(closed.stderr).toBe(open.stderr);
  });

  it('keeps any other output error an internal error (thrown: exit 4)', () => {
    const stream = new EventEmitter();
    dropOutputToClosedReaders(stream);
    expect(() =>
      stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    ).not.toThrow();
    const full = Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' });
    expect(() => stream.emit('error', full)).toThrow(full);
  });
});
