/**
 * The fix check offers (src/check/strategy-fix.ts, issue 64.1): a canary Rollout gets its
 * canary's bounds; a blue-green Rollout never gets a canary block, even where a run with
 * one would finish (the stable pods stay until promotion whatever the bounds, and
 * blueGreen beside canary is an InvalidSpec).
 */
import { describe, expect, it } from 'vitest';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';
import { strategyFix } from '../../src/check/strategy-fix.js';
import { trackerMidUpdate } from '../support/rollout-builders.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';

const finishes = () => ({ result: 'completes' as const, ticks: 1, steps: [] });

describe('strategyFix on Argo Rollouts', () => {
  it('a canary: its bounds, maxSurge 0 / maxUnavailable 1', () => {
    const snapshot = trackerMidUpdate();
    const object = workloadKind(snapshot).object(snapshot) as WorkloadObject;
    expect(strategyFix(snapshot, object, finishes)?.patch.body).toEqual({
      spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: 1 } } },
    });
  });

  it('a blue-green: no fix, never a canary block', () => {
    const snapshot = trackerMidUpdate({
      blueGreen: { activeService: 'tracker', autoPromotionEnabled: true },
    });
    const object = workloadKind(snapshot).object(snapshot) as WorkloadObject;
    expect(strategyFix(snapshot, object, finishes)).toBeUndefined();
  });
});
