/**
 * An OrderedReady StatefulSet whose crash-looping pod is below its partition
 * (db-0, partition 2): the controller keeps and remakes that pod at the current
 * revision (newVersionedStatefulSetPod), so deleting it is no way on for the update and
 * the update has gone as far as the partition lets it. Said as the crash it is, with no
 * "only deleting db-0 lets it be recreated at db-r2". With the partition at 0 the same
 * pod is one the update covers: then deleting it does recreate it at the update revision.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('statefulset-partition-below-crash.json');
const args = ['diagnose', 'statefulset/db', '-n', 'shop', '-o', 'json'];

type Report = { findings: { code: string; summary: string }[]; remediations: { kind: string }[] };

async function report(edit?: (items: DumpItem[]) => DumpItem[]): Promise<Report> {
  return JSON.parse((await dump.cli(args, edit)).stdout) as Report;
}

const partition = (n: number) => (items: DumpItem[]) =>
  items.map((o) =>
    o.kind === 'StatefulSet'
      ? {
          ...o,
          spec: { ...o.spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: n } } },
        }
      : o,
  );

describe('a crash-looping pod below the partition', () => {
  it('is the crash it is: no RolloutStuck asking for its deletion, no delete-pods', async () => {
    const r = await report();
    expect(r.findings.map((f) => f.code)).not.toContain('RolloutStuck');
    expect(r.findings.map((f) => f.summary).join(' ')).not.toContain('recreated at db-r2');
    expect(r.remediations.map((p) => p.kind)).not.toContain('delete-pods');
  });

  it('the same pod with partition 0 holds the update: deleting it recreates it at the update revision', async () => {
    const r = await report(partition(0));
    const stuck = r.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('only deleting db-0 lets it be recreated at db-r2');
  });
});
