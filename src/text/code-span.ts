/**
 * Our own code spans in text that also carries cluster text. Finding and
 * plan prose is one string built from our words and the cluster's values; the Slack
 * renderer must escape the values (a backtick from a pod's log becomes a look-alike),
 * which used to turn our quoted commands into look-alikes too, and copying
 * "ˋkubectl rollout statusˋ" gives a wrong command. So our spans are not written with
 * backticks but with codeSpan(), which marks them with two private-use characters that
 * no value we interpolate carries through it: the Slack renderer shows a marked span as
 * inline code (src/chat/slack/blocks/mrkdwn.ts escapeMrkdwn), every other output (the
 * terminal, JSON, plain_text) as backticks (cleanText).
 *
 * Text from the cluster holding these two characters itself gets inline code at most:
 * its content is escaped as code always is (no mention, no link, no formatting).
 */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKS = /[\uE000\uE001]/g;
/** A well-formed span: one line, not empty, not unbounded. */
const SPAN = /\uE000([^\uE000\uE001\n]{1,300})\uE001/g;

/** `text` as our code span; any marker or backtick inside it is dropped. */
export function codeSpan(text: string): string {
  return `${OPEN}${text.replace(MARKS, '').replace(/`/g, '')}${CLOSE}`;
}

/** Segments of `text`: prose and our code spans, in order; stray markers dropped. */
export function splitCodeSpans(text: string): { code: boolean; text: string }[] {
  const out: { code: boolean; text: string }[] = [];
  let last = 0;
  for (const m of text.matchAll(SPAN)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ code: false, text: text.slice(last, at).replace(MARKS, '') });
    out.push({ code: true, text: m[1] ?? '' });
    last = at + m[0].length;
  }
  if (last < text.length || out.length === 0)
    out.push({ code: false, text: text.slice(last).replace(MARKS, '') });
  return out;
}

/** Our code spans as backticks, for outputs that show text as it is (terminal, JSON, plain_text). */
export function plainCodeSpans(text: string): string {
  return text.replace(SPAN, '`$1`').replace(MARKS, '');
}
