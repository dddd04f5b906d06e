/**
 * Element ids are unique in an Adaptive Card (its renderer reports a duplicate): a
 * paragraph with a role (the verdict a state line or an outcome edits) names only its
 * first line's block, however many lines it has.
 */
import { describe, expect, it } from 'vitest';
import { earlyWarningRootMessage, firingRootMessage } from '../../src/app/alerts/messages.js';
import type { ChatMessage } from '../../src/chat/model.js';
import { renderCard } from '../../src/chat/teams/cards.js';

/** Every `id` in a card, depth first. */
function ids(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(ids);
  if (node === null || typeof node !== 'object') return [];
  const own = typeof (node as { id?: unknown }).id === 'string' ? [(node as { id: string }).id] : [];
  return [...own, ...Object.values(node).flatMap(ids)];
}

describe('Adaptive Card element ids', () => {
  const messages: [string, ChatMessage][] = [
    ['an early-warning root (title and summary lines)', earlyWarningRootMessage('title', 'one\ntwo\nthree')],
    [
      'a firing root whose summary says more, on several lines',
      firingRootMessage(
        'KubePodCrashLooping on shop/deployment/web',
        'Pod is crash looping.\nSee the runbook.',
        ['KubePodCrashLooping'],
      ),
    ],
  ];

  it.each(messages)('%s: each id once, the verdict named on its first block', (_what, message) => {
    const found = ids(renderCard(message));
    expect(found).toContain('role-verdict');
    expect(found.length).toBe(new Set(found).size);
  });
});
