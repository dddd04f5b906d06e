/**
 * A check that throws is a bug, and its silence is not an all clear: with no finding
 * the report says "No verdict" and the CLI exits 4, never "No problem found" and 0.
 */
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

vi.mock('../../src/diagnosis/analyzers/index.js', () => ({
  analyzers: [
    {
      name: 'always-throws',
      analyze: () => {
        throw new Error('cannot read properties of undefined');
      },
    },
  ],
}));

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const argv = ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', FIXTURE];

describe('an analyzer that throws', () => {
  it('text: "No verdict", the failed check named, exit 4', async () => {
    const run = fakeIo();
    const status = await runCli(argv, run.io);
    expect(status).toBe(4);
    expect(run.stdout()).not.toContain('No problem found');
    expect(run.stdout()).toContain('No verdict: some checks failed');
    expect(run.stdout()).toContain('always-throws: cannot read properties of undefined');
  });

  it('json: problemsFound false but the error is listed, exit 4', async () => {
    const run = fakeIo();
    const status = await runCli([...argv, '-o', 'json'], run.io);
    expect(status).toBe(4);
    const json = JSON.parse(run.stdout()) as { analyzerErrors: { analyzer: string }[] };
    expect(json.analyzerErrors.map((e) => e.analyzer)).toEqual(['always-throws']);
  });
});
