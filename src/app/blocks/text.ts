import type { types } from '@slack/bolt';
import { codeBlock, plainText, truncateMrkdwn, type Mrkdwn } from './mrkdwn.js';

/** Small Block Kit helpers that keep every string inside Slack's limits (DESIGN.md §6). */

export type Block = Record<string, unknown>;

export const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  buttonText: 75,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  headerText: 150,
} as const;

/** Shortens to `max` characters, ending in '…' when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

export { escapeMrkdwn, mrkdwn, trusted, type Mrkdwn } from './mrkdwn.js';

/** A mrkdwn section; only Mrkdwn (escaped or ours) goes in (./mrkdwn.ts). */
export function section(text: Mrkdwn): Block {
  return { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(text, LIMITS.sectionText) } };
}

/** A section holding untrusted `body` as a code block under our `title`; the fence cannot be broken. */
export function codeSection(title: Mrkdwn, body: string): Block {
  const room = LIMITS.sectionText - title.length - 10;
  return section(`${title}\n${codeBlock(body, room)}` as Mrkdwn);
}

export function context(text: Mrkdwn): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncateMrkdwn(text, LIMITS.sectionText) }] };
}

/** A plain_text object: Slack does not parse it, but controls and bidi characters are still removed. */
export function plain(text: string, max: number): { type: 'plain_text'; text: string; emoji: true } {
  return { type: 'plain_text', text: plainText(text, max), emoji: true };
}

/** Fixed-width table for a code block: columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) =>
    Math.min(40, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))),
  );
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => truncate(c, widths[i] ?? 40).padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/**
 * Our builders return plain objects; Bolt's types want its block union. The shapes
 * are checked by the Slack stand-in's Block Kit validation in tests.
 */
export function asSlackBlocks(blocks: Block[]): types.KnownBlock[] {
  return blocks as unknown as types.KnownBlock[];
}
