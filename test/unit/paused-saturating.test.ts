/**
 * A paused Deployment still scales (sync.go sync → scale): once its new ReplicaSet holds
 * every replica, all available (deploymentutil.IsSaturated), the controller scales every old
 * ReplicaSet to 0 while paused. api's new ReplicaSet holds both replicas (one Ready, one
 * inside minReadySeconds): its old pod goes without the resume, and the finding says so
 * instead of "nothing rolls on until it is resumed". With the new ReplicaSet short of its
 * replicas, nothing moves until the resume, as before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/paused-saturating.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-paused-saturating-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = { kind: string; metadata: { name?: string }; spec?: Record<string, unknown> };

async function paused(args: string[], edit?: (items: Item[]) => Item[]): Promise<string> {
  let file = DUMP;
  if (edit) {
    const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] };
    file = join(dir, `${String(Math.random()).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ ...dump, items: edit(dump.items) }));
  }
  const io = fakeIo();
  await runCli(['diagnose', 'deployment/api', '-n', 'shop', '--from-file', file, ...args], io.io);
  return io.stdout();
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
    const file = join(import.meta.dirname, '../fixtures/dumps/paused-autoscaled.json');
    const run = async (path: string, lang: string): Promise<string> => {
      const io = fakeIo();
      await runCli(['diagnose', 'deployment/web', '-n', 'shop', '--from-file', path, '--lang', lang], io.io);
      return io.stdout();
    };
    expect(await run(file, 'en')).toContain(
      'Nothing rolls on until it is resumed, but HorizontalPodAutoscaler web sets 8 replicas at its next sync and the controller spreads that over the old and new ReplicaSets while paused',
    );
    expect(await run(file, 'ko')).toContain(
      'HorizontalPodAutoscaler(web)의 설정으로 레플리카가 8개로 바뀌면',
    );
    // The autoscaler already at the count it wants: nothing is spread.
    const dump = JSON.parse(readFileSync(file, 'utf8')) as {
      items: (Item & { status?: Record<string, unknown> })[];
    };
    const steady = join(dir, 'autoscaler-steady.json');
    writeFileSync(
      steady,
      JSON.stringify({
        ...dump,
        items: dump.items.map((i) =>
          i.kind === 'HorizontalPodAutoscaler' ? { ...i, status: { ...i.status, desiredReplicas: 4 } } : i,
        ),
      }),
    );
    const out = await run(steady, 'en');
    expect(out).toContain('Nothing rolls on until it is resumed;');
    expect(out).not.toContain('spreads that over');
  });
});
