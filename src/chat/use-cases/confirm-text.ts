import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { findKind } from '../../remediation/kinds/index.js';
import { restoredByPatch, rolloutByPatch } from '../../remediation/kinds/workload-patch.js';
import type { RemediationPlan } from '../../remediation/plan.js';
import type { Lang } from '../../i18n/lang.js';
import { defineMessages, registerCatalogue, wordsIn } from '../../i18n/catalogue.js';
import { planSummary } from '../../message/words/finding.js';
import { planImpact } from '../../remediation/plan-words.js';

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

/** The confirm step's own words for readers of other languages (English keeps the kinds' words above). */
const CONFIRM_WORDS = registerCatalogue(
  'confirm',
  defineMessages({
    clusterWide: {
      en: () => CLUSTER_WIDE,
      ko: () => '클러스터 전체에 적용되는 변경입니다(모든 네임스페이스에 영향): ',
    },
    patchPointer: {
      en: () => PATCH_POINTER,
      ko: () => '정확한 패치와 서버 드라이 런 결과는 스레드에 있습니다.',
    },
    restore: {
      en: (p: { what: string }) => `Restore ${p.what}.`,
      ko: (p: { what: string }) => `되돌리기: ${p.what}.`,
    },
    impact: {
      en: (p: { impact: string }) => `Impact: ${p.impact}`,
      ko: (p: { impact: string }) => `영향: ${p.impact}`,
    },
    fallback: {
      en: (p: { kind: string; undo: boolean }) => `${p.undo ? 'Undo' : 'Apply'} ${p.kind}.`,
      ko: (p: { kind: string; undo: boolean }) => `${p.kind} 조치를 ${p.undo ? '되돌립니다' : '적용합니다'}.`,
    },
  }),
  {
    clusterWide: [{}],
    patchPointer: [{}],
    restore: [{ what: 'the rollout strategy (RollingUpdate maxSurge 25%, maxUnavailable 25%)' }],
    impact: [{ impact: 'brief outage' }],
    fallback: [
      { kind: 'set-recreate', undo: false },
      { kind: 'set-recreate', undo: true },
    ],
  },
);

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
  options: { undo?: boolean; lang?: Lang } = {},
  max = CONFIRM_MAX,
): string {
  if (options.lang && options.lang !== 'en')
    return confirmInWords(plan, options.undo === true, options.lang, max);
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

/**
 * The confirm step's text in a language other than English, from the plan's words in
 * that language: what it changes (or, for an Undo, what it restores), the impact's first
 * sentence when it fits, and where the exact patch is.
 */
function confirmInWords(plan: RemediationPlan, undo: boolean, lang: Lang, max: number): string {
  const w = wordsIn(CONFIRM_WORDS, lang);
  const wide = findKind(plan.kind)?.clusterScoped ? w.clusterWide({}) : '';
  const pointer = w.patchPointer({});
  const patchesBack = undo && undoPatchesBack(plan);
  const change = patchesBack
    ? w.restore({ what: restoredInWords(plan, lang) })
    : firstSentence(planSummary(plan, lang));
  const impact = patchesBack
    ? rolloutInWords(plan, lang)
    : w.impact({ impact: firstSentence(planImpact(plan, lang)) });
  const room = max - pointer.length - 1 - wide.length;
  if (change.length > room) return `${wide}${w.fallback({ kind: plan.kind, undo })} ${pointer}`;
  const parts = change.length + impact.length + 1 <= room ? [change, impact, pointer] : [change, pointer];
  return `${wide}${parts.join(' ')}`;
}
