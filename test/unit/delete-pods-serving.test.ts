/**
 * delete-pods spends availability, so the plan gate offers it only where the forward
 * model shows the rollout will not finish by itself; but pods that fail on their own
 * serve nothing, and deleting only them takes no serving pod down (kinds/delete-pods.ts
 * takesNoServingPod; a StatefulSet's forced rollback needs it where a later ordinal
 * cannot fit anyway). Both arms: every named pod failing, and one of them Ready.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { deletePods } from '../../src/remediation/kinds/delete-pods.js';
import type { DeletePodsPlan } from '../../src/remediation/plan.js';
import { crashScenario } from '../support/crash-fixtures.js';

function plan(names: { name: string; uid: string }[]): DeletePodsPlan {
  return { kind: 'delete-pods', pods: names } as unknown as DeletePodsPlan;
}

describe('delete-pods: takes no serving pod', () => {
  const { snapshot, pods } = crashScenario();
  const ctx = new AnalysisContext(snapshot);
  const ref = (i: number): { name: string; uid: string } => ({
    name: pods[i]?.metadata.name ?? '',
    uid: pods[i]?.metadata.uid ?? '',
  });

  it('yes, where every pod it deletes crash-loops (it serves nothing)', () => {
    expect(deletePods.takesNoServingPod?.(ctx, plan([ref(1)]))).toBe(true);
  });

  it('no, where one of them is Ready and serving', () => {
    expect(deletePods.takesNoServingPod?.(ctx, plan([ref(1), ref(0)]))).toBe(false);
  });

  it('no, for a plan naming no pod, or a pod the snapshot does not hold', () => {
    expect(deletePods.takesNoServingPod?.(ctx, plan([]))).toBe(false);
    expect(deletePods.takesNoServingPod?.(ctx, plan([{ name: 'gone-pod', uid: 'gone' }]))).toBe(false);
  });
});
