/**
 * The pull request's title and body, in the reader's language (words.ts). Text from the
 * cluster or a chat (the finding's summary, the proof, who approved) is escaped for
 * GitHub Markdown first (markdown-text.ts): no HTML, no @mention, no link of its own
 * making; the diff sits in a fence it cannot close. The incident, the approvers and the
 * thread's link: pull-record.ts.
 */
import { wordsIn } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { proofSentence } from '../remediation/proof-text.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { markdownText } from './markdown-text.js';
import { recordLines, type PullRecord } from './pull-record.js';
import { proposeWords, type CheckSaid } from './words.js';

export { markdownText } from './markdown-text.js';

export interface PullText extends PullRecord {
  plan: RemediationPlan;
  finding: { code: string; summary: string };
  file: string;
  fields: readonly string[];
  diff: string;
  check: CheckSaid;
  /** What check read: the file, or the render of the overlay or chart. */
  rendered: string;
  against: string;
}

/** A fence longer than any run of backticks in the text. */
function fenced(text: string, info: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\n$/, '')}\n${fence}`;
}

export function pullTitle(lang: Lang, input: PullText): string {
  const { target } = input.plan;
  return wordsIn(proposeWords, lang).title({ ...target, finding: input.finding.code });
}

export function pullBody(lang: Lang, input: PullText): string {
  const w = wordsIn(proposeWords, lang);
  const { target } = input.plan;
  const lines = [
    `### ${w.heading(target)}`,
    '',
    w.diagnosis({ finding: input.finding.code, summary: markdownText(input.finding.summary) }),
    '',
    w.change({
      plan: input.plan.id,
      fields: input.fields.map((f) => `\`${f}\``).join(', '),
      file: input.file,
    }),
    '',
    fenced(input.diff, 'diff'),
    '',
    input.plan.proof
      ? w.proof({ proof: markdownText(proofSentence(input.plan.proof, lang)) })
      : w.noProof({}),
    '',
    w.check({
      check: input.check,
      rendered: markdownText(input.rendered),
      against: markdownText(input.against),
    }),
    '',
    ...recordLines(w, input),
    w.footer({}),
    '',
  ];
  return lines.join('\n');
}
