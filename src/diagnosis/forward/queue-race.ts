/**
 * A rollout that finishes only if the scheduler takes our pods first (DESIGN.md §4e):
 * run forward with this workload's pending pods ahead of other workloads' pods of the
 * same priority it finishes, but with theirs ahead (the scheduler's queue sorts by
 * priority, then by the time each pod last entered it, reset on every requeue:
 * PrioritySort.Less; not known from a snapshot) they take the room a
 * terminating pod frees and the rollout stops. Neither "will finish by itself" nor "can
 * never finish" is true: the verdict says the race and who it is against. Pure.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import type { FindingWords } from '../finding-words.js';
import { admittedSpec } from '../workloads/admitted-spec.js';
import { rivalsOf } from './rivals.js';
import { runForward, runWithChange } from './run.js';

type Draft = Omit<Finding, 'remediations'>;

/**
 * The workloads whose Pending pods, placed first, stop the rollout that finishes with ours
 * first: only rivals of our pods' priority (a higher one goes first in either order, a
 * lower one after ours), and of those the ones that stop it alone ahead of ours (a rival
 * that takes room ours never wanted is no contender); where none does alone, all of them.
 * Named as kubectl does, with the namespace where it is not ours.
 */
export function queueRace(ctx: AnalysisContext): { rivals: string } | undefined {
  return ctx.once('forward-queue-race', () => {
    const priority = admittedSpec(ctx.snapshot).spec.priority ?? 0;
    const tied = rivalsOf(ctx)
      .filter((r) => (r.pod.spec.priority ?? 0) === priority)
      .slice(0, TRIED);
    if (tied.length === 0 || runForward(ctx, 'as-is', 'theirs-first').result !== 'blocked') return undefined;
    const alone = tied.filter(
      (r) => runWithChange(ctx, { rivalsOnly: [r] }, 'theirs-first').outcome.result === 'blocked',
    );
    const namespace = ctx.snapshot.target.namespace;
    const names = (alone.length > 0 ? alone : tied).map((r) =>
      r.pod.metadata.namespace === namespace
        ? r.owner
        : `${r.owner} (namespace ${r.pod.metadata.namespace ?? ''})`,
    );
    return { rivals: [...new Set(names)].join(', ') };
  });
}

/** Tied rivals tried one by one (a few: each is one run). */
const TRIED = 5;

const NEVER = /can never finish/;

/** The race, in one sentence after the verdict. */
function raceWords(rivals: string): string {
  return `Whether it finishes turns on the scheduler's queue: the Pending pods of ${rivals} want the same room at the same priority, and which goes first is not known from here; placed first, they take it and the rollout stops here; placed after ours, it finishes by itself.`;
}

/**
 * The analyzers' stuck verdicts kept where the race may stop the rollout: the first
 * critical one says it may never finish, and why.
 */
export function withRaceSaid(
  findings: readonly Draft[],
  stuck: ReadonlySet<FindingCode>,
  race: { rivals: string },
): Draft[] {
  const lead = findings.find((f) => stuck.has(f.code) && f.severity === 'critical');
  return findings.map((f) => {
    if (f !== lead) return f;
    // A surge deadlock's keyed words gain the race; other keyed words would give another
    // language the headline without it: that reader gets this English one instead.
    const { says: headline, ...rest } = f;
    const says: FindingWords | undefined =
      headline?.key === 'surge-deadlock'
        ? { key: 'surge-deadlock-race', params: { ...headline.params, rivals: race.rivals } }
        : undefined;
    return {
      ...rest,
      ...(says ? { says } : {}),
      summary: `${f.summary.replace(NEVER, 'may never finish')} ${raceWords(race.rivals)}`,
      ...(rest.explanation !== undefined
        ? {
            explanation: `Only if the Pending pods of ${race.rivals} take the room first: run forward with ours placed first, the controllers finish the rollout. Then: ${rest.explanation}`,
          }
        : {}),
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
