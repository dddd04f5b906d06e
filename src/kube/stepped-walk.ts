/**
 * The stepped scale-old-replicaset: the old ReplicaSet walked down to 0 one replica at
 * a time so that never fewer than replicas - 1 pods serve (the availability of
 * maxSurge 0 without touching the spec). Each step:
 *
 * 1. re-checks the Deployment (uid, generation) and the old ReplicaSet
 *    (replicaset-scaler.ts `check`);
 * 2. chooses the old pod to release the way the ReplicaSet controller will delete one
 *    (deletion-order.ts: a Pending or not-Ready pod goes before any marked one), and
 *    stops when that pod frees nothing the Pending new pod needs;
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
import { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { Deployment, Pod, ReplicaSet } from '../diagnosis/k8s.js';
import {
  chooseRelease,
  DELETION_COST,
  deletionCost,
  FIRST_TO_GO,
} from '../diagnosis/rollout/deletion-order.js';
import { currentDeadlockProof } from '../diagnosis/rollout/surge-proof.js';
import { isReady, isTerminating } from '../diagnosis/base/pods.js';
import { podsOfReplicaSet, templatesEqual } from '../diagnosis/workloads/deployment/replica-sets.js';
import type { OldReplicaSetTarget, RemediationPlan } from '../remediation/plan.js';
import type { ApplyResult } from './apply-result.js';
import type { KubeClient } from './client.js';
import { collectSnapshot } from './read/collector.js';
import { markFirstToGo, removeMark, type Mark } from './deletion-cost.js';
import { getObject, getObjectIfExists, listObjects } from './list.js';
import type { FieldChange } from './patch-effect.js';
import { check, patchScale, readReplicaSet, scaleFailure } from './replicaset-scaler.js';
import { waitUntil } from './wake-on-change.js';

export interface StepOptions {
  /** How long one step may wait for its new pod to be Ready (default 10 minutes). */
  stepTimeoutMs?: number;
  /**
   * Re-read interval while waiting (default 2 s): a watch wakes the wait as soon as the
   * watched ReplicaSet changes; the re-read carries on if the watch drops.
   */
  pollMs?: number;
  /** Each step as data, for the Slack thread (src/worker/remediate-processor.ts). */
  onStep?: (event: StepEvent) => void;
}

/** Why a stepped walk stopped before the old ReplicaSet reached 0. */
export type StepStop =
  | 'deployment-changed'
  | 'replicaset-changed'
  | 'nothing-blocked'
  | 'other-pod-first'
  | 'not-released'
  | 'released-elsewhere'
  | 'ready-timeout'
  | 'api-error';

/**
 * How the Deployment changed under a walk: rolled back to the old ReplicaSet's template,
 * a new rollout (a template neither ReplicaSet runs), or another spec field.
 */
export type DeploymentChange = 'rolled-back' | 'new-rollout' | 'spec';

/**
 * One step of the walk, as data: step `step` of `of` (the old ReplicaSet's replicas
 * at diagnosis), numbered from the ReplicaSet's replicas so a retried walk numbers
 * its steps as the first attempt did. `pod` is the old pod the ReplicaSet controller
 * released, as seen after the scale; `marked` the pod the step had marked, when the
 * controller released another. `marks-left`: pods still carrying our mark because
 * taking it off failed.
 */
export type StepEvent =
  | { phase: 'waiting-ready'; step: number; of: number; replicaSet: string; pod: string; marked?: string }
  | { phase: 'ready'; step: number; of: number; replicaSet: string; pod: string; marked?: string }
  | { phase: 'done'; step: number; of: number; replicaSet: string }
  | {
      phase: 'stopped';
      step: number;
      of: number;
      replicaSet: string;
      reason: StepStop;
      /** reason deployment-changed: how, and the generation seen. */
      change?: DeploymentChange;
      generation?: number;
    }
  | {
      phase: 'marks-left';
      step: number;
      of: number;
      replicaSet: string;
      namespace: string;
      pods: string[];
    };

