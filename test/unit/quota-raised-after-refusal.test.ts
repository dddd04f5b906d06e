/**
 * A quota refusal is read at the quota's limit as it stands now. The ReplicaSet
 * controller retries a refused create, and quota admission checks the quota's current
 * hard limit: a refusal `limited: pods=2` seen before someone raised the quota to 3 no
 * longer holds. It was read at the refusal's 2 (attack round 12): a surge deadlock, with
 * scaling the old ReplicaSet to 0 (a full outage) as the first fix.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('quota-raised-after-refusal.json');

type Report = { findings: { code: string }[]; remediations: { kind: string }[] };

async function diagnose(edit?: (items: DumpItem[]) => DumpItem[]) {
  const { status, stdout } = await dump.cli(['diagnose', 'deployment/web', '-n', 'shop', '-o', 'json'], edit);
  const report = JSON.parse(stdout) as Report;
  return { status, codes: report.findings.map((f) => f.code), plans: report.remediations.map((p) => p.kind) };
}

const quotaAt = (pods: string | undefined) => (items: DumpItem[]) =>
  items.flatMap((i) => {
    if (i.kind !== 'ResourceQuota') return [i];
    // Deleted: the namespace's quotas read, and another one left that limits no pods.
    if (pods === undefined)
      return [
        {
          ...i,
          metadata: { ...i.metadata, name: 'storage' },
          spec: { hard: { 'requests.storage': '10Gi' } },
          status: { hard: { 'requests.storage': '10Gi' }, used: { 'requests.storage': '0' } },
        },
      ];
    return [{ ...i, spec: { hard: { pods } }, status: { hard: { pods }, used: { pods: '2' } } }];
  });

describe('a quota raised since it refused the new pods', () => {
  it('raised to 3: the retry is admitted, the rollout moves, nothing to fix', async () => {
    const { status, codes, plans } = await diagnose();
    expect(codes).toEqual(['RolloutProgressing']);
    expect(plans).toEqual([]);
    expect(status).toBe(0);
  });

  it('deleted since: nothing refuses the retry', async () => {
    const { codes } = await diagnose(quotaAt(undefined));
    expect(codes).toEqual(['RolloutProgressing']);
  });

  it('the other arm: still at 2, the old pods fill it and the surge deadlock stands', async () => {
    const { status, codes } = await diagnose(quotaAt('2'));
    expect(codes).toContain('RolloutSurgeDeadlock');
    expect(status).toBe(1);
  });
});
