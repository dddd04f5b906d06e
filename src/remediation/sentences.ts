/**
 * The sentences the plans carry in English (why an owner reverts a field or not, a
 * plan's warnings, where the change to commit goes), in every language
 * (i18n/sentences.ts). Where a builder writes one with `.en`, the two cannot drift
 * apart; the others are matched by their English, and the Korean test of every
 * fixture dump (test/unit/ko-reports.test.ts) sees a sentence that no longer matches.
 */
import { defineSentences } from '../i18n/sentences.js';

type Undo = { undo: string };
type Rs = Undo & { rs: string };
type Fields = { fields: string; reason: string };

export const REMEDIATION_SENTENCES = defineSentences(
  'remediation-sentences',
  {
    // Where the change to commit goes (manifest-change.ts).
    whereUnknown: {
      en: () => 'the manifest this workload is applied from',
      ko: () => '이 워크로드를 적용하는 매니페스트',
    },
    whereGit: {
      en: (p: { owner: string }) => `Git: the manifest ${p.owner} applies`,
      ko: (p: { owner: string }) => `Git: 관리 주체(${p.owner})가 적용하는 매니페스트`,
    },
    whereChart: {
      en: (p: { owner: string }) => `the chart or values of ${p.owner} (the rendered manifest is shown)`,
      ko: (p: { owner: string }) => `${p.owner}의 차트나 values(렌더링된 매니페스트를 보여 줍니다)`,
    },
    whereKubectl: {
      en: () => 'the file applied with kubectl apply',
      ko: () => 'kubectl apply로 적용하는 파일',
    },
    // What the change to commit does (manifest-change.ts).
    notePerNode: {
      en: () =>
        "Each node's old pod then goes before its new one starts: each rollout takes one node's pod down at a time instead of needing room for a second pod on the same node.",
      ko: () =>
        '그러면 노드마다 새 파드가 뜨기 전에 기존 파드가 먼저 내려갑니다. 롤아웃마다 같은 노드에 파드 하나가 더 들어갈 자리가 필요하지 않고, 한 번에 노드 하나의 파드만 내려갑니다.',
    },
    noteOneAtATime: {
      en: () =>
        'Old pods then go before new ones start: each rollout takes one replica down at a time instead of needing room for one more.',
      ko: () =>
        '그러면 새 파드가 뜨기 전에 기존 파드가 먼저 내려갑니다. 롤아웃마다 파드 하나가 더 들어갈 자리가 필요하지 않고, 한 번에 레플리카 하나만 내려갑니다.',
    },
    noteStrategyUnread: {
      en: () =>
        'What the manifest sets was not readable here: replace any strategy block it has with the lines above.',
      ko: () =>
        '매니페스트의 설정을 여기서 읽지 못했습니다. 매니페스트에 strategy 블록이 있으면 위 줄로 바꾸세요.',
    },
    noteCanaryOneAtATime: {
      en: () =>
        'Stable pods then go before canary pods start: each update takes one replica down at a time instead of needing room for one more. The canary steps stay as written.',
      ko: () =>
        '그러면 카나리 파드가 뜨기 전에 안정 버전 파드가 먼저 내려갑니다. 업데이트마다 파드 하나가 더 들어갈 자리가 필요하지 않고, 한 번에 레플리카 하나만 내려갑니다. canary 단계(steps)는 그대로 둡니다.',
    },
    noteCanaryUnread: {
      en: () =>
        'What the manifest sets was not readable here: replace any maxSurge and maxUnavailable of its canary with the lines above.',
      ko: () =>
        '매니페스트의 설정을 여기서 읽지 못했습니다. canary에 maxSurge나 maxUnavailable이 있으면 위 줄로 바꾸세요.',
    },
    noteMatchLabelKeysVersion: {
      en: () =>
        'Kubernetes 1.31 or later (matchLabelKeys on pod affinity terms: on by default since 1.31, GA in 1.33); older API servers drop the field.',
      ko: () =>
        'Kubernetes 1.31 이상이 필요합니다(파드 어피니티 조건의 matchLabelKeys는 1.31부터 기본으로 켜져 있고 1.33부터 정식 기능). 그보다 오래된 API 서버는 이 필드를 버립니다.',
    },
    noteMatchLabelKeysLater: {
      en: () =>
        'The term then repels only pods of the same template. It helps from the rollout after the one that adds it: pods created without it still repel the new ones, so it is no live fix for the rollout stuck now.',
      ko: () =>
        '그러면 이 조건은 같은 템플릿의 파드만 밀어냅니다. 효과는 이 변경을 배포하는 롤아웃이 아니라 그다음 롤아웃부터 납니다. 이 조건 없이 만든 파드는 여전히 새 파드를 밀어내므로, 지금 멈춘 롤아웃을 푸는 조치는 아닙니다.',
    },
    // Why an owner reverts a field or not (drift.ts), kubectl apply's.
    fieldsReason: {
      en: (p: Fields) => `${p.fields}: ${p.reason}`,
      ko: (p: Fields) => `${p.fields} 필드: ${p.reason}`,
    },
    fieldsReasonLastApplied: {
      en: (p: Fields) =>
        `${p.fields}: ${p.reason} (manifest read from the last-applied-configuration annotation)`,
      ko: (p: Fields) =>
        `${p.fields} 필드: ${p.reason}(매니페스트는 last-applied-configuration 어노테이션에서 읽었습니다)`,
    },
    fieldsReasonManaged: {
      en: (p: Fields & { manager: string }) =>
        `${p.fields}: ${p.reason} (manifest read from the managedFields of ${p.manager})`,
      ko: (p: Fields & { manager: string }) =>
        `${p.fields} 필드: ${p.reason}(매니페스트는 ${p.manager}의 managedFields에서 읽었습니다)`,
    },
    notInApplied: {
      en: () => 'not in the applied manifest: nothing reverts it, and a later kubectl apply leaves it',
      ko: () => '적용한 매니페스트에 없습니다. 되돌리는 것이 없고, 이후의 kubectl apply도 그대로 둡니다',
    },
    inApplied: {
      en: () =>
        "in the applied manifest: nothing reverts it, but the next kubectl apply of that manifest puts the manifest's value back",
      ko: () =>
        '적용한 매니페스트에 있습니다. 되돌리는 것은 없지만, 그 매니페스트를 다음에 kubectl apply하면 매니페스트의 값으로 돌아갑니다',
    },
    appliedUnknown: {
      en: (p: { why: string }) =>
        `the applied manifest is not known (${p.why}): if it sets the field, the next kubectl apply of it (a person or a pipeline) puts the manifest's value back`,
      ko: (p: { why: string }) =>
        `적용한 매니페스트를 알 수 없습니다(${p.why}). 매니페스트가 이 필드를 설정한다면, 다음 kubectl apply(사람이든 파이프라인이든)에서 매니페스트의 값으로 돌아갑니다`,
    },
    noFieldChanged: {
      en: () => 'the patch changes no field of the live object',
      ko: () => '패치가 실제 오브젝트의 필드를 하나도 바꾸지 않습니다',
    },
    // Objects in no manifest (kinds/delete-pods.ts, kinds/replicaset-scale.ts).
    podsOnly: {
      en: () => 'deletes pods only: pods are in no manifest, and their controller replaces them',
      ko: () => '파드만 삭제합니다. 파드는 매니페스트에 없고, 컨트롤러가 새 파드로 바꿉니다',
    },
    rsScaleNoOwner: {
      en: (p: Undo) =>
        `ReplicaSets are made by the Deployment controller and are in no manifest, so no owner reverts this; the Deployment spec is untouched. The Deployment controller leaves an old ReplicaSet at 0 where it is; it scales it up again only if the pod template is reverted to that ReplicaSet's (${p.undo}, a re-apply of the old manifest)`,
      ko: (p: Undo) =>
        `ReplicaSet은 Deployment 컨트롤러가 만들고 매니페스트에 없으므로 되돌리는 주체가 없습니다. Deployment 스펙은 바꾸지 않습니다. Deployment 컨트롤러는 0으로 줄인 기존 ReplicaSet을 그대로 두고, 파드 템플릿이 그 ReplicaSet의 것으로 되돌아갈 때만(${p.undo}, 이전 매니페스트 재적용) 다시 늘립니다`,
    },
    rsScaleOwner: {
      en: (p: Undo & { owner: string }) =>
        `ReplicaSets are made by the Deployment controller and are in no manifest, so ${p.owner} never reverts this; the Deployment spec is untouched. The Deployment controller leaves an old ReplicaSet at 0 where it is; it scales it up again only if the pod template is reverted to that ReplicaSet's (${p.undo}, Git revert, self-heal of a reverted template)`,
      ko: (p: Undo & { owner: string }) =>
        `ReplicaSet은 Deployment 컨트롤러가 만들고 매니페스트에 없으므로 관리 주체(${p.owner})도 이 변경을 되돌리지 않습니다. Deployment 스펙은 바꾸지 않습니다. Deployment 컨트롤러는 0으로 줄인 기존 ReplicaSet을 그대로 두고, 파드 템플릿이 그 ReplicaSet의 것으로 되돌아갈 때만(${p.undo}, Git revert, 되돌린 템플릿의 self-heal) 다시 늘립니다`,
    },
    // scale-old-replicaset's warnings (builders/scale-old-replicaset.ts).
    rsComesBack: {
      en: (p: Rs) =>
        `How ${p.rs} can come back: the Deployment controller leaves an old ReplicaSet at 0 where it is, also when the replicas change mid-rollout (proportional scaling spreads them over active ReplicaSets only); it scales this one up again after a rollback to its template (${p.undo}, a Git revert, self-heal to the old template).`,
      ko: (p: Rs) =>
        `기존 ReplicaSet(${p.rs})이 다시 늘어나는 경우: Deployment 컨트롤러는 0으로 줄인 기존 ReplicaSet을 그대로 둡니다. 롤아웃 중에 레플리카 수가 바뀌어도 같습니다(비례 스케일링은 파드가 있는 ReplicaSet에만 레플리카를 나눕니다). 템플릿을 이 ReplicaSet의 것으로 되돌리면(${p.undo}, Git revert, 이전 템플릿으로의 self-heal) 다시 늘립니다.`,
    },
    nextRolloutSame: {
      en: () =>
        'The next rollout deadlocks the same way: change the strategy (maxSurge 0) in the source of truth too.',
      ko: () =>
        '다음 롤아웃도 똑같이 교착 상태(deadlock)가 됩니다. 원본 매니페스트의 전략도 바꾸세요(maxSurge 0).',
    },
    rsUndoRefused: {
      en: (p: Rs & { from: string }) =>
        `Undo (offered once applied) scales ${p.rs} back to ${p.from} while the new ReplicaSet is not fully available; after that the Deployment controller would scale it straight back down, so the Undo is refused and the way back to the old version is a rollback of the Deployment (${p.undo}).`,
      ko: (p: Rs & { from: string }) =>
        `적용한 뒤에 나오는 되돌리기는 새 ReplicaSet이 모두 사용 가능해지기 전까지 기존 ReplicaSet(${p.rs})을 레플리카 ${p.from}개로 다시 늘립니다. 그 뒤에는 Deployment 컨트롤러가 곧바로 다시 줄이므로 되돌리기는 거절되고, 이전 버전으로 돌아가려면 Deployment를 롤백하세요(${p.undo}).`,
    },
    // Who writes the workload (drift.ts ownerName) and no owner at all.
    kubectlOwner: {
      en: (p: { manager: string }) => `kubectl apply (field manager ${p.manager})`,
      ko: (p: { manager: string }) => `kubectl apply(필드 매니저 ${p.manager})`,
    },
    kubectlServerSideOwner: {
      en: (p: { manager: string }) => `kubectl apply --server-side (field manager ${p.manager})`,
      ko: (p: { manager: string }) => `kubectl apply --server-side(필드 매니저 ${p.manager})`,
    },
    noOwner: { en: () => 'no GitOps owner recognised', ko: () => 'GitOps 관리 주체를 찾지 못함' },
    noOwnerNoManagedFields: {
      en: (p: { kind: string }) =>
        `no GitOps owner recognised (no Flux labels, Argo CD tracking, Helm release annotations or kubectl last-applied), and the ${p.kind} carries no managedFields (a dump saved without --show-managed-fields?), so a controller or pipeline that applies it cannot be ruled out`,
      ko: (p: { kind: string }) =>
        `GitOps 관리 주체를 찾지 못했고(Flux 레이블, Argo CD 추적, Helm 릴리스 어노테이션, kubectl last-applied 모두 없음) ${p.kind}에 managedFields도 없어서(--show-managed-fields 없이 저장한 덤프일 수 있습니다), 이 오브젝트를 적용하는 컨트롤러나 파이프라인이 없다고 할 수 없습니다`,
    },
    noOwnerOnlyManagers: {
      en: (p: { kind: string; managers: string }) =>
        `no GitOps owner recognised (no Flux labels, Argo CD tracking, Helm release annotations or kubectl last-applied), and managedFields name only ${p.managers}: nothing applies the ${p.kind} again, so nothing reverts this (a later kubectl apply or replace of a manifest that sets these fields would)`,
      ko: (p: { kind: string; managers: string }) =>
        `GitOps 관리 주체를 찾지 못했고(Flux 레이블, Argo CD 추적, Helm 릴리스 어노테이션, kubectl last-applied 모두 없음) managedFields에는 ${p.managers}만 있습니다. ${p.kind} 오브젝트를 다시 적용하는 주체가 없으므로 되돌리는 주체도 없습니다(이 필드를 설정한 매니페스트를 나중에 kubectl apply나 replace하면 되돌아갑니다)`,
    },
    // A crash fix's warning (engine/proved-offer.ts).
    replacementsCrashAgain: {
      en: (p: { where: string }) =>
        `The scheduler may place the replacements on ${p.where} again, where they crash: the fix above keeps them off it.`,
      ko: (p: { where: string }) =>
        `스케줄러가 대체 파드를 다시 ${p.where} 노드에 배치하면 거기서 또 크래시합니다. 위 조치를 쓰면 대체 파드가 그 노드에 배치되지 않습니다.`,
    },
  },
  {
    whereUnknown: [{}],
    whereGit: [{ owner: 'Argo CD application shop' }],
    whereChart: [{ owner: 'Helm release shop/web' }],
    whereKubectl: [{}],
    notePerNode: [{}],
    noteOneAtATime: [{}],
    noteStrategyUnread: [{}],
    noteCanaryOneAtATime: [{}],
    noteCanaryUnread: [{}],
    noteMatchLabelKeysVersion: [{}],
    noteMatchLabelKeysLater: [{}],
    // A frame matches only around a sentence it translates (i18n/sentences.ts `frame`).
    fieldsReason: [
      {
        fields: 'spec.strategy.type',
        reason: 'not in the applied manifest: nothing reverts it, and a later kubectl apply leaves it',
      },
    ],
    fieldsReasonLastApplied: [{ fields: 'spec.strategy.type', reason: 'kept by x' }],
    fieldsReasonManaged: [{ fields: 'spec.strategy.type', reason: 'kept by x', manager: 'kubectl' }],
    notInApplied: [{}],
    inApplied: [{}],
    appliedUnknown: [{ why: 'the dump holds no managedFields' }],
    noFieldChanged: [{}],
    podsOnly: [{}],
    rsScaleNoOwner: [{ undo: 'rollout undo' }],
    rsScaleOwner: [{ owner: 'Argo CD application shop', undo: 'rollout undo' }],
    rsComesBack: [{ rs: 'web-5c6b7d8f9', undo: 'kubectl rollout undo' }],
    nextRolloutSame: [{}],
    rsUndoRefused: [{ rs: 'web-5c6b7d8f9', from: '1', undo: 'kubectl rollout undo' }],
    replacementsCrashAgain: [{ where: 'node-a' }],
    kubectlOwner: [{ manager: 'kubectl-client-side-apply' }],
    kubectlServerSideOwner: [{ manager: 'kubectl' }],
    noOwner: [{}],
    noOwnerNoManagedFields: [{ kind: 'Deployment' }],
    noOwnerOnlyManagers: [{ kind: 'Deployment', managers: 'kube-controller-manager' }],
  },
);
