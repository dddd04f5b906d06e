/**
 * What an Undo puts back and whether it starts a rollout, in every language: the kinds'
 * `restores` and `rollout` words (kind.ts KindWords), shown in the "applied" reply that
 * offers the Undo (src/chat/use-cases/outcome.ts undoParts). Values from the plan
 * (a ReplicaSet's name, a device) are parameters; English entries are the wording
 * before the catalogue.
 */
import { defineMessages, registerCatalogue, phrase } from '../../i18n/catalogue.js';
import { roAfter } from '../../i18n/ko.js';

type Bounds = { surge: string; unavailable: string };

export const UNDO_WORDS = registerCatalogue(
  'undo',
  defineMessages({
    recreate: phrase('the rollout strategy (Recreate)', '롤아웃 전략(Recreate)'),
    canaryBounds: {
      en: (p: Bounds) => `the canary's bounds (maxSurge ${p.surge}, maxUnavailable ${p.unavailable})`,
      ko: (p: Bounds) => `카나리의 범위(maxSurge ${p.surge}, maxUnavailable ${p.unavailable})`,
    },
    rollingBounds: {
      en: (p: Bounds) =>
        `the rollout strategy (RollingUpdate maxSurge ${p.surge}, maxUnavailable ${p.unavailable})`,
      ko: (p: Bounds) => `롤아웃 전략(RollingUpdate maxSurge ${p.surge}, maxUnavailable ${p.unavailable})`,
    },
    strategy: phrase('the rollout strategy', '롤아웃 전략'),
    affinity: phrase(
      'the previous pod affinity (the node exclusion is removed)',
      '이전 nodeAffinity 설정(노드 제외를 없앰)',
    ),
    replicas: phrase('the previous replica count', '이전 레플리카 수'),
    fields: phrase('the fields the fix changed', '조치가 바꾼 필드'),
    previous: phrase('the previous state', '이전 상태'),
    and: phrase(' and ', ', '),
    startsRollout: phrase(
      'It changes the pod template, so a new rollout starts and replaces the pods.',
      '파드 템플릿을 바꾸므로 새 롤아웃이 시작되어 파드를 교체합니다.',
    ),
    noRollout: phrase(
      'It does not start a rollout: the strategy is not part of the pod template, so running pods stay as they are.',
      '롤아웃은 시작하지 않습니다. 롤아웃 전략은 파드 템플릿에 속하지 않으므로 실행 중인 파드는 그대로입니다.',
    ),
    scaledBack: {
      en: (p: { replicaSet: string; to: number }) =>
        `old ReplicaSet ${p.replicaSet} to ${p.to} replica(s), the count it had (pods of the old template)`,
      ko: (p: { replicaSet: string; to: number }) =>
        `이전 ReplicaSet(${p.replicaSet}) 레플리카를 원래 수인 ${p.to}${roAfter(p.to)} 되돌림(이전 템플릿의 파드)`,
    },
    scaledBackRollout: phrase(
      'It starts no rollout: the Deployment is not changed; the old pods run beside the new ones until the Deployment controller scales them down as new pods become available. To get the old version back, roll the Deployment back.',
      '롤아웃은 시작하지 않습니다. Deployment는 바뀌지 않고, 이전 파드는 새 파드가 사용 가능해지는 대로 Deployment 컨트롤러가 줄일 때까지 새 파드 옆에서 실행됩니다. 이전 버전으로 돌아가려면 Deployment를 롤백하십시오.',
    ),
    untainted: {
      en: (p: { device: string; rule: string }) =>
        `device ${p.device} to new claims (DeviceTaintRule ${p.rule} is deleted)`,
      ko: (p: { device: string; rule: string }) =>
        `${p.device} 장치를 새 요청에 다시 내줌(DeviceTaintRule ${p.rule} 삭제)`,
    },
    untaintedRollout: phrase(
      'It starts no rollout and deletes no pod: the replaced pods stay on the devices they have.',
      '롤아웃을 시작하지 않고 파드도 삭제하지 않습니다. 교체된 파드는 지금 쓰는 장치에 그대로 있습니다.',
    ),
    aborted: phrase('the update (a retry starts it again)', '업데이트(재시도하면 다시 시작합니다)'),
    abortedRollout: phrase(
      'It starts no rollout: the stable pods keep serving.',
      '롤아웃은 시작하지 않습니다. 안정 버전 파드가 계속 서비스합니다.',
    ),
  }),
  {
    recreate: [{}],
    canaryBounds: [{ surge: '1', unavailable: '0' }],
    rollingBounds: [{ surge: '25%', unavailable: '0' }],
    strategy: [{}],
    affinity: [{}],
    replicas: [{}],
    fields: [{}],
    previous: [{}],
    and: [{}],
    startsRollout: [{}],
    noRollout: [{}],
    scaledBack: [{ replicaSet: 'trainer-5d8f', to: 2 }],
    scaledBackRollout: [{}],
    untainted: [{ device: 'gpu-node-1/gpu/gpu-0', rule: 'rollout-doctor-gpu-0' }],
    untaintedRollout: [{}],
    aborted: [{}],
    abortedRollout: [{}],
  },
);
