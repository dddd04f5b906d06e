/**
 * A rollout that goes on by preempting another workload's pod (forward/reconcile.ts,
 * `progressing`): alpha's new pod (priority 1000) needs a GPU; gpu-2's is held by
 * low-c1-z1 of deployment ml/low (priority 0), its only pod. The scheduler preempts it
 * and alpha finishes by itself, but low goes down: the verdict says the cost and never
 * "nothing needs changing". With gpu-2 free, nothing is preempted and nothing is said.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/preempts-other-workload.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-preempts-other-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function diagnose(file: string): Promise<{ status: number; text: string }> {
  const io = fakeIo();
  const status = await runCli(['diagnose', 'deployment/alpha', '-n', 'ml', '--from-file', file], io.io);
  return { status, text: io.stdout() };
}

describe('a rollout that goes on by preempting another workload’s pod', () => {
  it('finishes by itself, and says the pods of other workloads it preempts on the way', async () => {
    const { status, text } = await diagnose(DUMP);
    expect(status).toBe(0);
    expect(text).toContain('will finish by itself once the scheduler preempts low-c1-z1 on gpu-2');
    expect(text).toContain(
      'It preempts pods of other workloads on the way (low-c1-z1): the scheduler deletes them before their replacements have room',
    );
    expect(text).not.toContain('nothing needs changing');
  });

  it('with low-c1-z1 already terminating, nothing is preempted: "nothing needs changing"', async () => {
    type Item = { kind: string; metadata: { name?: string; deletionTimestamp?: string } };
    const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] };
    for (const item of dump.items)
      if (item.kind === 'Pod' && item.metadata.name === 'low-c1-z1')
        item.metadata.deletionTimestamp = '2026-11-22T02:59:50Z';
    const file = join(dir, 'terminating.json');
    writeFileSync(file, JSON.stringify(dump));
    const { status, text } = await diagnose(file);
    expect(status).toBe(0);
    expect(text).toContain('will finish by itself once terminating pod low-c1-z1 is gone');
    expect(text).toContain('nothing needs changing');
    expect(text).not.toContain('preempts pods of other workloads');
  });
});
