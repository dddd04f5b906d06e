/**
 * Why the forward model did not follow a rollout, in the reader's language
 * (diagnosis/forward/model-why.ts): the engine's catalogued reasons in Korean where a
 * person reads them (a plan's "checked, not run", check's "not known"), any other as
 * the engine wrote it, English untouched.
 */
import { describe, expect, it } from 'vitest';
import { MODEL_WHY, whyInWords } from '../../src/diagnosis/forward/model-why.js';
import { checkSummary } from '../../src/check/words.js';

describe('the model reasons in words', () => {
  it('says a catalogued reason in Korean, and leaves English as the engine wrote it', () => {
    expect(whyInWords(MODEL_WHY.podsUnread, 'ko')).toBe('모든 노드의 파드를 읽지 못했습니다');
    expect(whyInWords(MODEL_WHY.podsUnread, 'en')).toBe('pods were not read on every node');
  });

  it('keeps a reason with the cluster in it as written', () => {
    const why = 'the model did not settle within 58 steps';
    expect(whyInWords(why, 'ko')).toBe(why);
  });

  it("check's not-known headline in Korean carries the reason in Korean", () => {
    const finding = {
      summary: 'Whether the rollout of deployment/web finishes is not known: the rollout is paused.',
      says: {
        key: 'notKnown',
        why: 'notKnownWhy',
        params: { ref: 'deployment/web', why: MODEL_WHY.paused },
      },
    } as const;
    expect(checkSummary(finding, 'ko')).toContain('롤아웃이 일시 중지되어 있습니다');
    expect(checkSummary(finding, 'ko')).not.toContain('the rollout is paused');
  });
});
