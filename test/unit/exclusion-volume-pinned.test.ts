/**
 * db-1 crash-loops on node-a, and its claim is bound to a local volume that only node-a
 * may use (attack round 14). Excluding node-a leaves its replacement Pending for good
 * (volume node affinity conflict), and deleting it brings it back to node-a, to the same
 * crash: neither plan is offered, and each says why. With the volume free to move (no
 * node affinity) both are offered as before.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit } from '../support/fixture-dump.js';

const dump = fixtureDump('statefulset-local-pv-crash.json');

type Report = {
  remediations: { kind: string }[];
  notOffered?: { kind: string; reason: string }[];
};

const diagnose = async (edit?: DumpEdit): Promise<Report> =>
  JSON.parse(
    (await dump.cli(['diagnose', 'statefulset/db', '-n', 'data', '-o', 'json'], edit)).stdout,
  ) as Report;

/** Every volume without node affinity: a network disk any node may attach. */
const unpinned: DumpEdit = (items) =>
  items.map((i) => {
    if (i.kind !== 'PersistentVolume') return i;
    const { nodeAffinity: _gone, ...spec } = i.spec as Record<string, unknown>;
    return { ...i, spec };
  });

describe('a crash-looping pod its local volume holds to the crashing node', () => {
  it('offers neither the exclusion nor the deletion, and says why', async () => {
    const report = await diagnose();
    expect(report.remediations).toEqual([]);
    const reasons = new Map((report.notOffered ?? []).map((n) => [n.kind, n.reason]));
    expect(reasons.get('exclude-node')).toContain(
      'db-1 mounts volume local-pv-1, which no node left after the exclusion may use',
    );
    expect(reasons.get('delete-pods')).toContain('its replacement comes back there, to the same crash');
  });

  it('the other arm: a volume any node may use, and both plans are offered', async () => {
    const report = await diagnose(unpinned);
    expect(report.remediations.map((p) => p.kind)).toEqual(['exclude-node', 'delete-pods']);
  });
});
