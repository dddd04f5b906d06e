/**
 * A DaemonSet without surge whose new pod waits Pending on n1 spends its maxUnavailable
 * of 1, so no old pod is replaced on n2 or n3. A wider maxUnavailable was offered as the
 * way on, where n2 and n3 have no room for the new template either (1500m asked, 1 cpu
 * free beside hog-2 and hog-3 even with the old agent gone): it would take a second
 * node's agent down for a pod that waits Pending too. Now it is offered only where the
 * new template fits one of those nodes once its old pod is gone.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = { findings: { code: string; evidence: { type: string; text?: string }[] }[] };

const dump = fixtureDump('daemonset-budget-no-room-elsewhere.json');

const note = async (edit?: (items: DumpItem[]) => DumpItem[]): Promise<string> => {
  const { stdout } = await dump.cli(['diagnose', 'daemonset/agent', '-n', 'kube-system', '-o', 'json'], edit);
  const report = JSON.parse(stdout) as Report;
  const finding = report.findings.find((f) => f.code === 'Unschedulable');
  return finding?.evidence.find((e) => e.type === 'note' && e.text?.startsWith('While'))?.text ?? '';
};

describe("a wider maxUnavailable while a DaemonSet's new pod waits", () => {
  it('is not offered where the other nodes have no room for the new template either', async () => {
    const text = await note();
    expect(text).toContain('the rollout is stopped on every node');
    expect(text).toContain(
      'a wider maxUnavailable would not help: the new template fits none of n2, n3 either',
    );
    expect(text).not.toContain('would let the other nodes update');
  });

  it('is offered where they have room once their old pod is gone', async () => {
    const text = await note((items) =>
      items.filter((i) => !['hog-2', 'hog-3'].includes(i.metadata.name ?? '')),
    );
    expect(text).toContain('maxUnavailable 2 would let the other nodes update one at a time');
  });
});
