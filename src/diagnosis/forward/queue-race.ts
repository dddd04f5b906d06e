/**
 * A rollout that finishes only if the scheduler takes our pods first (DESIGN.md §4e):
 * run forward with this workload's pending pods ahead of other workloads' pods of the
 * same priority it finishes, but with theirs ahead (the scheduler's queue sorts by
 * priority, then by the time each pod entered it: PrioritySort.Less) they take the room a
 * terminating pod frees and the rollout stops. Neither "will finish by itself" nor "can
 * never finish" is true: the verdict says the race and who it is against. Pure.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import { rivalsOf } from './rivals.js';
import { runForward } from './run.js';

type Draft = Omit<Finding, 'remediations'>;

/** The workloads whose Pending pods, placed first, stop the rollout that finishes with ours first. */
export function queueRace(ctx: AnalysisContext): { rivals: string } | undefined {
  return ctx.once('forward-queue-race', () => {
    if (rivalsOf(ctx).length === 0) return undefined;
    const theirs = runForward(ctx, 'as-is', 'theirs-first');
    if (theirs.result !== 'blocked') return undefined;
    const owners = [...new Set(theirs.steps.flatMap((s) => (s.kind === 'rival-placed' ? [s.owner] : [])))];
    return owners.length > 0 ? { rivals: owners.join(', ') } : undefined;
  });
}

const NEVER = /can never finish/;

/** The race, in one sentence after the verdict. */
function raceWords(rivals: string): string {
  return `Whether it finishes turns on the scheduler's queue: the Pending pods of ${rivals} want the same room at the same priority; placed first (the queue takes the pod that entered it first), they take it and the rollout stops here; placed after ours, it finishes by itself.`;
}

/**
 * The analyzers' stuck verdicts kept where the race may stop the rollout: the first
 * critical one says it may never finish and why, with the run as a note.
 */
export function withRaceSaid(
  findings: readonly Draft[],
  stuck: ReadonlySet<FindingCode>,
  race: { rivals: string },
): Draft[] {
  const lead = findings.find((f) => stuck.has(f.code) && f.severity === 'critical');
  return findings.map((f) => {
    if (f !== lead) return f;
    // Keyed words would give another language the headline without the race.
    const { says: _english, ...rest } = f;
    return {
      ...rest,
      summary: `${f.summary.replace(NEVER, 'may never finish')} ${raceWords(race.rivals)}`,
    };
  });
}

/** "Will finish by itself" where it finishes only if our pods go first: a warning that says the race. */
export function progressingInRace(progressing: Draft, race: { rivals: string }): Draft {
  return {
    ...progressing,
    severity: 'warning',
    summary: `${progressing.summary.replace('will finish by itself', 'can finish by itself').replace(/; nothing needs changing\.$/, '.')} ${raceWords(race.rivals)}`,
  };
}
