/**
 * A StatefulSet pod whose local volume sits on a cordoned node (db-2 on l-3) can never take
 * the update: its replacement keeps the claim, and no node takes it. What that means depends
 * on how the controller replaces pods (stateful_set_control.go):
 * - OnDelete: the controller replaces nothing by itself, so nothing is stuck until someone
 *   deletes db-2; it used to read "can never finish … the rollout moves until it reaches db-2";
 * - RollingUpdate: from the highest ordinal down, so db-2 is next, and a pinned db-0 comes
 *   after db-2 and db-1 (it used to say "moves until it reaches" whatever the order).
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('statefulset-ondelete-local-pv.json');

type Item = DumpItem;
type Report = { findings: { code: string; severity: string; summary: string; explanation: string }[] };

async function diagnose(edit?: DumpEdit): Promise<{ status: number; report: Report }> {
  const { status, stdout } = await dump.cli(['diagnose', 'statefulset/db', '-n', 'data', '-o', 'json'], edit);
  return { status, report: JSON.parse(stdout) as Report };
}

const rollingUpdate = (items: Item[]): Item[] =>
  items.map((i) =>
    i.kind === 'StatefulSet'
      ? {
          ...i,
          spec: { ...i.spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } },
        }
      : i,
  );

/** l-3 serves again and l-1 (db-0's volume) is cordoned instead. */
const pinnedDb0 = (items: Item[]): Item[] =>
  items.map((i) => {
    if (i.kind !== 'Node') return i;
    if (i.metadata.name === 'l-3') return { ...i, spec: {} };
    if (i.metadata.name === 'l-1')
      return {
        ...i,
        spec: {
          unschedulable: true,
          taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
        },
      };
    return i;
  });

describe('a StatefulSet pod pinned by its local volume to a cordoned node', () => {
  it('under OnDelete: nothing is stuck yet; deleting db-2 for the update would leave it Pending for good', async () => {
    const { status, report } = await diagnose();
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([['RolloutAtRisk', 'warning']]);
    const [risk] = report.findings;
    expect(risk?.summary).toContain('Its update waits for someone to delete it (OnDelete)');
    expect(risk?.explanation).toContain(
      'Do not delete db-2 for the update before its volume has a node again',
    );
    expect(risk?.summary).not.toContain('can never finish');
    expect(status).toBe(1);
  });

  it('under RollingUpdate: db-2 has the highest ordinal, so it is next, and the rollout can never finish', async () => {
    const { status, report } = await diagnose(rollingUpdate);
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.severity).toBe('critical');
    expect(stuck?.summary).toContain('pod db-2 still runs the old revision');
    expect(stuck?.explanation).toContain(
      'The controller replaces pods from the highest ordinal down, and db-2 is next',
    );
    expect(status).toBe(1);
  });

  it('under RollingUpdate with db-0 pinned: db-2 and db-1 are replaced first, then db-0 stops it', async () => {
    const { report } = await diagnose((items) => pinnedDb0(rollingUpdate(items)));
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('pod db-0 still runs the old revision');
    expect(stuck?.explanation).toContain('from the highest ordinal down: db-2, db-1 first, then db-0');
  });

  it('numbered from spec.ordinals.start 5 (db-5..db-7): db-7 is the third pod, kept, and stops the rollout', async () => {
    /** The same set numbered from 5: every name and claim db-N becomes db-(N+5). */
    const renumbered = (items: Item[]): Item[] =>
      JSON.parse(
        JSON.stringify(rollingUpdate(items)).replace(
          /\bdb-([0-2])\b/g,
          (_, n: string) => `db-${Number(n) + 5}`,
        ),
      ) as Item[];
    const startAt5 = (items: Item[]): Item[] =>
      renumbered(items).map((i) =>
        i.kind === 'StatefulSet' ? { ...i, spec: { ...i.spec, ordinals: { start: 5 } } } : i,
      );
    const { report } = await diagnose(startAt5);
    expect(report.findings.find((f) => f.code === 'RolloutStuck')?.summary).toContain(
      'pod db-7 still runs the old revision',
    );
    // The other arm: the same names without the start are ordinals 5..7 of a 3-replica set, all condemned.
    const { report: condemned } = await diagnose(renumbered);
    expect(condemned.findings.map((f) => f.code)).not.toContain('RolloutStuck');
  });

  it('scaled below db-2: the controller deletes db-2 for good (condemned), it never replaces it', async () => {
    const scaled = (to: number) => (items: Item[]) =>
      rollingUpdate(items).map((i) =>
        i.kind === 'StatefulSet' ? { ...i, spec: { ...i.spec, replicas: to } } : i,
      );
    for (const to of [2, 0]) {
      const { report } = await diagnose(scaled(to));
      expect(report.findings.map((f) => f.code)).not.toContain('RolloutStuck');
      expect(JSON.stringify(report)).not.toContain('db-2 still runs the old revision');
    }
    // The other arm: at 3 replicas db-2 stays, and is the one that stops it.
    const { report } = await diagnose(scaled(3));
    expect(report.findings.find((f) => f.code === 'RolloutStuck')?.summary).toContain('pod db-2');
  });
});
