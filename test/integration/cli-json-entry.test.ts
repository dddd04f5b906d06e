/**
 * `-o json` piped to jq: `npm run cli` prints npm's "> rollout-doctor@… cli" banner on
 * stdout, so the README gives `npx rollout-doctor` (the package's own bin) and
 * `npm run -s cli` for scripts. Both must print nothing on stdout but the JSON.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ARGS = [
  'diagnose',
  'deployment/vision-object-tracker',
  '-n',
  'vision',
  '--from-file',
  'test/fixtures/dumps/incident-a-gpu-surge.yaml',
  '-o',
  'json',
];

function stdoutOf(command: string, args: string[]): string {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000 });
  // exit 1: a problem was found, as DESIGN.md §3 says for a deadlock
  expect(run.status).toBe(1);
  return run.stdout;
}

describe('a clean JSON entry for scripts (issue 31.4)', () => {
  it('npx rollout-doctor … -o json prints only the JSON document', () => {
    const json = JSON.parse(stdoutOf('npx', ['rollout-doctor', ...ARGS])) as { findings: { code: string }[] };
    expect(json.findings[0]?.code).toBe('RolloutSurgeDeadlock');
  });

  it('npm run -s cli -- … -o json prints only the JSON document; without -s the banner breaks it', () => {
    expect(() => JSON.parse(stdoutOf('npm', ['run', '-s', 'cli', '--', ...ARGS]))).not.toThrow();
    expect(() => JSON.parse(stdoutOf('npm', ['run', 'cli', '--', ...ARGS]))).toThrow();
  });
});
