/**
 * check judges the pod template the apply stores: a live template field the manifest
 * leaves out stays where its owner never set it (kubectl's three-way merge removes only
 * what the last-applied configuration lists; server-side apply and Helm keep what others
 * own), so
 * - re-applying the unchanged manifest after `kubectl rollout restart` (its restartedAt
 *   annotation never in the last-applied configuration) starts no rollout;
 * - a nodeSelector a `kubectl patch` added stays on the new pods: its one a100 node is held
 *   by the old pod, so the 1-replica GPU rollout can never finish.
 * Each beside the arm where the owner did set the field and the manifest drops it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures

const dumps = {
  'check-kept-restarted-at': fixtureDump('check-kept-restarted-at.json'),
  'check-kept-node-selector': fixtureDump('check-kept-node-selector.json'),
};

/** `check` of the fixture's manifest against its dump, the dump's Deployment edited by `edit`. */
async function check(
  fixture: keyof typeof dumps,
  edit?: (deployment: Json) => void,
): Promise<{ code: number; result: Json }> {
  const manifest = join(import.meta.dirname, '../fixtures/dumps', `${fixture}-manifest.json`);
  const editItems = (items: DumpItem[]): DumpItem[] => {
    const deployment = items.find((o) => o.kind === 'Deployment');
    if (deployment) edit?.(deployment as Json);
    return items;
  };
  const { status, stdout } = await dumps[fixture].cli(
    ['check', '-f', manifest, '-o', 'json'],
    edit && editItems,
  );
  return { code: status, result: (JSON.parse(stdout) as { results: Json[] }).results[0] ?? {} };
}

/** The last-applied configuration with its pod template edited by `change`. */
function lastApplied(deployment: Json, change: (template: Json) => void): void {
  const key = 'kubectl.kubernetes.io/last-applied-configuration';
  const applied = JSON.parse(deployment['metadata']['annotations'][key] as string) as Json;
  change(applied['spec']['template']);
  deployment['metadata']['annotations'][key] = JSON.stringify(applied);
}

describe('the template as the apply stores it', () => {
  it('the restartedAt annotation kubectl rollout restart wrote stays: the unchanged manifest starts no rollout', async () => {
    const { code, result } = await check('check-kept-restarted-at');
    expect(result['verdict']).toBe('no-rollout');
    expect(code).toBe(0);
  });

  it('the same annotation once applied by the owner and dropped now: removed, a template change', async () => {
    const { result } = await check('check-kept-restarted-at', (d) =>
      lastApplied(d, (t) => {
        t['metadata']['annotations'] = { 'kubectl.kubernetes.io/restartedAt': '2026-11-15T10:00:00Z' };
      }),
    );
    expect(result['verdict']).not.toBe('no-rollout');
    expect(result['changes']).toContain('metadata.annotations');
  });

  it("a nodeSelector kubectl patch added stays: the new pod may use only the old pod's a100 node, can never finish", async () => {
    const { code, result } = await check('check-kept-node-selector');
    expect(result['verdict']).toBe('never-finishes');
    expect(result['changes']).toEqual(['spec.containers[0].image']);
    expect(code).toBe(1);
  });

  it('the nodeSelector once applied by the owner and dropped now: removed, the free t4 node takes the new pod', async () => {
    const { code, result } = await check('check-kept-node-selector', (d) =>
      lastApplied(d, (t) => {
        t['spec']['nodeSelector'] = { pool: 'a100' };
      }),
    );
    expect(result['verdict']).toBe('finishes');
    expect(result['changes']).toContain('spec.nodeSelector');
    expect(code).toBe(0);
  });
});
