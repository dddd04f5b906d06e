/**
 * A plan's run in a few steps for the person who approves it: what happens, in order,
 * with repeats folded ("3 old pods go, then 3 new pods become Ready"), as data that
 * src/remediation/proof-text.ts says in the reader's language.
 */
import type { Step } from '../diagnosis/forward/model.js';
import type { Outcome } from '../diagnosis/forward/run.js';
import type { ProofStep } from '../remediation/plan.js';

const MAX_STEPS = 6;

export function stepsSaid(outcome: Outcome): ProofStep[] {
  if (!('steps' in outcome)) return [];
  const runs: { key: string; count: number; step: Step }[] = [];
  const removed = new Set(
    outcome.steps.flatMap((s) => (s.kind === 'old-removed' || s.kind === 'deleted' ? [s.pod] : [])),
  );
  for (const step of outcome.steps) {
    // An old pod the controller removed is said once, when it goes.
    if (step.kind === 'gone' && removed.has(step.pod)) continue;
    // Words only for the runs that are said: a long run folds hundreds of steps.
    const key = keyOf(step);
    if (key === undefined) continue;
    const last = runs.at(-1);
    if (last && last.key === key) last.count += 1;
    else runs.push({ key, count: 1, step });
  }
  const lines = runs.flatMap((r) => {
    const said = saidOf(r.step, r.count);
    return said ? [said] : [];
  });
  if (outcome.result === 'completes') lines.push({ say: 'completes', count: 1 });
  if (lines.length <= MAX_STEPS) return lines;
  // The first steps, then the end (how it ends is what the approver needs most).
  const skipped = lines.length - (MAX_STEPS - 1);
  return [...lines.slice(0, MAX_STEPS - 2), { say: 'more', count: skipped }, ...lines.slice(-1)];
}

/** Steps of one key fold into one line. */
function keyOf(step: Step): string | undefined {
  switch (step.kind) {
    case 'old-removed':
      return 'old';
    case 'admitted':
      return `admitted-${step.quota}`;
    case 'gone':
    case 'ready':
    case 'preempted':
    case 'deleted':
    case 'crashed':
    case 'node-added':
      return step.kind;
  }
}

/** A fold of `count` steps like `step` (the first of them). */
function saidOf(step: Step, count: number): ProofStep | undefined {
  switch (step.kind) {
    case 'gone':
    case 'deleted':
      return { say: step.kind, count, pod: step.pod };
    case 'old-removed':
      return { say: 'old', count, pod: step.pod };
    case 'ready':
    case 'node-added':
      return { say: step.kind, count };
    case 'admitted':
      return { say: 'admitted', count, quota: step.quota };
    case 'preempted':
      return { say: 'preempted', count, node: step.node, victims: step.victims.length };
    case 'crashed':
      return { say: 'crashed', count, node: step.node };
    case 'rival-placed':
      return undefined;
  }
}
