/**
 * check places the new pods with the tolerations admission gives them: those the live
 * pods carry and their template lacks (a policy engine's, GKE's ExtendedResourceToleration)
 * come to the new pods too, except the one ExtendedResourceToleration adds for an extended
 * resource the new template no longer asks for (the plugin keys one toleration by each
 * extended resource the containers request). The dump: gpu-1 is tainted
 * nvidia.com/gpu=present:NoSchedule and free for 2 cpu; cpu-1 has 500m free. The old pod
 * asked for a GPU and carries the plugin's toleration; the manifest drops the GPU and asks
 * for 2 cpu.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures

const dump = fixtureDump('check-dropped-gpu-toleration.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/check-dropped-gpu-toleration-manifest.json');

async function check(edit?: (items: DumpItem[]) => void): Promise<Json> {
  const { stdout } = await dump.cli(
    ['check', '-f', MANIFEST, '-o', 'json'],
    edit &&
      ((items) => {
        edit(items);
        return items;
      }),
  );
  return (JSON.parse(stdout) as { results: Json[] }).results[0] ?? {};
}

/** The taint on gpu-1 and the toleration on the old pod, keyed `key` instead. */
function rekey(items: DumpItem[], key: string): void {
  for (const item of items as Json[]) {
    if (item['kind'] === 'Node' && item['metadata']['name'] === 'gpu-1')
      item['spec']['taints'][0]['key'] = key;
    if (item['kind'] === 'Pod' && item['metadata']['name'] === 'a-h1-p0')
      item['spec']['tolerations'][0]['key'] = key;
  }
}

describe('tolerations admission adds to the new pods', () => {
  it('the GPU toleration ExtendedResourceToleration gave the old pod is not carried once the GPU is dropped: no node fits', async () => {
    const result = await check();
    expect(result['verdict']).toBe('never-finishes');
    expect(result['findings'][0]['code']).toBe('Unschedulable');
  });

  it('a toleration keyed by no extended resource the old pod asked for (a policy engine’s) is carried: gpu-1 takes the new pod', async () => {
    const result = await check((items) => rekey(items, 'dedicated'));
    expect(result['verdict']).toBe('finishes');
  });
});
