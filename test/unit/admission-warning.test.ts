/**
 * The webhook's warnings carry cluster text into a header and a terminal: printable
 * ASCII only, each at most 120 characters, the verdict kept when a name is long.
 */
import { describe, expect, it } from 'vitest';
import { WARNING_MAX, refusalFor, warningsFor } from '../../src/admission/warning.js';
import type { CheckResult } from '../../src/check/check.js';

function result(name: string, reason: string, fix = true): CheckResult {
  return {
    target: { kind: 'Deployment', namespace: 'ns', name },
    rollout: 'template',
    changes: ['spec.containers[0].image'],
    verdict: 'never-finishes',
    findings: [],
    reason,
    ...(fix
      ? {
          fix: {
            words: 'maxSurge 0, maxUnavailable 1',
            cost: '',
            patch: { type: 'merge' as const, body: {} },
            yaml: '',
          },
        }
      : {}),
  };
}

describe('warningsFor', () => {
  it('keeps the verdict and the fix within 120 characters, shortening a long name', () => {
    const [head, detail] = warningsFor(
      result('a'.repeat(253), 'its new pod needs 1 nvidia.com/gpu, held by its old pods'),
    );
    expect(head).toMatch(
      /^rollout-doctor: rollout of deployment\/a+\.\.\. can never finish; maxSurge 0, maxUnavailable 1 would let it$/,
    );
    expect(head?.length).toBeLessThanOrEqual(WARNING_MAX);
    expect(detail).toBe('rollout-doctor: its new pod needs 1 nvidia.com/gpu, held by its old pods');
  });

  it('turns control sequences, line breaks, bidi and non-ASCII from cluster text into "?"', () => {
    const hostile = 'quota \u001b[31mred\u001b[0m\r\nWarning: 299 - "forged" \u202eevil ünïcode';
    const warnings = [
      ...warningsFor(result('web', hostile, false)),
      refusalFor(result('web', hostile, false)),
    ];
    for (const w of warnings) {
      expect(w).toMatch(/^[\x20-\x7e]*$/);
      expect(w).not.toContain('\u001b');
    }
    expect(warnings[1]?.length).toBeLessThanOrEqual(WARNING_MAX);
    expect(warnings[1]).toContain('quota ?[31mred?[0m??Warning');
  });

  // issue 64.2: the change is stored and its rollout starts; a dry run stored nothing.
  it('on an apply that is stored, a third line says how to take it back; a dry run gets none', () => {
    const applied = warningsFor(result('web', 'x'));
    expect(applied[2]).toBe(
      'rollout-doctor: applied; to take it back: kubectl rollout undo deployment/web -n ns',
    );
    expect(warningsFor(result('web', 'x'), { dryRun: true })).toHaveLength(2);
    const rollout = warningsFor({
      ...result('tracker', 'x'),
      target: { kind: 'Rollout', namespace: 'ml', name: 'tracker' },
    });
    expect(rollout[2]).toBe(
      'rollout-doctor: applied; to take it back: kubectl argo rollouts abort tracker -n ml',
    );
    const long = warningsFor(result('a'.repeat(253), 'x'))[2] ?? '';
    expect(long.length).toBeLessThanOrEqual(WARNING_MAX);
    expect(long).toMatch(
      /^rollout-doctor: applied; to take it back: kubectl rollout undo deployment\/a+\.\.\. -n ns$/,
    );
  });

  it('says nothing for a rollout that finishes or whose outcome is not known', () => {
    expect(warningsFor({ ...result('web', 'x'), verdict: 'finishes' })).toEqual([]);
    expect(warningsFor({ ...result('web', 'x'), verdict: 'unknown' })).toEqual([]);
  });
});
