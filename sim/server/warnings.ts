/**
 * The API server's warning recorder (k8s.io/apiserver/pkg/endpoints/filters/warning.go):
 * every warning an admission webhook returns becomes a `Warning: 299 - "<text>"` header
 * on the response, success or refusal alike, which kubectl and helm print as
 * `Warning: <text>`.
 * - an empty text, or one repeated within the request, is dropped;
 * - a text holding a control character is dropped (apimachinery util/net
 *   NewWarningHeader refuses it); `"` and `\` are escaped;
 * - past 4096 runes in all, every warning is cut to 256 runes, those already written
 *   included, and once over the limit again the rest are dropped.
 */
import type { ServerResponse } from 'node:http';

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

// Go's unicode.IsControl: C0, DEL and C1.
const isControl = (text: string): boolean =>
  [...text].some((c) => {
    const code = c.codePointAt(0) ?? 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });

/** `299 - "text"`, or undefined for a text NewWarningHeader refuses. */
export function warningHeader(text: string): string | undefined {
  if (isControl(text)) return undefined;
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

const runes = (text: string): string[] => [...text];

/**
 * Node writes header values as latin1: the UTF-8 bytes of the text go out as they are,
 * as Go writes them, by handing Node the bytes as latin1 characters.
 */
const onTheWire = (header: string): string => Buffer.from(header, 'utf8').toString('latin1');

export interface WarningRecorder {
  add(text: string): void;
  /** The texts written so far (after truncation), in order. */
  readonly written: readonly string[];
}

/**
 * Go decodes JSON strings with U+FFFD for a lone surrogate, so a webhook's text always
 * reaches the recorder as valid UTF-8; JSON.parse keeps them, so they are replaced here.
 */
export const wellFormed = (text: string): string =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** A recorder writing to `res`'s `Warning` headers until its head is sent. */
export function warningRecorder(res: ServerResponse): WarningRecorder {
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let written: string[] = [];
  let total = 0;
  let truncating = false;
  const flush = (): void => {
    if (res.headersSent) return;
    const headers = written.map(warningHeader).filter((h): h is string => h !== undefined);
    if (headers.length === 0) res.removeHeader('Warning');
    else res.setHeader('Warning', headers.map(onTheWire));
  };
  const cut = (text: string): string => {
    const r = runes(text);
    return r.length > TRUNCATE_ITEM_RUNES ? r.slice(0, TRUNCATE_ITEM_RUNES).join('') : text;
  };
  return {
    get written() {
      return written;
    },
    add(text: string) {
      if (text.length === 0) return;
      if (total >= TRUNCATE_AT_TOTAL_RUNES && truncating) return;
      if (recorded.has(text)) return;
      recorded.add(text);
      ordered.push(text);
      const item = truncating ? cut(text) : text;
      if (warningHeader(item) === undefined) return;
      const length = runes(item).length;
      if (total + length <= TRUNCATE_AT_TOTAL_RUNES || truncating) {
        total += length;
        written = [...written, item];
        flush();
        return;
      }
      truncating = true;
      total = 0;
      written = [];
      for (const earlier of ordered) {
        const short = cut(earlier);
        if (warningHeader(short) === undefined) continue;
        total += runes(short).length;
        written.push(short);
      }
      flush();
    },
  };
}
