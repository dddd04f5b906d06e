/**
 * The analyzers' verdicts held against the forward model (verdict.ts), after they ran
 * and before any plan is built: moving is not stuck (DESIGN.md §4c).
 * - The rollout completes by itself: findings that call it stuck, at risk or short of
 *   room are withdrawn, and one RolloutProgressing (info) says what it waits for; so it
 *   does where no finding spoke of it at all (a rollout simply mid-way).
 * - It is blocked even with this workload's old pods gone: a surge deadlock is not one
 *   (no order of replacement helps); it reads as Unschedulable, or QuotaExceeded when
 *   the quota refuses the new pods.
 * - It is blocked and letting old pods go would finish it, while no analyzer said so
 *   (maxUnavailable used up, the progress deadline not passed yet): RolloutStuck says it.
 * Where the model cannot tell ('unknown', or new pods that fail on their own) the
 * analyzers' findings stand as they are.
 */
import type { AnalysisContext } from '../analysis-context.js';
import { SAYS_WHAT_IT_WAITS_FOR, type Evidence, type Finding, type FindingCode } from '../finding.js';
import { workloadKind } from '../workloads/index.js';
import type { Step } from './model.js';
import { runWithChange, type Outcome } from './run.js';
import { nextPod } from '../rollout/surge-proof.js';
import { pinnedFinding, pinnedReplacement } from '../rollout/volume-pin.js';
import { stepsInPlainWords } from './step-words.js';
import { forwardVerdict, nextRolloutOutcome } from './verdict.js';
import { waitingAmong } from './daemon-budget.js';
import { assessRollout, schedulingEvidence } from '../rollout/rollout-assessment.js';
import { withPauseSaid } from './paused.js';
import { withOnDeleteSaid } from './on-delete.js';
import { withFailingNewSaid } from './failing-new.js';
import { podsAsTheyAre } from './pods-as-they-are.js';
import { quotaRefuses } from './quota-words.js';
import { quotaRecountNote } from './quota-ledgers.js';
import type { QuotaRef } from './world.js';
import { strategyPhrase } from '../rollout/strategy-words.js';
import { pendingForGood } from './pending-for-good.js';
import { withQuotaNeighboursSaid } from './quota-neighbours.js';
import { named, withJobWaitSaid } from './job-wait.js';
import { progressingInRace, queueRace, withRaceSaid } from './queue-race.js';
import { deadlinePassedWhileMoving, withDeadlineCauseSaid } from './deadline-passed.js';
import { currentStepIndex, stableScalesDownOnceStarted, stepNeverReached } from './canary-verdicts.js';
import { atAutoscaledCount, autoscaledTo } from '../guards/autoscaler.js';

type Draft = Omit<Finding, 'remediations'>;

/** Verdicts that say the rollout cannot get where it is going by itself. */
const STUCK_CODES: ReadonlySet<FindingCode> = new Set([
  'RolloutSurgeDeadlock',
  'QuotaExceeded',
  'Unschedulable',
  'RolloutAtRisk',
  'RolloutStuck',
  'Unavailable',
]);

/** Any of these already tells the on-call engineer the rollout does not finish. */
const SAYS_NOT_FINISHING: ReadonlySet<FindingCode> = new Set([
  ...STUCK_CODES,
  'ProgressDeadlineExceeded',
  'CrashLoop',
  'CrashLoopOnNode',
  'OOMKilled',
  'ImagePullFailure',
  'ConfigError',
  'ExecFormatError',
  'ProbeFailure',
  'AdmissionDenied',
  'IncompleteEvidence',
  'RolloutDegraded',
  // Not RolloutPaused: an Argo pause waits for a person, and says nothing of what comes after the promote.
]);

/** Findings that already say what a rollout is doing: a problem, a preemption under way, a pause. */
function explainsTheWait(finding: Draft): boolean {
  return finding.severity !== 'info' || SAYS_WHAT_IT_WAITS_FOR.has(finding.code);
}

