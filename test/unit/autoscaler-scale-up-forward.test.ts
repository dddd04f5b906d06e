/**
 * A HorizontalPodAutoscaler raises replicas at its next sync (a scale-up is written at
 * once, every 15 s; here minReplicas 6 over spec.replicas 4), so the controllers roll out
 * at 6 (attack round 14). Six nodes with one GPU each hold six old pods, and maxSurge 1 /
 * maxUnavailable 0 then wants a seventh GPU: the rollout can never finish. It was run
 * forward at 4 and called "will finish by itself", in `diagnose` and in `check`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit, type DumpItem } from '../support/fixture-dump.js';

const midRollout = fixtureDump('hpa-raises-mid-rollout.json');
const steady = fixtureDump('check-hpa-steady.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/check-hpa-steady-manifest.json');

/** The autoscaler's floor at 4 (and its recommendation with it): it raises nothing. */
const floorAt4: DumpEdit = (items: DumpItem[]) =>
  items.map((i) =>
    i.kind === 'HorizontalPodAutoscaler'
      ? {
          ...i,
          spec: { ...i.spec, minReplicas: 4 },
          status: { ...(i['status'] as object), desiredReplicas: 4, conditions: [] },
        }
      : i,
  );

const flat = (s: string): string => s.replace(/\s+/g, ' ');

describe('an autoscaler that raises replicas at its next sync', () => {
  it('diagnose: run forward at 6, the rollout can never finish, and says at what count', async () => {
    const { status, stdout } = await midRollout.cli(['diagnose', 'deploy/inf', '-n', 'ml']);
    const text = flat(stdout);
    expect(text).toContain(
      '[CRITICAL] RolloutStuck: The rollout can never finish at the 6 replicas HorizontalPodAutoscaler inf sets at its next sync (spec.replicas 4)',
    );
    expect(text).not.toContain('will finish by itself');
    expect(status).toBe(1);
  });

  it('diagnose, the other arm: a floor at 4 raises nothing, and the rollout finishes', async () => {
    const { status, stdout } = await midRollout.cli(['diagnose', 'deploy/inf', '-n', 'ml'], floorAt4);
    expect(flat(stdout)).toContain('will finish by itself');
    expect(status).toBe(0);
  });

  it('check: replicas 4 in the manifest, set back to 6 at once: can never finish at 6', async () => {
    const { status, stdout } = await steady.cli(['check', '-f', MANIFEST]);
    const text = flat(stdout);
    expect(text).toContain('CAN NEVER FINISH');
    expect(text).toContain('with maxSurge 1, maxUnavailable 0 at 6 replicas');
    expect(text).toContain(
      'Note: Run forward at the 6 replicas HorizontalPodAutoscaler inf sets at its next sync',
    );
    expect(status).toBe(1);
  });

  it('check, the other arm: the autoscaler keeps 4, the apply frees two GPUs, it will finish', async () => {
    const { status, stdout } = await steady.cli(['check', '-f', MANIFEST], floorAt4);
    expect(flat(stdout)).toContain(': will finish');
    expect(status).toBe(0);
  });
});
