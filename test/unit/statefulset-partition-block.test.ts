/**
 * An OrderedReady StatefulSet whose crash-looping pod is below its partition
 * (db-0, partition 2): the controller keeps and remakes that pod at the current
 * revision (newVersionedStatefulSetPod), so deleting it is no way on for the update.
 * Where every pod at or above the partition is updated, the update has gone as far as
 * the partition lets it: said as the crash it is, with no "only deleting db-0 lets it be
 * recreated at db-r2". Where one is not (db-3 at 4 replicas), the monotonic walk returns
 * at db-0 before the update loop (updateStatefulSet, processReplica) and db-3 is never
 * updated: RolloutStuck, with no deletion offered. With the partition at 0 the same pod
 * is one the update covers: then deleting it does recreate it at the update revision.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('statefulset-partition-below-crash.json');
const args = ['diagnose', 'statefulset/db', '-n', 'shop', '-o', 'json'];

type Report = {
  findings: { code: string; summary: string; explanation: string }[];
  remediations: { kind: string }[];
};

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

/** A fourth replica, db-3, still at the current revision db-r1 (a copy of db-1). */
const fourReplicas = (items: DumpItem[]): DumpItem[] => {
  const db1 = items.find((o) => o.kind === 'Pod' && o.metadata?.name === 'db-1') as DumpItem;
  const labels = {
    ...(db1.metadata['labels'] as Record<string, string>),
    'statefulset.kubernetes.io/pod-name': 'db-3',
    'apps.kubernetes.io/pod-index': '3',
  };
  const db3 = { ...db1, metadata: { ...db1.metadata, name: 'db-3', uid: 'p-db-3', labels } };
  return [
    ...items.map((o) =>
      o.kind === 'StatefulSet'
        ? {
            ...o,
            spec: { ...o.spec, replicas: 4 },
            status: { ...o.status, replicas: 4, currentReplicas: 3 },
          }
        : o,
    ),
    db3,
  ];
};

describe('a crash-looping pod below the partition', () => {
  it('is the crash it is: no RolloutStuck asking for its deletion, no delete-pods', async () => {
    const r = await report();
    expect(r.findings.map((f) => f.code)).not.toContain('RolloutStuck');
    expect(r.findings.map((f) => f.summary).join(' ')).not.toContain('recreated at db-r2');
    expect(r.remediations.map((p) => p.kind)).not.toContain('delete-pods');
  });

  it('holds the pods at or above the partition not yet updated: RolloutStuck naming db-3, no deletion offered', async () => {
    const r = await report(fourReplicas);
    const stuck = r.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('held at pod db-0, below the partition (2)');
    expect(stuck?.summary).toContain('db-3 is never updated to db-r2');
    expect(r.remediations.map((p) => p.kind)).not.toContain('delete-pods');
  });

  it('where it runs another revision than the current one, a deletion is the way on: said so', async () => {
    // The template was changed again (current and update revision db-r3): db-0 (db-r1) is
    // recreated at db-r3 once deleted.
    const r = await report((items) =>
      fourReplicas(items).map((o) =>
        o.kind === 'StatefulSet'
          ? { ...o, status: { ...o.status, currentRevision: 'db-r3', updateRevision: 'db-r3' } }
          : o,
      ),
    );
    const stuck = r.findings.find((f) => f.code === 'RolloutStuck') as {
      summary: string;
      explanation: string;
    };
    expect(stuck.summary).toContain('runs revision db-r1 (the current revision is db-r3)');
    expect(stuck.explanation).toContain('A deletion recreates db-0 at the current revision db-r3');
  });

  it('a pod below the partition that is only starting holds nothing for good: no RolloutStuck', async () => {
    const r = await report((items) =>
      fourReplicas(items).map((o) =>
        o.kind === 'Pod' && o.metadata.name === 'db-0'
          ? {
              ...o,
              status: {
                ...o.status,
                phase: 'Pending',
                conditions: [{ type: 'PodScheduled', status: 'True' }],
                containerStatuses: [
                  {
                    name: 'app',
                    ready: false,
                    restartCount: 0,
                    state: { waiting: { reason: 'ContainerCreating' } },
                  },
                ],
              },
            }
          : o,
      ),
    );
    expect(r.findings.map((f) => f.code)).not.toContain('RolloutStuck');
  });

  it('with Parallel the walk does not stop at it: db-3 is updated all the same, no RolloutStuck', async () => {
    const r = await report((items) =>
      fourReplicas(items).map((o) =>
        o.kind === 'StatefulSet' ? { ...o, spec: { ...o.spec, podManagementPolicy: 'Parallel' } } : o,
      ),
    );
    expect(r.findings.map((f) => f.code)).not.toContain('RolloutStuck');
  });

  it('the same pod with partition 0 holds the update: deleting it recreates it at the update revision', async () => {
    const r = await report(partition(0));
    const stuck = r.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('only deleting db-0 lets it be recreated at db-r2');
  });
});
