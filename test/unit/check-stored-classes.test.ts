/**
 * A PriorityClass in the checked change is judged as the API server stores it
 * (pkg/apis/scheduling/validation): an update may change neither value nor
 * preemptionPolicy, a user class may not pass 1,000,000,000, and `system-` names are
 * reserved. kubectl reports the refused document and applies the rest, so the new pods
 * get the live class (or none). The manifest's copy of `high` (value 100000, live 10) was
 * taken as written: "will finish" by preempting batch, where the live class preempts
 * nothing and the rollout never finishes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedClasses } from '../../src/check/stored-classes.js';
import type { PriorityClass } from '../../src/diagnosis/k8s-policy.js';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  metadata: { name },
  value,
  ...extra,
});

describe('the PriorityClasses the API server stores', () => {
  it('refuses a changed value or preemptionPolicy on update, and keeps an unchanged one', () => {
    const live = [pc('high', 10), pc('calm', 5000, { preemptionPolicy: 'Never' })];
    const { stored, refused } = storedClasses(
      [pc('high', 100000), pc('calm', 5000), pc('same', 7)],
      [...live, pc('same', 7)],
    );
    expect(refused).toEqual([
      { name: 'high', why: 'value: Forbidden: may not be changed in an update.' },
      { name: 'calm', why: 'preemptionPolicy: Invalid value: field is immutable' },
    ]);
    expect(stored.map((c) => c.metadata.name)).toEqual(['same']);
  });

  it('refuses a user class above 1e9 and a reserved system- name; takes a system class as it is', () => {
    const { stored, refused } = storedClasses(
      [
        pc('urgent', 1_500_000_000),
        pc('system-web', 100),
        pc('system-node-critical', 2_000_001_000),
        pc('top', 1e9),
      ],
      undefined,
    );
    expect(refused.map((r) => r.name)).toEqual(['urgent', 'system-web']);
    expect(stored.map((c) => c.metadata.name)).toEqual(['system-node-critical', 'top']);
  });
});

describe('check with a PriorityClass update the API server refuses', () => {
  const dump = fixtureDump('check-priority-class-update.json');
  const manifest = join(
    import.meta.dirname,
    '../fixtures/dumps',
    'check-priority-class-update-manifest.json',
  );
  const check = async (edit?: (items: DumpItem[]) => DumpItem[]) => {
    const { status, stdout } = await dump.cli(['check', '-f', manifest, '-o', 'json'], edit);
    const [result] = (JSON.parse(stdout) as { results: { verdict: string; findings: { code: string }[] }[] })
      .results;
    return { status, result };
  };

  it('judges the new pods with the live class: it preempts nothing, so the rollout never finishes', async () => {
    const { status, result } = await check();
    expect(result?.verdict).toBe('never-finishes');
    expect(result?.findings.map((f) => f.code)).not.toContain('PreemptionUnderWay');
    expect(status).not.toBe(0);
  });

  it('where the live class already has that value the update is stored: it preempts and finishes', async () => {
    const liveHigh = (items: DumpItem[]) =>
      items.map((i) =>
        i.kind === 'PriorityClass' && i.metadata.name === 'high' ? { ...i, value: 100000 } : i,
      );
    const { status, result } = await check(liveHigh);
    expect(result?.findings.map((f) => f.code)).toContain('PreemptionUnderWay');
    expect(status).toBe(0);
  });
});
