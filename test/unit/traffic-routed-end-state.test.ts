/**
 * Both revisions whole at once, in a dump of one namespace (other pods on the nodes not read).
 *
 * A traffic-routed Argo canary without dynamicStableScale keeps every stable pod until the
 * canary is whole (CalculateReplicaCountsForTrafficRoutedCanary), so after its last step both
 * revisions run in full at once: api (4 replicas, one GPU each) on six one-GPU nodes can never
 * get there, though each step fits. A dump of one namespace (other pods on the nodes not read)
 * read "No problem found", exit 0: the end-state bound was skipped where pods were not read,
 * though pods not read only take room. Two more nodes hold both revisions.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit, type DumpItem as Item } from '../support/fixture-dump.js';

const routed = fixtureDump('argo-traffic-routed-both-whole.json');
const blueGreen = fixtureDump('argo-bluegreen-preview-count.json');

type Report = { findings: { code: string; severity: string; summary: string }[] };

async function diagnose(
  edit?: DumpEdit,
  dump = routed,
  ref = 'rollout/api',
  namespace = 'shop',
): Promise<{ status: number; report: Report }> {
  const { status, stdout } = await dump.cli(['diagnose', ref, '-n', namespace, '-o', 'json'], edit);
  return { status, report: JSON.parse(stdout) as Report };
}

describe('a traffic-routed canary whose promotion needs both revisions whole', () => {
  it('on nodes that cannot hold both: can never finish, though other pods were not read', async () => {
    const { status, report } = await diagnose();
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.severity).toBe('critical');
    expect(stuck?.summary).toContain(
      'a traffic-routed canary keeps every stable pod until the canary has all 4 of its pods, and the nodes cannot hold both revisions at once',
    );
    expect(status).toBe(1);
  });

  it('with two more such nodes: not stuck', async () => {
    const { report } = await diagnose((items) => {
      const node = items.find((i) => i.kind === 'Node' && i.metadata.name === 'n-6');
      const more = ['n-7', 'n-8'].map((name) => ({
        ...structuredClone(node),
        metadata: { ...structuredClone(node?.metadata), name },
      }));
      return [...(more as Item[]), ...items];
    });
    expect(report.findings.filter((f) => f.code === 'RolloutStuck')).toEqual([]);
  });
});

/**
 * A blue-green Rollout paused for promotion with previewReplicaCount 1: once promoted, the
 * preview scales to every replica (NewRSNewReplicas after the pause) while the active
 * ReplicaSet keeps its pods until the switch, so web's 2 + 2 one-GPU pods must run on three
 * one-GPU nodes. It read "No problem found" beside the pause (attack round 10, d1).
 */
describe('a blue-green rollout whose promotion needs both revisions whole', () => {
  const web = (edit?: DumpEdit) => diagnose(edit, blueGreen, 'rollout/web', 'shop');

  it('on three one-GPU nodes: can never finish, said at the pause', async () => {
    const { status, report } = await web();
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([
      ['RolloutPaused', 'info'],
      ['RolloutStuck', 'critical'],
    ]);
    expect(report.findings[1]?.summary).toContain(
      'blue-green keeps every active pod until the preview has all 2 of its pods and is promoted, and the nodes cannot hold both revisions at once',
    );
    expect(status).toBe(1);
  });

  it('with a fourth such node: only the pause', async () => {
    const { status, report } = await web((items) => {
      const node = items.find((i) => i.kind === 'Node');
      return [
        { ...structuredClone(node), metadata: { ...structuredClone(node?.metadata), name: 'n-4' } } as Item,
        ...items,
      ];
    });
    expect(report.findings.map((f) => f.code)).toEqual(['RolloutPaused']);
    expect(status).toBe(0);
  });
});
