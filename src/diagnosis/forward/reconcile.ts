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
import type { Pod } from '../k8s.js';
import { shownPhase } from '../base/pods.js';
import { workloadKind } from '../workloads/index.js';
import type { Step } from './model.js';
import type { Outcome } from './run.js';
import type { QuotaRef } from './world.js';
import type { StepShortfall } from './canary-steps.js';
import { podPhases } from './pod-phase.js';
import { pinnedFinding, pinnedReplacement } from '../rollout/volume-pin.js';
import { codeSpan } from '../../text/code-span.js';
import { stepsInPlainWords } from './step-words.js';
import { forwardVerdict, nextRolloutOutcome } from './verdict.js';
import { waitingAmong } from './daemon-budget.js';
import { assessRollout, schedulingEvidence } from '../rollout/rollout-assessment.js';

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
  const { snapshot } = ctx;
  const underWay = workloadKind(snapshot).underWay(snapshot) !== undefined;
  if (!underWay) return notAtRisk(ctx, findings);
  const { asIs, withoutOld, paused } = forwardVerdict(ctx);
  if (asIs.result === 'completes' || asIs.result === 'moving') {
    if (!findings.some((f) => STUCK_CODES.has(f.code))) {
      // A node the cluster autoscaler is adding is said even where no verdict called it
      // stuck: the scheduler's own words read "no room", and nothing else explains the wait.
      const nodeComing = asIs.steps.some((s) => s.kind === 'node-added');
      // A rollout under way that nothing else speaks of is said to be moving, with what
      // it waits for: "No problem found" alone left the person who asked why it is not
      // done without an answer.
      const unexplained = !paused && asIs.steps.length > 0 && !findings.some(explainsTheWait);
      return nodeComing || unexplained ? [...findings, progressing(ctx, asIs)] : [...findings];
    }
    if (asIs.steps.length === 0) return [...findings];
    // The model moves a replacement it makes without the pod's own claims: a volume that
    // ties the pod to nodes taking no pods stops the rollout there (rollout/volume-pin.ts).
    // Only that verdict stands: the pods before it move as the model says.
    const pinned = pinnedReplacement(ctx);
    if (pinned) {
      const verdict = pinnedFinding(ctx, pinned);
      return [...findings.filter((f) => !STUCK_CODES.has(f.code) || f.summary === verdict.summary)];
    }
    const next = paused ? pausedButFinishes(ctx, asIs) : progressing(ctx, asIs);
    return [...findings.filter((f) => !STUCK_CODES.has(f.code)), next];
  }
  if (asIs.result !== 'blocked') return [...findings];
  if (asIs.step) {
    if (findings.some((f) => SAYS_NOT_FINISHING.has(f.code))) return [...findings];
    return [...findings, stepNeverReached(ctx, asIs, asIs.step)];
  }
  if (withoutOld?.result === 'blocked') {
    const converted = waitsBesideDeadlock(ctx, asIs, withoutOld)
      ? [...findings]
      : noOrderHelps(findings, asIs, ctx);
    if (converted.some((f) => SAYS_NOT_FINISHING.has(f.code))) return converted;
    return [...converted, capacityFinding(ctx, asIs, [])];
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
  if (nextRolloutOutcome(ctx).result !== 'completes') return [...findings];
  return findings.filter((f) => f.code !== 'RolloutAtRisk');
}

function progressing(ctx: AnalysisContext, outcome: Extract<Outcome, { steps: Step[] }>): Draft {
  const words = stepsInPlainWords(outcome);
  const first = words.slice(0, 2).join(', then ');
  return {
    code: 'RolloutProgressing',
    severity: 'info',
    summary:
      outcome.result === 'completes'
        ? `The rollout is moving and will finish by itself once ${first}; nothing needs changing.`
        : `The rollout is moving: next, ${first}. Nothing is stuck yet; diagnose again if it stops there.`,
    explanation:
      (outcome.result === 'completes'
        ? 'Run forward, the controllers finish it'
        : 'The controller takes its next step by itself') +
      ': terminating pods give back their node and quota when they are gone, starting pods become Ready, the controller then replaces the next old pods, and the scheduler places what fits. Watch it with kubectl rollout status; diagnose again if it stops moving.',
    evidence: [
      { type: 'note', text: `What happens next, in order: ${words.slice(0, 6).join('; ')}.` },
      podsAsTheyAre(ctx),
    ],
  };
}

/** A paused rollout that, run forward as resumed, finishes by itself: nothing is stuck, it waits for the resume. */
function pausedButFinishes(ctx: AnalysisContext, outcome: Extract<Outcome, { steps: Step[] }>): Draft {
  const words = stepsInPlainWords(outcome);
  const { kind, name, namespace } = ctx.snapshot.target;
  const ref = `${kind.toLowerCase()}/${name}`;
  return {
    code: 'RolloutPaused',
    severity: 'info',
    summary: `The rollout of ${ref} is paused (spec.paused), not stuck: once resumed, it finishes by itself.`,
    explanation: `A paused ${workloadKind(ctx.snapshot).words.kind} rolls no new template out until someone runs ${codeSpan(`kubectl rollout resume ${ref} -n ${namespace}`)}. Run forward as resumed, the controllers finish it; nothing needs changing but the resume.`,
    evidence: [
      { type: 'note', text: `Once resumed, in order: ${words.slice(0, 6).join('; ')}.` },
      podsAsTheyAre(ctx),
    ],
  };
}

