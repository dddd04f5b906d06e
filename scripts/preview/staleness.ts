/**
 * Are the committed screenshots (docs/preview-incident-{a,b}.png) still what the
 * preview renders? Pixels differ on every run (times, generated names), so each PNG
 * has a text twin, docs/preview-incident-{a,b}.txt: what the screenshotted message and
 * its thread say, with the parts that change from run to run replaced by placeholders.
 * `npm run preview -- --screenshots DIR` writes both and, when DIR is not docs/,
 * compares its text with the committed one and says which lines differ.
 */

/** Run-to-run noise replaced by placeholders, in order: times, then generated names. */
const NOISE: ReadonlyArray<[RegExp, string]> = [
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>'],
  [/\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?(?: UTC)?/g, '<time>'],
  [/\b\d{1,2}:\d\d(?::\d\d)?\s?(?:AM|PM)?\b/g, '<time>'],
  // object uids
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uid>'],
  // plan ids: the kind, a dash, 16 hex digits
  [/\b([a-z-]+)-[0-9a-f]{16}\b/g, '$1-<id>'],
  // pod names: ReplicaSet hash and pod suffix; ReplicaSet names: the hash
  [/-[0-9a-z]{8,10}-[0-9a-z]{5}\b/g, '-<hash>-<pod>'],
  [/-[0-9a-f]{8,10}\b/g, '-<hash>'],
  [/\b(\d+(?:\.\d+)?)\s?(ms|s|seconds?|minutes?)\b/g, '<duration>'],
];

/** The text of a rendered message with run-to-run noise replaced, one trimmed line per line. */
export function normalizedPreviewText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of NOISE) out = out.replace(pattern, replacement);
  return out
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Lines only in one of the two texts ("- committed", "+ now"), in order; empty when the same. */
export function previewTextDiff(committed: string, now: string): string[] {
  const a = committed.split('\n');
  const b = now.split('\n');
  const inB = new Set(b);
  const inA = new Set(a);
  return [
    ...a.filter((l) => !inB.has(l)).map((l) => `- ${l}`),
    ...b.filter((l) => !inA.has(l)).map((l) => `+ ${l}`),
  ];
}
