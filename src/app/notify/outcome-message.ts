import { rerunValue } from '../../chat/slack/blocks/action-ids.js';
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import type { NotifyJob, StepProgress } from '../../queue/schemas.js';
import { ACTION } from '../../chat/slack/blocks/action-ids.js';
import { restoredInWords, rolloutInWords, undoPatchesBack } from '../../chat/use-cases/confirm-text.js';
import { dryRunText, patchText } from '../../chat/use-cases/plan-text.js';
import { planButton } from '../../chat/use-cases/result.js';
import { button } from '../../chat/slack/render.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import {
  asIs,
  escapeMrkdwn,
  inlineCode,
  joinMrkdwn,
  mrkdwn,
  trusted,
  userMention,
  type Mrkdwn,
} from '../../chat/slack/blocks/mrkdwn.js';
import {
  LIMITS,
  codeSections,
  context,
  plain,
  section,
  truncate,
  type Block,
} from '../../chat/slack/blocks/text.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const HEADLINE: Record<Outcome['stage'], string> = {
  applied: ':white_check_mark: applied',
  'already-applied': ':information_source: already applied',
  'rolled-out': ':rocket: rolled out',
  'pods-ready': ':white_check_mark: replacement pods Ready',
  'still-failing': ':warning: still failing',
  refused: ':no_entry: refused',
  failed: ':x: failed',
  timeout: ':hourglass: rollout not finished in time',
  // A paused Deployment waits for the resume; an Argo Rollout at a pause step for its promotion.
  paused: ':double_vertical_bar: applied; the rollout is paused and waits for a person',
  progress: ':arrow_down_small: step',
};

const STOP_WORDS: Record<Extract<StepProgress, { phase: 'stopped' }>['reason'], string> = {
  'deployment-changed': 'the Deployment changed under the walk',
  'replicaset-changed': 'the old ReplicaSet changed under the walk',
  'nothing-blocked': 'no new pod is blocked by an old one any more',
  'other-pod-first':
    'an old pod that is not Ready (or not scheduled) would go first, before any marked pod, and it frees nothing the new pod needs',
  'not-released': 'the ReplicaSet controller released no old pod within the step time limit',
  'released-elsewhere':
    "another old pod than the marked one went (deleted by someone else during the scale, or first in the ReplicaSet controller's order) where it frees nothing the new pod needs, and the marked pod still runs: the new pod stays Pending; diagnose again for the next step",
  'ready-timeout': 'no new pod became Ready within the step time limit',
  'api-error': 'the API server refused or failed a request',
};

/** How the Deployment changed under the walk, and what its Undo does then. */
const CHANGE_WORDS: Record<NonNullable<Extract<StepProgress, { phase: 'stopped' }>['change']>, string> = {
  'rolled-back':
    "it was rolled back to this ReplicaSet's template, which makes it the new ReplicaSet again: the Deployment controller scales it back up itself, so no Undo is offered",
  'new-rollout':
    'a new rollout started (a template neither ReplicaSet runs): the Deployment controller only scales this old ReplicaSet down now, so no Undo is offered',
  spec: 'another spec field changed (replicas, strategy or pause), not the template: the Undo still scales this ReplicaSet back while the new one is not fully available',
};

function stopWords(step: Extract<StepProgress, { phase: 'stopped' }>): string {
  const base = STOP_WORDS[step.reason];
  if (step.reason !== 'deployment-changed' || !step.change) return base;
  const generation = step.generation !== undefined ? ` (generation ${step.generation})` : '';
  return `${base}${generation}: ${CHANGE_WORDS[step.change]}`;
}

/** "old pod `a` released" and, when the controller released another than the marked one, says so. */
function releasedWords(step: Extract<StepProgress, { pod: string }>): Mrkdwn {
  return step.marked
    ? mrkdwn`old pod ${asIs(inlineCode(step.pod))} released (the ReplicaSet controller chose it over ${asIs(inlineCode(step.marked))}, the pod marked to go first)`
    : mrkdwn`old pod ${asIs(inlineCode(step.pod))} released (the pod marked to go first)`;
}

/**
 * One reply per step of a stepped scale-old-replicaset, rendered from the step's data
 * (names are escaped by the template; nothing else comes from the cluster). The pod
 * named as released is the one the walk saw go after the scale.
 */