/** The workload's pods as `kubectl get pods` shows them, with where the model sees them going. */
function podsAsTheyAre(ctx: AnalysisContext): Evidence {
  const phases = podPhases(ctx);
  const shown = (pod: Pod): { name: string; node?: string; phase?: string; detail?: string } => {
    const phase = shownPhase(pod);
    const state = phases.get(pod);
    return {
      name: pod.metadata.name ?? '',
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      ...(phase ? { phase } : {}),
      ...(state === 'starting' ? { detail: 'starting, not Ready yet' } : {}),
      ...(state === 'terminating' ? { detail: 'terminating: gone within its grace period' } : {}),
      ...(state === 'stuck' ? { detail: 'terminating past its deadline' } : {}),
    };
  };
  return { type: 'pods', title: 'Pods of the workload', pods: ctx.snapshot.pods.slice(0, 20).map(shown) };
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
  ctx: AnalysisContext,
): Draft[] {
  const deadlocks = findings.filter((f) => f.code === 'RolloutSurgeDeadlock');
  if (deadlocks.length === 0) return [...findings];
  const rest = findings.filter((f) => f.code !== 'RolloutSurgeDeadlock');
  const code: FindingCode = asIs.pending.length > 0 ? 'Unschedulable' : 'QuotaExceeded';
  if (rest.some((f) => f.code === code)) return rest;
  const evidence = deadlocks.flatMap((f) => f.evidence.filter((e) => e.type !== 'strategy'));
  return [...rest, capacityFinding(ctx, asIs, evidence)];
}

/** The new pods fit no node, or no quota, whatever happens to the old ones. */
function capacityFinding(
  ctx: AnalysisContext,
  asIs: Extract<Outcome, { result: 'blocked' }>,
  evidence: Evidence[],
): Draft {
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
      ? `The rollout can never finish: ${asIs.pending.length === 1 ? 'a new pod fits' : `${asIs.pending.length} new pods fit`} no node even with this workload's old pods gone. No strategy change helps, and letting old pods go first only takes serving replicas down: make room, or change the template.`
      : `The rollout can never finish: ${quotaRefuses(asIs.quota)} the new pods even with this workload's old pods gone. Raise the quota or free it elsewhere; letting old pods go first only takes serving replicas down.`,
    evidence: [...evidence, ...scheduling, podsAsTheyAre(ctx)],
  };
}

/**
 * Which quota refuses: one that has refused a pod of ours already (its event), or one
 * whose status, as read, leaves no room for what comes next (it has not refused yet).
 */
function quotaRefuses(quota: QuotaRef | undefined): string {
  if (!quota) return 'the quota refuses';
  return quota.source === 'refusal'
    ? `ResourceQuota ${quota.name} refuses`
    : `ResourceQuota ${quota.name}, as its status counts it, will refuse`;
}

/** An Argo canary's step ahead holds more pods at once than the nodes or the quota ever can. */
function stepNeverReached(
  ctx: AnalysisContext,
  asIs: Extract<Outcome, { result: 'blocked' }>,
  step: StepShortfall['step'],
): Draft {
  const { index, weight, canary, stable, room, surgeOnly, withoutSurge } = step;
  const name = ctx.snapshot.target.name;
  const pods = (n: number, what: string): string => `${n} ${what} pod${n === 1 ? '' : 's'}`;
  const limit = asIs.quota
    ? `${quotaRefuses(asIs.quota)} that many`
    : `the nodes hold at most ${room} such pods, whatever is moved`;
  const ways = surgeOnly
    ? `With maxSurge 0 the step asks ${pods(withoutSurge.canary, 'canary')} beside ${pods(withoutSurge.stable, 'stable')}, which fit: set the canary's maxSurge to 0, promote it past the steps (kubectl argo rollouts promote --full ${name}, which skips the remaining steps and their checks), or make room.`
    : `Letting old pods go does not help: the stable ReplicaSet makes them again. Promote it past the steps (kubectl argo rollouts promote --full ${name}, which skips the remaining steps and their checks), change the steps, or make room.`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `The rollout can never finish its canary steps: step ${index + 1} (setWeight ${weight}) needs ${pods(canary, 'canary')} running beside ${pods(stable, 'stable')} before the controller moves on, and ${limit}. The end state alone would fit.`,
    explanation: `Argo Rollouts passes a setWeight step only once the canary is available at the step's count with the stable ReplicaSet at its own, so both run at once. ${ways}`,
    evidence: [podsAsTheyAre(ctx)],
  };
}

function stuckForGood(ctx: AnalysisContext, asIs: Extract<Outcome, { result: 'blocked' }>): Draft {
  const names = [...new Set(asIs.pending.map((p) => p.metadata.name ?? '').filter((n) => n !== ''))].slice(
    0,
    3,
  );
  const what = asIs.refused
    ? `${quotaRefuses(asIs.quota)} the next new pod`
    : `new pods${names.length > 0 ? ` (${names.join(', ')})` : ''} wait for room the old pods hold`;
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const { argo } = kind.strategy(object);
  const replicas = kind.desiredReplicas(object);
  const why =
    argo === 'blueGreen'
      ? `blue-green keeps every active pod until the preview has all ${replicas} of its pods and is promoted, and the nodes cannot hold both revisions at once`
      : argo === 'trafficRouted'
        ? `a traffic-routed canary keeps every stable pod until the canary has all ${replicas} of its pods, and the nodes cannot hold both revisions at once`
        : 'the controller removes no more old pods (its maxUnavailable is used up)';
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `The rollout can never finish: ${what}, and ${why}. The progress deadline has not passed yet, so kubectl still reads it as progressing.`,
    evidence: [podsAsTheyAre(ctx)],
  };
}
