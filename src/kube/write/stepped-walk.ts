/**
 * The stepped scale-old-replicaset: the old ReplicaSet walked down to 0 one replica at
 * a time so that never fewer than replicas - 1 pods serve (the availability of
 * maxSurge 0 without touching the spec). Each step:
 *
 * 1. re-checks the Deployment (uid, generation) and the old ReplicaSet
 *    (replicaset-scaler.ts `check`);
 * 2. proves the deadlock again on a fresh snapshot and chooses the old pod to release
 *    the way the ReplicaSet controller will delete one (deletion-order.ts: a Pending or
 *    not-Ready pod goes before any marked one), and stops when that pod frees nothing
 *    the Pending new pod needs. That re-proof collects and analyzes, so it is handed
 *    in (`reprove`, src/remediation/step-release.ts, made in src/apply/apply-plan.ts):
 *    this module only reads and writes;
 * 3. waits, on a watch of the new ReplicaSet, until releasing it leaves at least
 *    replicas - 1 Ready pods: so a walk resumed by a retry (a worker that died while a
 *    step waited, a stalled job handed back, a second apply of the plan) waits for the
 *    earlier step's new pod before it takes the next, instead of copying the live count;
 * 4. marks that pod with the pod-deletion-cost, scales down by one, sees which pod the
 *    ReplicaSet controller really released, and waits for the new pod to be Ready.
 *
 * When another pod than the marked one went (someone else deleted an old pod during the
 * scale, so the ReplicaSet was already at its new count and deleted nothing of ours,
 * or the controller's order put another first) and the marked pod still runs, the step
 * does not wait for a new pod: where the pod that went frees nothing the Pending new pod
 * needs (not on a node of the proof) it stops at once and says so.
 *
 * A walk stopped because the Deployment changed says how, and what its Undo does then
 * (upstream deployment controller): rolled back to the old ReplicaSet's template, that
 * ReplicaSet is the new one again and the controller scales it up itself, so no Undo
 * (scaling it by hand only races the controller); a new rollout (a third template)
 * makes it an old ReplicaSet the controller only scales down, so no Undo either (it
 * would be scaled straight down and bring back the pods that block); any other spec
 * change (replicas, strategy, pause) leaves both ReplicaSets in their roles, and the
 * Undo stays, checked against the new generation.
 *
 * Every mark still on a pod that stays is taken off when the walk ends, however it
 * ends; one that cannot be is reported. Writes use the field manager rollout-doctor.
 */
import type { Deployment } from '../../diagnosis/k8s-workloads.js';
import type { Pod } from '../../diagnosis/k8s.js';
import { DELETION_COST, deletionCost, FIRST_TO_GO } from '../../diagnosis/rollout/deletion-order.js';
import { isTerminating } from '../../diagnosis/base/pods.js';
import type { ReplicaSetScalePlan } from '../../remediation/plan.js';
import type { StepChoice } from '../../remediation/step-release.js';
import type { ApplyResult } from './apply-result.js';
import type { KubeClient } from '../client.js';
import { markFirstToGo, removeMark } from './deletion-cost.js';
import { getObjectIfExists } from '../list.js';
import { check, patchScale, readReplicaSet, readyOf, scaleFailure } from './replicaset-scaler.js';
import {
  changedDeployment,
  readDeployment,
  type DeploymentChange,
  type StepOptions,
  type StepStop,
  type Walk,
  type WalkState,
} from './stepped-state.js';
import { untilNewPodReady, untilReleased, untilServing } from './stepped-waits.js';
import { changeWords, howChanged, releasedElsewhereWords } from './stepped-words.js';

export type { DeploymentChange, StepEvent, StepOptions, StepStop } from './stepped-state.js';

/** The step that takes the ReplicaSet from `from` to `from - 1`. */
const stepOf = (w: Walk, from: number): number => w.of - from + 1;
const seconds = (w: Walk): number => Math.round(w.stepTimeoutMs / 1000);
const replicasPath = (w: Walk): string => `replicasets/${w.target.name}/spec/replicas`;