export function reconcileWithForward(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  // A paused Deployment under way is always said to be paused, with what the pause holds
  // and what resuming does, whatever else is found (paused.ts).
  // A canary step a quota holds only without the namespace's other pods is said too
  // (quota-neighbours.ts): the bound never claims it, but the step waits for them.
  // A verdict that holds only while other teams' Jobs run names them (job-wait.ts).
  // An update under OnDelete that waits for someone to delete old pods is said (on-delete.ts),
  // and new pods that stay unready where nothing else says why (failing-new.ts). A passed
  // progress deadline then says whether any finding gives its cause (deadline-passed.ts).
  const said = withQuotaNeighboursSaid(
    ctx,
    withPauseSaid(ctx, withJobWaitSaid(ctx, reconcileVerdicts(ctx, findings))),
  );
  return withDeadlineCauseSaid(withFailingNewSaid(ctx, withOnDeleteSaid(ctx, said)));
}

function reconcileVerdicts(ctx: AnalysisContext, analyzed: readonly Draft[]): Draft[] {
  let findings = analyzed;
  const { snapshot } = ctx;
  const underWay = workloadKind(snapshot).underWay(snapshot) !== undefined;
  if (!underWay) return notAtRisk(ctx, findings);
  const { asIs, withoutOld, paused } = forwardVerdict(ctx);
  // A passed progress deadline only reports: run forward to the end, the rollout is not stuck.
  if (asIs.result === 'completes' && !paused) findings = deadlinePassedWhileMoving(ctx, findings);
  if (asIs.result === 'completes' || asIs.result === 'moving') {
    // Finishing only if our pods win the scheduler's queue (queue-race.ts).
    const race = paused || asIs.result !== 'completes' ? undefined : queueRace(ctx);
    if (!findings.some((f) => STUCK_CODES.has(f.code))) {
      // A node the cluster autoscaler is adding is said even where no verdict called it
      // stuck: the scheduler's own words read "no room", and nothing else explains the wait.
      const nodeComing = asIs.steps.some((s) => s.kind === 'node-added');
      // A rollout under way that nothing else speaks of is said to be moving, with what
      // it waits for: "No problem found" alone left the person who asked why it is not
      // done without an answer.
      const unexplained = !paused && asIs.steps.length > 0 && !findings.some(explainsTheWait);
      if (race) return [...findings, progressingInRace(progressing(ctx, asIs), race)];
      return nodeComing || unexplained ? [...findings, progressing(ctx, asIs)] : [...findings];
    }
    if (asIs.steps.length === 0) return [...findings];
    // The model moves a replacement it makes without the pod's own claims: a volume that
    // ties the pod to nodes taking no pods stops the rollout there (rollout/volume-pin.ts).
    // And 'moving' (a kind the model does not follow) says only that the next step
    // happens: a pod Pending now that no node takes even with every pod of ours gone (a
    // volume on a cordoned node, storage no node has, a template no node fits) stays
    // Pending whatever moves (a StatefulSet's controller never replaces a Pending pod).
    // Only those verdicts stand: the pods before them move as the model says.
    const pinned = pinnedReplacement(ctx);
    const verdict = pinned ? pinnedFinding(ctx, pinned) : undefined;
    const forGood = asIs.result === 'moving' && pendingForGood(ctx).length > 0;
    if (verdict || forGood) {
      return findings.filter(
        (f) =>
          !STUCK_CODES.has(f.code) ||
          f.summary === verdict?.summary ||
          (forGood && f.code === 'Unschedulable'),
      );
    }
    // Finishing only if our pods go first: the stuck verdicts stand, saying the race.
    if (race) return withRaceSaid(findings, STUCK_CODES, race);
    // Paused: the RolloutPaused the caller adds says it finishes once resumed.
    return [...findings.filter((f) => !STUCK_CODES.has(f.code)), ...(paused ? [] : [progressing(ctx, asIs)])];
  }
  if (asIs.result !== 'blocked') return [...findings];
  if (asIs.step) {
    // A step ahead can never be reached, but the current one still moves: once the canary
    // pods starting now are available the controller scales the stable ReplicaSet down
    // (basic-canary.ts), which frees what a waiting canary pod needs. What the analyzers
    // said of the current step (a surge deadlock) does not hold; the step ahead is the
    // verdict. (Where the short step is the current one, its surge deadlock stands: it is
    // only reached later in the same step.)
    const current =
      asIs.step.index > currentStepIndex(ctx) && stableScalesDownOnceStarted(ctx)
        ? findings.filter((f) => !STUCK_CODES.has(f.code))
        : findings;
    if (current.some((f) => SAYS_NOT_FINISHING.has(f.code))) return [...current];
    return [...current, stepNeverReached(ctx, asIs, asIs.step)];
  }
  if (withoutOld?.result === 'blocked') {
    const converted = waitsBesideDeadlock(ctx, asIs, withoutOld)
      ? [...findings]
      : noOrderHelps(findings, asIs, withoutOld, ctx);
    if (converted.some((f) => SAYS_NOT_FINISHING.has(f.code))) return converted;
    return [...converted, capacityFinding(ctx, asIs, withoutOld, [])];
  }
  // The end-state proof (ticks 0: the kinds not followed step by step) says blocked with
  // the old pods there and makes no claim without them: they hold the room (blue-green).
  const oldPodsHold =
    withoutOld?.result === 'completes' || (asIs.ticks === 0 && withoutOld?.result !== 'failing');
  if (oldPodsHold && !findings.some((f) => SAYS_NOT_FINISHING.has(f.code)))
    return [...findings, stuckForGood(ctx, asIs)];
  return [...findings];
}

