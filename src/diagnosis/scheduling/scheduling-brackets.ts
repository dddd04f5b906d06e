/**
 * The bracket-aware scanner under the FailedScheduling parser: it finds the reason
 * separators (", <count> "), the sentence ends (". ") and the "preemption:" marker
 * only outside {...}, [...] and (...), because reasons such as
 * "node(s) had taint {k: v}, that the pod didn't tolerate" contain commas and colons.
 */

const OPEN = '{[(';
const CLOSE = '}])';

/**
 * Splits the reason list into items. Returns undefined when brackets never close
 * (an unbalanced "{" in a reason), so the caller can retry without bracket tracking.
 */
export function splitItems(
  s: string,
  pos: number,
  trackBrackets: boolean,
): { items: string[]; end: number } | undefined {
  const items: string[] = [];
  let start = pos;
  let depth = 0;
  const push = (to: number): void => {
    const item = s.slice(start, to).trim();
    if (item) items.push(item);
  };
  for (let i = pos; i < s.length; i++) {
    const c = s[i] ?? '';
    if (trackBrackets && OPEN.includes(c)) {
      depth++;
      continue;
    }
    if (trackBrackets && CLOSE.includes(c)) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    const next = s[i + 1];
    if (c === ',' && next === ' ' && /^\d+ /.test(s.slice(i + 2, i + 24))) {
      push(i);
      start = i + 2;
      i += 1;
      continue;
    }
    if (c === '.' && (next === undefined || next === ' ' || next === '.' || next === ',')) {
      push(i);
      return { items, end: i };
    }
    if ((c === ' ' || c === ',') && s.startsWith('preemption:', i + (c === ',' ? 2 : 1))) {
      push(i);
      return { items, end: i };
    }
  }
  if (depth > 0) return undefined;
  push(s.length);
  return { items, end: s.length };
}

export function indexOfTopLevel(s: string, needle: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && s.startsWith(needle, i)) return i;
  }
  // Unbalanced brackets: fall back to a plain search rather than miss the marker.
  return depth > 0 ? s.indexOf(needle) : -1;
}

export function sentenceEnd(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const next = s[i + 1];
    if (s[i] === '.' && (next === undefined || next === ' ' || next === '.' || next === ',')) return i;
  }
  return s.length;
}

/** Leftover plugin text, split on top-level ", " and stripped of the dots and commas around it. */
export function splitNotes(s: string): string[] {
  const notes: string[] = [];
  let depth = 0;
  let start = 0;
  const push = (to: number): void => {
    const note = s
      .slice(start, to)
      .replace(/^[\s.,]+|[\s.,]+$/g, '')
      .trim();
    if (note) notes.push(note);
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ',' || c === '.') && (s[i + 1] === ' ' || s[i + 1] === undefined)) {
      push(i);
      start = i + 1;
    }
  }
  push(s.length);
  return notes;
}