/** Nothing written yet, by this attempt or an earlier one: a stop is a refusal. */
const untouched = (w: Walk, s: WalkState): boolean =>
  s.changes.length === 0 && s.expected === w.target.replicas;

/** What the walk did, once it ends. */
function walkResult(w: Walk, s: WalkState): ApplyResult {
  const generation = s.live.metadata.generation ?? 0;
  const noUndo = s.noUndo ? { noUndo: s.noUndo } : {};
  const { name } = w.target;
  if (s.changes.length > 0)
    return {
      status: 'applied',
      changes: [{ path: replicasPath(w), before: w.target.replicas, after: s.expected }],
      generation,
      resourceVersion: s.live.metadata.resourceVersion ?? '',
      ...noUndo,
    };
  return {
    status: 'already-applied',
    reason:
      s.expected === 0
        ? `ReplicaSet ${name} is already at 0`
        : `ReplicaSet ${name} is at ${s.expected} of ${w.of}: an earlier attempt took ${w.of - s.expected} step(s), this one none`,
    generation,
    changes: [{ path: replicasPath(w), before: undefined, after: s.expected }],
    ...noUndo,
  };
}

/** Ends the walk early: a refusal when nothing was written, else what was done, with the stop said. */
function stop(
  w: Walk,
  s: WalkState,
  reason: StepStop,
  words: string,
  extra: { change?: DeploymentChange; generation?: number } = {},
): ApplyResult {
  if (untouched(w, s)) return { status: 'refused', reason: words };
  const step = stepOf(w, s.expected);
  w.progress(`stopped at step ${step} of ${w.of}: ${words}`);
  w.emit({ phase: 'stopped', step, of: w.of, replicaSet: w.target.name, reason, ...extra });
  return walkResult(w, s);
}

/**
 * The Deployment changed under the walk: how (stepped-words.ts `howChanged`), and
 * whether the Undo still means what it says.
 */
async function deploymentChanged(w: Walk, s: WalkState): Promise<ApplyResult> {
  const [oldNow, newNow] = await Promise.all([
    readReplicaSet(w.client, w.namespace, w.target.name),
    readReplicaSet(w.client, w.namespace, w.target.newReplicaSet.name),
  ]);
  const change = howChanged(w.plan.preconditions.uid, s.live, oldNow, newNow);
  const generation = s.live.metadata.generation ?? 0;
  const words = changeWords(change, w.target, s.live);
  if (words.noUndo) s.noUndo = words.noUndo;
  return stop(w, s, 'deployment-changed', words.stop, {
    ...(change === 'replaced' ? {} : { change }),
    generation,
  });
}

/**
 * Choose, then wait until the step leaves replicas - 1 serving; after a wait the pods
 * have moved on, so choose again. A walk nothing has stepped yet does not wait: the
 * plan promised replicas - 1 serving from the start, so it is refused at once when
 * that does not hold.
 */
async function chooseServing(
  w: Walk,
  s: WalkState,
): Promise<{ choice: Extract<StepChoice, { ok: true }> } | { result: ApplyResult }> {
  const replicas = s.live.spec.replicas ?? 1;
  const fresh = untouched(w, s);
  const deadline = fresh ? Date.now() : Date.now() + w.stepTimeoutMs;
  for (;;) {
    const choice = await w.reprove(w.plan);
    if (!choice.ok) return { result: stop(w, s, choice.stop, choice.reason) };
    const wait = await untilServing(w, s, choice.pod, replicas, deadline);
    if (wait === 'deployment-changed') return { result: await deploymentChanged(w, s) };
    if (wait === 'timeout')
      return {
        result: stop(
          w,
          s,
          'ready-timeout',
          `releasing ${choice.pod.metadata.name ?? ''} would leave fewer than ${replicas - 1} of ${replicas} replicas Ready${fresh ? ' now' : `, and no new pod became Ready within ${seconds(w)} s`}`,
        ),
      };
    if (wait === 'now') return { choice };
  }
}

