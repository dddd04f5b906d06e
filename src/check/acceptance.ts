/**
 * What a team has decided about `check`'s findings, so a gate can be adopted on a
 * repository that already has some: a finding accepted on its object (annotations
 * `rollout-doctor.io/accept: RolloutSurgeDeadlock[,Code…]` and, required,
 * `rollout-doctor.io/accept-reason`), accepted in a baseline file (`--baseline FILE`),
 * or a code reported as a warning only (`--warn CODE`). An accepted or warned finding is
 * still reported, with who accepted it and why; it does not fail the run. Pure: the file
 * is read by the command.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import { FINDING_CODES, type FindingCode } from '../diagnosis/finding.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { CheckResult } from './check.js';

const ACCEPT_ANNOTATION = 'rollout-doctor.io/accept';
const ACCEPT_REASON_ANNOTATION = 'rollout-doctor.io/accept-reason';

export interface Accepted {
  by: 'annotation' | 'baseline';
  reason: string;
}

/** A result with, per finding (same order), whether the team accepted it. */
export type Judged = CheckResult & { accepted?: (Accepted | null)[] };

const code = z.enum(FINDING_CODES);

const baselineShape = z.object({
  accepted: z
    .array(
      z
        .object({
          /** NAMESPACE/Kind/name, as `check`'s JSON `target` gives them. */
          target: z.string().regex(/^[a-z0-9-]{1,63}\/[A-Za-z]{1,40}\/[a-z0-9.-]{1,253}$/),
          code,
          reason: z.string().trim().min(1).max(500),
        })
        .strict(),
    )
    .max(10_000),
});

export type Baseline = z.infer<typeof baselineShape>;

/** A baseline file's text. @throws Error naming what is wrong (the command makes it exit 2). */
export function parseBaseline(text: string, file: string): Baseline {
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 0 });
  } catch (error) {
    throw new Error(`${file}: not YAML or JSON: ${(error as Error).message.split('\n')[0] ?? ''}`, {
      cause: error,
    });
  }
  const parsed = baselineShape.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${file}: not a baseline (${issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'invalid'}); expected accepted: [{target: NAMESPACE/Kind/name, code, reason}]`,
    );
  }
  return parsed.data;
}

/** The codes an object's annotations accept, or why they do not count (no reason given, an unknown code). */
function annotationAcceptance(
  object: WorkloadObject,
): { codes: Set<FindingCode>; reason: string } | { problem: string } | undefined {
  const annotations = object.metadata.annotations ?? {};
  const value = annotations[ACCEPT_ANNOTATION];
  if (value === undefined) return undefined;
  const reason = (annotations[ACCEPT_REASON_ANNOTATION] ?? '').trim();
  if (reason === '')
    return { problem: `${ACCEPT_ANNOTATION} without ${ACCEPT_REASON_ANNOTATION}: not accepted` };
  const codes = new Set<FindingCode>();
  for (const word of value.split(',').map((w) => w.trim())) {
    const known = code.safeParse(word);
    if (!known.success) return { problem: `${ACCEPT_ANNOTATION} names an unknown code: not accepted` };
    codes.add(known.data);
  }
  return { codes, reason: reason.slice(0, 500) };
}

function targetKey(r: CheckResult): string {
  return `${r.target.namespace}/${r.target.kind}/${r.target.name}`;
}

/**
 * Each result with its findings' acceptance: by the object's annotations first, else
 * by the baseline. `objects[i]` is the object `results[i]` judged. Notes say which
 * acceptances did not count, and which baseline entries matched nothing.
 */
export function withAcceptance(
  results: readonly CheckResult[],
  objects: readonly WorkloadObject[],
  baseline?: Baseline,
): { results: Judged[]; notes: string[] } {
  const notes: string[] = [];
  const fromBaseline = new Map<string, Accepted>();
  for (const entry of baseline?.accepted ?? [])
    fromBaseline.set(`${entry.target}:${entry.code}`, { by: 'baseline', reason: entry.reason });
  const used = new Set<string>();
  const judged = results.map((r, i): Judged => {
    const object = objects[i];
    const annotated = object ? annotationAcceptance(object) : undefined;
    if (annotated && 'problem' in annotated) notes.push(`${targetKey(r)}: ${annotated.problem}`);
    const accepted = r.findings.map((f): Accepted | null => {
      if (annotated && 'codes' in annotated && annotated.codes.has(f.code))
        return { by: 'annotation', reason: annotated.reason };
      const key = `${targetKey(r)}:${f.code}`;
      const entry = fromBaseline.get(key);
      if (entry) used.add(key);
      return entry ?? null;
    });
    return accepted.some((a) => a !== null) ? { ...r, accepted } : { ...r };
  });
  for (const key of fromBaseline.keys())
    if (!used.has(key)) notes.push(`baseline entry ${key} matched no finding (fixed? remove it)`);
  return { results: judged, notes };
}

/**
 * Whether a result fails the run: a rollout that can never finish, or one not known
 * (unless allowUnknown), with a finding that is neither accepted nor a warned code.
 */
export function fails(
  r: Judged,
  options: { allowUnknown: boolean; warn: ReadonlySet<FindingCode> },
): boolean {
  if (r.verdict !== 'never-finishes' && r.verdict !== 'unknown') return false;
  if (r.verdict === 'unknown' && options.allowUnknown) return false;
  if (r.findings.length === 0) return true;
  return r.findings.some((f, i) => !r.accepted?.[i] && !options.warn.has(f.code));
}