export function stepProgressMessage(job: Outcome, step: StepProgress): { text: Mrkdwn; blocks: Block[] } {
  const where = context(mrkdwn`plan ${job.planId} · cluster ${job.cluster}`);
  if (step.phase === 'waiting-ready') {
    const started = mrkdwn`*:hourglass_flowing_sand: step 1 of ${step.of} started*: ${asIs(releasedWords(step))}, ReplicaSet ${asIs(inlineCode(step.replicaSet))} scaled to ${step.of - 1}; waiting for the new pod to be Ready. Each later step replies here when its new pod is Ready.`;
    return {
      text: mrkdwn`step 1 of ${step.of} started: ${step.pod} released, ReplicaSet ${step.replicaSet} at ${step.of - 1}`,
      blocks: [section(started), where],
    };
  }
  if (step.phase === 'marks-left') {
    const pods = joinMrkdwn(
      step.pods.map((p) => inlineCode(p)),
      ', ',
    );
    const commands = step.pods.map(
      (p) => `kubectl annotate pod ${p} -n ${step.namespace} controller.kubernetes.io/pod-deletion-cost-`,
    );
    return {
      text: mrkdwn`${step.pods.join(', ')} still marked with controller.kubernetes.io/pod-deletion-cost`,
      blocks: [
        section(
          mrkdwn`*:warning: pod-deletion-cost left on ${asIs(pods)}*: the walk could not take its mark (controller.kubernetes.io/pod-deletion-cost=-2147483648) off again, so ReplicaSet ${asIs(inlineCode(step.replicaSet))} would delete these pods first when it next shrinks.`,
        ),
        ...codeSections(trusted('To take the mark off:'), commands.join('\n')),
        where,
      ],
    };
  }
  const body =
    step.phase === 'ready'
      ? mrkdwn`*:arrow_down_small: step ${step.step} of ${step.of}*: ${asIs(releasedWords(step))}, ReplicaSet ${asIs(inlineCode(step.replicaSet))} scaled to ${step.of - step.step}; the next new pod is Ready.`
      : mrkdwn`*:double_vertical_bar: stopped at step ${step.step} of ${step.of}*: ${stopWords(step)}. ReplicaSet ${asIs(inlineCode(step.replicaSet))} keeps what the earlier steps did; the result follows.`;
  const text =
    step.phase === 'ready'
      ? mrkdwn`step ${step.step} of ${step.of}: ${step.pod} released, ReplicaSet ${step.replicaSet} at ${step.of - step.step}`
      : mrkdwn`stopped at step ${step.step} of ${step.of}: ${stopWords(step)}`;
  return { text, blocks: [section(body), where] };
}

/** Stages that first report a write: the one reply that offers its Undo. */
const OFFERS_UNDO: ReadonlySet<Outcome['stage']> = new Set(['applied', 'already-applied']);

/**
 * The Undo, written for the undo: what it restores, whether it starts a rollout (only
 * a change to the pod template does; the strategy is not part of it), the exact patch
 * it writes and the server's dry run when there is one.
 */
export function undoBlocks(undo: StoredPlan): Block[] {
  const plan = undo.plan;
  const t = plan.target;
  const lines = [
    undoPatchesBack(plan)
      ? mrkdwn`:leftwards_arrow_with_hook: *Undo* restores ${restoredInWords(plan)} of ${typeOfKind(t.kind)}/${t.name}.`
      : mrkdwn`:leftwards_arrow_with_hook: *Undo* restores ${restoredInWords(plan)}; ${typeOfKind(t.kind)}/${t.name} is not changed.`,
    mrkdwn`${rolloutInWords(plan)}`,
  ];
  // Putting a surging strategy back on the Deployment that deadlocked brings the deadlock back.
  if (plan.addresses === 'RolloutSurgeDeadlock' && /maxSurge (?!0\b)/.test(restoredInWords(plan)))
    lines.push(trusted(':warning: The next rollout would deadlock again.'));
  const dryRun = undo.dryRun;
  return [
    section(joinMrkdwn(lines, '\n')),
    ...codeSections(
      mrkdwn`Exact patch of the undo (${plan.patch?.type ?? 'delete'})`,
      `${dryRun ? `${dryRunText(dryRun)}\n` : ''}${patchText(plan)}`,
      { whole: true },
    ),
  ];
}

/**
 * Thread reply for a remediation step. Refusals and failures offer Re-run; the first
 * reply about a write (applied) offers its Undo, once: later steps of the same plan
 * (rolled out, still failing) point back to it.
 */
export function remediationOutcomeMessage(
  job: Outcome,
  undo?: StoredPlan,
  now = Date.now(),
): { text: Mrkdwn; blocks: Block[] } {
  if (job.stage === 'progress' && job.step) return stepProgressMessage(job, job.step);
  const approval = job.approvedBy?.length
    ? mrkdwn` (approved by ${asIs(joinMrkdwn(job.approvedBy.map(userMention), ' and '))})`
    : trusted('');
  const headline = trusted(HEADLINE[job.stage]);
  const text = mrkdwn`${HEADLINE[job.stage].replace(/^:[a-z_]+: /, '')}: ${truncate(job.detail, 500)}${asIs(approval)}`;
  const blocks: Block[] = [
    section(mrkdwn`*${asIs(headline)}*: ${asIs(escapeMrkdwn(truncate(job.detail, 1500)))}${asIs(approval)}`),
    context(mrkdwn`plan ${job.planId} · cluster ${job.cluster}`),
  ];
  const buttons: Block[] = [];
  // Undo is a stored plan like any other: the approver sees its exact patch and what
  // it restores before the confirm, and it is approval-gated.
  if (undo && undo.expiresAt > now) {
    if (OFFERS_UNDO.has(job.stage)) {
      blocks.push(...undoBlocks(undo));
      // The button's digest is of `undo` as rendered above: the click is refused if the
      // stored Undo differs. Its requester is the one the app signed into the approval
      // (the worker hands it back in this signed outcome): not known, it names nobody.
      buttons.push(
        button(
          planButton(
            undo,
            { state: 'open', expiresAt: undo.expiresAt },
            { undo: true, requester: job.requester ?? null },
          ),
          0,
        ),
      );
    } else {
      blocks.push(
        context(trusted(':leftwards_arrow_with_hook: Undo is offered in the "applied" reply above.')),
      );
    }
  }
  if ((job.stage === 'refused' || job.stage === 'failed') && job.rerun) {
    buttons.push({
      type: 'button',
      action_id: ACTION.rerun,
      text: plain('Re-run', LIMITS.buttonText),
      value: rerunValue(job.cluster, job.rerun),
    });
  }
  if (buttons.length) blocks.push({ type: 'actions', elements: buttons });
  return { text, blocks };
}
