/**
 * Issue 54.1: every id of every platform is its own command-budget key. Plain ids are
 * kept; any other shape is hashed, never folded into one shared key. And Teams' private
 * answers are bounded per person (src/chat/teams/private-answers.ts).
 */
import { describe, expect, it } from 'vitest';
import { budgetKeyPart } from '../../src/chat/use-cases/command-budget.js';
import { privateAnswers } from '../../src/chat/teams/private-answers.js';

describe('budget keys', () => {
  it('keeps Slack ids and Entra object ids as they are', () => {
    expect(budgetKeyPart('U0ANNA')).toBe('U0ANNA');
    expect(budgetKeyPart('C0BUSY')).toBe('C0BUSY');
    const guid = '7f3a2c1e-9b8d-4e6f-a5c4-3b2a1d0e9f8c';
    expect(budgetKeyPart(guid)).toBe(guid);
  });

  it('hashes every other shape, one key per id, none equal to a plain id', () => {
    const odd = [
      '19:flood@thread.tacv2',
      '19:quiet@thread.tacv2',
      'a:personal-1',
      '29:1abc',
      '',
      'x'.repeat(65),
      'U0ANNA ',
      '../../etc',
    ];
    const keys = odd.map(budgetKeyPart);
    expect(new Set(keys).size).toBe(odd.length);
    for (const key of keys) expect(key).toMatch(/^~[0-9a-f]{40}$/);
    expect(budgetKeyPart('19:flood@thread.tacv2')).toBe(keys[0]);
  });
});

describe('Teams private answers', () => {
  it('at most three a minute per person, each person apart, again after the minute', () => {
    let now = 0;
    const answers = privateAnswers({ now: () => now });
    const taken = Array.from({ length: 5 }, () => answers.take('a'));
    expect(taken).toEqual([true, true, true, false, false]);
    expect(answers.take('b')).toBe(true);
    now = 60_000;
    expect(answers.take('a')).toBe(true);
  });
});
