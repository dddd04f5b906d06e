/**
 * `check`'s Fix for a surge deadlock is held to the workload's PodDisruptionBudgets
 * (attack round 13): maxSurge 0 / maxUnavailable 1 on one replica serves nothing while
 * each rollout runs, and budget pdb-all (maxUnavailable 0) wants it serving. A rolling
 * update does not consult budgets, so the Fix was committed with no word of it; it now
 * says the budget it goes below, in English and Korean. Without the budget, it does not.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('check-fix-below-budget.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/check-fix-below-budget-manifest.json');

const check = async (lang: string, edit?: (items: DumpItem[]) => DumpItem[]) =>
  (await dump.cli(['check', '-f', MANIFEST, '--lang', lang], edit)).stdout.replace(/\s+/g, ' ');

const noBudget = (items: DumpItem[]): DumpItem[] =>
  items.filter((i) => !(i.kind === 'PodDisruptionBudget' && i.metadata.name === 'pdb-all'));

describe("check's Fix and the workload's disruption budget", () => {
  it('says the Fix goes below pdb-all in every rollout', async () => {
    const en = await check('en');
    expect(en).toContain('maxSurge 0, maxUnavailable 1 would let it');
    expect(en).toContain(
      'That is below PodDisruptionBudget pdb-all (maxUnavailable 0: 1 must serve, 0 would) in every rollout',
    );
    expect(await check('ko')).toContain(
      'PodDisruptionBudget(pdb-all)의 하한 아래로 내려갑니다(1개가 서비스해야 하는데 0개만 서비스)',
    );
  });

  it('the other arm: no budget over the pods, no such sentence', async () => {
    const en = await check('en', noBudget);
    expect(en).toContain('maxSurge 0, maxUnavailable 1 would let it');
    expect(en).not.toContain('below PodDisruptionBudget');
  });
});