/**
 * RolloutAtRisk predicts the next rollout deadlocks: it stands only where the next
 * rollout, run forward, does not finish (the next surge pod may simply preempt, or the
 * controller's own steps make room).
 */
function notAtRisk(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  if (!findings.some((f) => f.code === 'RolloutAtRisk')) return [...findings];
  const next = nextRolloutOutcome(ctx);
  if (next.result === 'completes') return findings.filter((f) => f.code !== 'RolloutAtRisk');
  // The quota refuses the surge pod before any node is asked: that, not the room, is the
  // deadlock, where an old pod let go first gives back what the new one needs.
  if (next.result === 'blocked' && next.refused && oldFirstCompletes(ctx))
    return findings.map((f) => (f.code === 'RolloutAtRisk' ? quotaAtRisk(ctx, f, next.quota) : f));
  return [...findings];
}

/** The next rollout, run forward with maxSurge 0 / maxUnavailable 1: an old pod goes before a new one comes. */
function oldFirstCompletes(ctx: AnalysisContext): boolean {
  const change = {
    template: nextPod(ctx.snapshot),
    strategy: { maxSurge: 0, maxUnavailable: 1, recreate: false },
  };
  return runWithChange(ctx, change).outcome.result === 'completes';
}

/**
 * RolloutAtRisk where the next rollout's first new pod is refused by a quota that this
 * workload's own pods fill: the surge pod is never created, and the old pods wait for
 * it. Letting an old pod go first gives its share of the quota back.
 */
function quotaAtRisk(ctx: AnalysisContext, finding: Draft, quota: QuotaRef | undefined): Draft {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const name = kind.object(snapshot).metadata.name ?? '';
  const assessment = assessRollout(ctx);
  const strategy = strategyPhrase(assessment.strategy, assessment.replicas);
  return {
    ...finding,
    summary: `Next rollout of ${name} will deadlock: ${quotaRefuses(quota)} its first new pod while this ${snapshot.target.kind}'s own pods count against it, and ${strategy} creates the new pod before any old one goes.`,
    explanation: `A ResourceQuota is checked when a pod is created: the surge pod is refused (FailedCreate, exceeded quota) and never reaches the scheduler, while the old pods wait for it to become Ready. Setting maxSurge 0 / maxUnavailable 1${kind.recreate ? ' (or Recreate)' : ''} now lets an old pod give its share back first; it restarts nothing by itself. Raising the quota works too.`,
    evidence: finding.evidence.filter((e) => e.type !== 'node-capacity'),
  };
}

/**
 * Other workloads' pods the run preempts (their names): the scheduler deletes them to make
 * room, a PodDisruptionBudget notwithstanding where no victim keeps one (preemption
 * prefers victims whose budget allows it, SelectVictimsOnNode), and a replacement that
 * finds no room stays Pending. Not free, so never "nothing needs changing".
 */