/** One step down from `from`, tested against the ReplicaSet's uid and replicas. */
function scaleBy(w: Walk, from: number, dryRun: boolean): Promise<unknown> {
  const body = [
    { op: 'test', path: '/metadata/uid', value: w.target.uid },
    { op: 'test', path: '/spec/replicas', value: from },
    { op: 'replace', path: '/spec/replicas', value: from - 1 },
  ];
  return patchScale(w.client, w.namespace, w.target.name, body, dryRun);
}

/** Marks `pod` to go first and scales the old ReplicaSet down by one (dry run first). */
async function scaleDownOne(w: Walk, s: WalkState, pod: Pod): Promise<void> {
  await scaleBy(w, s.expected, true);
  // Already at the lowest cost (an earlier step's mark): nothing to write.
  if (deletionCost(pod) > FIRST_TO_GO) s.marks.push(await markFirstToGo(w.client, w.namespace, pod));
  s.writing = true;
  await scaleBy(w, s.expected, false);
  s.writing = false;
  s.changes.push({ path: replicasPath(w), before: s.expected, after: s.expected - 1 });
  s.expected -= 1;
}

/**
 * Which pod went is what the ReplicaSet controller did, not what the mark asked. When
 * another pod went (deleted by someone else during the scale, so the ReplicaSet was
 * already at its count and released nothing of ours; or first in the controller's
 * order) and the marked one still runs, and the pod that went frees nothing the
 * Pending new pod needs, its new pod never comes: say so now.
 */
async function seeRelease(
  w: Walk,
  s: WalkState,
  choice: Extract<StepChoice, { ok: true }>,
  before: Pod[],
): Promise<{ gone: Pod } | { result: ApplyResult }> {
  const { pod } = choice;
  const podName = pod.metadata.name ?? '';
  const gone = await untilReleased(w, before, pod);
  if (!gone)
    return {
      result: stop(
        w,
        s,
        'not-released',
        `the ReplicaSet controller released no old pod within ${seconds(w)} s`,
      ),
    };
  const goneNode = gone.spec.nodeName ?? '';
  if ((gone.metadata.name ?? '') !== podName && !choice.nodes.includes(goneNode)) {
    const markedNow = await getObjectIfExists<Pod>(w.client, {
      resource: 'pods',
      namespace: w.namespace,
      name: podName,
    });
    if (markedNow && markedNow.metadata.uid === pod.metadata.uid && !isTerminating(markedNow)) {
      const words = releasedElsewhereWords(gone, pod, w.target, s.expected, choice.nodes);
      return { result: stop(w, s, 'released-elsewhere', words) };
    }
  }
  const goneMark = s.marks.findIndex((m) => m.uid === gone.metadata.uid);
  if (goneMark >= 0) s.marks.splice(goneMark, 1);
  return { gone };
}

/** One step: choose, scale down by one, see which pod went, wait for the new pod. */
async function takeStep(w: Walk, s: WalkState): Promise<ApplyResult | 'next'> {
  const chosen = await chooseServing(w, s);
  if ('result' in chosen) return chosen.result;
  const { choice } = chosen;
  const podName = choice.pod.metadata.name ?? '';
  const before = choice.pods.filter((p) => !isTerminating(p));
  const newBefore = readyOf(await readReplicaSet(w.client, w.namespace, w.target.newReplicaSet.name));
  await scaleDownOne(w, s, choice.pod);
  const step = stepOf(w, s.expected + 1);
  const seen = await seeRelease(w, s, choice, before);
  if ('result' in seen) return seen.result;
  const goneName = seen.gone.metadata.name ?? '';
  const other = goneName === podName ? {} : { marked: podName };
  if (goneName !== podName)
    w.progress(
      `the ReplicaSet controller released ${goneName}, not ${podName} (marked ${DELETION_COST}=${FIRST_TO_GO})`,
    );
  w.progress(
    `step ${step}: ${goneName} released, ReplicaSet ${w.target.name} at ${s.expected}; waiting for the new pod to be Ready`,
  );
  const event = { step, of: w.of, replicaSet: w.target.name, pod: goneName, ...other };
  w.emit({ phase: 'waiting-ready', ...event });
  const ready = await untilNewPodReady(w, s, newBefore);
  if (ready === 'deployment-changed') return deploymentChanged(w, s);
  if (!ready) return stop(w, s, 'ready-timeout', `no new pod became Ready within ${seconds(w)} s`);
  w.emit({ phase: 'ready', ...event });
  return 'next';
}

