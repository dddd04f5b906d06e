/**
 * The warning kubectl, helm and Argo CD print when an apply starts a rollout that can
 * never finish. The API server returns each warning as a `Warning: 299 - "…"` header;
 * the API docs advise at most 120 characters each (longer or many may be truncated:
 * DESIGN.md §4d). The text carries names read from the cluster (node, quota, resource,
 * object names), so it is built to be safe by construction: printable ASCII only (any
 * other character becomes "?", so no control sequence, bidi or line break reaches a
 * terminal or a header), and each warning bounded to WARNING_MAX characters, the name
 * shortened first and the reason dropped before the verdict is. The words around them
 * are the catalogue's (words.ts), in the namespace's language: Korean
 * reaches the header as UTF-8, which the API server and kubectl carry as they do any
 * warning text; only those words, never cluster text, may be other than ASCII.
 */
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { rollBackCommand } from '../diagnosis/workloads/index.js';
import type { CheckResult } from '../check/check.js';
import { waitsForJobs } from '../check/job-wait.js';
import { wordsIn } from '../i18n/catalogue.js';
import { DEFAULT_LANG, type Lang } from '../i18n/lang.js';
import { admissionWords } from './words.js';

export const WARNING_MAX = 120;
const PREFIX = 'rollout-doctor: ';

/** Printable ASCII; everything else (controls, non-ASCII) as "?". */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

/**
 * Our own words may be Korean; anything else that is not printable (a control, a format
 * or bidi mark, a line or paragraph separator) becomes "?" all the same. Cluster text
 * was made ASCII by headerSafe before it was put in.
 */
function printable(text: string): string {
  return text.replace(/[\p{C}\p{Zl}\p{Zp}]/gu, '?');
}

/** At most `max` characters (code points), "..." where cut. */
function bounded(text: string, max = WARNING_MAX): string {
  const chars = [...printable(text)];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 3).join('')}...`;
}

/** The object's reference, its name cut so the verdict still fits in one warning. */
function refFor(result: CheckResult, room: number): string {
  const type = typeOfKind(result.target.kind);
  const name = headerSafe(result.target.name);
  const full = `${type}/${name}`;
  if (full.length <= room) return full;
  return `${type}/${name.slice(0, Math.max(8, room - type.length - 4))}...`;
}

/**
 * The verdict (with the fix when there is one), then what blocks it, and, on an apply
 * that is not a dry run (it is stored and its rollout starts), how to take it back:
 * `kubectl rollout undo …`, an Argo Rollout's `kubectl argo rollouts abort …`.
 * @example warningsFor(result) // ['rollout-doctor: rollout of deployment/embedder can never finish; maxSurge 0, maxUnavailable 1 would let it', …]
 */
export function warningsFor(result: CheckResult, options: { dryRun?: boolean; lang?: Lang } = {}): string[] {
  if (result.verdict !== 'never-finishes') return [];
  const words = wordsIn(admissionWords, options.lang ?? DEFAULT_LANG);
  const fix = result.fix ? { fix: headerSafe(result.fix.words) } : {};
  // Blocked only while Jobs run (src/check/job-wait.ts): not "never".
  const say = waitsForJobs(result) ? words.headWhileJobs : words.head;
  const head = (ref: string): string => `${PREFIX}${say({ ref, ...fix })}`;
  const room = WARNING_MAX - [...head('')].length;
  const warnings = [bounded(head(refFor(result, room)))];
  if (result.reason) warnings.push(bounded(`${PREFIX}${headerSafe(result.reason)}`));
  if (options.dryRun !== true) warnings.push(undoWarning(result, words));
  return warnings;
}

/** How to take the applied change back, the name cut (not the command's words) where it would not fit. */
function undoWarning(result: CheckResult, words: ReturnType<typeof wordsIn<typeof admissionWords>>): string {
  const { kind, namespace } = result.target;
  const say = (name: string): string =>
    `${PREFIX}${words.undo({ command: rollBackCommand(kind, name, headerSafe(namespace)) })}`;
  const name = headerSafe(result.target.name);
  const over = [...say(name)].length - WARNING_MAX;
  return bounded(over <= 0 ? say(name) : say(`${name.slice(0, Math.max(8, name.length - over - 3))}...`));
}

/** The refusal message where the namespace asks for refusals instead of warnings. */
export function refusalFor(result: CheckResult, lang: Lang = DEFAULT_LANG): string {
  const refused = wordsIn(admissionWords, lang).refused({ label: 'rollout-doctor.io/admission=refuse' });
  return bounded(`${warningsFor(result, { dryRun: true, lang }).join('. ')} ${refused}`, 1024);
}
