/**
 * A dump cut off on its way to disk (a full disk, an interrupted copy, a `kubectl get`
 * killed mid-write) reads as a broken object, so the loader checks for the two shapes
 * such a file takes and says the file ends early, and where, instead: a JSON text
 * whose parser ran out of input, and a `kubectl get -o yaml` List, whose keys kubectl
 * writes sorted (apiVersion, items, kind, metadata), holding items but no `kind` after
 * them.
 */

/** Lines in the text, counting a last line without a newline. */
function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The message for JSON that stops before its brackets close, else undefined. */
export function truncatedJson(text: string, error: unknown): string | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  // V8 says "Unexpected end of JSON input" (Node 20) or names the end position; an
  // unterminated string at the very end is the same cut.
  const atEnd =
    /end of JSON input/i.test(error.message) ||
    new RegExp(`position ${text.trimEnd().length}\\b`).test(error.message) ||
    /Unterminated string/i.test(error.message);
  if (!atEnd) return undefined;
  return `the dump ends early: its JSON stops at line ${lineCount(text)} before its brackets close (was the file cut off? write it again, e.g. \`kubectl get … -o json > dump.json\`)`;
}

/**
 * The message for a cut List: the file's last document, read as its List header (the
 * items taken out), has items and an apiVersion but no kind.
 */
export function truncatedList(
  header: unknown,
  whole: { text: string; itemCount: number },
): string | undefined {
  if (header === null || typeof header !== 'object' || Array.isArray(header)) return undefined;
  const record = header as Record<string, unknown>;
  if (!('items' in record) || 'kind' in record || typeof record['apiVersion'] !== 'string') return undefined;
  const last = whole.itemCount - 1;
  const inside = last >= 0 ? `, inside items[${last}]` : '';
  return `the dump ends early: its List stops at line ${lineCount(whole.text)}${inside}, without the \`kind: List\` kubectl writes after the items (was the file cut off? write it again)`;
}
