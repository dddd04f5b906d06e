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

// Issue 65.3: the namespace's language. Our own words may be Korean; cluster text stays ASCII.
describe('warningsFor in Korean', () => {
  it('says the verdict, the fix and the undo in Korean, names and commands as written', () => {
    const [head, detail, undo] = warningsFor(result('web', 'its new pod needs 1 nvidia.com/gpu'), {
      lang: 'ko',
    });
    expect(head).toBe(
      'rollout-doctor: deployment/web 롤아웃이 끝나지 않습니다. maxSurge 0, maxUnavailable 1 설정이면 끝납니다',
    );
    expect(detail).toBe('rollout-doctor: its new pod needs 1 nvidia.com/gpu');
    expect(undo).toBe(
      'rollout-doctor: 적용되었습니다. 되돌리려면: kubectl rollout undo deployment/web -n ns',
    );
    expect(refusalFor(result('web', 'x'), 'ko')).toMatch(
      /\(거부됨: 네임스페이스에 rollout-doctor\.io\/admission=refuse 레이블이 있습니다\)$/,
    );
  });

  it('still turns non-ASCII and control text from the cluster into "?", and counts characters, not bytes', () => {
    const hostile = 'quota \u202eevil \u001b[31m 한글 \u2028x';
    const warnings = warningsFor(result(`web\u200f${'a'.repeat(200)}`, hostile), { lang: 'ko' });
    expect(warnings[1]).toBe('rollout-doctor: quota ?evil ?[31m ?? ?x');
    for (const w of warnings) {
      expect([...w].length).toBeLessThanOrEqual(WARNING_MAX);
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      expect(w).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2028\u2029]/);
    }
    expect(warnings[0]).toMatch(/^rollout-doctor: deployment\/web\?a+\.\.\. 롤아웃이 끝나지 않습니다\. /);
  });
});
