/**
 * A rollout that finishes only if the scheduler takes our pods first
 * (src/diagnosis/forward/queue-race.ts, DESIGN.md §4e). Deployment web (1 replica,
 * surge 1, unavailable 0) waits for a GPU; terminating pod batch-c1-z1 frees gpu-4; the
 * Pending pod of deployment/other wants a GPU at the same priority. With ours first the
 * rollout finishes, with theirs first it stops for good: "may never finish", with the race
 * said, exit 1, never "No problem found". Without the rival (or with a rival that outranks
 * ours, which goes first in any order) the verdict is the one order gives.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { progressingInRace } from '../../src/diagnosis/forward/queue-race.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/terminating-frees-room-race.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-queue-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = { kind: string; metadata: { name?: string }; spec?: { priority?: number } };

/** The dump with `edit` applied to its items, written to a file. */
function variant(name: string, edit: (items: Item[]) => Item[]): string {
  const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...dump, items: edit(dump.items) }));
  return file;
}

async function diagnose(file: string): Promise<{ status: number; text: string }> {
  const io = fakeIo();
  const status = await runCli(['diagnose', 'deployment/web', '-n', 'ml', '--from-file', file], io.io);
  return { status, text: io.stdout() };
}

describe('a terminating pod frees the room, and another workload waits for it too', () => {
  it('at the same priority: it may never finish, the race and the rival said, exit 1', async () => {
    const { status, text } = await diagnose(DUMP);
    expect(status).toBe(1);
    expect(text).not.toContain('No problem found');
    expect(text).toContain('Rollout of web may never finish');
    expect(text).toContain(
      "Whether it finishes turns on the scheduler's queue: the Pending pods of deployment/other want the same room at the same priority",
    );
    expect(text).toContain('Only if the Pending pods of deployment/other take the room first');
    // Plans that finish it whatever the order are offered, each with what it costs.
    expect(text).toMatch(/\[1\] (set-rolling-update|set-recreate|scale-old-replicaset) /);
  });

  it('in Korean: "끝나지 않을 수 있습니다" with the race, never the keyed "끝나지 않습니다" without it', async () => {
    const io = fakeIo();
    await runCli(['diagnose', 'deployment/web', '-n', 'ml', '--from-file', DUMP, '--lang', 'ko'], io.io);
    const text = io.stdout();
    expect(text).toContain('web 롤아웃이 끝나지 않을 수 있습니다');
    expect(text).toContain('끝날지는 스케줄러 큐의 순서에 달려 있습니다. deployment/other의 Pending 파드가');
    expect(text).toContain('deployment/other의 Pending 파드가 먼저 자리를 차지할 때만 그렇습니다.');
    expect(text).not.toContain('web 롤아웃이 끝나지 않습니다');
    expect(text).not.toContain('may never finish');
  });

  it('with no rival: it finishes by itself once the pod is gone, exit 0', async () => {
    const file = variant('no-rival', (items) => items.filter((i) => i.metadata.name !== 'other-o1-c'));
    const { status, text } = await diagnose(file);
    expect(status).toBe(0);
    expect(text).toContain('will finish by itself once terminating pod batch-c1-z1 is gone');
    expect(text).not.toContain("scheduler's queue");
  });

  it('with a rival that outranks ours: it goes first in any order, so no race is said', async () => {
    const file = variant('outranked', (items) =>
      items.map((i) =>
        i.metadata.name === 'other-o1-c' ? { ...i, spec: { ...i.spec, priority: 1000 } } : i,
      ),
    );
    const { status, text } = await diagnose(file);
    expect(status).toBe(1);
    expect(text).toContain('can never finish');
    expect(text).not.toContain("scheduler's queue");
  });

  it('a rival of lower priority goes after ours, and one that wants other room is no contender: neither is named', async () => {
    const cpuOnly = (item: Item, priority: number): Item => {
      const pod = structuredClone(item) as Item & {
        metadata: { name?: string; uid?: string; ownerReferences?: { name: string; uid: string }[] };
        spec: { nodeSelector?: object; containers: { resources?: object }[]; priority?: number };
      };
      pod.metadata = {
        ...pod.metadata,
        name: 'cruncher-r1-a',
        uid: 'p-cruncher',
        ownerReferences: [
          { ...pod.metadata.ownerReferences?.[0], name: 'cruncher-r1', uid: 'rs-cruncher' } as never,
        ],
      };
      delete pod.spec.nodeSelector;
      pod.spec.containers = [{ ...pod.spec.containers[0], resources: { requests: { cpu: '1' } } }];
      pod.spec.priority = priority;
      return pod;
    };
    const rival = (items: Item[]): Item => {
      const found = items.find((i) => i.metadata.name === 'other-o1-c');
      if (!found) throw new Error('no rival in the fixture');
      return found;
    };
    const beside = variant('cpu-rival', (items) => [...items, cpuOnly(rival(items), 0)]);
    const { text } = await diagnose(beside);
    expect(text).toContain('the Pending pods of deployment/other want the same room');
    expect(text).not.toContain('cruncher');
    const lower = variant('lower-rival', (items) =>
      items.map((i) => (i.metadata.name === 'other-o1-c' ? { ...i, spec: { ...i.spec, priority: -10 } } : i)),
    );
    const alone = await diagnose(lower);
    expect(alone.status).toBe(0);
    expect(alone.text).not.toContain("scheduler's queue");
  });

  it('where nothing called it stuck, "will finish by itself" becomes a warning that says the race', () => {
    const said = progressingInRace(
      {
        code: 'RolloutProgressing',
        severity: 'info',
        summary:
          'The rollout is moving and will finish by itself once pod x is gone; nothing needs changing.',
        evidence: [],
      },
      { rivals: 'deployment/other' },
    );
    expect(said.severity).toBe('warning');
    expect(said.summary).toBe(
      "The rollout is moving and can finish by itself once pod x is gone. Whether it finishes turns on the scheduler's queue: the Pending pods of deployment/other want the same room at the same priority, and which goes first is not known from here; placed first, they take it and the rollout stops here; placed after ours, it finishes by itself.",
    );
  });
});
