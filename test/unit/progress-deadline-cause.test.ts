/**
 * A passed progress deadline is only the controller giving up waiting: it says where its
 * cause is. Beside a finding that gives it (the GPU surge deadlock), "the other findings
 * say why"; alone (no events read, a new pod that runs and is never Ready), it used to say
 * the same, pointing at findings that did not exist. It says nothing read gives the cause,
 * and where to look.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('progress-deadline-stalled.json');

type Report = { findings: { code: string; severity: string; explanation: string }[] };

async function deadline(edit?: (items: DumpItem[]) => DumpItem[]) {
  const args = ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '-o', 'json'];
  const { stdout } = await dump.cli(args, edit);
  const report = JSON.parse(stdout) as Report;
  return { report, finding: report.findings.find((f) => f.code === 'ProgressDeadlineExceeded') };
}

/** No events, and the new pod placed and running but never Ready: nothing read says why. */
const causeUnread = (items: DumpItem[]): DumpItem[] =>
  items
    .filter((i) => i.kind !== 'Event')
    .map((i) =>
      i.kind === 'Pod' && i.status?.phase === 'Pending'
        ? {
            ...i,
            spec: { ...i.spec, nodeName: 'gpu-node-1' },
            status: {
              phase: 'Running',
              conditions: [],
              containerStatuses: [
                {
                  name: 'tracker',
                  ready: false,
                  started: true,
                  restartCount: 0,
                  image: 'registry.example.com/vision/object-tracker:2.4.2',
                  imageID: '',
                  state: { running: { startedAt: '2026-11-22T02:31:10Z' } },
                },
              ],
            },
          }
        : i,
    );

describe('a passed progress deadline says where its cause is', () => {
  it('beside the surge deadlock that causes it: the other findings say why', async () => {
    const { report, finding } = await deadline();
    expect(report.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
    expect(finding?.severity).toBe('critical');
    expect(finding?.explanation).toContain(
      'The other findings say why the new pods do not become available.',
    );
  });

  it('alone: nothing read says why, and it points at the pods, not at findings that are not there', async () => {
    const { report, finding } = await deadline(causeUnread);
    const causes = report.findings.filter(
      (f) => f.severity !== 'info' && f.code !== 'ProgressDeadlineExceeded',
    );
    expect(causes.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(finding?.explanation).not.toContain('other findings');
    expect(finding?.explanation).toContain('Nothing read here says why the new pods do not become available');
    expect(finding?.explanation).toContain('`kubectl describe pod`');
  });
});
