/**
 * A rollout blocked only while other teams' Jobs run. A Job's pods go once it ends (it
 * completes, or fails for good) and give back their node's room and their quota charge;
 * a Deployment's pods, by contrast, stay until someone scales them down. So where the
 * forward model finds the rollout blocked as it is, but finishing once the pods of some
 * running Jobs are gone, "can never finish" is not true: it cannot finish while those
 * Jobs run. The verdict stays (the rollout is stopped now, and a Job may run for hours, or
 * never end); its words name the Jobs, and a note proves it by the run.
 *
 * The claim is positive, so it must hold whichever pod the scheduler places first: the
 * run finishes with Pending pods of other workloads ahead of ours as well as behind
 * (rivals.ts), or nothing is said. Only Job pods that can hold what the rollout needs
 * are taken (on a node the new pods may use, or charged to this namespace's quota), on a
 * node whose kubelet reports (elsewhere a pod object outlives its Job); and only the Jobs
 * the run needs are named: each Job without which it does not finish though the others
 * are gone (up to `NARROWED` Jobs are tried so), where those alone finish it; otherwise
 * every Job, as "once enough of them end" (at most `NAMED` by name).
 *
 * A neighbour Deployment in the middle of its own rollout holds room the same way: where
 * every pod of its newest ReplicaSet is Ready, its controller removes the pods of its
 * older ones as it goes on (rolling.go reconcileOldReplicaSets), and they give their room
 * back. Where no Job explains the wait, such old pods are tried the same way, and the
 * verdict says "cannot finish while the rollout of deployment X holds its old pods".
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import type { FindingWords } from '../finding-words.js';
import type { Pod } from '../k8s.js';
import { isReady, isTerminal, isTerminating } from '../base/pods.js';
import { isEligible } from '../base/node-match.js';
import { workloadKind } from '../workloads/index.js';
import { nextPod } from '../rollout/surge-proof.js';
import { mayBePinned } from '../rollout/volume-pin.js';
import { neighbourReplicaSets } from '../base/neighbour-deployments.js';
import { kubeletReports, startingNow } from './pod-phase.js';
import { runWithChange, type Outcome } from './run.js';
import { rivalsOf, type QueueOrder } from './rivals.js';
import { choices, scalingDown } from './scale-down-wait.js';
import { refusedByQuotaToo } from './quota-race.js';
import { forwardVerdict } from './verdict.js';
import { finalStateShortfall } from './final-state.js';
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
/** Jobs and pods named; the rest counted. */
const NAMED = 5;

/** A CronJob names each Job it starts `<cronjob>-<scheduled time in minutes>`. */
const CRONJOB_RUN = /-\d{8,}$/;

interface JobWait {
  /**
   * What holds the room: running Jobs, neighbour Deployments' rollouts under way (their
   * old pods), or a neighbour Deployment scaling down (scale-down-wait.ts).
   */
  holders: 'jobs' | 'rollouts' | 'scale-downs';
  /** "research/embed-backfill-4", each Job (or Deployment) the rollout waits for. */
  jobs: string[];
  /** Their running pods. */
  pods: Pod[];
  /** The run with those pods gone. */
  outcome: Outcome;
  /**
   * Each of `jobs` must end ('all'), or enough of them, in no order this can name
   * ('some': another Job's pods could free the same room).
   */
  needs: 'all' | 'some';
  /** A rollout holder whose Deployment was not read: whether it is paused is not known. */
  unread?: true;
  /** A scale-down bounded by the neighbour's autoscaler: its maxReplicas, what stays at most. */
  capped?: number;
  /** The rollout holders that are Argo Rollouts (the others are Deployments). */
  argo?: string[];
  /** A rollout holder whose newest pods are still starting (bound, nothing failing, not Ready yet; or nominated to a node their preemption is emptying). */
  starting?: true;
  /**
   * Judged by the bound, not a run (final-state.ts: an Argo canary's steps, an end state
   * no node holds): with the pods gone the nodes have room for it; no step was run.
   */
  bound?: true;
}

