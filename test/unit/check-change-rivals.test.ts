/**
 * Several objects in one change compete for the same room (check/change-pods.ts): each
 * new Deployment is judged with the pods the change's other new Deployments create as
 * rivals in the scheduler's queue, in both orders. Two new 1-replica Deployments that each
 * need the one free GPU (or the one pod a quota has left) each finish alone but not both:
 * not known, naming the other; with room for both, each will finish.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures

const dumps = {
  'check-change-gpus': fixtureDump('check-change-gpus.json'),
  'check-change-quota': fixtureDump('check-change-quota.json'),
};

async function check(
  fixture: keyof typeof dumps,
  edit?: (items: Json[]) => void,
): Promise<{ code: number; results: Json[] }> {
  const manifest = join(import.meta.dirname, '../fixtures/dumps', `${fixture}-manifest.json`);
  const editItems = (items: DumpItem[]): DumpItem[] => {
    edit?.(items as Json[]);
    return items;
  };
  const { status, stdout } = await dumps[fixture].cli(
    ['check', '-f', manifest, '-o', 'json'],
    edit && editItems,
  );
  return { code: status, results: (JSON.parse(stdout) as { results: Json[] }).results };
}

describe('two new Deployments in one change', () => {
  it('one free GPU for two new pods: each not known, naming the other', async () => {
    const { code, results } = await check('check-change-gpus');
    expect(results.map((r) => r['verdict'])).toEqual(['unknown', 'unknown']);
    expect(results[0]?.['findings'][0]['summary']).toContain(
      'the new pods of deployment/y, created by the same change',
    );
    expect(code).toBe(1);
  });

  it('a GPU free for each: both will finish', async () => {
    const { code, results } = await check('check-change-gpus', (items) => {
      for (const node of items.filter((o) => o['kind'] === 'Node'))
        node['status']['allocatable']['nvidia.com/gpu'] = '2';
    });
    expect(results.map((r) => r['verdict'])).toEqual(['finishes', 'finishes']);
    expect(code).toBe(0);
  });

  it("a quota with one pod left for two: each not known (the other's pod may be admitted first)", async () => {
    const { results } = await check('check-change-quota');
    expect(results.map((r) => r['verdict'])).toEqual(['unknown', 'unknown']);
    expect(results[1]?.['findings'][0]['summary']).toContain('the new pods of deployment/x');
  });

  it('room in the quota for both: both will finish', async () => {
    const { results } = await check('check-change-quota', (items) => {
      const quota = items.find((o) => o['kind'] === 'ResourceQuota');
      if (quota) {
        quota['spec']['hard']['pods'] = '3';
        if (quota['status']?.['hard']) quota['status']['hard']['pods'] = '3';
      }
    });
    expect(results.map((r) => r['verdict'])).toEqual(['finishes', 'finishes']);
  });
});
