/**
 * A crash on one node is taken for the node's fault only where the healthy pods elsewhere
 * have run longer than the crashing container ran before it failed: web's container on
 * node-a dies about 62 s after it starts, and the pods on node-b and node-c were created
 * 40 and 30 s before the read. They were taken for proof of health, the kernel that sets
 * node-a apart for the cause, and the exclude-node plan offered: applied, it replaces the
 * young pods too, and they crash on node-b and node-c. Now the node is not blamed until
 * they have run long enough; with pods that ran ten minutes, it is.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = {
  findings: { code: string; explanation?: string }[];
  remediations: { kind: string }[];
};

const dump = fixtureDump('crash-young-healthy-pods.json');

const diagnose = async (edit?: (items: DumpItem[]) => DumpItem[]) => {
  const { stdout } = await dump.cli(['diagnose', 'deployment/web', '-n', 'shop', '-o', 'json'], edit);
  return JSON.parse(stdout) as Report;
};

/** The healthy pods started at 02:49, eleven minutes before the read. */
const settled = (items: DumpItem[]): DumpItem[] =>
  JSON.parse(
    JSON.stringify(items)
      .replaceAll('2026-11-22T02:59:20Z', '2026-11-22T02:49:00Z')
      .replaceAll('2026-11-22T02:59:30Z', '2026-11-22T02:49:00Z'),
  ) as DumpItem[];

describe('healthy pods younger than the crash takes to show', () => {
  it('prove nothing yet: no CrashLoopOnNode, no exclude-node plan, and it says why', async () => {
    const report = await diagnose();
    expect(report.findings.map((f) => f.code)).not.toContain('CrashLoopOnNode');
    expect(report.remediations.map((r) => r.kind)).not.toContain('exclude-node');
    const crash = report.findings.find((f) => f.code === 'CrashLoop');
    expect(crash?.explanation).toContain(
      'healthy pods on node-b, node-c have run for less than the 1m 2s the crashing container ran before it failed',
    );
  });

  it('once they have run longer, the node is blamed and excluded', async () => {
    const report = await diagnose(settled);
    expect(report.findings.map((f) => f.code)).toContain('CrashLoopOnNode');
    expect(report.remediations.map((r) => r.kind)).toContain('exclude-node');
  });
});
