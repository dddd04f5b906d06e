/**
 * A card re-rendered from what it shows (Teams) says when its incident is over, as a
 * Slack root strikes its verdict: a line above the verdict once the fix rolled out (or
 * the replacement pods are Ready, the change was in place, the Undo is done), gone
 * again at any other stage (an Undo approved after), never twice; the verdict itself
 * stays as it was.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/model.js';
import { plainText, say } from '../../src/message/rich.js';
import { withResolution } from '../../src/chat/use-cases/outcome.js';
import { applyMark } from '../../src/chat/teams/mark.js';

const card: ChatMessage = {
  summary: say`deployment/web: RolloutSurgeDeadlock`,
  parts: [
    { kind: 'heading', text: 'deployment/web in shop' },
    { kind: 'paragraph', text: say`RolloutSurgeDeadlock: the rollout can never finish`, role: 'verdict' },
    { kind: 'paragraph', text: say`approved; applying…`, role: 'state' },
  ],
};
const texts = (m: ChatMessage): string[] =>
  m.parts.map((p) => (p.kind === 'paragraph' ? plainText(p.text) : p.kind === 'heading' ? p.text : p.kind));

describe('the resolution line', () => {
  it('stands above the verdict once the incident is over, once, and goes at a later stage that is not', () => {
    const rolledOut = withResolution(card, 'rolled-out');
    expect(texts(rolledOut)).toEqual([
      'deployment/web in shop',
      'Resolved: rolled out.',
      'RolloutSurgeDeadlock: the rollout can never finish',
      'approved; applying…',
    ]);
    expect(texts(withResolution(rolledOut, 'undone'))).toEqual([
      'deployment/web in shop',
      'Resolved: undone.',
      'RolloutSurgeDeadlock: the rollout can never finish',
      'approved; applying…',
    ]);
    expect(texts(withResolution(rolledOut, 'undoing'))).toEqual(texts(card));
    for (const stage of ['applied', 'still-failing', 'timeout', 'failed'] as const)
      expect(withResolution(card, stage).parts).toEqual(card.parts);
  });

  it('comes with a press whose mark takes over a resolved stage, and not with "applying"', () => {
    const base = {
      planId: 'p',
      label: 'Approved: set-recreate',
      line: say`rolled out`,
      withdrawOthers: true,
      summary: say`x`,
    };
    expect(texts(applyMark(card, { ...base, stage: 'rolled-out' }))).toContain('Resolved: rolled out.');
    expect(texts(applyMark(card, { ...base, stage: 'applying' }))).not.toContain('Resolved: rolled out.');
  });
});