/** The blocked verdicts reworded where the rollout finishes once some running Jobs end. */
export function withJobWaitSaid(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const blocked = (f: Draft): boolean => BLOCKED_CODES.has(f.code) && f.severity === 'critical';
  if (!findings.some(blocked)) return [...findings];
  const wait = jobWait(ctx);
  if (!wait) return [...findings];
  const first = findings.find(blocked);
  return findings.map((f) => (blocked(f) ? said(f, wait, f === first) : f));
}

/** "research/embed-backfill-4": the Job that controls the pod, or undefined. */
function jobOf(pod: Pod): string | undefined {
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
  if (owner?.kind !== 'Job' || !(owner.apiVersion ?? '').startsWith('batch/')) return undefined;
  return `${pod.metadata.namespace ?? ''}/${owner.name}`;
}

/**
 * Other workloads' running pods that can hold room or quota the new pods need: on a
 * node the template may use or in its namespace, on a node whose kubelet reports, each once.
 */
function holdingPods(ctx: AnalysisContext): Pod[] {
  const { snapshot } = ctx;
  const template = nextPod(snapshot).spec;
  const nodes = new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n]));
  const namespace = snapshot.target.namespace;
  const seen = new Set<string>();
  const holding: Pod[] = [];
  for (const pod of [...snapshot.otherPods, ...(snapshot.namespacePods ?? [])]) {
    const node = nodes.get(pod.spec.nodeName ?? '');
    // The same pod may be read twice (on a node the template may use, and in the namespace).
    const key = pod.metadata.uid ?? `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (!node || seen.has(key) || isTerminal(pod) || isTerminating(pod)) continue;
    if (!kubeletReports(node)) continue;
    if (!isEligible(node, template) && pod.metadata.namespace !== namespace) continue;
    seen.add(key);
    holding.push(pod);
  }
  return holding;
}

/** Running pods of Jobs that can hold room or quota the new pods need, by Job. */
function runningJobPods(ctx: AnalysisContext): Map<string, Pod[]> {
  const byJob = new Map<string, Pod[]>();
  for (const pod of holdingPods(ctx)) {
    const job = jobOf(pod);
    if (job) byJob.set(job, [...(byJob.get(job) ?? []), pod]);
  }
  return byJob;
}

function jobWait(ctx: AnalysisContext): JobWait | undefined {
  const { snapshot } = ctx;
  if (workloadKind(snapshot).underWay(snapshot) === undefined) return undefined;
  const { asIs, paused } = forwardVerdict(ctx);
  if (paused || asIs.result !== 'blocked') return undefined;
  // Blocked by a quota another controller is refused by too: the room it frees is raced for.
  if (asIs.refused && refusedByQuotaToo(ctx, asIs.quota?.name).length > 0) return undefined;
  // A bound (no step run: an end state or an Argo canary's step no node can hold,
  // final-state.ts) is tried again with the pods gone; a run that followed the
  // controllers is run again with them gone.
  const bound = asIs.ticks === 0;
  // The bound places pods wherever they fit: a volume that may tie one to nodes says no more.
  if (bound && mayBePinned(ctx)) return undefined;
  const run = (othersGone: readonly Pod[], order: QueueOrder): Outcome =>
    bound ? boundWithout(ctx, othersGone, asIs) : runWithChange(ctx, { othersGone }, order).outcome;
  const rolling = rollingNeighbourPods(ctx);
  const found =
    jobWaitFor(ctx, run) ?? holdersWait(ctx, rolling.old, 'rollouts', run) ?? scaleDownWait(ctx, run);
  if (!found) return undefined;
  const read = new Set((snapshot.neighbourDeployments ?? []).map((d) => d.name));
  const rollouts = found.holders === 'rollouts';
  // An Argo Rollout holder was read (one not read frees nothing): only a Deployment may be unread.
  const argo = rollouts ? found.jobs.filter((d) => rolling.argo.has(d)) : [];
  const unread = rollouts && found.jobs.some((d) => !read.has(d) && !rolling.argo.has(d));
  const starting = rollouts && found.jobs.some((d) => rolling.starting.has(d));
  return {
    ...found,
    ...(argo.length > 0 ? { argo } : {}),
    ...(bound ? { bound: true as const } : {}),
    ...(unread ? { unread: true as const } : {}),
    ...(starting ? { starting: true as const } : {}),
  };
}

/**
 * The bound with `othersGone` left out of the room: no shortfall reads as 'completes'
 * (no step run: `JobWait.bound` words it as room, never as a run that finishes).
 */
function boundWithout(ctx: AnalysisContext, othersGone: readonly Pod[], asIs: Outcome): Outcome {
  return finalStateShortfall(ctx, 'as-is', new Set(othersGone))
    ? asIs
    : { result: 'completes', ticks: 0, steps: [] };
}

/**
 * The old pods of neighbour Deployments whose rollout is under way and will remove them:
 * pods of two or more of its ReplicaSets run, and every pod of the newest one is Ready,
 * none of it waiting for a node (its rollout is not stuck on room of its own). The newest
 * is the one whose first pod was made last (a pod an old ReplicaSet made again after an
 * eviction does not make it the newest). Only the old pods that can hold what the new
 * pods need, on a node whose kubelet reports. By Deployment.
 */
function rollingNeighbourPods(ctx: AnalysisContext): RollingNeighbours {
  const { snapshot } = ctx;
  // A paused Deployment's controller only scales (sync.go scale): it removes the old pods
  // only once its newest ReplicaSet is saturated, every replica there and available.
  const paused = new Map(
    (snapshot.neighbourDeployments ?? []).filter((d) => d.paused).map((d) => [d.name, d.replicas]),
  );
  // One being deleted goes on with nothing: its controller only syncs its status.
  const deleting = new Set(
    (snapshot.neighbourDeployments ?? []).filter((d) => d.deleting).map((d) => d.name),
  );
  const deployments = rollingOf(ctx, neighbourReplicaSets(snapshot), (d) => !deleting.has(d), paused);
  // An Argo Rollout's old ReplicaSets go only at the end of its update, and only where
  // that end comes with nobody acting (workloads/rollout/neighbours.ts); one not read
  // frees nothing. The end needs its newest ReplicaSet at every replica first (a canary's
  // promotion, AtDesiredReplicaCountsForCanary; a blue-green preview scaled up before the
  // switch), and the ReplicaSet it keeps is the one of status.currentPodHash: after a
  // rollback to the stable one, the newest pods are those that go.
  const ends = new Map(
    (snapshot.neighbourRollouts ?? []).filter((r) => r.endsByItself && !r.deleting).map((r) => [r.name, r]),
  );
  const keeps = (owner: string, newest: string): boolean => {
    const rollout = ends.get(owner);
    const name = owner.slice(owner.indexOf('/') + 1);
    return rollout?.currentPodHash !== undefined && newest === `${name}-${rollout.currentPodHash}`;
  };
  const whole = new Map([...ends].map(([name, r]) => [name, r.replicas]));
  const rollouts = rollingOf(ctx, neighbourReplicaSets(snapshot, 'Rollout'), keeps, whole);
  const argo = new Set([...rollouts.old.keys()].filter((r) => !deployments.old.has(r)));
  return {
    old: new Map([...deployments.old, ...[...rollouts.old].filter(([r]) => argo.has(r))]),
    starting: new Set([...deployments.starting, ...[...rollouts.starting].filter((r) => argo.has(r))]),
    argo,
  };
}

/** Neighbours mid-rollout whose old pods go: by name, those still starting, and which are Argo Rollouts. */
interface RollingNeighbours {
  old: Map<string, Pod[]>;
  starting: Set<string>;
  argo: Set<string>;
}

/**
 * `byOwner`'s neighbours (every neighbour pod read, bound or not, to judge each
 * ReplicaSet whole) whose rollout goes on keeping its newest ReplicaSet (`goesOnAt`) and
 * whose newest pods go on: their old pods that hold what the new pods need. `whole`: those
 * that remove old pods only once the newest ReplicaSet holds every replica, all Ready (a
 * paused Deployment, whose controller only scales; an Argo Rollout, at its end).
 */
function rollingOf(
  ctx: AnalysisContext,
  byOwner: ReadonlyMap<string, Map<string, Pod[]>>,
  goesOnAt: (owner: string, newest: string) => boolean,
  whole: ReadonlyMap<string, number>,
): Omit<RollingNeighbours, 'argo'> {
  const { snapshot } = ctx;
  const firstMade = (pods: readonly Pod[]): number =>
    Math.min(...pods.map((p) => Date.parse(p.metadata.creationTimestamp ?? '') || 0));
  const holding = new Set(holdingPods(ctx));
  const old = new Map<string, Pod[]>();
  const now = Date.parse(snapshot.capturedAt);
  const starting = new Set<string>();
  for (const [deployment, sets] of byOwner) {
    if (sets.size < 2) continue;
    const [newest] = [...sets].sort(([, a], [, b]) => firstMade(b) - firstMade(a));
    if (!newest || !goesOnAt(deployment, newest[0])) continue;
    // Ready, or starting by the rule our own pods are judged by (pod-phase.ts): its
    // controller goes on once they are available; a failing or waiting one may never be.
    const goesOn = (p: Pod): boolean =>
      p.spec.nodeName ? isReady(p) || startingNow(p, now) : bindsOnceVictimsGo(snapshot, p);
    if (!newest[1].every(goesOn)) continue;
    const replicas = whole.get(deployment);
    if (replicas !== undefined && (newest[1].length < replicas || !newest[1].every(isReady))) continue;
    const going = [...sets].filter(([name]) => name !== newest[0]).flatMap(([, pods]) => pods);
    const held = going.filter((p) => holding.has(p));
    if (held.length === 0) continue;
    old.set(deployment, held);
    if (!newest[1].every(isReady)) starting.add(deployment);
  }
  return { old, starting };
}

/**
 * A Pending pod the scheduler nominated to a node where its preemption's victims are
 * leaving: it binds there once they are gone (the nominated node is kept for it meanwhile,
 * RunFilterPluginsWithNominatedPods), so its rollout goes on as one whose pods are
 * starting. The victims: pods terminating on that node, their kubelet reporting. One held
 * past its deadline (a finalizer nobody removes) is left to the run, which keeps its room
 * taken (pod-phase.ts), so the wait is then not said.
 */
function bindsOnceVictimsGo(snapshot: AnalysisContext['snapshot'], pod: Pod): boolean {
  const node = pod.status?.nominatedNodeName;
  if (!node || isTerminal(pod) || isTerminating(pod)) return false;
  const at = snapshot.nodes.find((n) => n.metadata.name === node);
  if (!at || !kubeletReports(at)) return false;
  return [...snapshot.pods, ...snapshot.otherPods].some((p) => p.spec.nodeName === node && isTerminating(p));
}

/**
 * The Jobs a blocked run waits for: the run `runWithout` makes with their pods gone
 * finishes in either order of the scheduler's queue, or nothing is said. `runWithout`
 * runs what the caller judges (the rollout as it is; a manifest's: src/check).
 */
export function jobWaitFor(
  ctx: AnalysisContext,
  runWithout: (othersGone: readonly Pod[], order: QueueOrder) => Outcome,
): JobWait | undefined {
  return holdersWait(ctx, runningJobPods(ctx), 'jobs', runWithout);
}

/**
 * A neighbour Deployment scaling down (scale-down-wait.ts) that a blocked run waits for:
 * the run finishes whichever of its bound pods its ReplicaSet deletes, in either order of
 * the scheduler's queue; the first such Deployment, or nothing is said.
 */
function scaleDownWait(
  ctx: AnalysisContext,
  runWithout: (othersGone: readonly Pod[], order: QueueOrder) => Outcome,
): JobWait | undefined {
  const orders = queueOrders(ctx);
  for (const down of scalingDown(ctx, new Set(holdingPods(ctx)))) {
    const picks = choices(down.bound, down.goes);
    if (!picks) continue;
    // Each run is a whole forward run: stop at the first choice or order that does not finish.
    let outcome: Outcome | undefined;
    const finishes = picks.every((gone) =>
      orders.every((order) => {
        const run = runWithout(gone, order);
        outcome ??= run;
        return run.result === 'completes';
      }),
    );
    if (finishes && outcome)
      return {
        holders: 'scale-downs',
        jobs: [down.deployment],
        pods: down.bound,
        outcome,
        needs: 'all',
        ...(down.capped !== undefined ? { capped: down.capped } : {}),
      };
  }
  return undefined;
}

/** The queue orders a wait must finish in: they differ only where other workloads' pods wait for a node (rivals.ts). */
function queueOrders(ctx: AnalysisContext): QueueOrder[] {
  return rivalsOf(ctx).length > 0 ? ['ours-first', 'theirs-first'] : ['ours-first'];
}

/** The holders (Jobs, or rollouts under way) a blocked run waits for, by their pods `byJob`. */
function holdersWait(
  ctx: AnalysisContext,
  byJob: ReadonlyMap<string, Pod[]>,
  holders: JobWait['holders'],
  runWithout: (othersGone: readonly Pod[], order: QueueOrder) => Outcome,
): JobWait | undefined {
  if (byJob.size === 0) return undefined;
  const orders = queueOrders(ctx);
  const finishesWithout = (jobs: readonly string[]): Outcome | undefined => {
    const gone = jobs.flatMap((j) => byJob.get(j) ?? []);
    const [outcome, ...others] = orders.map((order) => runWithout(gone, order));
    return outcome?.result === 'completes' && others.every((o) => o.result === 'completes')
      ? outcome
      : undefined;
  };
  const all = [...byJob.keys()].sort();
  const outcome = finishesWithout(all);
  if (!outcome) return undefined;
  // The Jobs that must end: those without which the run does not finish though every
  // other Job is gone. Where they alone finish it, they are the ones it waits for;
  // otherwise other Jobs' pods could free the same room, and enough of them must end.
  const needed =
    all.length <= NARROWED ? all.filter((job) => !finishesWithout(all.filter((j) => j !== job))) : [];
  const alone =
    needed.length === 0 ? undefined : needed.length === all.length ? outcome : finishesWithout(needed);
  const [jobs, run, needs] = alone ? [needed, alone, 'all' as const] : [all, outcome, 'some' as const];
  return { holders, jobs, pods: jobs.flatMap((j) => byJob.get(j) ?? []), outcome: run, needs };
}

/** How a verdict names the Jobs of `wait` (English). */
export function jobWaitWords(wait: JobWait): {
  /** "Job batch/etl", "Jobs a, b". */
  jobs: string;
  /** "batch/etl", "a, b": the Jobs' names alone. */
  names: string;
  /** One Job. */
  one: boolean;
  /** Enough of them must end, not each. */
  some: boolean;
  /** "etl-x on node-1, …". */
  where: string;
} {
  const one = wait.jobs.length === 1;
  return {
    jobs: `Job${one ? '' : 's'} ${named(wait.jobs)}`,
    names: named(wait.jobs),
    one,
    some: wait.needs === 'some' && !one,
    where: named(wait.pods.map((p) => `${p.metadata.name ?? ''} on ${p.spec.nodeName ?? ''}`)),
  };
}

/**
 * "deployment ml/beta", "Rollouts ml/a, ml/b", "deployment ml/a, Rollout ml/b": the
 * neighbours whose rollouts hold the room, each with its kind where they differ.
 */
export function rolloutHolders(names: readonly string[], argo: readonly string[] = []): string {
  const one = names.length === 1;
  if (argo.length === 0) return `deployment${one ? '' : 's'} ${named(names)}`;
  if (argo.length === names.length) return `Rollout${one ? '' : 's'} ${named(names)}`;
  const isArgo = new Set(argo);
  return named(names.map((n) => `${isArgo.has(n) ? 'Rollout' : 'deployment'} ${n}`));
}

/** "a, b, c, d, e and 3 more". */
export function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED).join(', ');
  return items.length > NAMED ? `${shown} and ${items.length - NAMED} more` : shown;
}

const NEVER = /can never finish/;

/** How `said` words the wait: for Jobs, or for neighbour rollouts under way. */
function waitWords(wait: JobWait): { whileRuns: string; once: string; added: string; holdsNote: string } {
  const { jobs, names, one, some } = jobWaitWords(wait);
  if (wait.holders === 'scale-downs')
    return {
      whileRuns: `until deployment ${names} scales down`,
      once:
        wait.capped === undefined
          ? `It goes on by itself once that Deployment's ReplicaSet removes the pods above its replicas, whichever it removes, unless an autoscaler raises them back first.`
          : `It goes on by itself once that Deployment's ReplicaSet removes the pods above what its autoscaler allows at most (maxReplicas), whichever it removes.`,
      added:
        wait.capped === undefined
          ? `It goes on by itself once deployment ${names} scales down to its replicas, whichever pods its ReplicaSet removes, unless an autoscaler raises them back first.`
          : `It goes on by itself once deployment ${names} scales down to what its autoscaler allows at most (maxReplicas ${wait.capped}), whichever pods its ReplicaSet removes.`,
      holdsNote:
        wait.capped === undefined
          ? `Pods of deployment ${names}, which runs more pods than its replicas and is scaling down, hold room or quota the new pods need: `
          : `Pods of deployment ${names}, which runs more pods than its autoscaler allows at most (maxReplicas ${wait.capped}), hold room or quota the new pods need: `,
    };
  if (wait.holders === 'rollouts') {
    // New pods still starting: the wait holds once they become Ready, which is not yet seen.
    const ready = wait.starting ? `, after ${one ? 'its' : 'their'} new pods are Ready` : '';
    const unread = wait.unread
      ? ` or ${one ? 'it is' : 'they are'} paused (${one ? 'its Deployment was' : 'their Deployments were'} not read: a paused one removes no old pod)`
      : '';
    const rollouts = `the rollout${one ? '' : 's'} of ${rolloutHolders(wait.jobs, wait.argo)}`;
    return {
      whileRuns: some
        ? `while ${rollouts} hold the room`
        : `while ${rollouts} ${one ? 'holds its' : 'hold their'} old pods`,
      once: `It can go on by itself once ${one ? 'that rollout removes its old pods' : some ? 'enough of them remove their old pods' : 'those rollouts remove their old pods'}${ready}, unless new pods of ${one ? 'that rollout' : 'theirs'} take the room first${unread}.`,
      added: `It can go on by itself once ${rollouts} ${one ? 'removes its' : 'remove their'} old pods${ready}, unless new pods of ${one ? 'that rollout' : 'theirs'} take the room first${unread}.`,
      holdsNote: `Old pods of ${rollouts} hold room or quota the new pods need: `,
    };
  }
  // A bound says there is room, not that each step is taken: "can".
  const goes = wait.bound ? 'can go on' : 'goes on';
  return {
    whileRuns: some ? `while ${jobs} hold the room` : `while ${jobs} ${one ? 'runs' : 'run'}`,
    once: `It ${goes} by itself once ${one ? 'that Job ends' : some ? 'enough of them end' : 'those Jobs end'}.`,
    added: `It ${goes} by itself once ${some ? `enough of ${jobs} end` : `${jobs} ${one ? 'ends' : 'end'}`}.`,
    holdsNote: `Pods of ${jobs} hold room or quota the new pods need: `,
  };
}

