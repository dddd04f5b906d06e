/**
 * A plan's run in a few words for the person who approves it: what happens, in order,
 * with repeats folded ("3 old pods go, then 3 new pods become Ready").
 */
import type { Step } from '../diagnosis/forward/model.js';
import type { Outcome } from '../diagnosis/forward/run.js';

const MAX_STEPS = 6;

export function stepsInWords(outcome: Outcome): string[] {
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
    const words = wordsOf(r.step);
    return words ? [r.count === 1 ? words.one : words.many(r.count)] : [];
  });
  if (outcome.result === 'completes') lines.push('the rollout completes');
  if (lines.length <= MAX_STEPS) return lines;
  // The first steps, then the end (how it ends is what the approver needs most).
  const skipped = lines.length - (MAX_STEPS - 1);
  return [...lines.slice(0, MAX_STEPS - 2), `… ${skipped} more steps`, ...lines.slice(-1)];
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

function wordsOf(step: Step): { key: string; one: string; many: (n: number) => string } | undefined {
  switch (step.kind) {
    case 'gone':
      return { key: 'gone', one: `pod ${step.pod} is gone`, many: (n) => `${n} terminating pods are gone` };
    case 'old-removed':
      return { key: 'old', one: `old pod ${step.pod} goes`, many: (n) => `${n} old pods go` };
    case 'ready':
      return { key: 'ready', one: 'a new pod becomes Ready', many: (n) => `${n} new pods become Ready` };
    case 'node-added':
      return {
        key: 'node-added',
        one: 'the cluster autoscaler adds a node',
        many: (n) => `the cluster autoscaler adds nodes for ${n} pods`,
      };
    case 'admitted':
      return {
        key: `admitted-${step.quota}`,
        one: `quota ${step.quota} admits a new pod`,
        many: (n) => `quota ${step.quota} admits ${n} new pods`,
      };
    case 'preempted':
      return {
        key: 'preempted',
        one: `the scheduler preempts ${step.victims.length} pod(s) on ${step.node}`,
        many: (n) => `the scheduler preempts on ${n} nodes`,
      };
    case 'deleted':
      return { key: 'deleted', one: `pod ${step.pod} is deleted`, many: (n) => `${n} pods are deleted` };
    case 'crashed':
      return {
        key: 'crashed',
        one: `a new pod crash-loops on ${step.node}`,
        many: (n) => `${n} new pods crash-loop`,
      };
  }
}
