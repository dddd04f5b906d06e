/**
 * The counts a shortfall nothing explains is said with: a pod held Terminating (a
 * finalizer on a Ready node) is there, terminating, not a pod that "does not exist"
 * (a StatefulSet makes its ordinal again only once it is gone), and not "not Ready"
 * beside it. The fixture: StatefulSet shop/db, 3 replicas, db-1 terminating for long.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump } from '../support/fixture-dump.js';

const dump = fixtureDump('statefulset-pod-held-terminating.json');
const args = ['diagnose', 'statefulset/db', '-n', 'shop', '-o', 'json'];

async function summary(edit?: Parameters<typeof dump.cli>[1]): Promise<string> {
  const { stdout } = await dump.cli(args, edit);
  const report = JSON.parse(stdout) as { findings: { code: string; summary: string }[] };
  return report.findings.find((f) => f.code === 'Unavailable')?.summary ?? '';
}

describe('Unavailable: what the shortfall is made of', () => {
  it('a pod held terminating is counted as terminating, not as missing nor not Ready', async () => {
    const said = await summary();
    expect(said).toContain('(1 pod is terminating)');
    expect(said).not.toContain('does not exist');
  });

  it('the pod gone from the API (and from the status count): then it does not exist', async () => {
    const said = await summary((items) =>
      items
        .filter((o) => !(o.kind === 'Pod' && o.metadata.name === 'db-1'))
        .map((o) => (o.kind === 'StatefulSet' ? { ...o, status: { ...o.status, replicas: 2 } } : o)),
    );
    expect(said).toContain('1 pod of 3 does not exist');
    expect(said).not.toContain('terminating');
  });
});
