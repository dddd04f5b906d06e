/**
 * Still more of the sentences the diagnosis writes in English into its data, in every
 * language (i18n/sentences.ts): the explanations and notes the Korean reports of the
 * fixture dumps still showed in English (test/unit/ko-reports.test.ts). Each entry's
 * comment names the engine code that writes its English.
 */
import { defineSentences } from '../i18n/sentences.js';

type Pod = { pod: string };
type Steps = { steps: string };

defineSentences(
  'report-sentences',
  {
    // src/diagnosis/workloads/rollout/rollout-phase.ts:206-211 (stalledRollout explanation)
    argoDeadlineMarks: {
      en: (p: { deadline: string }) =>
        `The Argo Rollouts controller marks the Rollout Degraded (Progressing=False, ProgressDeadlineExceeded) when no new pod became available for progressDeadlineSeconds (${p.deadline}s).`,
      ko: (p: { deadline: string }) =>
        `새 파드가 progressDeadlineSeconds(${p.deadline}초) 동안 하나도 사용 가능해지지 않으면 Argo Rollouts 컨트롤러는 Rollout을 Degraded 상태로 표시합니다(Progressing=False, ProgressDeadlineExceeded).`,
    },
    argoDeadlineNoAbort: {
      en: () =>
        'It does not abort (progressDeadlineAbort is off): the stable pods keep serving and the stuck new ones stay.',
      ko: () =>
        '업데이트를 중단하지는 않습니다(`progressDeadlineAbort` 꺼짐). 안정 버전 파드는 계속 서비스하고, 멈춘 새 파드도 그대로 남습니다.',
    },
    argoDeadlineAborts: {
      en: () =>
        'With progressDeadlineAbort it aborts in the same reconcile (rollout/sync.go evaluateProgressDeadlineAbort), after which the Rollout reads aborted, not timed out: the canary is scaled away and the stable pods serve.',
      ko: () =>
        '`progressDeadlineAbort`가 켜져 있어 같은 조정 주기에서 업데이트를 중단합니다(`rollout/sync.go evaluateProgressDeadlineAbort`). 그 뒤 Rollout은 시간 초과가 아니라 중단으로 보이고, 카나리 파드는 모두 내려가며 안정 버전 파드가 서비스합니다.',
    },
    argoAbortGoesBack: {
      en: () => '`kubectl argo rollouts abort` goes back to the stable pods.',
      ko: () => '`kubectl argo rollouts abort`로 안정 버전 파드로 되돌릴 수 있습니다.',
    },
    // src/diagnosis/forward/failing-new.ts:98-99 (summary, explanation)
    heldByFailingNew: {
      en: (p: { name: string; pod: string; age: string; why: string }) =>
        `Rollout of ${p.name} is held by new pod ${p.pod}: not Ready for ${p.age}, ${p.why}; the controller counts it unavailable and goes no further until it is Ready.`,
      ko: (p: { name: string; pod: string; age: string; why: string }) =>
        `${p.name} 롤아웃이 새 파드(${p.pod})에 막혀 있습니다. 이 파드는 ${p.age} 동안 Ready가 아닙니다(${p.why}). 컨트롤러는 이 파드를 사용 불가로 세고, Ready가 될 때까지 더 진행하지 않습니다.`,
    },
    heldByFailingNewNoAge: {
      en: (p: { name: string; pod: string; why: string }) =>
        `Rollout of ${p.name} is held by new pod ${p.pod}: not Ready, ${p.why}; the controller counts it unavailable and goes no further until it is Ready.`,
      ko: (p: { name: string; pod: string; why: string }) =>
        `${p.name} 롤아웃이 새 파드(${p.pod})에 막혀 있습니다. 이 파드는 Ready가 아닙니다(${p.why}). 컨트롤러는 이 파드를 사용 불가로 세고, Ready가 될 때까지 더 진행하지 않습니다.`,
    },
    readinessKeepsFailing: {
      en: (p: { count: string; message: string }) =>
        `its readiness probe keeps failing (${p.count} times: "${p.message}")`,
      ko: (p: { count: string; message: string }) => `레디니스 프로브 ${p.count}회 실패: "${p.message}"`,
    },
    readinessNoEvent: {
      en: () => 'it runs but is not Ready, and no probe event was read to say why',
      ko: () => '실행 중이지만 Ready가 아니고, 이유를 알려 줄 프로브 이벤트는 읽지 못함',
    },
    rolloutMovesOnReady: {
      en: (p: { kind: string }) =>
        `A ${p.kind}'s rollout moves only as its new pods become Ready: one that stays unavailable uses up what maxUnavailable allows, so no more old pods go until it is Ready.`,
      ko: (p: { kind: string }) =>
        `${p.kind} 롤아웃은 새 파드가 Ready가 되는 만큼만 진행합니다. 사용 불가로 남은 파드 하나가 maxUnavailable 한도를 다 쓰므로, 그 파드가 Ready가 될 때까지 기존 파드는 더 내려가지 않습니다.`,
    },
    findWhatProbeChecks: {
      en: (p: { pod: string; namespace: string; undo: string }) =>
        `Find what the readiness probe checks and why it fails (kubectl describe pod ${p.pod} -n ${p.namespace}; its logs), fix the template or the probe, or take the update back with ${p.undo}.`,
      ko: (p: { pod: string; namespace: string; undo: string }) =>
        `레디니스 프로브가 무엇을 확인하고 왜 실패하는지 찾으세요(\`kubectl describe pod ${p.pod} -n ${p.namespace}\`, 파드 로그). 그다음 템플릿이나 프로브를 고치거나, ${p.undo} 명령으로 업데이트를 되돌리세요.`,
    },
    daemonSetNoDeadline: {
      en: () =>
        'A Deployment reports ProgressDeadlineExceeded once its deadline passes; a DaemonSet never does.',
      ko: () =>
        'Deployment는 진행 기한이 지나면 ProgressDeadlineExceeded를 보고하지만, DaemonSet은 보고하지 않습니다.',
    },
    // src/diagnosis/rollout/volume-pin.ts:146-161 (OnDelete: summary, explanation)
    pinnedOldRevision: {
      en: (p: { pod: string; claim: string; volume: string; nodes: string }) =>
        `Pod ${p.pod} still runs the old revision, and its claim ${p.claim} is bound to volume ${p.volume}, usable only on ${p.nodes}.`,
      ko: (p: { pod: string; claim: string; volume: string; nodes: string }) =>
        `${p.pod} 파드는 아직 이전 리비전으로 실행 중이고, 이 파드의 클레임(${p.claim})은 ${p.volume} 볼륨에 바인딩되어 있어 ${p.nodes} 노드에서만 쓸 수 있습니다.`,
    },
    pinnedOnDeleteWaits: {
      en: (p: Pod) =>
        `Its update waits for someone to delete it (OnDelete); once deleted, the new ${p.pod} keeps that claim and no node takes it (volume node affinity conflict): it stays Pending for good.`,
      ko: (p: Pod) =>
        `업데이트는 누군가 이 파드를 삭제할 때까지 기다립니다(OnDelete). 삭제하면 새 ${p.pod} 파드도 같은 클레임을 쓰는데, 받아 줄 노드가 없어(\`volume node affinity conflict\`) 계속 Pending 상태로 남습니다.`,
    },
    onDeleteNothingStuck: {
      en: () =>
        'With updateStrategy OnDelete the controller replaces a pod only after someone deletes it, so nothing is stuck yet.',
      ko: () =>
        'updateStrategy가 OnDelete이면 컨트롤러는 누군가 파드를 삭제한 뒤에만 교체하므로, 아직 멈춘 것은 없습니다.',
    },
    pinnedDoNotDelete: {
      en: (p: { pod: string; uncordon: string; deletePvc: string; ref: string }) =>
        `Do not delete ${p.pod} for the update before its volume has a node again: ${p.uncordon} if the node is meant to serve again, or move the data and delete the claim so a new volume binds elsewhere (${p.deletePvc} loses the data on it). ${p.ref} itself needs no change.`,
      ko: (p: { pod: string; uncordon: string; deletePvc: string; ref: string }) =>
        `볼륨을 쓸 노드가 다시 생기기 전에는 업데이트하려고 ${p.pod} 파드를 삭제하지 마세요. 그 노드를 다시 쓸 거라면 ${p.uncordon} 명령을 실행하고, 아니면 데이터를 옮긴 뒤 클레임을 삭제해 새 볼륨이 다른 곳에 바인딩되게 하세요(${p.deletePvc} 명령은 그 볼륨의 데이터를 지웁니다). ${p.ref} 자체는 바꿀 것이 없습니다.`,
    },
    // src/diagnosis/forward/quota-ledgers.ts:94 (note)
    quotaStopsCharging: {
      en: (p: { pods: string }) =>
        `The quota stops charging ${p.pods}: stuck terminating, a pod is no longer counted once its deletion's grace period is over (QuotaV1Pod; count/pods still counts it).`,
      ko: (p: { pods: string }) =>
        `쿼터는 ${p.pods} 파드를 더 이상 계산하지 않습니다. 종료 중에 멈춘 파드는 삭제 유예 기간이 끝나면 쿼터에서 빠집니다(\`QuotaV1Pod\`. \`count/pods\`는 계속 셉니다).`,
    },
    quotaRecounts: {
      en: () =>
        "The quota's usage says so once the quota controller recounts (its resync, every 5 minutes by default), and the controller's next try to create the refused pod is admitted.",
      ko: () =>
        '쿼터 컨트롤러가 다시 집계하면(재동기화, 기본 5분마다) 쿼터 사용량에도 반영되고, 거부됐던 파드를 컨트롤러가 다시 만들 때 허용됩니다.',
    },
    // src/diagnosis/analyzers/preemption-under-way.ts:148-149 (lowerPriority)
    preemptionLowerTakes: {
      en: () =>
        "The scheduler's preemption (DefaultPreemption) takes pods of lower priority from a node where that makes the pod fit.",
      ko: () =>
        '스케줄러의 선점(`DefaultPreemption`)은 파드가 들어갈 수 있게 되는 노드에서 우선순위가 낮은 파드를 밀어냅니다.',
    },
    preemptionNextAttemptOne: {
      en: (p: Pod) =>
        `Its latest message for ${p.pod} names no failed preemption, so its next attempt preempts that pod (with its termination grace period; a disruption budget is honoured where it can be, not always) and the new pod takes the room.`,
      ko: (p: Pod) =>
        `${p.pod} 파드에 대한 스케줄러의 최근 메시지에 선점 실패가 없으므로, 다음 시도에서 그 파드를 선점하고(종료 유예 기간은 지키고, PodDisruptionBudget은 가능한 한 지키지만 항상은 아님) 새 파드가 그 자리를 차지합니다.`,
    },
    preemptionNextAttemptMany: {
      en: (p: Pod) =>
        `Its latest message for ${p.pod} names no failed preemption, so its next attempt preempts those pods (with their termination grace period; a disruption budget is honoured where it can be, not always) and the new pod takes the room.`,
      ko: (p: Pod) =>
        `${p.pod} 파드에 대한 스케줄러의 최근 메시지에 선점 실패가 없으므로, 다음 시도에서 그 파드들을 선점하고(종료 유예 기간은 지키고, PodDisruptionBudget은 가능한 한 지키지만 항상은 아님) 새 파드가 그 자리를 차지합니다.`,
    },
    nothingToChangeIn: {
      en: (p: { kind: string }) =>
        `Nothing to change in this ${p.kind}: a strategy change or a restart would only take serving pods away.`,
      ko: (p: { kind: string }) =>
        `이 ${p.kind}에서 바꿀 것은 없습니다. 전략을 바꾸거나 재시작하면 서비스 중인 파드만 줄어듭니다.`,
    },
    preemptedStopsOne: {
      en: (p: Pod) =>
        `The preempted pod stops serving: where it matters, make room for ${p.pod} elsewhere instead.`,
      ko: (p: Pod) =>
        `선점된 파드는 서비스를 멈춥니다. 그 파드가 중요하다면 ${p.pod} 파드가 들어갈 자리를 다른 곳에 마련하세요.`,
    },
    preemptedStopsMany: {
      en: (p: Pod) =>
        `The preempted pods stop serving: where they matter, make room for ${p.pod} elsewhere instead.`,
      ko: (p: Pod) =>
        `선점된 파드는 서비스를 멈춥니다. 그 파드들이 중요하다면 ${p.pod} 파드가 들어갈 자리를 다른 곳에 마련하세요.`,
    },
    // src/diagnosis/analyzers/preemption-under-way.ts:128-129 (outranking)
    preemptionOwnOldOne: {
      en: (p: { kind: string }) =>
        `The scheduler's preemption takes pods of lower priority, this ${p.kind}'s own old pods included, so the new pod does not wait for the old pod to be scaled down: the next scheduling attempt deletes it (with its termination grace period) and the new pod takes the room.`,
      ko: (p: { kind: string }) =>
        `스케줄러의 선점은 이 ${p.kind}의 기존 파드를 포함해 우선순위가 낮은 파드를 밀어내므로, 새 파드는 기존 파드가 줄어들기를 기다리지 않습니다. 다음 스케줄링 시도에서 기존 파드를 삭제하고(종료 유예 기간은 지킴) 새 파드가 그 자리를 차지합니다.`,
    },
    preemptionOwnOldMany: {
      en: (p: { kind: string }) =>
        `The scheduler's preemption takes pods of lower priority, this ${p.kind}'s own old pods included, so the new pod does not wait for the old pods to be scaled down: the next scheduling attempt deletes them (with their termination grace period) and the new pod takes the room.`,
      ko: (p: { kind: string }) =>
        `스케줄러의 선점은 이 ${p.kind}의 기존 파드를 포함해 우선순위가 낮은 파드를 밀어내므로, 새 파드는 기존 파드가 줄어들기를 기다리지 않습니다. 다음 스케줄링 시도에서 기존 파드들을 삭제하고(종료 유예 기간은 지킴) 새 파드가 그 자리를 차지합니다.`,
    },
    preemptedDownOutage: {
      en: (p: { victims: string; replicas: string }) =>
        `That old pod stops serving before its replacement is Ready: ${p.victims} of ${p.replicas} replica down until the new pod is Ready (an outage).`,
      ko: (p: { victims: string; replicas: string }) =>
        `그 기존 파드는 대체 파드가 Ready가 되기 전에 서비스를 멈춥니다. 새 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개 중 ${p.victims}개가 내려갑니다(서비스 중단).`,
    },
    preemptedDownOne: {
      en: (p: { victims: string; replicas: string }) =>
        `That old pod stops serving before its replacement is Ready: ${p.victims} of ${p.replicas} replicas down until the new pod is Ready.`,
      ko: (p: { victims: string; replicas: string }) =>
        `그 기존 파드는 대체 파드가 Ready가 되기 전에 서비스를 멈춥니다. 새 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개 중 ${p.victims}개가 내려갑니다.`,
    },
    // src/diagnosis/analyzers/unavailable.ts:318-323 (the model cannot follow the update)
    unavailableUntold: {
      en: (p: { name: string; available: string; desired: string; counted: string; untold: string }) =>
        `${p.name} has ${p.available} of ${p.desired} replicas available while its rollout is under way (${p.counted}), and whether the rollout gets there by itself could not be told: ${p.untold}.`,
      ko: (p: { name: string; available: string; desired: string; counted: string; untold: string }) =>
        `롤아웃 중인 ${p.name}의 사용 가능한 레플리카는 ${p.desired}개 중 ${p.available}개입니다(${p.counted}). 롤아웃이 스스로 끝날지는 판단하지 못했습니다: ${p.untold}.`,
    },
    podTerminatingCount: {
      en: (p: { count: string }) => `${p.count} pod is terminating`,
      ko: (p: { count: string }) => `파드 ${p.count}개 종료 중`,
    },
    podsTerminatingCount: {
      en: (p: { count: string }) => `${p.count} pods are terminating`,
      ko: (p: { count: string }) => `파드 ${p.count}개 종료 중`,
    },
    modelUnmodelled: {
      en: () => 'the model does not follow this kind of update (ordered pods, canary steps)',
      ko: () => '이런 방식의 업데이트(순서대로 교체하는 파드, 카나리 단계)는 모델이 따라가지 못합니다',
    },
    nextStepsNotFollowed: {
      en: (p: { untold: string }) =>
        `The controllers' next steps could not be followed (${p.untold}), so the rollout is called neither moving nor stuck.`,
      ko: (p: { untold: string }) =>
        `컨트롤러의 다음 단계를 따라가지 못했으므로(${p.untold}) 롤아웃이 진행 중인지 멈췄는지 판정하지 않습니다.`,
    },
    lookAtNotReady: {
      en: (p: { kind: string; command: string }) =>
        `Look at the pods that are not Ready and at the ${p.kind}'s events: ${p.command}.`,
      ko: (p: { kind: string; command: string }) =>
        `Ready가 아닌 파드와 ${p.kind}의 이벤트를 확인하세요: ${p.command}.`,
    },
    // src/diagnosis/analyzers/unschedulable.ts:164-170 (a DaemonSet's Pending new pod spends maxUnavailable)
    daemonSetBudgetSpent: {
      en: (p: { names: string; max: string; nodes: string }) =>
        `While ${p.names} is Pending, it spends the DaemonSet's maxUnavailable of ${p.max}, so its controller replaces no old pod on ${p.nodes} either: the rollout is stopped on every node.`,
      ko: (p: { names: string; max: string; nodes: string }) =>
        `${p.names} 파드가 Pending인 동안 DaemonSet의 maxUnavailable(${p.max})을 다 쓰므로, 컨트롤러는 ${p.nodes} 노드의 기존 파드도 교체하지 않습니다. 롤아웃이 모든 노드에서 멈춰 있습니다.`,
    },
    daemonSetCountsNodes: {
      en: () =>
        'The DaemonSet controller counts each node whose new pod is not available against maxUnavailable (update.go, rollingUpdate), a Pending one included.',
      ko: () =>
        'DaemonSet 컨트롤러는 새 파드가 사용 가능하지 않은 노드를 하나하나 maxUnavailable에 넣어 셉니다(`update.go`, `rollingUpdate`). Pending 파드도 포함됩니다.',
    },
    daemonSetWiderNoHelp: {
      en: (p: { nodes: string }) =>
        `Make room for it first; a wider maxUnavailable would not help: the new template fits none of ${p.nodes} either, even with its old pod gone, so each old pod it let go would leave a node with no pod of this DaemonSet.`,
      ko: (p: { nodes: string }) =>
        `먼저 이 파드가 들어갈 자리를 만드세요. maxUnavailable을 늘려도 소용없습니다: 새 템플릿은 기존 파드가 없어져도 ${p.nodes} 노드 어디에도 들어가지 않으므로, 기존 파드를 내보낼 때마다 이 DaemonSet의 파드가 없는 노드가 생깁니다.`,
    },
    daemonSetWiderHelps: {
      en: (p: { wider: string }) =>
        `Make room for it first; meanwhile maxUnavailable ${p.wider} would let the other nodes update one at a time.`,
      ko: (p: { wider: string }) =>
        `먼저 이 파드가 들어갈 자리를 만드세요. 그동안 maxUnavailable을 ${p.wider} 값으로 두면 다른 노드는 하나씩 업데이트됩니다.`,
    },
    // src/diagnosis/analyzers/incomplete-evidence.ts:68-72
    cannotJudge: {
      en: (p: { name: string; what: string; reasons: string; kind: string; status: string }) =>
        `Cannot judge ${p.name}: ${p.what} could not be read (${p.reasons}); the ${p.kind} reports ${p.status}.`,
      ko: (p: { name: string; what: string; reasons: string; kind: string; status: string }) =>
        `${p.name}: 판정할 수 없습니다. ${p.what} 항목을 읽지 못했습니다(${p.reasons}). ${p.kind} 상태: ${p.status}.`,
    },
    withoutNothingToLook: {
      en: (p: { what: string }) =>
        `Without ${p.what} there is nothing to look for a stuck rollout, a crash or a pull failure in, and their absence is not evidence of health.`,
      ko: (p: { what: string }) =>
        `${p.what} 없이는 멈춘 롤아웃, 크래시, 이미지 풀 실패를 찾을 곳이 없고, 찾지 못했다고 해서 정상이라는 근거도 되지 않습니다.`,
    },
    kindSaysNotComplete: {
      en: (p: { kind: string }) =>
        `The ${p.kind} itself says the rollout is not complete, so something is wrong that this diagnosis cannot see.`,
      ko: (p: { kind: string }) =>
        `${p.kind} 자체는 롤아웃이 끝나지 않았다고 보고하므로, 이 진단이 볼 수 없는 곳에 문제가 있습니다.`,
    },
    toSettleIt: {
      en: (p: { settle: string }) => `To settle it: ${p.settle}.`,
      ko: (p: { settle: string }) => `확인하려면: ${p.settle}.`,
    },
    // src/diagnosis/analyzers/crash-loop.ts:109, :124-126, :139 (why the node is not blamed)
    oneNodeCannotTell: {
      en: (p: { node: string }) =>
        `No pod of this template is healthy, and all run on one node (${p.node}): one node cannot tell a fault of the node from one of the container (a pod of it on another node would).`,
      ko: (p: { node: string }) =>
        `이 템플릿의 파드는 정상인 것이 없고, 모두 한 노드(${p.node})에서 실행됩니다. 노드 하나로는 노드 문제인지 컨테이너 문제인지 가릴 수 없습니다(다른 노드에 파드가 하나 있으면 가릴 수 있습니다).`,
    },
    healthyTooYoung: {
      en: (p: { nodes: string; span: string; fields: string }) =>
        `The healthy pods on ${p.nodes} have run for less than the ${p.span} the crashing container ran before it failed: too early to tell whether they stay up, so the difference in ${p.fields} is not taken for the cause yet (diagnose again in a few minutes).`,
      ko: (p: { nodes: string; span: string; fields: string }) =>
        `${p.nodes} 노드의 정상 파드는 크래시하는 컨테이너가 실패하기까지 걸린 시간(${p.span})만큼도 아직 실행되지 않았습니다. 계속 살아 있을지 판단하기 이르므로 ${p.fields} 차이를 아직 원인으로 보지 않습니다(몇 분 뒤에 다시 진단하세요).`,
    },
    healthyJustStarted: {
      en: (p: { nodes: string; fields: string }) =>
        `The healthy pods on ${p.nodes} started less than 10 minutes ago: too early to tell whether they stay up, so the difference in ${p.fields} is not taken for the cause yet (diagnose again in a few minutes).`,
      ko: (p: { nodes: string; fields: string }) =>
        `${p.nodes} 노드의 정상 파드는 시작한 지 10분이 안 됐습니다. 계속 살아 있을지 판단하기 이르므로 ${p.fields} 차이를 아직 원인으로 보지 않습니다(몇 분 뒤에 다시 진단하세요).`,
    },
    crashNotBlamedOne: {
      en: (p: { count: string; nodes: string; good: string }) =>
        `The template crashes on ${p.count} node (${p.nodes}) and runs healthy on ${p.good}, but no node attribute separates them and the failure's own words (or its cause: out of memory, a configuration error) do not point at the node, so the node is not blamed on this evidence.`,
      ko: (p: { count: string; nodes: string; good: string }) =>
        `이 템플릿은 노드 ${p.count}개(${p.nodes})에서 크래시하고 노드 ${p.good}개에서는 정상 실행되지만, 둘을 가르는 노드 속성이 없고 실패 메시지나 그 원인(메모리 부족, 설정 오류)도 노드를 가리키지 않습니다. 이 근거로는 노드를 원인으로 보지 않습니다.`,
    },
    crashNotBlamedMany: {
      en: (p: { count: string; nodes: string; good: string }) =>
        `The template crashes on ${p.count} nodes (${p.nodes}) and runs healthy on ${p.good}, but no node attribute separates them and the failure's own words (or its cause: out of memory, a configuration error) do not point at the node, so the node is not blamed on this evidence.`,
      ko: (p: { count: string; nodes: string; good: string }) =>
        `이 템플릿은 노드 ${p.count}개(${p.nodes})에서 크래시하고 노드 ${p.good}개에서는 정상 실행되지만, 둘을 가르는 노드 속성이 없고 실패 메시지나 그 원인(메모리 부족, 설정 오류)도 노드를 가리키지 않습니다. 이 근거로는 노드를 원인으로 보지 않습니다.`,
    },
    // src/diagnosis/forward/reconcile.ts:240 (moving, the next step only)
    movingNext: {
      en: (p: Steps) => `The rollout is moving: next, ${p.steps}.`,
      ko: (p: Steps) => `롤아웃이 진행 중입니다. 다음 단계: ${p.steps}.`,
    },
    nothingStuckYet: {
      en: () => 'Nothing is stuck yet; diagnose again if it stops there.',
      ko: () => '아직 멈춘 것은 없습니다. 거기서 멈추면 다시 진단하세요.',
    },
    // src/remediation/builders/abort-rollout.ts:144 (abort not offered)
    abortStopsHalfWay: {
      en: (p: { current: string; stable: string }) =>
        `with maxUnavailable 0 an abort scales the available pods of ${p.current} down only as new pods of ${p.stable} become available, and no node has room for one beside them: the abort would stop half way, ${p.current} serving and ${p.stable} short for good`,
      ko: (p: { current: string; stable: string }) =>
        `maxUnavailable이 0이면 업데이트를 중단해도 ${p.current} 쪽의 사용 가능한 파드는 ${p.stable} 쪽 새 파드가 사용 가능해지는 만큼만 줄어드는데, 그 옆에 새 파드 하나를 더 둘 자리가 있는 노드가 없습니다. 중단은 중간에 멈추고, ${p.current} 쪽이 계속 서비스하며 ${p.stable} 쪽은 계속 모자란 채로 남습니다`,
    },
  },
  {
    argoDeadlineMarks: [{ deadline: '600' }],
    argoDeadlineNoAbort: [{}],
    argoDeadlineAborts: [{}],
    argoAbortGoesBack: [{}],
    heldByFailingNew: [
      {
        name: 'web',
        pod: 'web-n2-x',
        age: '8m',
        why: 'its readiness probe keeps failing (46 times: "Readiness probe failed: HTTP probe failed with statuscode: 503")',
      },
    ],
    heldByFailingNewNoAge: [
      {
        name: 'web',
        pod: 'web-n2-x',
        why: 'it runs but is not Ready, and no probe event was read to say why',
      },
    ],
    readinessKeepsFailing: [
      { count: '46', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503' },
    ],
    readinessNoEvent: [{}],
    rolloutMovesOnReady: [{ kind: 'DaemonSet' }],
    findWhatProbeChecks: [
      { pod: 'web-n2-x', namespace: 'shop', undo: '`kubectl rollout undo deployment/web -n shop`' },
    ],
    daemonSetNoDeadline: [{}],
    pinnedOldRevision: [{ pod: 'db-2', claim: 'data-db-2', volume: 'local-pv-2', nodes: 'l-3 (cordoned)' }],
    pinnedOnDeleteWaits: [{ pod: 'db-2' }],
    onDeleteNothingStuck: [{}],
    pinnedDoNotDelete: [
      {
        pod: 'db-2',
        uncordon: '`kubectl uncordon l-3`',
        deletePvc: '`kubectl delete pvc data-db-2 -n data`',
        ref: 'statefulset/db',
      },
    ],
    quotaStopsCharging: [{ pods: 'web-o1-c' }],
    quotaRecounts: [{}],
    preemptionLowerTakes: [{}],
    preemptionNextAttemptOne: [{ pod: 'web-w2-b' }],
    preemptionNextAttemptMany: [{ pod: 'web-w2-b' }],
    nothingToChangeIn: [{ kind: 'Deployment' }],
    preemptedStopsOne: [{ pod: 'web-w2-b' }],
    preemptedStopsMany: [{ pod: 'web-w2-b' }],
    preemptionOwnOldOne: [{ kind: 'Deployment' }],
    preemptionOwnOldMany: [{ kind: 'Deployment' }],
    preemptedDownOutage: [{ victims: '1', replicas: '1' }],
    preemptedDownOne: [{ victims: '1', replicas: '3' }],
    unavailableUntold: [
      {
        name: 'db',
        available: '2',
        desired: '3',
        counted: '1 pod is terminating',
        untold: 'the model does not follow this kind of update (ordered pods, canary steps)',
      },
    ],
    podTerminatingCount: [{ count: '1' }],
    podsTerminatingCount: [{ count: '2' }],
    modelUnmodelled: [{}],
    nextStepsNotFollowed: [
      { untold: 'the model does not follow this kind of update (ordered pods, canary steps)' },
    ],
    lookAtNotReady: [{ kind: 'StatefulSet', command: '`kubectl describe statefulset db -n data`' }],
    daemonSetBudgetSpent: [{ names: 'agent-new1 (n1)', max: '1', nodes: 'n2, n3' }],
    daemonSetCountsNodes: [{}],
    daemonSetWiderNoHelp: [{ nodes: 'n2, n3' }],
    daemonSetWiderHelps: [{ wider: '2' }],
    cannotJudge: [
      {
        name: 'other',
        what: 'ControllerRevisions in shop',
        reasons: 'not in the dump',
        kind: 'DaemonSet',
        status: '0 of 0 node(s) updated, 0 available',
      },
    ],
    withoutNothingToLook: [{ what: 'ControllerRevisions in shop' }],
    kindSaysNotComplete: [{ kind: 'DaemonSet' }],
    toSettleIt: [{ settle: 'kubectl get controllerrevisions -n shop -o yaml' }],
    oneNodeCannotTell: [{ node: 'n-4' }],
    healthyTooYoung: [{ nodes: 'node-b, node-c', span: '1m 2s', fields: 'kernelVersion' }],
    healthyJustStarted: [{ nodes: 'node-b, node-c', fields: 'kernelVersion' }],
    crashNotBlamedOne: [{ count: '1', nodes: 'n1', good: '1' }],
    crashNotBlamedMany: [{ count: '2', nodes: 'n1, n2', good: '2' }],
    movingNext: [{ steps: 'new pod beta-b2-y1, Ready, becomes available (minReadySeconds)' }],
    nothingStuckYet: [{}],
    abortStopsHalfWay: [
      { current: 'ReplicaSet rec-h2 (revision 2)', stable: 'ReplicaSet rec-h1 (revision 1, stable)' },
    ],
  },
);
