import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** CI sets CI (GitHub Actions, GitLab and .ci/run all do); there a missing tool is a failure. */
export const onCI = Boolean(process.env['CI']);

export function hasBinary(name: string): boolean {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', name], { stdio: 'ignore' }).status === 0;
}

/**
 * Whether the test file can drive `name` for real. Tests never install anything:
 * .ci/run does. Under CI a missing binary throws at import, so the file fails loudly
 * instead of turning green with nothing run; on a developer machine without it the
 * file's tests are skipped and this says why (README, Development).
 */
export function requireBinary(name: string, installHint: string): boolean {
  return requireTool(name, hasBinary(name), installHint);
}

/** requireBinary for a tool that is a file (a library to preload, not a command). */
export function requireFile(path: string, installHint: string): boolean {
  return requireTool(path, existsSync(path), installHint);
}

function requireTool(name: string, present: boolean, installHint: string): boolean {
  if (present) return true;
  const message = `${name} is not installed (${installHint})`;
  if (onCI) throw new Error(`${message}; CI must provide it (.ci/run installs it)`);
  console.warn(`skipping the tests that need ${name}: ${message}`);
  return false;
}
