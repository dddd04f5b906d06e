/**
 * A rollout blocked only while other teams' Jobs run. A Job's pods end by themselves
 * (the Job completes, or fails for good), and then give back their node's room and
 * their quota charge; a Deployment's pods, by contrast, stay until someone scales them
 * down. So where the forward model finds the rollout blocked as it is, but finishing
 * once the pods of some running Jobs are gone, "can never finish" is not true: it
 * cannot finish while those Jobs run. The verdict stays (the rollout is stopped now, and
 * a Job may run for hours); its words name the Jobs, and a note proves it by the run.
 *
 * Only Jobs the run needs are named: each Job whose pods the run finishes without is
 * dropped (at most `NARROWED` Jobs are tried one by one; more are named together).
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import type { Pod } from '../k8s.js';
import { isTerminal, isTerminating } from '../base/pods.js';
import { workloadKind } from '../workloads/index.js';
import { runWithChange, type Outcome } from './run.js';
import { forwardVerdict } from './verdict.js';
import { stepsInPlainWords } from './step-words.js';

type Draft = Omit<Finding, 'remediations'>;

/** Verdicts whose words say the rollout does not finish by itself. */
const BLOCKED_CODES: ReadonlySet<FindingCode> = new Set([
  'RolloutSurgeDeadlock',
  'QuotaExceeded',
  'Unschedulable',
  'RolloutStuck',
]);

/** Jobs tried one by one to find the ones the rollout waits for. */
const NARROWED = 6;

interface JobWait {
  /** "research/embed-backfill-4", each Job the rollout waits for. */
  jobs: string[];
  /** Their pods, "embed-backfill-4-m8p29 on node-06". */
  pods: string[];
  /** The run with those pods gone. */
  outcome: Outcome;
}

/** The blocked verdicts reworded where the rollout finishes once some running Jobs end. */
export function withJobWaitSaid(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  if (!findings.some((f) => BLOCKED_CODES.has(f.code) && f.severity === 'critical')) return [...findings];
  const wait = jobWait(ctx);
  if (!wait) return [...findings];
  return findings.map((f) => (BLOCKED_CODES.has(f.code) && f.severity === 'critical' ? said(f, wait) : f));
}

/** "research/embed-backfill-4": the Job that controls the pod, or undefined. */
function jobOf(pod: Pod): string | undefined {
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
  if (owner?.kind !== 'Job' || !(owner.apiVersion ?? '').startsWith('batch/')) return undefined;
  return `${pod.metadata.namespace ?? ''}/${owner.name}`;
}

/** Running pods of Jobs that hold room or quota the rollout may need, by Job. */
function runningJobPods(ctx: AnalysisContext): Map<string, Pod[]> {
  const { snapshot } = ctx;
  const seen = new Set<string>();
  const byJob = new Map<string, Pod[]>();
  for (const pod of [...snapshot.otherPods, ...(snapshot.namespacePods ?? [])]) {
    const job = jobOf(pod);
    // The same pod may be read twice (on a node the template may use, and in the namespace).
    const key = pod.metadata.uid ?? `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (!job || seen.has(key) || isTerminal(pod) || isTerminating(pod) || !pod.spec.nodeName) continue;
    seen.add(key);
    byJob.set(job, [...(byJob.get(job) ?? []), pod]);
  }
  return byJob;
}

function jobWait(ctx: AnalysisContext): JobWait | undefined {
  const { snapshot } = ctx;
  if (workloadKind(snapshot).underWay(snapshot) === undefined) return undefined;
  const { asIs, paused } = forwardVerdict(ctx);
  // A run that followed the controllers step by step (not a bound on an end state).
  if (paused || asIs.result !== 'blocked' || asIs.step || asIs.ticks === 0) return undefined;
  const byJob = runningJobPods(ctx);
  if (byJob.size === 0) return undefined;
  const finishesWithout = (jobs: readonly string[]): Outcome | undefined => {
    const outcome = runWithChange(ctx, { othersGone: jobs.flatMap((j) => byJob.get(j) ?? []) }).outcome;
    return outcome.result === 'completes' ? outcome : undefined;
  };
  let jobs = [...byJob.keys()].sort();
  let outcome = finishesWithout(jobs);
  if (!outcome) return undefined;
  if (jobs.length <= NARROWED) {
    for (const job of [...jobs]) {
      const fewer = jobs.filter((j) => j !== job);
      const run = fewer.length > 0 ? finishesWithout(fewer) : undefined;
      if (run) [jobs, outcome] = [fewer, run];
    }
  }
  const pods = jobs.flatMap((j) =>
    (byJob.get(j) ?? []).map((p) => `${p.metadata.name ?? ''} on ${p.spec.nodeName ?? ''}`),
  );
  return { jobs, pods, outcome };
}

const NEVER = 'The rollout can never finish';

function said(finding: Draft, wait: JobWait): Draft {
  const one = wait.jobs.length === 1;
  const jobs = `Job${one ? '' : 's'} ${wait.jobs.join(', ')}`;
  const whileRuns = `while ${jobs} ${one ? 'runs' : 'run'}`;
  const gone = new Set(wait.pods.map((p) => p.split(' on ')[0]));
  const steps = stepsInPlainWords({
    ...wait.outcome,
    ...('steps' in wait.outcome
      ? { steps: wait.outcome.steps.filter((s) => !(s.kind === 'gone' && gone.has(s.pod))) }
      : {}),
  });
  const summary = finding.summary.startsWith(NEVER)
    ? `The rollout cannot finish ${whileRuns}${finding.summary.slice(NEVER.length)} It goes on by itself once ${one ? 'that Job ends' : 'those Jobs end'}.`
    : `${finding.summary} It goes on by itself once ${jobs} ${one ? 'ends' : 'end'}.`;
  // Keyed words (`says`) would give another language the headline without the Jobs:
  // it reads this English one instead.
  const { says: _english, ...rest } = finding;
  return {
    ...rest,
    summary,
    evidence: [
      ...rest.evidence,
      {
        type: 'note',
        text: `Pods of ${jobs} hold room or quota the new pods need: ${wait.pods.join(', ')}. A Job's pods end by themselves (the Job completes, or fails for good) and give them back. Run forward with them gone, the controllers finish the rollout: ${steps.slice(0, 6).join('; ')}.`,
      },
    ],
  };
}
