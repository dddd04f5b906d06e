/**
 * Why the forward model does not follow a rollout, or does not build: the engine's own
 * English (an Outcome's `why`), said in the reader's language by `whyInWords` where a
 * person reads it (a plan's proof "checked, not run (…)", check's "not known: …").
 * A why this catalogue does not hold (one with the cluster's values in it) stays English.
 */
import { defineMessages, registerCatalogue } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';

export const MODEL_WHY = {
  nodesUnread: 'not every node was read',
  podsUnread: 'pods were not read on every node',
  podsOnUnreadNodes: 'pods run on nodes that were not read',
  heldBeforeScheduling: 'a pod is held before scheduling',
  onDelete: 'pods are replaced only when someone deletes them (OnDelete)',
  unmodelled: 'the model does not follow this kind of update (ordered pods, canary steps)',
  paused: 'the rollout is paused',
  noKnownRevision: 'pods of no known revision',
  claimsDevices: 'the template claims devices (DRA)',
  extendedDevices: "the pods' extended resources are devices a DeviceClass backs (DRA)",
  mayBeDevices: 'the template asks for devices a DeviceClass may back (DRA)',
  quotaUnread: "the quota's usage: not every pod of the namespace was read",
  roomNotFound: 'the model sees room the scheduler did not find',
  cannotFollow: 'the model cannot follow it',
  nodeNamed:
    "the template names its node (spec.nodeName): its pods skip the scheduler, and that node's kubelet admits each only if it fits there (else the pod fails, OutOfcpu or the like, and the controller makes another; a node that does not exist never runs it)",
} as const;

type Why = keyof typeof MODEL_WHY;

const en = (key: Why) => (): string => MODEL_WHY[key];

const MODEL_WHY_WORDS = registerCatalogue(
  'model-why',
  defineMessages({
    nodesUnread: { en: en('nodesUnread'), ko: () => '모든 노드를 읽지 못했습니다' },
    podsUnread: { en: en('podsUnread'), ko: () => '모든 노드의 파드를 읽지 못했습니다' },
    podsOnUnreadNodes: {
      en: en('podsOnUnreadNodes'),
      ko: () => '읽지 못한 노드에서 실행 중인 파드가 있습니다',
    },
    heldBeforeScheduling: {
      en: en('heldBeforeScheduling'),
      ko: () => '스케줄링 전에 대기 중인 파드가 있습니다',
    },
    onDelete: {
      en: en('onDelete'),
      ko: () => '누군가 파드를 삭제할 때만 파드가 교체됩니다(OnDelete)',
    },
    unmodelled: {
      en: en('unmodelled'),
      ko: () => '모델이 이런 업데이트(순서가 있는 파드, 카나리 단계)를 따라가지 않습니다',
    },
    paused: { en: en('paused'), ko: () => '롤아웃이 일시 중지되어 있습니다' },
    noKnownRevision: { en: en('noKnownRevision'), ko: () => '어느 리비전에도 속하지 않는 파드가 있습니다' },
    claimsDevices: { en: en('claimsDevices'), ko: () => '템플릿이 장치를 클레임합니다(DRA)' },
    extendedDevices: {
      en: en('extendedDevices'),
      ko: () => '파드의 확장 리소스가 DeviceClass가 제공하는 장치입니다(DRA)',
    },
    mayBeDevices: {
      en: en('mayBeDevices'),
      ko: () => '템플릿이 요청하는 장치를 DeviceClass가 제공할 수도 있습니다(DRA)',
    },
    quotaUnread: {
      en: en('quotaUnread'),
      ko: () => '쿼터 사용량: 네임스페이스의 모든 파드를 읽지 못했습니다',
    },
    roomNotFound: {
      en: en('roomNotFound'),
      ko: () => '스케줄러가 찾지 못한 자리가 모델에는 보입니다',
    },
    cannotFollow: { en: en('cannotFollow'), ko: () => '모델이 따라갈 수 없습니다' },
    nodeNamed: {
      en: en('nodeNamed'),
      ko: () =>
        '템플릿이 노드를 직접 지정합니다(spec.nodeName): 파드는 스케줄러를 거치지 않고, 그 노드의 kubelet은 자리가 있을 때만 파드를 받아들입니다(없으면 파드가 OutOfcpu 같은 이유로 실패하고 컨트롤러가 또 만듭니다. 없는 노드라면 파드는 실행되지 않습니다)',
    },
  }),
  {
    nodesUnread: [{}],
    podsUnread: [{}],
    podsOnUnreadNodes: [{}],
    heldBeforeScheduling: [{}],
    onDelete: [{}],
    unmodelled: [{}],
    paused: [{}],
    noKnownRevision: [{}],
    claimsDevices: [{}],
    extendedDevices: [{}],
    mayBeDevices: [{}],
    quotaUnread: [{}],
    roomNotFound: [{}],
    cannotFollow: [{}],
    nodeNamed: [{}],
  },
);

const BY_ENGLISH = new Map<string, Why>(Object.entries(MODEL_WHY).map(([k, v]) => [v, k as Why]));

/** The model's `why` in `lang`: the catalogue's words for one it holds, else as the engine wrote it. */
export function whyInWords(why: string, lang: Lang): string {
  const key = lang === 'en' ? undefined : BY_ENGLISH.get(why);
  return key ? MODEL_WHY_WORDS[key][lang]() : why;
}
