/**
 * An object's `kind` and `metadata.namespace`, read off its YAML text without parsing
 * it, so that a large dump's objects no diagnosis of the target can use are never
 * parsed (dump.ts `skip`). Only the plain block style kubectl writes is read: the key
 * at the object's own indentation, a plain or quoted scalar on the same line, and a
 * `metadata:` block mapping. Anything else (flow style, anchors, tags, a value on the
 * next line) reads as unknown, and the object is parsed as before.
 *
 * YAML makes the line work safe: a key of the object's own mapping starts exactly at
 * its indentation, and every line inside a nested value, block scalars included, is
 * indented further, so `^ {n}kind:` cannot match a nested `kind` (an owner reference,
 * an involved object) nor a line of a multi-line string.
 */

export interface ObjectHead {
  kind?: string;
  namespace?: string;
}

const SCALAR = /^[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([A-Za-z0-9][A-Za-z0-9._/-]*))[ \t]*\r?$/;
const BLOCK_START = /^[ \t]*\r?$/;

/** The plain or quoted scalar that is the rest of a line, or undefined. */
function scalar(rest: string): string | undefined {
  const m = SCALAR.exec(rest);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/**
 * Walks the lines of `text` (indexOf, no regular expression over the whole text: a
 * 100 MB dump is cut into tens of thousands of these), calling `visit` with each
 * non-blank, non-comment line's indentation and where its content starts, until
 * `visit` returns true.
 */
function walkLines(text: string, visit: (indent: number, at: number, end: number) => boolean): void {
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    let i = at;
    while (i < end && text.charCodeAt(i) === 32) i += 1;
    // A sequence entry's first line ("- key: v"): the key sits two further in.
    const dash = text.charCodeAt(i) === 45 && text.charCodeAt(i + 1) === 32;
    const key = dash ? i + 2 : i;
    const c = text[key];
    const blank = key >= end || c === '#' || (c === '\r' && key + 1 === end);
    if (!blank && visit(key - at, key, end)) return;
    at = end + 1;
  }
}

/** The value of `key` inside the block mapping `block` at `indent` (a child key at indent + 2). */
function childOf(text: string, indent: number, block: string, key: string): string | undefined {
  let inBlock = false;
  let found: string | undefined;
  walkLines(text, (at, i, end) => {
    if (at <= indent) {
      if (inBlock) return true;
      inBlock =
        at === indent &&
        text.startsWith(`${block}:`, i) &&
        BLOCK_START.test(text.slice(i + block.length + 1, end));
      return false;
    }
    if (inBlock && at === indent + 2 && text.startsWith(`${key}:`, i)) {
      found = scalar(text.slice(i + key.length + 1, end));
      return true;
    }
    return false;
  });
  return found;
}

/**
 * The head of the object whose keys sit at `indent` spaces in `text`; `kind` falls back
 * to `listKind` (a typed List's items carry none). Undefined fields were not read.
 */
export function readHead(text: string, indent: number, listKind?: string): ObjectHead {
  let kind: string | undefined;
  walkLines(text, (at, i, end) => {
    if (at === indent && text.startsWith('kind:', i)) {
      kind = scalar(text.slice(i + 5, end));
      return true;
    }
    return false;
  });
  const namespace = childOf(text, indent, 'metadata', 'namespace');
  kind ??= listKind;
  return { ...(kind !== undefined ? { kind } : {}), ...(namespace !== undefined ? { namespace } : {}) };
}

/** `spec.nodeName` read off the text, or undefined (not bound, or not plain enough to read). */
export function readNodeName(text: string, indent: number): string | undefined {
  return childOf(text, indent, 'spec', 'nodeName');
}

/** A line `key: time` whose key ends in Timestamp, Time or At (assemble.ts newestTimestamp's rule), time RFC 3339. */
const TIME_LINE =
  /^[ \t]*(?:- )?([A-Za-z]*(?:Timestamp|Time|At)):[ \t]*["']?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))["']?[ \t]*\r?$/gm;
/** Free-form maps of the object's metadata, whose keys anyone may write: not clocks. */
const USER_MAPS = /^( *)(?:annotations|labels):[ \t]*\r?$/gm;

/**
 * The newest time the text records under a key that assemble.ts' newestTimestamp reads
 * (…Timestamp, …Time, …At; never a deletion or an expiry), skipping the annotation and
 * label maps. Undefined when it holds none. For text that is never parsed, so that
 * "when the dump was taken" stays what it would have been.
 */
export function newestTimeInText(text: string): string | undefined {
  // The annotation and label maps' ranges, whose lines are skipped (no copy of the text).
  const skipped: [number, number][] = [];
  for (const m of text.matchAll(USER_MAPS)) {
    const pad = m[1]?.length ?? 0;
    const from = (m.index ?? 0) + m[0].length;
    const end = new RegExp(`^ {0,${pad}}[^ \\n\\r#]`, 'gm');
    end.lastIndex = from;
    skipped.push([from, end.exec(text)?.index ?? text.length]);
  }
  let newest: string | undefined;
  let newestMs = 0;
  for (const m of text.matchAll(TIME_LINE)) {
    const at = m.index ?? 0;
    if (skipped.some(([from, to]) => at >= from && at < to)) continue;
    const key = m[1] ?? '';
    if (key === 'deletionTimestamp' || /[Ee]xpir/.test(key)) continue;
    const ms = Date.parse(m[2] ?? '');
    if (ms > newestMs) {
      newestMs = ms;
      newest = m[2];
    }
  }
  return newest;
}