/** One step down from `from`, tested against the ReplicaSet's uid and replicas. */
function scaleBy(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
  from: number,
  dryRun: boolean,
): Promise<unknown> {
  const body = [
    { op: 'test', path: '/metadata/uid', value: target.uid },
    { op: 'test', path: '/spec/replicas', value: from },
    { op: 'replace', path: '/spec/replicas', value: from - 1 },
  ];
  return patchScale(client, plan.target.namespace, target.name, body, dryRun);
}

type Choice =
  { ok: true; pod: Pod; pods: Pod[]; nodes: string[] } | { ok: false; stop: StepStop; reason: string };

/**
 * From a fresh snapshot: the old pod whose release the ReplicaSet controller will make
 * and that lets the Pending new pod schedule, with the old ReplicaSet's pods as seen.
 */
async function choose(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
): Promise<Choice> {
  const snapshot = await collectSnapshot(client, plan.target);
  const proof = currentDeadlockProof(new AnalysisContext(snapshot));
  if (!proof)
    return { ok: false, stop: 'nothing-blocked', reason: 'no Pending new pod is blocked by an old pod now' };
  const old = snapshot.replicaSets.find((rs) => rs.metadata.uid === target.uid);
  const pods = old ? podsOfReplicaSet(snapshot, old) : [];
  const choice = chooseRelease(pods, (p) => proof.nodes.includes(p.spec.nodeName ?? ''));
  if (!choice)
    return { ok: false, stop: 'nothing-blocked', reason: `ReplicaSet ${target.name} has no live pod` };
  if (!choice.ok) return { ok: false, stop: 'other-pod-first', reason: choice.reason };
  return { ok: true, pod: choice.pod, pods, nodes: proof.nodes };
}

const readyOf = (rs: ReplicaSet | undefined): number => rs?.status?.readyReplicas ?? 0;

/** One pod by name, or undefined once it is gone. */
function readPod(client: KubeClient, namespace: string, name: string): Promise<Pod | undefined> {
  return getObjectIfExists<Pod>(client, { resource: 'pods', namespace, name });
}

/**
 * Walks the old ReplicaSet down to 0 (see the module comment). Stops, saying why, when
 * something changed under it or a step waits too long; what was done by then is
 * reported as applied. Before this attempt's first write, a failure is classified as
 * for the all-at-once scale (scaleFailure) and a stop is a refusal.
 */
