/**
 * An update under `updateStrategy: OnDelete` waits for someone to delete the old pods
 * (stateful_set_control.go: "Pods will be updated when they are manually deleted"; the
 * DaemonSet controller's rollingUpdate runs only under RollingUpdate). It read "No problem
 * found" with every pod on the old revision: now an info finding (exit 0) names the pods
 * and the order to delete them in, in the reader's language; silent under RollingUpdate
 * (the controller moves it) and where a pinned pod already has its warning.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = { findings: { code: string; severity: string; summary: string; explanation: string }[] };

const sts = fixtureDump('statefulset-ondelete-local-pv.json');
const ds = fixtureDump('daemonset-surge-unreachable-node.json');

/** Every node takes pods again (the fixture cordons l-3, where db-2's volume is). */
const noneCordoned = (items: DumpItem[]): DumpItem[] =>
  items.map((i) => (i.kind === 'Node' ? { ...i, spec: {} } : i));

const strategy = (kind: string, value: Record<string, unknown>) => (items: DumpItem[]) =>
  items.map((i) => (i.kind === kind ? { ...i, spec: { ...i.spec, updateStrategy: value } } : i));

/** nx under OnDelete on three Ready nodes: node-b's pod on the old revision, the others updated. */
const daemonSetOnDelete = (items: DumpItem[]): DumpItem[] =>
  items
    .filter((i) => i.metadata.name !== 'nx-new-b')
    .map((i) => {
      if (i.kind === 'Node' && i.metadata.name === 'node-c') {
        const ready = { type: 'Ready', status: 'True', reason: 'KubeletReady' };
        return { ...i, spec: {}, status: { ...i.status, conditions: [ready] } };
      }
      if (i.kind !== 'DaemonSet') return i;
      const counts = {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberAvailable: 3,
        numberReady: 3,
      };
      return {
        ...i,
        spec: { ...i.spec, updateStrategy: { type: 'OnDelete' } },
        status: { ...i.status, ...counts, updatedNumberScheduled: 2 },
      };
    });

const codes = (report: Report) => report.findings.map((f) => [f.code, f.severity]);

describe('an update that waits for old pods to be deleted (OnDelete)', () => {
  it('a StatefulSet: says so, with every old pod and db-2 first (highest ordinal), exit 0', async () => {
    const { status, stdout } = await sts.cli(
      ['diagnose', 'statefulset/db', '-n', 'data', '-o', 'json'],
      noneCordoned,
    );
    const report = JSON.parse(stdout) as Report;
    expect(codes(report)).toEqual([['RolloutWaitsForDeletion', 'info']]);
    const [wait] = report.findings;
    expect(wait?.summary).toBe(
      'statefulset/db has an update waiting: 3 of 3 pods still run an old revision (db-2, db-1, db-0), and under updateStrategy OnDelete the controller replaces a pod only once someone deletes it. Nothing rolls the update out by itself.',
    );
    expect(wait?.explanation).toContain('from the highest ordinal down');
    expect(wait?.explanation).toContain('db-2 first: `kubectl delete pod db-2 -n data`');
    expect(status).toBe(0);
  });

  it('in Korean', async () => {
    const { stdout } = await sts.cli(
      ['diagnose', 'statefulset/db', '-n', 'data', '--lang', 'ko'],
      noneCordoned,
    );
    const text = stdout.replace(/\s+/g, ' '); // the report wraps its lines
    expect(text).toContain(
      '업데이트가 대기 중입니다. 파드 3개 중 3개(db-2, db-1, db-0)가 아직 이전 리비전으로',
    );
    expect(text).toContain('서수가 큰 것부터 하나씩 삭제하고(먼저 db-2:');
  });

  it('a DaemonSet: node by node, the one pod on the old revision first', async () => {
    const { stdout } = await ds.cli(
      ['diagnose', 'daemonset/nx', '-n', 'mon', '-o', 'json'],
      daemonSetOnDelete,
    );
    const wait = (JSON.parse(stdout) as Report).findings.find((f) => f.code === 'RolloutWaitsForDeletion');
    expect(wait?.summary).toContain('1 of 3 pods still run an old revision (nx-old-b)');
    expect(wait?.explanation).toContain('node by node (nx-old-b first');
  });

  it('silent under RollingUpdate (the controller replaces them) and beside a pinned pod’s warning', async () => {
    const rolling = strategy('StatefulSet', { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    const moving = await sts.cli(['diagnose', 'statefulset/db', '-n', 'data', '-o', 'json'], (items) =>
      rolling(noneCordoned(items)),
    );
    expect(codes(JSON.parse(moving.stdout) as Report)).not.toContainEqual([
      'RolloutWaitsForDeletion',
      'info',
    ]);
    const pinned = await sts.cli(['diagnose', 'statefulset/db', '-n', 'data', '-o', 'json']);
    expect(codes(JSON.parse(pinned.stdout) as Report)).toEqual([['RolloutAtRisk', 'warning']]);
  });
});
