/**
 * The warning kubectl, helm and Argo CD print when an apply starts a rollout that can
 * never finish. The API server returns each warning as a `Warning: 299 - "…"` header;
 * the API docs advise at most 120 characters each (longer or many may be truncated:
 * DESIGN.md §4d). The text carries names read from the cluster (node, quota, resource,
 * object names), so it is built to be safe by construction: printable ASCII only (any
 * other character becomes "?", so no control sequence, bidi or line break reaches a
 * terminal or a header), and each warning bounded to WARNING_MAX characters, the name
 * shortened first and the reason dropped before the verdict is.
 */
import { typeOfKind } from '../diagnosis/workload-ref.js';
import type { CheckResult } from '../check/check.js';

export const WARNING_MAX = 120;
const PREFIX = 'rollout-doctor: ';

/** Printable ASCII; everything else (controls, non-ASCII) as "?". */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

function bounded(text: string, max = WARNING_MAX): string {
  const safe = headerSafe(text);
  return safe.length <= max ? safe : `${safe.slice(0, max - 3)}...`;
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
 * One or two warnings: the verdict (with the fix when there is one), then what blocks it.
 * @example warningsFor(result) // ['rollout-doctor: rollout of deployment/embedder can never finish; maxSurge 0, maxUnavailable 1 would let it', …]
 */
export function warningsFor(result: CheckResult): string[] {
  if (result.verdict !== 'never-finishes') return [];
  const fix = result.fix ? `; ${result.fix.words} would let it` : '';
  const head = (ref: string): string => `${PREFIX}rollout of ${ref} can never finish${fix}`;
  const room = WARNING_MAX - head('').length;
  const warnings = [bounded(head(refFor(result, room)))];
  if (result.reason) warnings.push(bounded(`${PREFIX}${result.reason}`));
  return warnings;
}

/** The refusal message where the namespace asks for refusals instead of warnings. */
export function refusalFor(result: CheckResult): string {
  return bounded(
    `${warningsFor(result).join('. ')} (refused: the namespace is labelled rollout-doctor.io/admission=refuse)`,
    1024,
  );
}
