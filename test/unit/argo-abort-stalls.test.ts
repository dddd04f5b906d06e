/**
 * A basic canary's abort stops half way where maxUnavailable is 0 and no node has room
 * for a stable pod beside the canary's available ones (CalculateReplicaCountsForBasicCanary
 * at weight 0 removes available canary pods only as stable pods become available): the
 * abort is not offered, with why. The fixture: rec at setWeight 100 past its deadline,
 * canary c1 Ready on n-2, c2 Pending, stable s1 on n-1, 2 cpu nodes, 1500m pods. With
 * maxUnavailable 1 the canary goes first and the abort is offered.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('argo-canary-abort-stalls.json');
const args = ['diagnose', 'rollout/rec', '-n', 'shop', '-o', 'json'];

type Report = { remediations: { kind: string }[]; notOffered?: { kind: string; reason: string }[] };

async function report(edit?: (items: DumpItem[]) => DumpItem[]): Promise<Report> {
  return JSON.parse((await dump.cli(args, edit)).stdout) as Report;
}

describe('abort-rollout on a basic canary', () => {
  it('maxUnavailable 0 and no room for a stable pod: not offered, saying it would stop half way', async () => {
    const r = await report();
    expect(r.remediations.map((p) => p.kind)).not.toContain('abort-rollout');
    expect(r.notOffered?.find((n) => n.kind === 'abort-rollout')?.reason).toContain(
      'the abort would stop half way',
    );
  });

  it('maxUnavailable 1: the canary may go first, the abort is offered', async () => {
    const r = await report((items) =>
      items.map((o) => {
        if (o.kind !== 'Rollout') return o;
        const strategy = o.spec?.['strategy'] as { canary: Record<string, unknown> };
        return { ...o, spec: { ...o.spec, strategy: { canary: { ...strategy.canary, maxUnavailable: 1 } } } };
      }),
    );
    expect(r.remediations.map((p) => p.kind)).toContain('abort-rollout');
  });
});
