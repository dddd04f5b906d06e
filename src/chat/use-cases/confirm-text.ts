import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { findKind } from '../../remediation/kinds/index.js';
import { restoredByPatch, rolloutByPatch } from '../../remediation/kinds/workload-patch.js';
import type { RemediationPlan } from '../../remediation/plan.js';
import type { Lang } from '../../i18n/lang.js';

/**
 * Where the exact patch really is: the thread report under the result message (and,
 * for an Undo, the reply that carries the button) shows every plan's exact patch and
 * the server's dry run, once.
 */
export const PATCH_POINTER = 'The exact patch and the server dry run are in the thread.';

/** What an undo puts back, in words, as its kind says it ("the rollout strategy (RollingUpdate maxSurge 25%, maxUnavailable 25%)"). */
export function restoredInWords(plan: RemediationPlan, lang: Lang = 'en'): string {
  // A kind that is none (a plan altered in Redis): what its patch says.
  return findKind(plan.kind)?.words.restores(plan, lang) ?? restoredByPatch(plan, lang);
}

/** One sentence: whether an undo (or any plan) starts a rollout, and why. */
export function rolloutInWords(plan: RemediationPlan, lang: Lang = 'en'): string {
  return findKind(plan.kind)?.words.rollout(plan, lang) ?? rolloutByPatch(plan, lang);
}

/**
 * An Undo that patches the workload back says what it restores; an Undo of a kind of
 * its own (untaint-device, scale-back-old-replicaset: kinds/ `undoes`) says its change
 * as any plan does.
 */
export function undoPatchesBack(plan: RemediationPlan): boolean {
  return findKind(plan.kind)?.undoes === undefined;
}

/** How a confirm dialog starts for a change that affects every namespace of the cluster. */
/** The longest confirm text (Slack's plain_text limit for a confirm dialog, kept on every platform). */
const CONFIRM_MAX = 300;

export const CLUSTER_WIDE = 'Cluster-wide change (affects every namespace): ';

function firstSentence(text: string): string {
  const one = /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;
  return one.replace(/\s+/g, ' ').trim();
}

/**
 * The confirm step's text, plain (at most `max` characters; adapters clean and cut it for their markup): the change in
 * words, the impact's first sentence when it fits, and where the exact patch is.
 * Built from whole parts, never cut mid-word or mid-JSON; a target name too long to
 * fit is replaced by "this Deployment" (the dialog's title and the message name it).
 * An Undo says what it restores and whether it starts a rollout.
 */
export function confirmDialogText(
  plan: RemediationPlan,
  options: { undo?: boolean } = {},
  max = CONFIRM_MAX,
): string {
  const kind = findKind(plan.kind);
  // A cluster-scoped object (a DeviceTaintRule) affects every tenant: said first.
  const wide = kind?.clusterScoped ? CLUSTER_WIDE : '';
  const room = max - PATCH_POINTER.length - 1 - wide.length;
  const { name, namespace, kind: workload } = plan.target;
  const targets = [`${typeOfKind(workload)}/${name} in ns ${namespace}`, `this ${workload}`];
  const patchesBack = options.undo === true && undoPatchesBack(plan);
  for (const target of targets) {
    // The change in the kind's words; an Undo that patches the Deployment back says
    // what it restores and whether it starts a rollout.
    const change = patchesBack
      ? `Restore ${restoredInWords(plan)} of ${target}.`
      : kind?.words.change(plan, target, room);
    if (change === undefined || change.length > room) continue;
    const impact = patchesBack ? rolloutInWords(plan) : `Impact: ${firstSentence(plan.impact)}`;
    const parts =
      change.length + impact.length + 1 <= room ? [change, impact, PATCH_POINTER] : [change, PATCH_POINTER];
    return `${wide}${parts.join(' ')}`;
  }
  return `${wide}${options.undo ? 'Undo' : 'Apply'} ${plan.kind} on this ${workload}. ${PATCH_POINTER}`;
}