function othersPreempted(ctx: AnalysisContext, steps: readonly Step[]): string[] {
  const ours = new Set(ctx.snapshot.pods.map((p) => p.metadata.name ?? ''));
  return [
    ...new Set(steps.flatMap((s) => (s.kind === 'preempted' ? s.victims.filter((v) => !ours.has(v)) : []))),
  ];
}

function progressing(ctx: AnalysisContext, outcome: Extract<Outcome, { steps: Step[] }>): Draft {
  const words = stepsInPlainWords(outcome);
  const first = words.slice(0, 2).join(', then ');
  const victims = othersPreempted(ctx, outcome.steps);
  const cost =
    victims.length === 0
      ? '; nothing needs changing.'
      : `. It preempts pods of other workloads on the way (${named(victims)}): the scheduler deletes them before their replacements have room, a PodDisruptionBudget notwithstanding where every choice breaks one, so their workloads may go short or down.`;
  return {
    code: 'RolloutProgressing',
    severity: 'info',
    summary:
      outcome.result === 'completes'
        ? `The rollout is moving and will finish by itself${atAutoscaledCount(ctx)} once ${first}${cost}`
        : `The rollout is moving: next, ${first}. Nothing is stuck yet; diagnose again if it stops there.${victims.length > 0 ? ` On the way it preempts pods of other workloads (${named(victims)}).` : ''}`,
    explanation:
      (outcome.result === 'completes'
        ? 'Run forward, the controllers finish it'
        : 'The controller takes its next step by itself') +
      ': terminating pods give back their node and quota when they are gone, starting pods become Ready, the controller then replaces the next old pods, and the scheduler places what fits. Watch it with kubectl rollout status; diagnose again if it stops moving.',
    evidence: [
      { type: 'note', text: `What happens next, in order: ${words.slice(0, 6).join('; ')}.` },
      ...[quotaRecountNote(ctx)].filter((e) => e !== undefined),
      podsAsTheyAre(ctx),
    ],
  };
}

/**
 * A DaemonSet blocked without its old pods only by new pods waiting on their own nodes
 * (daemon-budget.ts), while as it is more are stuck (a surge pod beside its old one):
 * the deadlock stays a deadlock, to fix once they have room, beside their Unschedulable.
 */
function waitsBesideDeadlock(
  ctx: AnalysisContext,
  asIs: Extract<Outcome, { result: 'blocked' }>,
  withoutOld: Extract<Outcome, { result: 'blocked' }>,
): boolean {
  if (withoutOld.refused || !waitingAmong(ctx, withoutOld.pending).only) return false;
  return asIs.pending.length > withoutOld.pending.length;
}

function noOrderHelps(
  findings: readonly Draft[],
  asIs: Extract<Outcome, { result: 'blocked' }>,
  withoutOld: Extract<Outcome, { result: 'blocked' }>,
  ctx: AnalysisContext,
): Draft[] {
  const deadlocks = findings.filter((f) => f.code === 'RolloutSurgeDeadlock');
  if (deadlocks.length === 0) return [...findings];
  const rest = findings.filter((f) => f.code !== 'RolloutSurgeDeadlock');
  const code: FindingCode = asIs.pending.length > 0 ? 'Unschedulable' : 'QuotaExceeded';
  const rivals = rivalsFirst(withoutOld);
  if (rest.some((f) => f.code === code))
    return rivals
      ? rest.map((f) => (f.code === code ? { ...f, evidence: [...f.evidence, rivalsNote(rivals)] } : f))
      : rest;
  const evidence = deadlocks.flatMap((f) => f.evidence.filter((e) => e.type !== 'strategy'));
  return [...rest, capacityFinding(ctx, asIs, withoutOld, evidence)];
}

/** The other workloads whose Pending pods took room in the run (rivals.ts), as kubectl names them. */
function rivalsFirst(outcome: Outcome): string | undefined {
  if (!('steps' in outcome)) return undefined;
  const owners = [...new Set(outcome.steps.flatMap((s) => (s.kind === 'rival-placed' ? [s.owner] : [])))];
  return owners.length > 0 ? owners.join(', ') : undefined;
}

function rivalsNote(owners: string): Evidence {
  return {
    type: 'note',
    text: `With this workload's old pods gone, the room they free goes first to Pending pods of ${owners}, ahead of ours in the scheduler's queue (a higher priority): they take it in any order.`,
  };
}

