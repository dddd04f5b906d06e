/**
 * A paused Deployment still scales (sync.go sync → scale): once its new ReplicaSet holds
 * every replica, all available (deploymentutil.IsSaturated), the controller scales every old
 * ReplicaSet to 0 while paused. api's new ReplicaSet holds both replicas (one Ready, one
 * inside minReadySeconds): its old pod goes without the resume, and the finding says so
 * instead of "nothing rolls on until it is resumed". With the new ReplicaSet short of its
 * replicas, nothing moves until the resume, as before.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit } from '../support/fixture-dump.js';

const saturating = fixtureDump('paused-saturating.json');
const autoscaled = fixtureDump('paused-autoscaled.json');

async function paused(args: string[], edit?: DumpEdit): Promise<string> {
  return (await saturating.cli(['diagnose', 'deployment/api', '-n', 'shop', ...args], edit)).stdout;
}

describe('a paused Deployment whose new ReplicaSet holds every replica', () => {
  it('removes its old pods while paused once they are available: said in English and in Korean', async () => {
    const en = await paused([]);
    expect(en).toContain(
      'Its new ReplicaSet already holds all 2 replicas: once they are available the controller removes the old pods while paused (it still scales), and the rollout completes without the resume.',
    );
    expect(en).not.toContain('Nothing rolls on until it is resumed');
    // api-a2-y2 is Ready and waits out minReadySeconds: not "starting, not Ready yet" (attack round 12).
    expect(en).toMatch(/api-a2-y2 +n-3 +Running +Ready, not available yet \(minReadySeconds\)/);
    expect(en).toMatch(/api-a2-y1 +n-2 +Running\n/);
    const ko = await paused(['--lang', 'ko']);
    expect(ko).toContain('재개하지 않아도 롤아웃이 끝납니다');
    expect(ko).not.toContain('재개하기 전에는 롤아웃이 진행되지 않습니다');
  });

  it('short of its replicas (one new pod of two): nothing rolls on until it is resumed', async () => {
    const out = await paused([], (items) =>
      items
        .filter((i) => i.metadata.name !== 'api-a2-y2')
        .map((i) =>
          i.kind === 'ReplicaSet' && i.metadata.name === 'api-a2'
            ? { ...i, spec: { ...i.spec, replicas: 1 } }
            : i,
        ),
    );
    expect(out).toContain('Nothing rolls on until it is resumed');
    expect(out).not.toContain('already holds all');
  });
});

describe('a paused Deployment its autoscaler is about to scale', () => {
  it('says the controller spreads the new count over old and new ReplicaSets while paused; without a new count, it does not', async () => {
    const run = async (lang: string, edit?: DumpEdit): Promise<string> =>
      (await autoscaled.cli(['diagnose', 'deployment/web', '-n', 'shop', '--lang', lang], edit)).stdout;
    expect(await run('en')).toContain(
      'Nothing rolls on until it is resumed, but HorizontalPodAutoscaler web sets 8 replicas at its next sync and the controller spreads that over the old and new ReplicaSets while paused',
    );
    expect(await run('ko')).toContain('HorizontalPodAutoscaler(web)의 설정으로 레플리카가 8개로 바뀌면');
    // The autoscaler already at the count it wants: nothing is spread.
    const out = await run('en', (items) =>
      items.map((i) =>
        i.kind === 'HorizontalPodAutoscaler' ? { ...i, status: { ...i.status, desiredReplicas: 4 } } : i,
      ),
    );
    expect(out).toContain('Nothing rolls on until it is resumed;');
    expect(out).not.toContain('spreads that over');
  });
});
