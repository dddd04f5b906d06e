/**
 * What there is to watch after a plan is applied, as its kind says (kinds/: `watch`).
 * Only a change to the workload (its pod template, its strategy while a rollout is
 * under way) or to its old ReplicaSet's scale moves the rollout, so only then is "the
 * rollout" watched. Plans that delete pods leave the template alone: their ReplicaSet
 * creates replacements, and what is watched is those becoming Ready. The Undo kinds
 * that only delete a DeviceTaintRule or scale an old ReplicaSet back up replace no pod
 * of the workload and start no rollout: there is nothing to wait for.
 */
import { defineMessages, registerCatalogue, translate } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { kindOf } from './kinds/index.js';
import type { WatchScope } from './kinds/kind.js';
import type { RemediationPlan } from './plan.js';

export type { WatchScope } from './kinds/kind.js';

/** @example watchScopeOf(deletePodsPlan) // { kind: 'replacements', pods: [...] } */
export function watchScopeOf(plan: RemediationPlan): WatchScope {
  return kindOf(plan).watch(plan);
}

const WATCH_WORDS = registerCatalogue(
  'watch',
  defineMessages({
    rollout: { en: () => 'Watching the rollout…', ko: () => '롤아웃을 지켜봅니다…' },
    replacements: {
      en: (p: { pods: string; count: number }) =>
        `Watching the replacement${p.count === 1 ? '' : 's'} of ${p.pods} become Ready…`,
      ko: (p: { pods: string; count: number }) => `${p.pods} 파드를 대신할 파드가 Ready가 되는지 지켜봅니다…`,
    },
    nothing: {
      en: (p: { why: string }) => `Nothing to watch: ${p.why}.`,
      ko: (p: { why: string }) => `지켜볼 것이 없습니다: ${p.why}.`,
    },
  }),
  {
    rollout: [{}],
    replacements: [
      { pods: 'web-7d9f-x2k9p', count: 1 },
      { pods: 'web-7d9f-x2k9p, web-7d9f-q7m4z, web-7d9f-h8d2w and 1 more', count: 4 },
    ],
    nothing: [{ why: 'a DeviceTaintRule moves no pod' }],
  },
);

/** "Watching the rollout…", "Watching the replacements of a, b become Ready…", "Nothing to watch: …". */
export function watchingWords(scope: WatchScope, lang: Lang = 'en'): string {
  switch (scope.kind) {
    case 'rollout':
      return translate(WATCH_WORDS, lang, 'rollout');
    case 'replacements': {
      const names = scope.pods.slice(0, 3).map((p) => p.name);
      const more = scope.pods.length > 3 ? ` and ${scope.pods.length - 3} more` : '';
      return translate(WATCH_WORDS, lang, 'replacements', {
        pods: `${names.join(', ')}${more}`,
        count: scope.pods.length,
      });
    }
    case 'nothing':
      return translate(WATCH_WORDS, lang, 'nothing', { why: scope.why });
  }
}
