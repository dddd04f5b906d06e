/**
 * More of the sentences the diagnosis writes in English into its data, in every
 * language (i18n/sentences.ts): findings' headlines and explanations of the forward model
 * (RolloutStuck, RolloutProgressing, RolloutAtRisk, Unschedulable, CrashLoop, preemption,
 * Argo Rollouts' halts), the pods table's title and details, and the steps the model
 * names. Each entry's comment names the engine code that writes its English.
 */
import { defineSentences } from '../i18n/sentences.js';

type Pod = { pod: string };
type Steps = { steps: string };
/** A preemption: the pod, its priority, the node and the victims (one entry per verb: holds/hold, is/are). */
type Preempts = { pod: string; priority: string; node: string; victims: string };

defineSentences(
  'finding-sentences',
  {
    // ---- Evidence tables: titles and the pods' detail column (work today) ----
    // src/diagnosis/forward/pods-as-they-are.ts:25 (15 dumps)
    podsOfWorkload: { en: () => 'Pods of the workload', ko: () => '워크로드의 파드' },
    // src/diagnosis/forward/pods-as-they-are.ts:19
    podReadyNotAvailable: {
      en: () => 'Ready, not available yet (minReadySeconds)',
      ko: () => 'Ready, 아직 사용 가능 상태 아님(minReadySeconds)',
    },
    // src/diagnosis/forward/pods-as-they-are.ts:19
    podStarting: { en: () => 'starting, not Ready yet', ko: () => '시작 중, 아직 Ready 아님' },
    // src/diagnosis/forward/pods-as-they-are.ts:21
    podTerminating: {
      en: () => 'terminating: gone within its grace period',
      ko: () => '종료 중: 유예 기간 안에 사라짐',
    },
    // src/diagnosis/forward/pods-as-they-are.ts:22
    podTerminatingStuck: {
      en: () => 'terminating past its deadline',
      ko: () => '유예 기간이 지났는데도 종료 중',
    },
    // src/diagnosis/forward/failing-new.ts:103
    newPodsHolding: { en: () => 'New pods that hold the rollout', ko: () => '롤아웃을 멈춘 새 파드' },
    // src/diagnosis/analyzers/preemption-under-way.ts:132
    preemptsOldPods: {
      en: () => 'The new pod and the old pods it preempts',
      ko: () => '새 파드와, 새 파드가 선점하는 기존 파드',
    },
    // src/diagnosis/analyzers/preemption-under-way.ts:151
    preemptsLowerPods: {
      en: () => 'The new pod and the lower-priority pods it preempts',
      ko: () => '새 파드와, 새 파드가 선점하는 우선순위가 낮은 파드',
    },
    // src/diagnosis/analyzers/unavailable.ts:329
    podsNotAvailable: { en: () => 'Pods that are not available', ko: () => '사용 가능하지 않은 파드' },

    // ---- The forward model's notes (work today for one step; a list needs [L]) ----
    // src/diagnosis/forward/reconcile.ts:247
    whatHappensNext: {
      en: (p: Steps) => `What happens next, in order: ${p.steps}.`,
      ko: (p: Steps) => `이어서 일어날 일(순서대로): ${p.steps}.`,
    },
    // src/diagnosis/forward/paused.ts:233
    onceResumed: {
      en: (p: Steps) => `Once resumed, in order: ${p.steps}.`,
      ko: (p: Steps) => `재개하면 순서대로: ${p.steps}.`,
    },
    // The steps (src/diagnosis/forward/step-words.ts), in the noun-phrase style of the
    // plans' "진행 순서" (remediation/proof-text.ts: "기존 파드 web-1 삭제; 새 파드 1개 Ready").
    // step-words.ts:15
    stepGone: {
      en: (p: Pod) => `terminating pod ${p.pod} is gone (until then it holds its node's room and its quota)`,
      ko: (p: Pod) => `종료 중인 파드 ${p.pod} 사라짐(그때까지 노드의 자리와 쿼터를 점유)`,
    },
    // step-words.ts:18
    stepAvailable: {
      en: (p: Pod) => `new pod ${p.pod}, Ready, becomes available (minReadySeconds)`,
      ko: (p: Pod) => `새 파드 ${p.pod} Ready, 이어서 사용 가능(minReadySeconds)`,
    },
    // step-words.ts:19
    stepReady: {
      en: (p: Pod) => `new pod ${p.pod} becomes Ready`,
      ko: (p: Pod) => `새 파드 ${p.pod} Ready`,
    },
    // step-words.ts:21
    stepNodeAdded: {
      en: (p: Pod) => `the cluster autoscaler adds a node for pending pod ${p.pod} (it triggered a scale-up)`,
      ko: (p: Pod) =>
        `클러스터 오토스케일러가 Pending 파드(${p.pod})를 위해 노드 추가(이 파드가 스케일 업을 일으킴)`,
    },
    // step-words.ts:23
    stepOldRemoved: {
      en: (p: Pod) => `the controller removes old pod ${p.pod}`,
      ko: (p: Pod) => `컨트롤러가 기존 파드 ${p.pod} 제거`,
    },
    // step-words.ts:25
    stepAdmitted: {
      en: (p: { quota: string }) => `quota ${p.quota} admits the next new pod`,
      ko: (p: { quota: string }) => `ResourceQuota(${p.quota})가 다음 새 파드 허용`,
    },
    // step-words.ts:27
    stepPreempted: {
      en: (p: Pod & { victims: string; node: string }) =>
        `the scheduler preempts ${p.victims} on ${p.node} for ${p.pod}`,
      ko: (p: Pod & { victims: string; node: string }) =>
        `스케줄러가 새 파드(${p.pod})를 위해 ${p.node} 노드의 파드(${p.victims}) 선점`,
    },
    // step-words.ts:29
    stepCrashed: {
      en: (p: { node: string }) => `a new pod starts on ${p.node} and crash-loops there`,
      ko: (p: { node: string }) => `${p.node} 노드에서 새 파드가 시작해 CrashLoopBackOff`,
    },
    // step-words.ts:31
    stepDeleted: { en: (p: Pod) => `pod ${p.pod} is deleted`, ko: (p: Pod) => `파드 ${p.pod} 삭제` },
    // step-words.ts:33
    stepRivalPlaced: {
      en: (p: Pod & { owner: string; node: string }) =>
        `${p.owner}'s pending pod ${p.pod} takes the room on ${p.node}`,
      ko: (p: Pod & { owner: string; node: string }) =>
        `다른 워크로드의 Pending 파드(${p.owner}, ${p.pod})가 ${p.node} 노드의 자리를 차지`,
    },

    // ---- Unschedulable's note (works today) ----
    // src/diagnosis/analyzers/unschedulable.ts:101 (and :227 with one piece of advice)
    whatWouldChange: {
      en: (p: { change: string }) => `What would have to change: ${p.change}`,
      ko: (p: { change: string }) => `바꿔야 할 것: ${p.change}`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:474 (with an empty ${scale})
    addCapacity: {
      en: (p: { resource: string; holders: string }) =>
        `add ${p.resource} capacity to the eligible nodes, widen the node selection, or free what other workloads hold (${p.holders})`,
      ko: (p: { resource: string; holders: string }) =>
        `배치할 수 있는 노드에 ${p.resource} 용량을 늘리거나, 노드 선택 범위를 넓히거나, 다른 워크로드가 점유한 자원을 비우세요(${p.holders})`,
    },
    // src/diagnosis/analyzers/incomplete-evidence.ts:112
    notReadSettle: {
      en: (p: { what: string; reason: string; settle: string }) =>
        `Not read: ${p.what} (${p.reason}); to settle it: ${p.settle}`,
      ko: (p: { what: string; reason: string; settle: string }) =>
        `읽지 못함: ${p.what}(${p.reason}). 확인하려면: ${p.settle}`,
    },

    // ---- [F] Finding summaries and explanations (need the findingSummary fallback) ----
    // src/diagnosis/analyzers/rollout-at-risk.ts:53 (`where` for one node, :49)
    atRiskOneNode: {
      en: (p: { name: string; nodes: string; need: string; strategy: string }) =>
        `Next rollout of ${p.name} will deadlock: the only node it may use (${p.nodes}) has no room for one more pod (it needs ${p.need}), and ${p.strategy} creates the new pod before any old one goes.`,
      ko: (p: { name: string; nodes: string; need: string; strategy: string }) =>
        `${p.name} 워크로드의 다음 롤아웃은 교착 상태(deadlock)가 됩니다: 쓸 수 있는 유일한 노드(${p.nodes})에 파드 하나가 더 들어갈 자리가 없고(필요한 자원: ${p.need}), ${p.strategy} 설정에서는 기존 파드를 내리기 전에 새 파드를 먼저 만듭니다.`,
    },
    // src/diagnosis/analyzers/rollout-at-risk.ts:53 (`where` for several nodes, :50)
    atRiskNodes: {
      en: (p: { name: string; count: string; nodes: string; need: string; strategy: string }) =>
        `Next rollout of ${p.name} will deadlock: the ${p.count} nodes it may use (${p.nodes}) have no room for one more pod (it needs ${p.need}), and ${p.strategy} creates the new pod before any old one goes.`,
      ko: (p: { name: string; count: string; nodes: string; need: string; strategy: string }) =>
        `${p.name} 워크로드의 다음 롤아웃은 교착 상태(deadlock)가 됩니다: 쓸 수 있는 노드 ${p.count}개(${p.nodes}) 모두 파드 하나가 더 들어갈 자리가 없고(필요한 자원: ${p.need}), ${p.strategy} 설정에서는 기존 파드를 내리기 전에 새 파드를 먼저 만듭니다.`,
    },
    // src/diagnosis/analyzers/rollout-at-risk.ts:54 (first sentence)
    atRiskWhy: {
      en: (p: { kind: string; surge: string; unavailable: string }) =>
        `This ${p.kind}'s own pods hold what a new pod needs, so with maxSurge ${p.surge} and maxUnavailable ${p.unavailable} the next rollout's first new pod will stay Pending while the old pods wait for it to become Ready.`,
      ko: (p: { kind: string; surge: string; unavailable: string }) =>
        `새 파드에 필요한 자원을 이 ${p.kind}의 기존 파드가 점유하고 있습니다. maxSurge ${p.surge}, maxUnavailable ${p.unavailable}에서는 다음 롤아웃의 첫 새 파드가 Pending 상태로 남고, 기존 파드는 그 파드가 Ready가 되기를 기다립니다.`,
    },
    // src/diagnosis/analyzers/rollout-at-risk.ts:54 (second sentence, kind with Recreate)
    atRiskFixRecreate: {
      en: () =>
        'Setting maxSurge 0 / maxUnavailable 1 (or Recreate) now avoids that; it restarts nothing by itself.',
      ko: () =>
        '지금 maxSurge 0 / maxUnavailable 1(또는 Recreate)로 바꾸면 이를 피할 수 있습니다. 이 변경만으로는 아무것도 재시작하지 않습니다.',
    },
    // src/diagnosis/analyzers/rollout-at-risk.ts:54 (second sentence, kind without Recreate)
    atRiskFix: {
      en: () => 'Setting maxSurge 0 / maxUnavailable 1 now avoids that; it restarts nothing by itself.',
      ko: () =>
        '지금 maxSurge 0 / maxUnavailable 1로 바꾸면 이를 피할 수 있습니다. 이 변경만으로는 아무것도 재시작하지 않습니다.',
    },
    // src/diagnosis/forward/reconcile.ts:239 (two steps, nothing preempted)
    movingTwoSteps: {
      en: (p: { first: string; then: string }) =>
        `The rollout is moving and will finish by itself once ${p.first}, then ${p.then}; nothing needs changing.`,
      ko: (p: { first: string; then: string }) =>
        `롤아웃이 진행 중이며 스스로 끝납니다: ${p.first}, 이어서 ${p.then}. 바꿀 것은 없습니다.`,
    },
    // src/diagnosis/forward/reconcile.ts:239 (one step, nothing preempted)
    movingOneStep: {
      en: (p: { first: string }) =>
        `The rollout is moving and will finish by itself once ${p.first}; nothing needs changing.`,
      ko: (p: { first: string }) => `롤아웃이 진행 중이며 스스로 끝납니다: ${p.first}. 바꿀 것은 없습니다.`,
    },
    // src/diagnosis/forward/reconcile.ts stuckForGood: the frame, then its parts (Korean review)
    neverFinish: {
      en: (p: { what: string; why: string }) => `The rollout can never finish: ${p.what}, and ${p.why}.`,
      ko: (p: { what: string; why: string }) => `롤아웃이 끝날 수 없습니다: ${p.what}. ${p.why}.`,
    },
    newPodsWaitForRoom: {
      en: (p: { names: string }) => `new pods (${p.names}) wait for room the old pods hold`,
      ko: (p: { names: string }) => `새 파드(${p.names})가 기존 파드가 점유한 자리를 기다립니다`,
    },
    oldPodsWait: {
      en: () => 'old pods wait to be replaced',
      ko: () => '기존 파드가 교체되기를 기다립니다',
    },
    noMoreOldRemoved: {
      en: () => 'the controller removes no more old pods (its maxUnavailable is used up)',
      ko: () => '컨트롤러는 기존 파드를 더 내리지 않습니다(maxUnavailable을 모두 썼습니다)',
    },
    blueGreenHoldsAll: {
      en: (p: { replicas: string }) =>
        `blue-green keeps every active pod until the preview has all ${p.replicas} of its pods and is promoted, and the nodes cannot hold both revisions at once`,
      ko: (p: { replicas: string }) =>
        `BlueGreen 전략은 프리뷰 파드 ${p.replicas}개가 모두 뜨고 승격될 때까지 활성 파드를 하나도 내리지 않는데, 노드에는 두 리비전을 동시에 올릴 자리가 없습니다`,
    },
    trafficRoutedHoldsAll: {
      en: (p: { replicas: string }) =>
        `a traffic-routed canary keeps every stable pod until the canary has all ${p.replicas} of its pods, and the nodes cannot hold both revisions at once`,
      ko: (p: { replicas: string }) =>
        `트래픽 라우팅 카나리는 카나리 파드 ${p.replicas}개가 모두 뜰 때까지 안정 버전 파드를 하나도 내리지 않는데, 노드에는 두 리비전을 동시에 올릴 자리가 없습니다`,
    },
    quotaWillRefuseNext: {
      en: (p: { quota: string }) =>
        `ResourceQuota ${p.quota}, as its status counts it, will refuse the next new pod`,
      ko: (p: { quota: string }) => `ResourceQuota(${p.quota})의 현재 사용량으로는 다음 새 파드가 거부됩니다`,
    },
    quotaRefusesNext: {
      en: (p: { quota: string }) => `ResourceQuota ${p.quota} refuses the next new pod`,
      ko: (p: { quota: string }) => `ResourceQuota(${p.quota})가 다음 새 파드를 거부합니다`,
    },
    // src/diagnosis/analyzers/preemption-under-way.ts (Korean review)
    willPreemptOwnOne: {
      en: (p: Preempts & { kind: string }) =>
        `The scheduler will make room for ${p.pod} (priority ${p.priority}) on ${p.node} by preempting ${p.victims} of this ${p.kind}, which holds what it needs at a lower priority: the rollout goes on by itself.`,
      ko: (p: Preempts & { kind: string }) =>
        `스케줄러가 ${p.node} 노드에서 우선순위가 더 낮은 이 ${p.kind}의 기존 파드(${p.victims})를 선점해 새 파드(${p.pod}, 우선순위 ${p.priority})의 자리를 만듭니다. 롤아웃은 스스로 이어집니다.`,
    },
    willPreemptOwnMany: {
      en: (p: Preempts & { kind: string }) =>
        `The scheduler will make room for ${p.pod} (priority ${p.priority}) on ${p.node} by preempting ${p.victims} of this ${p.kind}, which hold what it needs at a lower priority: the rollout goes on by itself.`,
      ko: (p: Preempts & { kind: string }) =>
        `스케줄러가 ${p.node} 노드에서 우선순위가 더 낮은 이 ${p.kind}의 기존 파드(${p.victims})를 선점해 새 파드(${p.pod}, 우선순위 ${p.priority})의 자리를 만듭니다. 롤아웃은 스스로 이어집니다.`,
    },
    willPreemptOtherOne: {
      en: (p: Preempts) =>
        `The scheduler will make room for ${p.pod} (priority ${p.priority}) on ${p.node} by preempting ${p.victims}, which holds what it needs at a lower priority: the rollout goes on by itself.`,
      ko: (p: Preempts) =>
        `스케줄러가 ${p.node} 노드에서 우선순위가 더 낮은 파드(${p.victims})를 선점해 새 파드(${p.pod}, 우선순위 ${p.priority})의 자리를 만듭니다. 롤아웃은 스스로 이어집니다.`,
    },
    willPreemptOtherMany: {
      en: (p: Preempts) =>
        `The scheduler will make room for ${p.pod} (priority ${p.priority}) on ${p.node} by preempting ${p.victims}, which hold what it needs at a lower priority: the rollout goes on by itself.`,
      ko: (p: Preempts) =>
        `스케줄러가 ${p.node} 노드에서 우선순위가 더 낮은 파드(${p.victims})를 선점해 새 파드(${p.pod}, 우선순위 ${p.priority})의 자리를 만듭니다. 롤아웃은 스스로 이어집니다.`,
    },
    makingRoomOne: {
      en: (p: Preempts) =>
        `The scheduler is making room for ${p.pod} (priority ${p.priority}) on ${p.node}: it preempted ${p.victims}, which is terminating.`,
      ko: (p: Preempts) =>
        `스케줄러가 ${p.node} 노드에 새 파드(${p.pod}, 우선순위 ${p.priority})의 자리를 만드는 중입니다: 선점한 파드(${p.victims})가 종료 중입니다.`,
    },
    makingRoomMany: {
      en: (p: Preempts) =>
        `The scheduler is making room for ${p.pod} (priority ${p.priority}) on ${p.node}: it preempted ${p.victims}, which are terminating.`,
      ko: (p: Preempts) =>
        `스케줄러가 ${p.node} 노드에 새 파드(${p.pod}, 우선순위 ${p.priority})의 자리를 만드는 중입니다: 선점한 파드(${p.victims})가 종료 중입니다.`,
    },
    pendingOnPurposeOne: {
      en: (p: { node: string }) =>
        `The pod is Pending on purpose: it is nominated to ${p.node} and schedules there once the lower-priority pod is gone (within its termination grace period).`,
      ko: (p: { node: string }) =>
        `이 파드는 일부러 Pending 상태입니다: ${p.node} 노드에 지정되어 있고, 우선순위가 낮은 파드가 사라지면(종료 유예 기간 안에) 그 노드에 배치됩니다.`,
    },
    pendingOnPurposeMany: {
      en: (p: { node: string }) =>
        `The pod is Pending on purpose: it is nominated to ${p.node} and schedules there once the lower-priority pods are gone (within their termination grace period).`,
      ko: (p: { node: string }) =>
        `이 파드는 일부러 Pending 상태입니다: ${p.node} 노드에 지정되어 있고, 우선순위가 낮은 파드가 사라지면(종료 유예 기간 안에) 그 노드에 배치됩니다.`,
    },
    markedVictims: {
      en: () => 'The scheduler marked the victims DisruptionTarget (PreemptionByScheduler).',
      ko: () => '스케줄러가 선점된 파드에 DisruptionTarget 컨디션을 표시했습니다(PreemptionByScheduler).',
    },
    nothingToChange: {
      en: () => 'Nothing to change: a strategy change or a restart would only take serving pods away.',
      ko: () => '바꿀 것은 없습니다. 전략을 바꾸거나 재시작하면 서비스 중인 파드만 줄어듭니다.',
    },
    nothingToChangeMore: {
      en: () => 'Nothing to change: a strategy change or a restart would only take more serving pods away.',
      ko: () => '바꿀 것은 없습니다. 전략을 바꾸거나 재시작하면 서비스 중인 파드가 더 줄어들 뿐입니다.',
    },
    watchVictims: {
      en: (p: { command: string }) =>
        `Watch ${p.command}; if it is still Pending after the victims are gone, diagnose again.`,
      ko: (p: { command: string }) =>
        `${p.command}로 지켜보고, 선점된 파드가 사라진 뒤에도 Pending이면 다시 진단하세요.`,
    },
    raisedPriority: {
      en: () => "The new template raised the pods' priority above the old ones'.",
      ko: () => '새 템플릿이 파드의 우선순위를 기존 파드보다 높였습니다.',
    },
    // src/diagnosis/analyzers/create-refused.ts: a surge deadlock on a ResourceQuota
    quotaSurgeDeadlock: {
      en: (p: { name: string; quota: string; row: string; strategy: string }) =>
        `Rollout of ${p.name} can never finish: ResourceQuota ${p.quota} refuses its new pods (${p.row}), and ${p.strategy} keeps old pods until new ones are Ready.`,
      ko: (p: { name: string; quota: string; row: string; strategy: string }) =>
        `${p.name} 롤아웃이 끝나지 않습니다: ResourceQuota(${p.quota})가 새 파드를 거부하고(${p.row}), ${p.strategy} 설정에서는 새 파드가 Ready가 되기 전에 기존 파드가 삭제되지 않습니다.`,
    },
    quotaNothingCreated: {
      en: (p: { controller: string; what: string; label: string }) =>
        `No new pod is created, so none is Pending, scheduled or crashing: the ${p.controller} controller records ${p.what} on ${p.label}, and \`kubectl rollout status\` only waits.`,
      ko: (p: { controller: string; what: string; label: string }) =>
        `새 파드가 만들어지지 않으므로 Pending이거나 배치되거나 크래시하는 파드도 없습니다: ${p.controller} 컨트롤러는 ${p.label}에 대해 ${p.what} 기록을 남기고, \`kubectl rollout status\`는 기다리기만 합니다.`,
    },
    quotaOneOldFirst: {
      en: (p: { share: string; kind: string }) =>
        `${p.share}: the whole ${p.kind} fits it on the new template beside what others use, and letting one old pod go first makes room for a new one.`,
      ko: (p: { share: string; kind: string }) =>
        `${p.share}: 다른 워크로드가 쓰는 양과 함께여도 ${p.kind} 전체가 새 템플릿으로 쿼터 안에 들어가며, 기존 파드 하나를 먼저 내보내면 새 파드 하나가 들어갈 자리가 생깁니다.`,
    },
    quotaEachWaits: {
      en: () =>
        'The controller removes an old pod only once a new one is available, which cannot be created: each side waits for the other.',
      ko: () =>
        '컨트롤러는 새 파드가 사용 가능해져야 기존 파드를 내리는데, 새 파드는 만들어질 수 없습니다: 서로가 서로를 기다립니다.',
    },
    quotaWayOut: {
      en: () =>
        'The way out: RollingUpdate with maxSurge 0 (or Recreate), with a restart so the refused ReplicaSet is replaced; or raise the quota by what one new pod asks.',
      ko: () =>
        '해결 방법: RollingUpdate에서 maxSurge 0(또는 Recreate)으로 바꾸고 재시작해서 거부된 ReplicaSet을 교체하거나, 새 파드 하나가 요청하는 만큼 쿼터를 늘립니다.',
    },
    // src/diagnosis/analyzers/progress-deadline.ts (summary and explanation; deadline-passed.ts)
    stalled: {
      en: (p: { name: string; rs: string; deadline: string; ready: string; desired: string }) =>
        `Rollout of ${p.name} stalled: ReplicaSet ${p.rs} made no progress for ${p.deadline}s (${p.ready} of ${p.desired} new pods ready).`,
      ko: (p: { name: string; rs: string; deadline: string; ready: string; desired: string }) =>
        `${p.name} 롤아웃이 멈췄습니다: ReplicaSet(${p.rs})이 ${p.deadline}초 동안 진행하지 못했습니다(새 파드 ${p.desired}개 중 ${p.ready}개 Ready).`,
    },
    deadlineMarksFailed: {
      en: (p: { deadline: string }) =>
        `The Deployment controller marks the rollout as failed (Progressing=False, ProgressDeadlineExceeded) when no new pod became available for progressDeadlineSeconds (${p.deadline}s).`,
      ko: (p: { deadline: string }) =>
        `새 파드가 progressDeadlineSeconds(${p.deadline}초) 동안 하나도 사용 가능해지지 않으면 Deployment 컨트롤러는 롤아웃을 실패로 표시합니다(Progressing=False, ProgressDeadlineExceeded).`,
    },
    deadlineNoRollback: {
      en: () =>
        'It does not roll back or stop anything: the old pods keep serving and the stuck new ones stay as they are.',
      ko: () => '롤백하거나 멈추지는 않습니다. 기존 파드는 계속 서비스하고, 멈춘 새 파드도 그대로 남습니다.',
    },
    undoGoesBack: {
      en: () => '`kubectl rollout undo` goes back to the previous revision.',
      ko: () => '`kubectl rollout undo`로 이전 리비전으로 되돌릴 수 있습니다.',
    },
    otherFindingsSayWhy: {
      en: () => 'The other findings say why the new pods do not become available.',
      ko: () => '새 파드가 사용 가능해지지 않는 이유는 다른 판정에 있습니다.',
    },
    // src/diagnosis/forward/reconcile.ts:243-245 (first sentence, the rollout completes)
    movingWhy: {
      en: () =>
        'Run forward, the controllers finish it: terminating pods give back their node and quota when they are gone, starting pods become Ready, the controller then replaces the next old pods, and the scheduler places what fits.',
      ko: () =>
        '끝까지 따라가 보면 컨트롤러가 롤아웃을 끝냅니다: 종료 중인 파드는 사라지면서 노드 자리와 쿼터를 돌려주고, 시작 중인 파드는 Ready가 되고, 컨트롤러가 다음 기존 파드를 교체하고, 스케줄러가 들어갈 자리가 있는 파드를 배치합니다.',
    },
    // src/diagnosis/forward/reconcile.ts:244-245 (first sentence, the next step only)
    movingNextWhy: {
      en: () =>
        'The controller takes its next step by itself: terminating pods give back their node and quota when they are gone, starting pods become Ready, the controller then replaces the next old pods, and the scheduler places what fits.',
      ko: () =>
        '컨트롤러가 다음 단계를 스스로 진행합니다: 종료 중인 파드는 사라지면서 노드 자리와 쿼터를 돌려주고, 시작 중인 파드는 Ready가 되고, 컨트롤러가 다음 기존 파드를 교체하고, 스케줄러가 들어갈 자리가 있는 파드를 배치합니다.',
    },
    // src/diagnosis/forward/reconcile.ts:245 (second sentence)
    watchIt: {
      en: () => 'Watch it with kubectl rollout status; diagnose again if it stops moving.',
      ko: () => '`kubectl rollout status`로 지켜보고, 멈추면 다시 진단하세요.',
    },
    // src/diagnosis/forward/reconcile.ts:366
    deadlineNotPassed: {
      en: () => 'The progress deadline has not passed yet, so kubectl still reads it as progressing.',
      ko: () => '진행 기한이 아직 지나지 않아서 kubectl은 아직 진행 중으로 봅니다.',
    },
    // src/diagnosis/forward/reconcile.ts:367
    noProgressDeadline: {
      en: (p: { kind: string }) =>
        `A ${p.kind} has no progress deadline, so kubectl rollout status waits with no end and nothing marks the rollout failed.`,
      ko: (p: { kind: string }) =>
        `${p.kind}에는 진행 기한이 없습니다. \`kubectl rollout status\`는 끝없이 기다리고, 롤아웃을 실패로 표시하는 것도 없습니다.`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:74 (lead, one pod) + :454-458 (cause, one node) + :124
    pendingOneNode: {
      en: (p: Pod & { need: string; node: string }) =>
        `Pod ${p.pod} is Pending: it needs ${p.need} and ${p.node}, the only node it may use, has no room for it even with the old pods gone.`,
      ko: (p: Pod & { need: string; node: string }) =>
        `파드(${p.pod})가 Pending 상태입니다: 쓸 수 있는 유일한 노드(${p.node})에 기존 파드가 모두 없어져도 이 파드가 들어갈 자리가 없습니다(필요한 자원: ${p.need}).`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:74 (lead, one pod) + :456-458 (cause, several nodes) + :124
    pendingNodes: {
      en: (p: Pod & { need: string; count: string }) =>
        `Pod ${p.pod} is Pending: it needs ${p.need} and none of the ${p.count} nodes it may use has room for it even with the old pods gone.`,
      ko: (p: Pod & { need: string; count: string }) =>
        `파드(${p.pod})가 Pending 상태입니다: 쓸 수 있는 노드 ${p.count}개 중 어디에도, 기존 파드가 모두 없어져도 이 파드가 들어갈 자리가 없습니다(필요한 자원: ${p.need}).`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:124 (explanation: the cause capitalised) + :454-458
    needsOneNode: {
      en: (p: { need: string; node: string }) =>
        `It needs ${p.need} and ${p.node}, the only node it may use, has no room for it even with the old pods gone.`,
      ko: (p: { need: string; node: string }) =>
        `쓸 수 있는 유일한 노드(${p.node})에 기존 파드가 모두 없어져도 이 파드가 들어갈 자리가 없습니다(필요한 자원: ${p.need}).`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:124 + :456-458
    needsNodes: {
      en: (p: { need: string; count: string }) =>
        `It needs ${p.need} and none of the ${p.count} nodes it may use has room for it even with the old pods gone.`,
      ko: (p: { need: string; count: string }) =>
        `쓸 수 있는 노드 ${p.count}개 중 어디에도, 기존 파드가 모두 없어져도 이 파드가 들어갈 자리가 없습니다(필요한 자원: ${p.need}).`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:125
    notStrategyProblem: {
      en: () =>
        'This is not a rollout-strategy problem: the pod would not fit even if the old pods were gone, so maxSurge 0 or Recreate would only add downtime.',
      ko: () =>
        '롤아웃 전략의 문제가 아닙니다. 기존 파드가 모두 없어져도 파드가 들어갈 자리가 없으므로, maxSurge 0이나 Recreate는 다운타임만 늘립니다.',
    },
    // src/diagnosis/analyzers/crash-loop.ts:91-92 (first clause after causeWords)
    lookAtExitCode: {
      en: () => 'look at the exit code, the termination message and the previous-container log.',
      ko: () => '종료 코드, 종료 메시지, 이전 컨테이너의 로그를 확인하세요.',
    },
    // src/diagnosis/analyzers/crash-loop.ts:91-92
    kubeletBackOff: {
      en: () =>
        'The kubelet restarts it after a back-off of 10s, doubling up to 5 minutes, reset only after 10 minutes of clean running.',
      ko: () =>
        'kubelet은 10초 백오프 후에 컨테이너를 재시작하고, 백오프는 두 배씩 늘어 최대 5분이 됩니다. 10분 동안 문제없이 실행되어야 초기화됩니다.',
    },
    // src/diagnosis/analyzers/crash-loop.ts:102
    causeInContainer: {
      en: () =>
        'The cause is in the container (application error, configuration, resources), not in one node',
      ko: () => '원인은 특정 노드가 아니라 컨테이너에 있습니다(애플리케이션 오류, 설정, 리소스)',
    },
    // src/diagnosis/analyzers/crash-loop.ts:103
    causeMostOftenInContainer: {
      en: () => 'The cause is most often in the container (application error, configuration, resources)',
      ko: () => '원인은 대개 컨테이너에 있습니다(애플리케이션 오류, 설정, 리소스)',
    },
  },
  {
    podsOfWorkload: [{}],
    podReadyNotAvailable: [{}],
    podStarting: [{}],
    podTerminating: [{}],
    podTerminatingStuck: [{}],
    newPodsHolding: [{}],
    preemptsOldPods: [{}],
    preemptsLowerPods: [{}],
    podsNotAvailable: [{}],
    whatHappensNext: [{ steps: 'the controller removes old pod web-1' }],
    onceResumed: [{ steps: 'new pod web-2 becomes Ready' }],
    stepGone: [{ pod: 'web-o1-0' }],
    stepAvailable: [{ pod: 'web-n1-0' }],
    stepReady: [{ pod: 'web-n1-0' }],
    stepNodeAdded: [{ pod: 'web-n1-0' }],
    stepOldRemoved: [{ pod: 'web-o1-0' }],
    stepAdmitted: [{ quota: 'compute' }],
    stepPreempted: [{ victims: 'low-c1-z1', node: 'gpu-2', pod: 'alpha-a2-y1' }],
    stepCrashed: [{ node: 'n-1' }],
    stepDeleted: [{ pod: 'web-o1-0' }],
    stepRivalPlaced: [{ owner: 'deployment/web', pod: 'web-h2-y1', node: 'gpu-4' }],
    whatWouldChange: [{ change: 'free nvidia.com/gpu on gpu-1' }],
    addCapacity: [{ resource: 'nvidia.com/gpu', holders: 'web-h1-x1' }],
    notReadSettle: [
      {
        what: 'ControllerRevisions in shop',
        reason: 'not in the dump',
        settle: 'kubectl get controllerrevisions -n shop -o yaml',
      },
    ],
    atRiskOneNode: [
      {
        name: 'trk',
        nodes: 'gpu-1',
        need: '1 nvidia.com/gpu (1 allocatable, 1 in use)',
        strategy: 'maxSurge 1, maxUnavailable 0 at 1 replica',
      },
    ],
    atRiskNodes: [
      {
        name: 'eps',
        count: '3',
        nodes: 'gpu-1, gpu-2, gpu-3',
        need: '1 nvidia.com/gpu (1 allocatable, 1 in use)',
        strategy: 'maxSurge 1, maxUnavailable 0 at 1 replica',
      },
    ],
    atRiskWhy: [{ kind: 'Deployment', surge: '1', unavailable: '0' }],
    atRiskFixRecreate: [{}],
    atRiskFix: [{}],
    movingTwoSteps: [
      { first: 'new pod web-n1-0 becomes Ready', then: 'the controller removes old pod web-o1-0' },
    ],
    movingOneStep: [{ first: 'new pod web-n1-0 becomes Ready' }],
    movingWhy: [{}],
    willPreemptOwnOne: [
      { pod: 'web-2', priority: '1000', node: 'gpu-1', victims: 'web-1', kind: 'Deployment' },
    ],
    willPreemptOwnMany: [
      { pod: 'web-2', priority: '1000', node: 'gpu-1', victims: 'web-1, web-3', kind: 'Deployment' },
    ],
    willPreemptOtherOne: [{ pod: 'web-2', priority: '1000', node: 'gpu-1', victims: 'batch-1' }],
    willPreemptOtherMany: [{ pod: 'web-2', priority: '1000', node: 'gpu-1', victims: 'batch-1, batch-2' }],
    makingRoomOne: [{ pod: 'web-2', priority: '1000', node: 'gpu-1', victims: 'batch-1' }],
    makingRoomMany: [{ pod: 'web-2', priority: '1000', node: 'gpu-1', victims: 'batch-1, batch-2' }],
    pendingOnPurposeOne: [{ node: 'gpu-1' }],
    pendingOnPurposeMany: [{ node: 'gpu-1' }],
    markedVictims: [{}],
    nothingToChange: [{}],
    nothingToChangeMore: [{}],
    watchVictims: [{ command: '`kubectl get pod web-2 -n ml -w`' }],
    raisedPriority: [{}],
    quotaSurgeDeadlock: [
      {
        name: 'web',
        quota: 'compute',
        row: "pods: 3 of 3 used, 1 by this workload's pods; a new pod asks 1",
        strategy: 'maxSurge 1, maxUnavailable 0 at 1 replica',
      },
    ],
    quotaNothingCreated: [
      { controller: 'ReplicaSet', what: 'FailedCreate events', label: 'ReplicaSet web-7d9f' },
    ],
    quotaOneOldFirst: [{ share: 'Of pods 3 the old pods hold 1', kind: 'Deployment' }],
    quotaEachWaits: [{}],
    quotaWayOut: [{}],
    neverFinish: [
      {
        what: 'old pods wait to be replaced',
        why: 'the controller removes no more old pods (its maxUnavailable is used up)',
      },
    ],
    newPodsWaitForRoom: [{ names: 'web-2, web-3' }],
    oldPodsWait: [{}],
    noMoreOldRemoved: [{}],
    blueGreenHoldsAll: [{ replicas: '3' }],
    trafficRoutedHoldsAll: [{ replicas: '3' }],
    quotaWillRefuseNext: [{ quota: 'team-quota' }],
    quotaRefusesNext: [{ quota: 'team-quota' }],
    stalled: [{ name: 'web', rs: 'web-7d9f', deadline: '600', ready: '0', desired: '1' }],
    deadlineMarksFailed: [{ deadline: '600' }],
    deadlineNoRollback: [{}],
    undoGoesBack: [{}],
    otherFindingsSayWhy: [{}],
    movingNextWhy: [{}],
    watchIt: [{}],
    deadlineNotPassed: [{}],
    noProgressDeadline: [{ kind: 'DaemonSet' }],
    pendingOneNode: [{ pod: 'agent-new1', need: '1500m cpu (2 allocatable, 1 in use)', node: 'n1' }],
    pendingNodes: [{ pod: 'other-o1-c', need: '1 nvidia.com/gpu (1 allocatable, 1 in use)', count: '4' }],
    needsOneNode: [{ need: '1500m cpu (2 allocatable, 1 in use)', node: 'n1' }],
    needsNodes: [{ need: '1 nvidia.com/gpu (1 allocatable, 1 in use)', count: '4' }],
    notStrategyProblem: [{}],
    lookAtExitCode: [{}],
    kubeletBackOff: [{}],
    causeInContainer: [{}],
    causeMostOftenInContainer: [{}],
  },
);
