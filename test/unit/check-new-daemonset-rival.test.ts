/**
 * A DaemonSet the change creates makes one pod on every node it selects, and those pods
 * wait for the same room as the other objects' new pods (check/change-pods.ts, `perNode`;
 * forward/rivals.ts pins one to each node). agent (1200m a node, new) beside web's update
 * to 1000m a pod on two 2-cpu nodes: both cannot finish, yet web read "will finish" with
 * exit 0, the DaemonSet's pods not counted. With a small agent (100m) both fit.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump } from '../support/fixture-dump.js';

type Result = { target: { name: string }; verdict: string };

const dump = fixtureDump('check-new-daemonset-rival.json');
const manifestPath = join(
  import.meta.dirname,
  '../fixtures/dumps',
  'check-new-daemonset-rival-manifest.json',
);

/** The manifest with the DaemonSet's cpu request set to `cpu`. */
function manifestWithAgent(cpu: string): string {
  const text = readFileSync(manifestPath, 'utf8').replace('"1200m"', JSON.stringify(cpu));
  const path = join(mkdtempSync(join(tmpdir(), 'rd-ds-rival-')), 'manifest.json');
  writeFileSync(path, text);
  return path;
}

async function check(manifest: string): Promise<{ status: number; web?: Result }> {
  const { status, stdout } = await dump.cli(['check', '-f', manifest, '-o', 'json']);
  const { results } = JSON.parse(stdout) as { results: Result[] };
  return { status, web: results.find((r) => r.target.name === 'web') };
}

describe("a new DaemonSet's pods in the same change", () => {
  it('count against the update beside them: web does not "finish"', async () => {
    expect(readFileSync(manifestPath, 'utf8')).toContain('"1200m"');
    const { status, web } = await check(manifestPath);
    expect(web?.verdict).not.toBe('finishes');
    expect(status).not.toBe(0);
  });

  it('leave it to finish where they take little', async () => {
    const { status, web } = await check(manifestWithAgent('100m'));
    expect(web?.verdict).toBe('finishes');
    expect(status).toBe(0);
  });
});
