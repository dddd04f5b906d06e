/**
 * A pod stuck terminating (its node lost) stops being charged by a ResourceQuota once its
 * deletion's grace period is over (pkg/quota/v1/evaluator/core/pods.go QuotaV1Pod: "if pods
 * are stuck terminating … we do not want to charge the user for that pod in quota"); only
 * `count/pods` counts every pod object. web (maxSurge 1, maxUnavailable 0) was refused its
 * surge pod by quota compute (pods 3 of 3) while old pod web-o1-c was stuck terminating past
 * its 30 s grace: it read "can never finish" and offered an outage plan, where the quota
 * controller's next recount admits the surge pod and the rollout finishes by itself.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = {
  findings: { code: string; severity: string; evidence: { type: string; text?: string }[] }[];
  remediations: { kind: string }[];
};

const dump = fixtureDump('quota-stuck-terminating.json');
const args = ['diagnose', 'deployment/web', '-n', 'shop', '-o', 'json'];

const diagnose = async (edit?: (items: DumpItem[]) => DumpItem[]) => {
  const { status, stdout } = await dump.cli(args, edit);
  return { status, report: JSON.parse(stdout) as Report };
};

/** The same quota on `count/pods`, which counts every pod object, terminating or not. */
const countPods = (items: DumpItem[]): DumpItem[] =>
  JSON.parse(
    JSON.stringify(items).replaceAll('"pods":"3"', '"count/pods":"3"').replaceAll('pods=', 'count/pods='),
  ) as DumpItem[];

/** web-o1-c's grace period not in the dump: QuotaV1Pod charges it. */
const graceUnread = (items: DumpItem[]): DumpItem[] =>
  items.map((i) =>
    i.metadata.name === 'web-o1-c'
      ? { ...i, metadata: { ...i.metadata, deletionGracePeriodSeconds: undefined } }
      : i,
  );

const codes = (report: Report) => report.findings.map((f) => [f.code, f.severity]);

describe('a pod stuck terminating past its grace period, and the quota', () => {
  it('no longer charges it: the rollout moves once the quota recounts, and no plan is offered', async () => {
    const { status, report } = await diagnose();
    expect(codes(report)).toEqual([['RolloutProgressing', 'info']]);
    expect(report.remediations).toEqual([]);
    const notes = report.findings.flatMap((f) => f.evidence.map((e) => e.text ?? ''));
    expect(notes.some((t) => t.startsWith('The quota stops charging web-o1-c: stuck terminating'))).toBe(
      true,
    );
    expect(status).toBe(0);
  });

  it("with only the namespace's pods read (enough for its quota) it is no deadlock either", async () => {
    const ownNamespace = (items: DumpItem[]) =>
      items.filter((i) => i.kind !== 'Pod' || i.metadata.namespace === 'shop');
    const { report } = await diagnose(ownNamespace);
    expect(codes(report)).not.toContainEqual(['RolloutSurgeDeadlock', 'critical']);
    expect(report.remediations).toEqual([]);
    // count/pods charges it still: there the deadlock stands on the namespace's pods alone.
    const counted = await diagnose((items) => countPods(ownNamespace(items)));
    expect(codes(counted.report)).toContainEqual(['RolloutSurgeDeadlock', 'critical']);
  });

  it('count/pods still counts it: the surge deadlock stands', async () => {
    const { report } = await diagnose(countPods);
    expect(codes(report)).toContainEqual(['RolloutSurgeDeadlock', 'critical']);
  });

  it('without its grace period read, it is charged as before', async () => {
    const { report } = await diagnose(graceUnread);
    expect(codes(report)).toContainEqual(['RolloutSurgeDeadlock', 'critical']);
  });
});
