/**
 * What a kind's controller does once some of its pods are deleted (WorkloadKindModule
 * `remadeBy`), said in the reader's language: who makes them again, under which names,
 * and in what order. The sentence a delete-pods plan's impact starts with.
 */
import { defineMessages, registerCatalogue } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { counted } from '../../text/count.js';

/** How deleted pods are made again: by a ReplicaSet (a Rollout's), a StatefulSet in order or at once, a DaemonSet on the same node. */
export type RemadeBy = 'replicaSet' | 'rolloutReplicaSet' | 'orderedReady' | 'parallel' | 'sameNode';

type Count = { count: number };
const replacements = (p: Count): string => counted(p.count, 'replacement');
const names = (p: Count): string => `name${p.count === 1 ? '' : 's'}`;

const REMADE_WORDS = registerCatalogue(
  'remade',
  defineMessages({
    replicaSet: {
      en: (p: Count) => `The ReplicaSet creates ${replacements(p)} at once`,
      ko: (p: Count) => `ReplicaSet이 대체 파드 ${p.count}개를 한 번에 만듭니다`,
    },
    rolloutReplicaSet: {
      en: (p: Count) => `The Rollout's ReplicaSet creates ${replacements(p)} at once`,
      ko: (p: Count) => `Rollout의 ReplicaSet이 대체 파드 ${p.count}개를 한 번에 만듭니다`,
    },
    orderedReady: {
      en: (p: Count) =>
        `The StatefulSet controller creates ${replacements(p)} under the same ${names(p)}, one at a time in ordinal order, each only once every pod below it is Running and Ready (OrderedReady)`,
      ko: (p: Count) =>
        `StatefulSet 컨트롤러가 대체 파드 ${p.count}개를 같은 이름으로 서수 순서대로 하나씩 만듭니다. 낮은 서수의 파드가 모두 Running이고 Ready가 된 뒤에야 다음 파드를 만듭니다(OrderedReady)`,
    },
    parallel: {
      en: (p: Count) =>
        `The StatefulSet controller creates ${replacements(p)} under the same ${names(p)} at once (podManagementPolicy Parallel)`,
      ko: (p: Count) =>
        `StatefulSet 컨트롤러가 대체 파드 ${p.count}개를 같은 이름으로 한 번에 만듭니다(podManagementPolicy Parallel)`,
    },
    sameNode: {
      en: (p: Count) =>
        `The DaemonSet controller creates ${replacements(p)} on the same node${p.count === 1 ? '' : 's'}`,
      ko: (p: Count) => `DaemonSet 컨트롤러가 같은 노드에 대체 파드 ${p.count}개를 만듭니다`,
    },
  }),
  {
    replicaSet: [{ count: 1 }, { count: 3 }],
    rolloutReplicaSet: [{ count: 2 }],
    orderedReady: [{ count: 1 }, { count: 2 }],
    parallel: [{ count: 1 }, { count: 2 }],
    sameNode: [{ count: 1 }, { count: 2 }],
  },
);

/** "The ReplicaSet creates 2 replacements at once", in `lang`. */
export function remadePods(by: RemadeBy, count: number, lang: Lang = 'en'): string {
  return REMADE_WORDS[by][lang]({ count });
}