/** Step after step until the old ReplicaSet is at 0 or a step stops the walk. */
async function walk(w: Walk, s: WalkState): Promise<ApplyResult> {
  for (let round = 1; ; round += 1) {
    if (round > 1) {
      s.live = await readDeployment(w);
      if (changedDeployment(w, s.live)) return deploymentChanged(w, s);
    }
    const rs = await readReplicaSet(w.client, w.namespace, w.target.name);
    const now = rs?.spec.replicas ?? 0;
    // An earlier attempt, or the Deployment controller as new pods became available,
    // may have scaled it down already: carry on from there (numbering stays).
    if (rs && rs.metadata.uid === w.target.uid && now < s.expected) s.expected = now;
    if (s.expected === 0) break;
    const checked = await check(w.client, w.plan.target, w.target, s.live, s.expected);
    if (!checked.ok) {
      if (untouched(w, s)) return checked.result;
      return stop(w, s, 'replicaset-changed', checked.result.reason);
    }
    const stepped = await takeStep(w, s);
    if (stepped !== 'next') return stepped;
  }
  if (s.changes.length > 0) w.emit({ phase: 'done', step: w.of, of: w.of, replicaSet: w.target.name });
  return walkResult(w, s);
}

/**
 * A request failed: before this attempt's first write, classified as for the
 * all-at-once scale (scaleFailure); after it, a stop that reports what was done.
 */
function walkFailed(w: Walk, s: WalkState, error: unknown): ApplyResult {
  const failed = scaleFailure(error, s.writing);
  if (s.changes.length > 0) return stop(w, s, 'api-error', failed.reason);
  if (s.expected === w.target.replicas) return failed;
  return {
    ...failed,
    reason: `ReplicaSet ${w.target.name} is at ${s.expected} of ${w.of} from an earlier attempt; ${failed.reason}`,
  };
}

/** No mark stays on a pod that stays, however the walk ended; one that cannot be taken off is said. */
async function takeMarksOff(w: Walk, s: WalkState): Promise<void> {
  const left: string[] = [];
  for (const mark of s.marks) if (!(await removeMark(w.client, w.namespace, mark))) left.push(mark.name);
  if (left.length === 0) return;
  w.progress(`${DELETION_COST} could not be taken off ${left.join(', ')}`);
  w.emit({
    phase: 'marks-left',
    step: stepOf(w, s.expected),
    of: w.of,
    replicaSet: w.target.name,
    namespace: w.namespace,
    pods: left,
  });
}

/**
 * Walks the old ReplicaSet down to 0 (see the module comment). Stops, saying why, when
 * something changed under it or a step waits too long; what was done by then is
 * reported as applied. Before this attempt's first write, a failure is classified as
 * for the all-at-once scale (scaleFailure) and a stop is a refusal.
 */
export async function applyStepped(
  client: KubeClient,
  plan: ReplicaSetScalePlan,
  first: Deployment,
  progress: (step: string) => void,
  options: StepOptions = {},
): Promise<ApplyResult> {
  const { reprove } = options;
  if (!reprove)
    return {
      status: 'failed',
      reason: 'a stepped scale needs the re-proof between steps, and none was given',
      retryable: false,
    };
  const target = plan.replicaSet;
  const w: Walk = {
    client,
    plan,
    target,
    namespace: plan.target.namespace,
    of: target.replicas,
    pollMs: options.pollMs ?? 2000,
    stepTimeoutMs: options.stepTimeoutMs ?? 10 * 60_000,
    progress,
    emit: (event) => options.onStep?.(event),
    reprove,
  };
  const s: WalkState = { live: first, expected: target.replicas, changes: [], marks: [], writing: false };
  let outcome: ApplyResult;
  try {
    outcome = await walk(w, s);
  } catch (error) {
    outcome = walkFailed(w, s, error);
  }
  await takeMarksOff(w, s);
  return outcome;
}