export async function applyStepped(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
  first: Deployment,
  progress: (step: string) => void,
  options: StepOptions = {},
): Promise<ApplyResult> {
  const namespace = plan.target.namespace;
  const pollMs = options.pollMs ?? 2000;
  const stepTimeoutMs = options.stepTimeoutMs ?? 10 * 60_000;
  const of = target.replicas;
  /** The step that takes the ReplicaSet from `from` to `from - 1`. */
  const stepOf = (from: number): number => of - from + 1;
  const emit = (event: StepEvent): void => options.onStep?.(event);
  const path = `replicasets/${target.name}/spec/replicas`;
  const seconds = Math.round(stepTimeoutMs / 1000);
  const newRs = { resource: 'replicasets' as const, namespace, name: target.newReplicaSet.name };
  /** Marks this walk set on pods the controller has not been seen to release. */
  const marks: Mark[] = [];
  /** This attempt's writes. */
  const changes: FieldChange[] = [];
  let expected = target.replicas;
  let live = first;
  let writing = false;
  /** The plan's Deployment as it is now: replaced or its spec changed (generation) since diagnosis. */
  const changedDeployment = (d: Deployment): boolean =>
    d.metadata.uid !== plan.preconditions.uid ||
    (d.metadata.generation ?? 0) !== plan.preconditions.generation;
  /** Re-reads the Deployment during a wait; true (and `live` updated) when it changed. */
  const deploymentMoved = async (): Promise<boolean> => {
    const now = await getObject<Deployment>(client, {
      resource: 'deployments',
      namespace,
      name: plan.target.name,
    });
    if (!changedDeployment(now)) return false;
    live = now;
    return true;
  };

  /** Why the walk's Undo is not offered (the Deployment moved on under it). */
  let noUndo: string | undefined;
  /** What the walk did, once it ends. */
  const result = (): ApplyResult => {
    const generation = live.metadata.generation ?? 0;
    if (changes.length > 0)
      return {
        status: 'applied',
        changes: [{ path, before: target.replicas, after: expected }],
        generation,
        resourceVersion: live.metadata.resourceVersion ?? '',
        ...(noUndo ? { noUndo } : {}),
      };
    return {
      status: 'already-applied',
      reason:
        expected === 0
          ? `ReplicaSet ${target.name} is already at 0`
          : `ReplicaSet ${target.name} is at ${expected} of ${of}: an earlier attempt took ${of - expected} step(s), this one none`,
      generation,
      changes: [{ path, before: undefined, after: expected }],
      ...(noUndo ? { noUndo } : {}),
    };
  };
  /** Nothing written yet, by this attempt or an earlier one: a stop is a refusal. */
  const untouched = (): boolean => changes.length === 0 && expected === target.replicas;
  const stop = (
    reason: StepStop,
    words: string,
    extra: { change?: DeploymentChange; generation?: number } = {},
  ): ApplyResult => {
    if (untouched()) return { status: 'refused', reason: words };
    progress(`stopped at step ${stepOf(expected)} of ${of}: ${words}`);
    emit({ phase: 'stopped', step: stepOf(expected), of, replicaSet: target.name, reason, ...extra });
    return result();
  };

  /**
   * The Deployment changed under the walk: how (the old ReplicaSet's template is the
   * Deployment's again, or neither ReplicaSet's is, or only another spec field moved),
   * and whether the Undo still means what it says.
   */
  const deploymentChanged = async (): Promise<ApplyResult> => {
    const generation = live.metadata.generation ?? 0;
    const [oldNow, newNow] = await Promise.all([
      readReplicaSet(client, namespace, target.name),
      readReplicaSet(client, namespace, target.newReplicaSet.name),
    ]);
    const replicas = live.spec.replicas ?? 1;
    if (live.metadata.uid !== plan.preconditions.uid)
      return stop(
        'deployment-changed',
        `the Deployment changed: it was replaced (new uid); no Undo is offered`,
        {
          generation,
        },
      );
    if (oldNow?.spec.template && templatesEqual(oldNow.spec.template, live.spec.template)) {
      noUndo = `the Deployment was rolled back to ReplicaSet ${target.name}'s template: it is the new ReplicaSet again, and the Deployment controller scales it up to ${replicas} itself, so scaling it back by hand would only race the controller`;
      return stop(
        'deployment-changed',
        `the Deployment changed (generation ${generation}): it was rolled back to ReplicaSet ${target.name}'s template, which the Deployment controller scales back up itself, and no Undo is offered`,
        { change: 'rolled-back', generation },
      );
    }
    if (!newNow?.spec.template || !templatesEqual(newNow.spec.template, live.spec.template)) {
      noUndo = `the Deployment started a new rollout: ReplicaSet ${target.name} is an old one that the Deployment controller only scales down, so an Undo would be scaled straight back down and bring back the pods that blocked the new ones`;
      return stop(
        'deployment-changed',
        `the Deployment changed (generation ${generation}): a new rollout, a template neither ReplicaSet runs; no Undo is offered, since the controller only scales ${target.name} down now`,
        { change: 'new-rollout', generation },
      );
    }
    return stop(
      'deployment-changed',
      `the Deployment changed (generation ${generation}): another spec field (replicas, strategy or pause), not the template; the Undo still puts ${target.name} back while ${target.newReplicaSet.name} is not fully available`,
      { change: 'spec', generation },
    );
  };

  /**
   * Waits until releasing `pod` leaves at least replicas - 1 Ready pods (old and new
   * ReplicaSet together), re-reading both on every change of the new one.
   */
  const serving = async (
    pod: Pod,
    replicas: number,
    deadline: number,
  ): Promise<'now' | 'waited' | 'timeout' | 'deployment-changed'> => {
    let waited = false;
    const allowed = await waitUntil(
      client,
      newRs,
      async () => {
        const [oldNow, newNow] = await Promise.all([
          readReplicaSet(client, namespace, target.name),
          readReplicaSet(client, namespace, target.newReplicaSet.name),
        ]);
        const after = readyOf(oldNow) + readyOf(newNow) - (isReady(pod) ? 1 : 0);
        if (after >= replicas - 1) return { value: 'allowed' as const };
        if (waited && (await deploymentMoved())) return { value: 'deployment-changed' as const };
        waited = true;
        return { resourceVersion: newNow?.metadata.resourceVersion };
      },
      deadline,
      pollMs,
    );
    if (!allowed) return 'timeout';
    if (allowed === 'deployment-changed') return allowed;
    return waited ? 'waited' : 'now';
  };

  /** The pod of `before` that went after the scale (the marked one first, when it did), once seen. */
  const released = (before: Pod[], marked: Pod): Promise<Pod | undefined> =>
    waitUntil(
      client,
      { resource: 'replicasets', namespace, name: target.name },
      async () => {
        const list = await listObjects<Pod>(client, {
          resource: 'pods',
          namespace,
          query: { labelSelector: `pod-template-hash=${target.podTemplateHash}` },
        });
        const now = new Map(list.items.map((p) => [p.metadata.uid, p]));
        const went = (p: Pod): boolean => {
          const seen = now.get(p.metadata.uid);
          return !seen || isTerminating(seen);
        };
        const gone = went(marked) ? marked : before.find(went);
        return gone ? { value: gone } : { resourceVersion: list.resourceVersion };
      },
      Date.now() + stepTimeoutMs,
      pollMs,
    );

  /**
   * Waits until the new ReplicaSet has more Ready pods than `before`, or the Deployment
   * changes under the wait (a rollback or a new rollout scales the new ReplicaSet down:
   * its next pod never comes, and waiting out the step's timeout would blame readiness).
   */
  const readyAfter = async (before: number): Promise<'ready' | 'deployment-changed' | undefined> =>
    waitUntil(
      client,
      newRs,
      async () => {
        const rs = await readReplicaSet(client, namespace, target.newReplicaSet.name);
        if (readyOf(rs) > before) return { value: 'ready' as const };
        if (await deploymentMoved()) return { value: 'deployment-changed' as const };
        return { resourceVersion: rs?.metadata.resourceVersion };
      },
      Date.now() + stepTimeoutMs,
      pollMs,
    );

  const walk = async (): Promise<ApplyResult> => {
    for (let round = 1; ; round += 1) {
      if (round > 1) {
        live = await getObject<Deployment>(client, {
          resource: 'deployments',
          namespace,
          name: plan.target.name,
        });
        if (changedDeployment(live)) return deploymentChanged();
      }
      const rs = await readReplicaSet(client, namespace, target.name);
      const now = rs?.spec.replicas ?? 0;
      // An earlier attempt, or the Deployment controller as new pods became available,
      // may have scaled it down already: carry on from there (numbering stays).
      if (rs && rs.metadata.uid === target.uid && now < expected) expected = now;
      if (expected === 0) break;
      const checked = await check(client, namespace, target, live, expected);
      if (!checked.ok) {
        if (untouched()) return checked.result;
        return stop('replicaset-changed', checked.result.reason);
      }
      // Choose, then wait until the step leaves replicas - 1 serving; after a wait the
      // pods have moved on, so choose again.
      const replicas = live.spec.replicas ?? 1;
      // A walk nothing has stepped yet does not wait: the plan promised replicas - 1
      // serving from the start, so it is refused at once when that does not hold.
      const fresh = untouched();
      const deadline = fresh ? Date.now() : Date.now() + stepTimeoutMs;
      let choice: Choice;
      for (;;) {
        choice = await choose(client, plan, target);
        if (!choice.ok) return stop(choice.stop, choice.reason);
        const wait = await serving(choice.pod, replicas, deadline);
        if (wait === 'deployment-changed') return deploymentChanged();
        if (wait === 'timeout')
          return stop(
            'ready-timeout',
            `releasing ${choice.pod.metadata.name ?? ''} would leave fewer than ${replicas - 1} of ${replicas} replicas Ready${fresh ? ' now' : `, and no new pod became Ready within ${seconds} s`}`,
          );
        if (wait === 'now') break;
      }
      const pod = choice.pod;
      const podName = pod.metadata.name ?? '';
      const before = choice.pods.filter((p) => !isTerminating(p));
      const newBefore = readyOf(await readReplicaSet(client, namespace, target.newReplicaSet.name));
      await scaleBy(client, plan, target, expected, true);
      // Already at the lowest cost (an earlier step's mark): nothing to write.
      if (deletionCost(pod) > FIRST_TO_GO) marks.push(await markFirstToGo(client, namespace, pod));
      writing = true;
      await scaleBy(client, plan, target, expected, false);
      writing = false;
      changes.push({ path, before: expected, after: expected - 1 });
      expected -= 1;
      const stepNo = stepOf(expected + 1);
      // Which pod went is what the ReplicaSet controller did, not what the mark asked.
      const gone = await released(before, pod);
      if (!gone)
        return stop('not-released', `the ReplicaSet controller released no old pod within ${seconds} s`);
      const goneName = gone.metadata.name ?? '';
      // Another pod went (deleted by someone else during the scale, so the ReplicaSet
      // was already at its count and released nothing of ours; or first in the
      // controller's order) and the marked one still runs: where the pod that went
      // frees nothing the Pending new pod needs, its new pod never comes: say so now.
      const goneNode = gone.spec.nodeName ?? '';
      if (goneName !== podName && !choice.nodes.includes(goneNode)) {
        const markedNow = await readPod(client, namespace, podName);
        if (markedNow && markedNow.metadata.uid === pod.metadata.uid && !isTerminating(markedNow)) {
          return stop(
            'released-elsewhere',
            `${goneName}${goneNode ? ` on ${goneNode}` : ''} went instead of ${podName} (deleted by someone else during the scale, or first in the ReplicaSet controller's order), so ReplicaSet ${target.name} is at ${expected} with ${podName} still running on ${pod.spec.nodeName ?? '?'}: nothing the Pending new pod needs on ${choice.nodes.join(', ')} was freed, and it stays Pending; diagnose again for the next step`,
          );
        }
      }
      const goneMark = marks.findIndex((m) => m.uid === gone.metadata.uid);
      if (goneMark >= 0) marks.splice(goneMark, 1);
      const other = goneName === podName ? {} : { marked: podName };
      if (goneName !== podName)
        progress(
          `the ReplicaSet controller released ${goneName}, not ${podName} (marked ${DELETION_COST}=${FIRST_TO_GO})`,
        );
      progress(
        `step ${stepNo}: ${goneName} released, ReplicaSet ${target.name} at ${expected}; waiting for the new pod to be Ready`,
      );
      emit({ phase: 'waiting-ready', step: stepNo, of, replicaSet: target.name, pod: goneName, ...other });
      const ready = await readyAfter(newBefore);
      if (ready === 'deployment-changed') return deploymentChanged();
      if (!ready) return stop('ready-timeout', `no new pod became Ready within ${seconds} s`);
      emit({ phase: 'ready', step: stepNo, of, replicaSet: target.name, pod: goneName, ...other });
    }
    if (changes.length > 0) emit({ phase: 'done', step: of, of, replicaSet: target.name });
    return result();
  };

  let outcome: ApplyResult;
  try {
    outcome = await walk();
  } catch (error) {
    const failed = scaleFailure(error, writing);
    if (changes.length === 0)
      outcome =
        expected === target.replicas
          ? failed
          : {
              ...failed,
              reason: `ReplicaSet ${target.name} is at ${expected} of ${of} from an earlier attempt; ${failed.reason}`,
            };
    else outcome = stop('api-error', failed.reason);
  }
  // No mark stays on a pod that stays, however the walk ended; one that cannot be
  // taken off is said in the thread.
  const left: string[] = [];
  for (const mark of marks) if (!(await removeMark(client, namespace, mark))) left.push(mark.name);
  if (left.length > 0) {
    progress(`${DELETION_COST} could not be taken off ${left.join(', ')}`);
    emit({ phase: 'marks-left', step: stepOf(expected), of, replicaSet: target.name, namespace, pods: left });
  }
  return outcome;
}
