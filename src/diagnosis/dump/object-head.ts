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

const SCALAR = `[ \\t]*(?:"([^"\\\\\\n]*)"|'([^'\\n]*)'|([A-Za-z0-9][A-Za-z0-9._/-]*))[ \\t]*\\r?$`;
const cache = new Map<string, { kind: RegExp; metadata: RegExp; namespace: RegExp; end: RegExp }>();

function patterns(indent: number): { kind: RegExp; metadata: RegExp; namespace: RegExp; end: RegExp } {
  const key = String(indent);
  let found = cache.get(key);
  if (!found) {
    const pad = ' '.repeat(indent);
    found = {
      kind: new RegExp(`^${pad}kind:${SCALAR}`, 'm'),
      metadata: new RegExp(`^${pad}metadata:[ \\t]*\\r?$`, 'm'),
      namespace: new RegExp(`^${pad}  namespace:${SCALAR}`, 'gm'),
      // The metadata block ends at the next line indented no more than the object's keys.
      end: new RegExp(indent === 0 ? '^[^ \\n\\r#]' : `^ {0,${indent}}[^ \\n\\r#]`, 'gm'),
    };
    cache.set(key, found);
  }
  return found;
}

function value(match: RegExpExecArray | null): string | undefined {
  if (!match) return undefined;
  return match[1] ?? match[2] ?? match[3];
}

/**
 * The head of the object whose keys sit at `indent` spaces in `text`; `kind` falls back
 * to `listKind` (a typed List's items carry none). Undefined fields were not read.
 */
export function readHead(text: string, indent: number, listKind?: string): ObjectHead {
  const p = patterns(indent);
  const kind = value(p.kind.exec(text)) ?? listKind;
  const meta = p.metadata.exec(text);
  let namespace: string | undefined;
  if (meta) {
    const from = meta.index + meta[0].length;
    p.end.lastIndex = from;
    const stop = p.end.exec(text)?.index ?? text.length;
    // Searched from the block's start; a match past its end belongs to another mapping.
    p.namespace.lastIndex = from;
    const found = p.namespace.exec(text);
    namespace = found && found.index < stop ? value(found) : undefined;
  }
  return { ...(kind !== undefined ? { kind } : {}), ...(namespace !== undefined ? { namespace } : {}) };
}

const specCache = new Map<number, { spec: RegExp; nodeName: RegExp; end: RegExp }>();

/** `spec.nodeName` read off the text, or undefined (not bound, or not plain enough to read). */
export function readNodeName(text: string, indent: number): string | undefined {
  let p = specCache.get(indent);
  if (!p) {
    const pad = ' '.repeat(indent);
    p = {
      spec: new RegExp(`^${pad}spec:[ \\t]*\\r?$`, 'm'),
      nodeName: new RegExp(`^${pad}  nodeName:${SCALAR}`, 'gm'),
      end: new RegExp(indent === 0 ? '^[^ \\n\\r#]' : `^ {0,${indent}}[^ \\n\\r#]`, 'gm'),
    };
    specCache.set(indent, p);
  }
  const spec = p.spec.exec(text);
  if (!spec) return undefined;
  const from = spec.index + spec[0].length;
  p.end.lastIndex = from;
  const stop = p.end.exec(text)?.index ?? text.length;
  p.nodeName.lastIndex = from;
  const found = p.nodeName.exec(text);
  return found && found.index < stop ? value(found) : undefined;
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
  let body = text;
  for (const m of text.matchAll(USER_MAPS)) {
    const pad = m[1]?.length ?? 0;
    const from = (m.index ?? 0) + m[0].length;
    const end = new RegExp(`^ {0,${pad}}[^ \\n\\r#]`, 'gm');
    end.lastIndex = from;
    const stop = end.exec(text)?.index ?? text.length;
    body = body.slice(0, from) + ' '.repeat(stop - from) + body.slice(stop);
  }
  let newest: string | undefined;
  let newestMs = 0;
  for (const m of body.matchAll(TIME_LINE)) {
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
