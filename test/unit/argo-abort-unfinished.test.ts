/**
 * After an abort, "the stable pods serve" holds only once the stable ReplicaSet has its
 * pods: a basic canary (maxUnavailable 0) whose new stable pod waits for room while the
 * aborted version's pod still runs is said as an abort that has not finished, critical.
 * The fixture: rec aborted, stable rec-h1-s2 Pending ("Insufficient cpu"), canary
 * rec-h2-c1 still Running. With the stable pod placed and the canary pod gone, the abort
 * is the warning it was.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump } from '../support/fixture-dump.js';

const dump = fixtureDump('argo-canary-abort-unfinished.json');
const args = ['diagnose', 'rollout/rec', '-n', 'shop', '-o', 'json'];

type Report = { findings: { code: string; severity: string; summary: string }[] };

async function degraded(edit?: Parameters<typeof dump.cli>[1]) {
  const r = JSON.parse((await dump.cli(args, edit)).stdout) as Report;
  return r.findings.find((f) => f.code === 'RolloutDegraded');
}

describe('an aborted basic canary', () => {
  it('a stable pod Pending beside the aborted pod: the abort has not finished, critical', async () => {
    const f = await degraded();
    expect(f?.severity).toBe('critical');
    expect(f?.summary).toContain(
      'The abort has not finished: stable pod rec-h1-s2 waits for room while a pod of the aborted version (rec-h2-c1) still runs',
    );
    expect(f?.summary).not.toContain('the stable pods serve');
  });

  it('the aborted pod gone: the stable pods serve, a warning as before', async () => {
    const f = await degraded((items) => items.filter((o) => o.metadata.name !== 'rec-h2-c1'));
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain('the stable pods serve');
  });
});
