/**
 * The sentences of the note a blocked rollout's wait carries (forward/job-wait.ts `said`):
 * what holds the room (Jobs, a neighbour scaling down, neighbours' rollouts under way),
 * how it is given back, and the run that proves it, in every language (i18n/sentences.ts).
 */
import { defineSentences } from '../i18n/sentences.js';

type Steps = { steps: string };

defineSentences(
  'wait-sentences',
  {
    // src/diagnosis/forward/job-wait.ts:334
    runForwardThemGone: {
      en: (p: Steps) =>
        `Run forward with them gone, the controllers finish the rollout, whichever pending pod the scheduler takes first: ${p.steps}.`,
      ko: (p: Steps) =>
        `이 파드들이 빠진 상태로 실행해 보면, 스케줄러가 어느 Pending 파드를 먼저 배치하든 컨트롤러가 롤아웃을 끝냅니다: ${p.steps}.`,
    },
    // src/diagnosis/forward/job-wait.ts (said: a neighbour scaling down, the note)
    scaleDownHolds: {
      en: (p: { names: string; where: string }) =>
        `Pods of deployment ${p.names}, which runs more pods than its replicas and is scaling down, hold room or quota the new pods need: ${p.where}.`,
      ko: (p: { names: string; where: string }) =>
        `Deployment ${p.names}는 레플리카 수보다 파드가 많아 줄어드는 중이며, 그 파드가 새 파드에 필요한 자리나 쿼터를 점유하고 있습니다: ${p.where}.`,
    },
    scaleDownHoldsCapped: {
      en: (p: { names: string; max: string; where: string }) =>
        `Pods of deployment ${p.names}, which runs more pods than its autoscaler allows at most (maxReplicas ${p.max}), hold room or quota the new pods need: ${p.where}.`,
      ko: (p: { names: string; max: string; where: string }) =>
        `Deployment ${p.names}는 오토스케일러가 허용하는 최대 레플리카 수(maxReplicas ${p.max}개)보다 파드가 많으며, 그 파드가 새 파드에 필요한 자리나 쿼터를 점유하고 있습니다: ${p.where}.`,
    },
    scaleDownGoesCapped: {
      en: () =>
        'Its autoscaler lowers a spec above maxReplicas at its next sync and raises none past it, its Deployment controller scales its ReplicaSet to the spec, and the ReplicaSet controller deletes the pods above it (those not bound to a node first; among bound ones which is not known), and they give the room back; each choice of them was run.',
      ko: () =>
        '오토스케일러는 maxReplicas를 넘는 스펙을 다음 동기화 때 낮추고 그 이상으로는 올리지 않습니다. Deployment 컨트롤러가 ReplicaSet을 스펙의 수로 줄이고, ReplicaSet 컨트롤러가 그보다 많은 파드를 삭제하면서 자리를 돌려줍니다(노드에 배치되지 않은 파드가 먼저이고, 배치된 파드 중 어느 것이 먼저인지는 알 수 없습니다). 삭제될 수 있는 파드의 조합마다 따라가 확인했습니다.',
    },
    scaleDownGoes: {
      en: () =>
        'Its Deployment controller scales its ReplicaSet to the spec, and the ReplicaSet controller deletes the pods above it (those not bound to a node first; among bound ones which is not known), and they give the room back; each choice of them was run.',
      ko: () =>
        'Deployment 컨트롤러가 ReplicaSet을 스펙의 수로 줄이고, ReplicaSet 컨트롤러가 그보다 많은 파드를 삭제하면서 자리를 돌려줍니다(노드에 배치되지 않은 파드가 먼저이고, 배치된 파드 중 어느 것이 먼저인지는 알 수 없습니다). 삭제될 수 있는 파드의 조합마다 따라가 확인했습니다.',
    },
    // src/diagnosis/forward/job-wait.ts (said: neighbours' rollouts under way, the note;
    // `holders` names each with its kind: "deployment ml/beta", "Rollout ml/beta")
    rolloutHoldsOne: {
      en: (p: { holders: string; where: string }) =>
        `Old pods of the rollout of ${p.holders} hold room or quota the new pods need: ${p.where}.`,
      ko: (p: { holders: string; where: string }) =>
        `${p.holders}의 롤아웃에 속한 기존 파드가 새 파드에 필요한 자리나 쿼터를 점유하고 있습니다: ${p.where}.`,
    },
    rolloutHoldsMany: {
      en: (p: { holders: string; where: string }) =>
        `Old pods of the rollouts of ${p.holders} hold room or quota the new pods need: ${p.where}.`,
      ko: (p: { holders: string; where: string }) =>
        `${p.holders}의 롤아웃에 속한 기존 파드가 새 파드에 필요한 자리나 쿼터를 점유하고 있습니다: ${p.where}.`,
    },
    rolloutDeploymentGoesOn: {
      en: () =>
        'Its newest pods are Ready, so its Deployment controller removes the old ones as the rollout goes on (once the new ones are available, within maxUnavailable), and they give the room back.',
      ko: () =>
        '새 파드가 모두 Ready이므로, 롤아웃이 진행되면서 Deployment 컨트롤러가 기존 파드를 내리고(새 파드가 사용 가능해지면 maxUnavailable 안에서) 자리를 돌려줍니다.',
    },
    rolloutArgoEnds: {
      en: () =>
        'Its newest pods are Ready, so the Argo Rollouts controller scales its older ReplicaSets to 0 at the end of the update (no step ahead waits for a person or an analysis; after scaleDownDelaySeconds where it applies), and they give the room back.',
      ko: () =>
        '새 파드가 모두 Ready이므로, 업데이트가 끝나면 Argo Rollouts 컨트롤러가 이전 ReplicaSet을 0으로 줄이고 자리를 돌려줍니다(남은 단계 중 사람이나 분석을 기다리는 단계가 없고, scaleDownDelaySeconds가 있으면 그만큼 지난 뒤입니다).',
    },
    rolloutDeploymentsGoOn: {
      en: () =>
        'Their newest pods are Ready, so each Deployment controller removes the old ones as the rollout goes on (once the new ones are available, within maxUnavailable), and they give the room back.',
      ko: () =>
        '새 파드가 모두 Ready이므로, 롤아웃이 진행되면서 각 Deployment 컨트롤러가 기존 파드를 내리고(새 파드가 사용 가능해지면 maxUnavailable 안에서) 자리를 돌려줍니다.',
    },
    rolloutArgoEndsMany: {
      en: () =>
        'Their newest pods are Ready, so the Argo Rollouts controller scales their older ReplicaSets to 0 at the end of each update (no step ahead waits for a person or an analysis; after scaleDownDelaySeconds where it applies), and they give the room back.',
      ko: () =>
        '새 파드가 모두 Ready이므로, 각 업데이트가 끝나면 Argo Rollouts 컨트롤러가 이전 ReplicaSet을 0으로 줄이고 자리를 돌려줍니다(남은 단계 중 사람이나 분석을 기다리는 단계가 없고, scaleDownDelaySeconds가 있으면 그만큼 지난 뒤입니다).',
    },
    rolloutMixedGoOn: {
      en: () =>
        "Their newest pods are Ready, so a Deployment's controller removes its old pods as its rollout goes on, and the Argo Rollouts controller scales a Rollout's older ReplicaSets to 0 at the end of its update (no step ahead waits for a person or an analysis; after scaleDownDelaySeconds where it applies), and they give the room back.",
      ko: () =>
        '새 파드가 모두 Ready이므로, Deployment는 롤아웃이 진행되면서 컨트롤러가 기존 파드를 내리고, Rollout은 업데이트가 끝나면 Argo Rollouts 컨트롤러가 이전 ReplicaSet을 0으로 줄여서 자리를 돌려줍니다(남은 단계 중 사람이나 분석을 기다리는 단계가 없고, scaleDownDelaySeconds가 있으면 그만큼 지난 뒤입니다).',
    },
    // job-wait.ts waitWords `added`: a verdict other than a surge deadlock gains the wait.
    rolloutAddedOne: {
      en: (p: { holders: string }) =>
        `It can go on by itself once the rollout of ${p.holders} removes its old pods, unless new pods of that rollout take the room first.`,
      ko: (p: { holders: string }) =>
        `${p.holders}의 롤아웃이 기존 파드를 내리면 스스로 이어질 수 있습니다. 다만 그 롤아웃의 새 파드가 먼저 자리를 차지하면 이어지지 않습니다.`,
    },
    rolloutAddedMany: {
      en: (p: { holders: string }) =>
        `It can go on by itself once the rollouts of ${p.holders} remove their old pods, unless new pods of theirs take the room first.`,
      ko: (p: { holders: string }) =>
        `${p.holders}의 롤아웃이 기존 파드를 내리면 스스로 이어질 수 있습니다. 다만 그 롤아웃들의 새 파드가 먼저 자리를 차지하면 이어지지 않습니다.`,
    },
    // job-wait.ts said: the explanation's first sentence, for neighbours' rollouts.
    rolloutOnlyWhileOne: {
      en: (p: { holders: string }) =>
        `Only while the rollout of ${p.holders} holds its old pods: run forward with its pods gone, the controllers finish the rollout (the note says how).`,
      ko: (p: { holders: string }) =>
        `${p.holders}의 롤아웃이 기존 파드를 점유하는 동안에만 그렇습니다. 그 파드가 없다고 보고 따라가면 컨트롤러가 롤아웃을 끝냅니다(참고에 과정이 있습니다).`,
    },
    rolloutOnlyWhileMany: {
      en: (p: { holders: string }) =>
        `Only while the rollouts of ${p.holders} hold their old pods: run forward with their pods gone, the controllers finish the rollout (the note says how).`,
      ko: (p: { holders: string }) =>
        `${p.holders}의 롤아웃이 기존 파드를 점유하는 동안에만 그렇습니다. 그 파드가 없다고 보고 따라가면 컨트롤러가 롤아웃을 끝냅니다(참고에 과정이 있습니다).`,
    },
    runForwardRemovedGone: {
      en: (p: Steps) =>
        `Run forward with those it removes gone, the controllers finish the rollout, whichever pending pod the scheduler takes first: ${p.steps}.`,
      ko: (p: Steps) =>
        `ReplicaSet이 내리는 파드가 빠진 상태로 따라가 보면, 스케줄러가 어느 Pending 파드를 먼저 배치하든 컨트롤러가 롤아웃을 끝냅니다: ${p.steps}.`,
    },
  },
  {
    runForwardThemGone: [{ steps: 'new pod web-2 becomes Ready' }],
    scaleDownHolds: [{ names: 'ml/beta', where: 'beta-b1-x1 on gpu-2' }],
    scaleDownHoldsCapped: [{ names: 'ml/beta', max: '1', where: 'beta-x on gpu-2' }],
    scaleDownGoesCapped: [{}],
    scaleDownGoes: [{}],
    rolloutHoldsOne: [{ holders: 'Rollout ml/beta', where: 'beta-b1-x1 on gpu-2' }],
    rolloutHoldsMany: [
      { holders: 'deployment ml/beta, Rollout ml/gamma', where: 'beta-b1-x1 on gpu-2, gamma-g1-x1 on gpu-3' },
    ],
    rolloutDeploymentGoesOn: [{}],
    rolloutArgoEnds: [{}],
    rolloutOnlyWhileOne: [{ holders: 'Rollout ml/beta' }],
    rolloutOnlyWhileMany: [{ holders: 'Rollout ml/beta, deployment ml/gamma' }],
    rolloutAddedOne: [{ holders: 'Rollout ml/beta' }],
    rolloutAddedMany: [{ holders: 'Rollout ml/beta, deployment ml/gamma' }],
    rolloutDeploymentsGoOn: [{}],
    rolloutArgoEndsMany: [{}],
    rolloutMixedGoOn: [{}],
    runForwardRemovedGone: [{ steps: 'new pod web-2 becomes Ready' }],
  },
);