/** The new pods fit no node, or no quota, whatever happens to the old ones. */
function capacityFinding(
  ctx: AnalysisContext,
  asIs: Extract<Outcome, { result: 'blocked' }>,
  withoutOld: Extract<Outcome, { result: 'blocked' }>,
  evidence: Evidence[],
): Draft {
  const rivals = rivalsFirst(withoutOld);
  if (rivals) evidence = [...evidence, rivalsNote(rivals)];
  const unschedulable = asIs.pending.length > 0;
  const pending = new Set(asIs.pending);
  const scheduling =
    evidence.length > 0
      ? []
      : assessRollout(ctx)
          .pending.filter((p) => pending.has(p.pod))
          .slice(0, 1)
          .flatMap(schedulingEvidence);
  return {
    code: unschedulable ? 'Unschedulable' : 'QuotaExceeded',
    severity: 'critical',
    summary: unschedulable
      ? rivals
        ? `The rollout can never finish: with this workload's old pods gone, the room they free goes first to Pending pods of ${rivals} (a higher priority), and ${asIs.pending.length === 1 ? 'the new pod' : `${asIs.pending.length} new pods`} then fit no node. No strategy change helps, and letting old pods go first only takes serving replicas down: make room, or settle the priorities.`
        : `The rollout can never finish${atAutoscaledCount(ctx)}: even with this workload's old pods gone, ${unplaced(ctx, withoutOld)} no node. No strategy change helps, and letting old pods go first only takes serving replicas down: make room, or change the template.`
      : `The rollout can never finish: ${quotaRefuses(asIs.quota)} the new pods even with this workload's old pods gone. Raise the quota or free it elsewhere; letting old pods go first only takes serving replicas down.`,
    evidence: [...evidence, ...scheduling, podsAsTheyAre(ctx)],
  };
}

/**
 * How many new pods the run without the old pods left unplaced, said exactly: "1 of its
 * 4 new pods fits" where the others fit (the room holds fewer pods than the replicas, not
 * no pod at all), "its new pods fit" where none does.
 */
function unplaced(ctx: AnalysisContext, withoutOld: Extract<Outcome, { result: 'blocked' }>): string {
  const kind = workloadKind(ctx.snapshot);
  const wanted = autoscaledTo(ctx) ?? kind.desiredReplicas(kind.object(ctx.snapshot));
  const n = Math.max(1, withoutOld.pending.length);
  if (n >= wanted) return wanted === 1 ? 'its new pod fits' : `its ${wanted} new pods fit`;
  return `${n} of its ${wanted} new pods ${n === 1 ? 'fits' : 'fit'}`;
}

function stuckForGood(ctx: AnalysisContext, asIs: Extract<Outcome, { result: 'blocked' }>): Draft {
  const names = [...new Set(asIs.pending.map((p) => p.metadata.name ?? '').filter((n) => n !== ''))].slice(
    0,
    3,
  );
  const what = asIs.refused
    ? `${quotaRefuses(asIs.quota)} the next new pod`
    : names.length > 0
      ? `new pods (${names.join(', ')}) wait for room the old pods hold`
      : 'old pods wait to be replaced';
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const { argo } = kind.strategy(object);
  const replicas = autoscaledTo(ctx) ?? kind.desiredReplicas(object);
  const why =
    argo === 'blueGreen'
      ? `blue-green keeps every active pod until the preview has all ${replicas} of its pods and is promoted, and the nodes cannot hold both revisions at once`
      : argo === 'trafficRouted'
        ? `a traffic-routed canary keeps every stable pod until the canary has all ${replicas} of its pods, and the nodes cannot hold both revisions at once`
        : 'the controller removes no more old pods (its maxUnavailable is used up)';
  const reads = kind.progressDeadline
    ? 'The progress deadline has not passed yet, so kubectl still reads it as progressing.'
    : `A ${kind.words.kind} has no progress deadline, so kubectl rollout status waits with no end and nothing marks the rollout failed.`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `The rollout can never finish${atAutoscaledCount(ctx)}: ${what}, and ${why}. ${reads}`,
    evidence: [podsAsTheyAre(ctx)],
  };
}
