/**
 * A refusal the controller no longer acts on is not reported (attack round 12): the quota
 * refused ReplicaSet web-n2's pods, then someone reverted the template to web-o1's.
 * - Not yet observed (generation 3, observedGeneration 2): the next sync makes web-o1
 *   current again and scales web-n2 down, so web-n2's refusal is from before; it was
 *   "QuotaExceeded … no order of replacement fits it".
 * - Observed, web-n2 at 0 replicas with its ReplicaFailure condition still there: the
 *   ReplicaSet controller removes it at its first sync that creates nothing; it was
 *   "QuotaExceeded … cannot create its pods" for a ReplicaSet that wants none.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('quota-refused-then-rolled-back.json');

async function codes(edit?: (items: DumpItem[]) => DumpItem[]): Promise<string[]> {
  const { stdout } = await dump.cli(['diagnose', 'deployment/web', '-n', 'shop', '-o', 'json'], edit);
  return (JSON.parse(stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
}

const edit =
  (name: string, change: (item: DumpItem) => DumpItem) =>
  (items: DumpItem[]): DumpItem[] =>
    items.map((i) => (i.metadata.name === name ? change(i) : i));

const observed = edit('web', (d) => ({ ...d, status: { ...d.status, observedGeneration: 3 } }));
const scaledTo = (replicas: number) => edit('web-n2', (rs) => ({ ...rs, spec: { ...rs.spec, replicas } }));
/** The sync that observed the rollback made web-o1 the newest revision (3). */
const rolledBack = edit('web-o1', (rs) => ({
  ...rs,
  metadata: { ...rs.metadata, annotations: { 'deployment.kubernetes.io/revision': '3' } },
}));

const REFUSED = ['QuotaExceeded', 'RolloutSurgeDeadlock', 'AdmissionDenied'];

describe("a refusal from before the controller's next sync", () => {
  it('rolled back, not yet observed: the refused ReplicaSet goes away, nothing is refused', async () => {
    expect((await codes()).filter((c) => REFUSED.includes(c))).toEqual([]);
  });

  it('the other arm: observed, the refusal of a ReplicaSet that still wants a pod is reported', async () => {
    expect(await codes(observed)).toContain('QuotaExceeded');
  });

  it('observed and scaled to 0: its leftover ReplicaFailure condition refuses nothing', async () => {
    expect(
      (await codes((items) => rolledBack(scaledTo(0)(observed(items))))).filter((c) => REFUSED.includes(c)),
    ).toEqual([]);
  });
});
