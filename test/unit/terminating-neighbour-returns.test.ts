/**
 * A neighbour's terminating pod frees its room for good only where its controller does
 * not make it again (forward/rivals.ts): a StatefulSet's pod comes back under its name, a
 * DaemonSet's on its node, and the replacement competes for the room as a rival. Here
 * vecdb-0 (StatefulSet, priority 100000, pinned to gpu-2) terminates on the only node
 * alpha's new pod may use: it comes back first and takes the GPU, so the rollout never
 * finishes. Owned by a ReplicaSet instead (a scale-down), the same pod leaves and the
 * rollout goes on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/terminating-statefulset-neighbour.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-returning-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = { kind: string; metadata: { name?: string; ownerReferences?: { kind: string; name: string }[] } };

async function diagnose(file: string): Promise<{ status: number; codes: string[] }> {
  const io = fakeIo();
  const status = await runCli(
    ['diagnose', 'deployment/alpha', '-n', 'ml', '--from-file', file, '-o', 'json'],
    io.io,
  );
  const report = JSON.parse(io.stdout()) as { findings: { code: string; severity: string }[] };
  return { status, codes: report.findings.filter((f) => f.severity !== 'info').map((f) => f.code) };
}

describe("a neighbour's terminating pod", () => {
  it('of a StatefulSet comes back and takes the room first: the rollout never finishes', async () => {
    const { status, codes } = await diagnose(DUMP);
    expect(codes.length).toBeGreaterThan(0);
    expect(status).toBe(1);
  });

  it('of a ReplicaSet leaves: the rollout finishes once it is gone', async () => {
    const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] };
    for (const item of dump.items)
      if (item.kind === 'Pod' && item.metadata.name === 'vecdb-0')
        item.metadata.ownerReferences = [
          { ...item.metadata.ownerReferences?.[0], kind: 'ReplicaSet', name: 'vecdb-5f6d7c' } as never,
        ];
    const file = join(dir, 'replicaset-neighbour.json');
    writeFileSync(file, JSON.stringify(dump));
    const { status, codes } = await diagnose(file);
    expect(codes).toEqual([]);
    expect(status).toBe(0);
  });
});