/** How the holders' controllers remove the old pods: a Deployment's as it goes on, an Argo Rollout's at the end of its update. */
function rolloutsGoOn(wait: JobWait): string {
  const one = wait.jobs.length === 1;
  const argo = wait.argo?.length ?? 0;
  if (argo === 0)
    return `${one ? 'its' : 'each'} Deployment controller removes the old ones as the rollout goes on (once the new ones are available, within maxUnavailable)`;
  const why = 'no step ahead waits for a person or an analysis; after scaleDownDelaySeconds where it applies';
  if (argo === wait.jobs.length)
    return `the Argo Rollouts controller scales ${one ? 'its older ReplicaSets to 0 at the end of the update' : 'their older ReplicaSets to 0 at the end of each update'} (${why})`;
  // Some of each kind: said of one of them, whichever it is.
  return `a Deployment's controller removes its old pods as its rollout goes on, and the Argo Rollouts controller scales a Rollout's older ReplicaSets to 0 at the end of its update (${why})`;
}

function said(finding: Draft, wait: JobWait, withNote: boolean): Draft {
  const { one, some, where } = jobWaitWords(wait);
  const { whileRuns, once, added, holdsNote } = waitWords(wait);
  // The verdict's own "can never finish" becomes "cannot finish while …", where the
  // headline (the summary's first clause) shows it; otherwise the sentence is added.
  const summary = NEVER.test(finding.summary)
    ? `${finding.summary.replace(NEVER, `cannot finish ${whileRuns}`)} ${once}`
    : `${finding.summary} ${added}`;
  const gone = new Set(wait.pods.map((p) => p.metadata.name ?? ''));
  const steps = stepsInPlainWords({
    ...wait.outcome,
    ...('steps' in wait.outcome
      ? { steps: wait.outcome.steps.filter((s) => !(s.kind === 'gone' && gone.has(s.pod))) }
      : {}),
  });
  // A bound was not run step by step: it says the nodes have the room, no more.
  const proof = wait.bound
    ? 'With them gone, the nodes have room for every step ahead and for the end state (a bound on room: the steps are not run one by one).'
    : `Run forward with ${wait.holders === 'scale-downs' ? 'those it removes' : 'them'} gone, the controllers finish the rollout, whichever pending pod the scheduler takes first: ${steps.slice(0, 6).join('; ')}.`;
  const cron =
    wait.holders === 'jobs' && wait.jobs.some((j) => CRONJOB_RUN.test(j))
      ? " A Job named like a CronJob's run may be followed by the next run, which can take the room again."
      : '';
  // A surge deadlock's keyed words (`says`) gain the wait; other keyed words would give
  // another language the headline without it: that reader gets this English one instead.
  const { says: headline, ...rest } = finding;
  const says: FindingWords | undefined =
    headline?.key === 'surge-deadlock'
      ? {
          key: 'surge-deadlock-waits',
          params: {
            ...headline.params,
            waitNames: wait.argo ? rolloutHolders(wait.jobs, wait.argo) : jobWaitWords(wait).names,
            kinds: wait.argo !== undefined,
            rollouts: wait.holders === 'rollouts',
            scaleDown: wait.holders === 'scale-downs',
            capped: wait.capped !== undefined,
            one,
            some,
            bound: wait.bound === true,
            unread: wait.unread === true,
            starting: wait.starting === true,
          },
        }
      : undefined;
  return {
    ...rest,
    ...(says ? { says } : {}),
    summary,
    waitsFor: {
      holders: wait.holders,
      names: wait.jobs,
      some: wait.needs === 'some' && wait.jobs.length > 1,
      ...(wait.unread ? { unread: true as const } : {}),
      ...(wait.argo ? { argo: wait.argo } : {}),
      ...(wait.capped !== undefined ? { autoscalerMax: wait.capped } : {}),
      ...(wait.bound ? { bound: true as const } : {}),
      ...(wait.starting ? { starting: true as const } : {}),
    },
    ...(rest.explanation !== undefined
      ? {
          explanation: wait.bound
            ? `Only ${whileRuns}: with ${one ? 'its' : 'their'} pods gone, the nodes have room for it (the note says which pods). ${rest.explanation}`
            : `Only ${whileRuns}: run forward with ${one ? 'its' : 'their'} pods gone, the controllers finish the rollout (the note says how). ${rest.explanation}`,
        }
      : {}),
    evidence: [
      ...rest.evidence,
      ...(withNote
        ? [
            {
              type: 'note' as const,
              text: `${holdsNote}${where}. ${
                wait.holders === 'scale-downs'
                  ? wait.capped === undefined
                    ? 'Its Deployment controller scales its ReplicaSet to the spec, and the ReplicaSet controller deletes the pods above it (those not bound to a node first; among bound ones which is not known), and they give the room back; each choice of them was run.'
                    : 'Its autoscaler lowers a spec above maxReplicas at its next sync and raises none past it, its Deployment controller scales its ReplicaSet to the spec, and the ReplicaSet controller deletes the pods above it (those not bound to a node first; among bound ones which is not known), and they give the room back; each choice of them was run.'
                  : wait.holders === 'rollouts'
                    ? `${
                        wait.starting
                          ? `${one ? 'Its' : 'Their'} newest pods are starting (bound, nothing failing, not Ready yet; or nominated to a node their preemption is emptying); once they are available`
                          : `${one ? 'Its' : 'Their'} newest pods are Ready, so`
                      } ${rolloutsGoOn(wait)}, and they give the room back.`
                    : "A Job's pods go once it ends (it completes, or fails for good), and give them back."
              }${some ? ' Not each of them must end: the pods of some could free the room the others hold.' : ''}${cron} ${proof}`,
            },
          ]
        : []),
    ],
  };
}
