/**
 * The pull request's record of where it comes from: the incident's id, who
 * approved, and a link to the chat thread. A chat-made pull request names each approver
 * by display name with the chat id beside it (verifiable); a name the platform did not
 * give is said so, with the id alone. Names are untrusted text: one line, no control or
 * format characters, cut, then escaped as all chat text is (markdownText).
 */
import type { wordsIn } from '../i18n/catalogue.js';
import { markdownText } from './markdown-text.js';
import type { proposeWords } from './words.js';

type Words = ReturnType<typeof wordsIn<typeof proposeWords>>;

/** An approver as the chat knows them: the id the approval was signed for, and a name when one was read. */
interface Approver {
  id: string;
  name?: string | undefined;
}

export interface PullRecord {
  incident?: string | undefined;
  /** Who approved, as the command line was told (free text). */
  approvedBy?: string | undefined;
  /** Who approved a chat press (ids signed, names read from the platform). */
  approvers?: readonly Approver[] | undefined;
  /** The thread's link; a chat-made pull request without one says so. */
  thread?: string | undefined;
}

const MAX_NAME = 80;

/** A display name as literal Markdown text on one line, at most 80 characters; empty: none. */
export function nameText(name: string): string {
  const plain = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return markdownText([...plain].slice(0, MAX_NAME).join(''));
}

function approverText(w: Words, approver: Approver): string {
  const id = markdownText(approver.id);
  const name = approver.name === undefined ? '' : nameText(approver.name);
  return name ? w.approverNamed({ name, id }) : w.approverUnnamed({ id });
}

/** A link the body shows as is: http(s), no space or character that could end it early. */
function linkOf(thread: string | undefined): string | undefined {
  return thread && /^https?:\/\/[^\s<>()[\]`*_]+$/.test(thread) ? thread : undefined;
}

/** The record's lines, each followed by a blank line. */
export function recordLines(w: Words, record: PullRecord): string[] {
  const lines: string[] = [];
  if (record.incident) lines.push(w.incident({ id: markdownText(record.incident) }), '');
  if (record.approvers && record.approvers.length > 0)
    lines.push(w.approvedBy({ who: record.approvers.map((a) => approverText(w, a)).join(', ') }), '');
  else if (record.approvedBy) lines.push(w.approvedBy({ who: markdownText(record.approvedBy) }), '');
  else lines.push(w.notApproved({}), '');
  const link = linkOf(record.thread);
  if (link) lines.push(w.thread({ url: link }), '');
  else if (record.approvers) lines.push(w.noThread({}), '');
  return lines;
}
