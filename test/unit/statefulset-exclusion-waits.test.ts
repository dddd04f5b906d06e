/**
 * A StatefulSet crash-looping on one node (web-1 on node-a). Under OrderedReady the
 * controller touches no pod while one is not Running and Ready (stateful_set_control.go
 * processReplica), and under OnDelete it replaces none until someone deletes it: either
 * way the exclusion never reaches web-1 by itself (attack round 13). The exclusion says
 * so, and delete-pods is offered for after it, bound to the affinity it writes: refused
 * before the exclusion is in place, accepted after, although the generation moved.
 * Under Parallel the rolling update replaces web-1 itself and nothing changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit, type DumpItem } from '../support/fixture-dump.js';
import { applyPatch } from '../../src/remediation/patch-apply.js';
import { checkPreconditions } from '../../src/kube/write/preconditions.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';

const NAME = 'statefulset-crash-on-one-node.json';
const dump = fixtureDump(NAME);

type Plan = RemediationPlan & { impact: string };

async function plans(edit?: DumpEdit): Promise<Plan[]> {
  const { stdout } = await dump.cli(['diagnose', 'statefulset/web', '-n', 'shop', '-o', 'json'], edit);
  return (JSON.parse(stdout) as { remediations: Plan[] }).remediations;
}

const withSpec =
  (spec: Record<string, unknown>): DumpEdit =>
  (items: DumpItem[]) =>
    items.map((i) => (i.kind === 'StatefulSet' ? { ...i, spec: { ...i.spec, ...spec } } : i));

const liveSet = (): WorkloadObject => {
  const items = (
    JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/dumps', NAME), 'utf8')) as {
      items: DumpItem[];
    }
  ).items;
  return items.find((i) => i.kind === 'StatefulSet') as unknown as WorkloadObject;
};

describe('exclude-node of an OrderedReady StatefulSet whose crash-looping pod holds it', () => {
  it('says the exclusion waits for web-1 to be deleted, and offers that deletion for after it', async () => {
    const [exclude, remove] = await plans();
    expect(exclude?.kind).toBe('exclude-node');
    expect(exclude?.impact).toContain(
      'the StatefulSet controller changes no pod while web-1 is not Ready (OrderedReady',
    );
    expect(exclude?.impact).toContain('the exclusion takes effect only once web-1 is deleted after it');
    expect(exclude?.impact).not.toContain('starts a new rollout (RollingUpdate) that replaces every pod');
    expect(remove?.kind).toBe('delete-pods');
    expect(remove?.summary).toBe(
      'Delete 1 crash-looping pod(s) on node-a: web-1, once exclude-node is in place.',
    );
    expect(remove?.impact).toContain('After exclude-node, not before');
    expect(remove?.impact).not.toContain('Not needed after exclude-node');
    const en = (await dump.cli(['diagnose', 'statefulset/web', '-n', 'shop'])).stdout.replace(/\s+/g, ' ');
    expect(en).toContain('Fix: [1] exclude-node, then [2] delete-pods');
    const ko = (await dump.cli(['diagnose', 'statefulset/web', '-n', 'shop', '--lang', 'ko'])).stdout.replace(
      /\s+/g,
      ' ',
    );
    expect(ko).toContain('web-1 파드가 Ready가 아닌 동안 StatefulSet 컨트롤러는 어떤 파드도 바꾸지 않습니다');
    expect(ko).toContain('web-1 파드는 그 뒤에 삭제해야 다른 노드로 옮겨집니다(delete-pods)');
    expect(ko).toContain('exclude-node를 적용한 뒤 파드를 삭제합니다(web-1)');
    expect(ko).toContain('조치: [1] exclude-node 다음 [2] delete-pods');
  });

  it('the deletion is refused before the exclusion is written and accepted after it', async () => {
    const [exclude, remove] = await plans();
    if (exclude?.kind !== 'exclude-node' || remove?.kind !== 'delete-pods') throw new Error('plans missing');
    const before = liveSet();
    const refused = checkPreconditions(before, remove.preconditions, 'StatefulSet');
    expect(refused).toMatchObject({ ok: false, field: '/spec/template/spec/affinity' });
    const patched = applyPatch(
      before as never,
      exclude.patch,
      '2026-11-22T03:00:00Z',
    ) as unknown as WorkloadObject;
    // The API server moves the generation with the template change.
    const after = { ...patched, metadata: { ...patched.metadata, generation: 3 } };
    expect(checkPreconditions(after, remove.preconditions, 'StatefulSet')).toEqual({ ok: true });
    // Exactly web-1, by the uid it had.
    expect(remove.pods).toEqual([{ name: 'web-1', uid: expect.any(String) as string }]);
  });

  it('once the exclusion is in place: no second exclusion, and the deletion is offered alone', async () => {
    const [exclude] = await plans();
    if (exclude?.kind !== 'exclude-node') throw new Error('exclude-node missing');
    /** The state after exclude-node: the template excludes node-a at revision web-r3; web-1 still crashes there. */
    const excluded: DumpEdit = (items) => [
      ...items.map((i) =>
        i.kind === 'StatefulSet'
          ? ({
              ...(applyPatch(i as never, exclude.patch, '2026-11-22T03:00:00Z') as unknown as DumpItem),
              status: { ...(i['status'] as object), updateRevision: 'web-r3', observedGeneration: 2 },
            } as DumpItem)
          : i,
      ),
      {
        ...(items.find((i) => i.kind === 'ControllerRevision') as DumpItem),
        metadata: {
          ...(items.find((i) => i.kind === 'ControllerRevision') as DumpItem).metadata,
          name: 'web-r3',
          uid: 'cr-web-r3',
        },
        revision: 3,
      } as DumpItem,
    ];
    const after = await plans(excluded);
    expect(after.map((p) => p.kind)).toEqual(['delete-pods']);
    const [remove] = after;
    expect(remove?.summary).toBe('Delete 1 crash-looping pod(s) on node-a: web-1.');
    expect(remove?.impact).toContain('The template already keeps the pods off node-a');
    expect(remove?.impact).not.toContain('Refused until');
    expect(remove?.preconditions).not.toHaveProperty('fieldsOnly');
  });

  it('below the partition: the exclusion never reaches web-1, so it is not offered', async () => {
    const partition = (n: number): DumpEdit =>
      withSpec({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: n } } });
    const { stdout } = await dump.cli(
      ['diagnose', 'statefulset/web', '-n', 'shop', '-o', 'json'],
      partition(2),
    );
    const report = JSON.parse(stdout) as {
      remediations: Plan[];
      notOffered?: { kind: string; reason: string }[];
    };
    expect(report.remediations.map((p) => p.kind)).not.toContain('exclude-node');
    expect(report.notOffered?.find((n) => n.kind === 'exclude-node')?.reason).toContain(
      "web-1 is below the StatefulSet's partition",
    );
    // The other arm: partition 1 leaves web-1 (ordinal 1) to the update.
    expect((await plans(partition(1))).map((p) => p.kind)).toContain('exclude-node');
  });

  it('under OnDelete: no pod is replaced until deleted, whether Ready or not', async () => {
    const [exclude, remove] = await plans(withSpec({ updateStrategy: { type: 'OnDelete' } }));
    expect(exclude?.impact).toContain('Changing the pod template replaces no pod by itself (OnDelete)');
    expect(remove?.impact).toContain('no pod is replaced until someone deletes it (OnDelete)');
    expect(remove?.preconditions).toMatchObject({ fieldsOnly: true });
  });

  it('the other arm, Parallel: the rolling update replaces web-1 itself, delete-pods stays relief', async () => {
    const [exclude, remove] = await plans(withSpec({ podManagementPolicy: 'Parallel' }));
    expect(exclude?.impact).toContain(
      'Changing the pod template starts a new rollout (RollingUpdate) that replaces every pod, 3 replica(s)',
    );
    expect(remove?.impact).toContain('Not needed after exclude-node');
    expect(remove?.preconditions).not.toHaveProperty('fieldsOnly');
    const text = (
      await dump.cli(
        ['diagnose', 'statefulset/web', '-n', 'shop'],
        withSpec({ podManagementPolicy: 'Parallel' }),
      )
    ).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Fix: [1] exclude-node, or [2] delete-pods');
  });
});
