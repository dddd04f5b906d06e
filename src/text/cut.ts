/**
 * Cutting text to a length. JavaScript counts UTF-16 units, so a plain slice can end
 * between the two halves of an emoji or a rare Hangul/CJK character; the half left over
 * shows as U+FFFD, and Slack refuses some payloads that carry one. Every cut goes
 * through here.
 */

const HIGH_SURROGATE = /[\ud800-\udbff]$/;

/** The first `end` units of `text`, one fewer where the last would be half a pair. */
export function sliceWhole(text: string, end: number): string {
  const head = text.slice(0, Math.max(0, end));
  return HIGH_SURROGATE.test(head) ? head.slice(0, -1) : head;
}

/**
 * `text` cut to at most `max` units with '…' where cut, never inside a surrogate pair.
 * @example cutText('abcdef', 4) === 'abc…'
 */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${sliceWhole(text, max - 1)}…`;
}
