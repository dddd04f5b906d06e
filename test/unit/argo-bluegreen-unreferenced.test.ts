/**
 * A blue-green Rollout scales down by itself a ReplicaSet nothing references any more
 * (rollout/replicaset.go isReplicaSetReferenced, scaleDownOldReplicaSetsForBlueGreen):
 * web-h0 (revision 1), neither stable, active, preview nor current, goes at its
 * scale-down-deadline, 25 s after the read, and its node then holds both preview pods.
 * Its pods were taken for old pods blue-green keeps: "can never finish", with the abort
 * offered, which would throw away a release about to go on.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = { findings: { code: string }[]; remediations: { kind: string }[] };

const dump = fixtureDump('argo-bluegreen-unreferenced-rs.json');

const diagnose = async (edit?: (items: DumpItem[]) => DumpItem[]) => {
  const { stdout } = await dump.cli(['diagnose', 'rollout/web', '-n', 'shop', '-o', 'json'], edit);
  return JSON.parse(stdout) as Report;
};

/** A post-promotion analysis with no scaleDownDelaySeconds: the controller keeps every old ReplicaSet. */
const postPromotionAnalysis = (items: DumpItem[]): DumpItem[] =>
  items.map((i) => {
    if (i.kind !== 'Rollout') return i;
    const rollout = structuredClone(i) as DumpItem & {
      spec: { strategy: { blueGreen: Record<string, unknown> } };
    };
    rollout.spec.strategy.blueGreen.postPromotionAnalysis = { templates: [{ templateName: 'smoke' }] };
    return rollout;
  });

describe('a blue-green ReplicaSet nothing references', () => {
  it('goes by itself: its pods are no deadlock, and no abort is offered', async () => {
    const report = await diagnose();
    expect(report.findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
    expect(report.remediations.map((r) => r.kind)).not.toContain('abort-rollout');
  });

  it('is kept while a post-promotion analysis with no scale-down delay holds every old ReplicaSet', async () => {
    const report = await diagnose(postPromotionAnalysis);
    expect(report.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });
});
