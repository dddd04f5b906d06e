/**
 * `explain-scheduling`'s sentences (commands/explain-scheduling.ts and its advice), in
 * every language. The English entries are the output's wording before the catalogue,
 * byte for byte; `-o json` keeps them (JSON never translates). Reasons, categories,
 * field names and commands are quoted as the scheduler and kubectl write them.
 */
import { defineMessages, phrase, registerCatalogue } from '../i18n/catalogue.js';

/** How many nodes a reason counts. */
type N = { count: number };
/** Who a count-less reason concerns: "3 nodes", or every node checked once. */
type Who = { who: string };
/** A command as typed. */
type Command = { command: string };
/** English subject and verb agreement: "1 node lacks", "3 nodes lack". */
const nodes = (n: number): string => (n === 1 ? '1 node' : `${n} nodes`);
const verb = (n: number, one: string, many: string): string => `${nodes(n)} ${n === 1 ? one : many}`;
/** How far an eviction-check failure reaches: that one node, all the nodes, some of them. */
type Scope = { one: boolean; all: boolean };
type Eviction = { said: string; what: string; alsoNeeded: string };

export const EXPLAIN_WORDS = registerCatalogue(
  'explain-scheduling',
  defineMessages({
    nodes: { en: (p: N) => nodes(p.count), ko: (p: N) => `노드 ${p.count}개` },
    everyNode: phrase('every node, checked once for the pod', '모든 노드, 파드마다 한 번 검사'),
    theResource: phrase('the resource', '그 자원'),
    thePort: phrase('the port', '그 포트'),
    that: phrase('that', '그것'),
    resourceNamed: {
      en: (p: { resource: string }) => p.resource,
      ko: (p: { resource: string }) => `${p.resource} 자원`,
    },
    lacksScalar: {
      en: (p: N & { resource: string }) =>
        `${verb(p.count, 'lacks', 'lack')} ${p.resource}: free some there, lower the pod's request, or add a node`,
      ko: (p: N & { resource: string }) =>
        `노드 ${p.count}개에 ${p.resource} 자원의 여유가 없습니다: 그 노드에서 여유를 만들거나, 파드의 요청량을 낮추거나, 노드를 추가합니다`,
    },
    lacksExtended: {
      en: (p: N & { resource: string }) =>
        `${verb(p.count, 'lacks', 'lack')} ${p.resource}: free one there or add a node with ${p.resource}`,
      ko: (p: N & { resource: string }) =>
        `노드 ${p.count}개에 남은 ${p.resource} 자원이 없습니다: 그 노드에서 하나를 비우거나, ${p.resource} 자원이 있는 노드를 추가합니다`,
    },
    podLimit: {
      en: (p: N) =>
        `${verb(p.count, 'is', 'are')} at the kubelet's pod limit: free a pod slot there or add a node`,
      ko: (p: N) =>
        `노드 ${p.count}개가 kubelet의 파드 수 한도에 닿았습니다: 그 노드에서 파드 자리를 비우거나 노드를 추가합니다`,
    },
    notNamedNode: {
      en: (p: N) =>
        `${verb(p.count, 'is not', 'are not')} the node the pod names (spec.nodeName): change or drop it`,
      ko: (p: N) =>
        `노드 ${p.count}개는 파드가 지정한 노드(spec.nodeName)가 아닙니다: spec.nodeName을 바꾸거나 지웁니다`,
    },
    lacksTopologyLabel: {
      en: (p: N) =>
        `${verb(p.count, 'lacks', 'lack')} the topology key label of a spread constraint: label them or change the constraint`,
      ko: (p: N) =>
        `노드 ${p.count}개에 토폴로지 분산 제약의 토폴로지 키 레이블이 없습니다: 노드에 레이블을 붙이거나 제약을 바꿉니다`,
    },
    failsSelector: {
      en: (p: N) =>
        `${verb(p.count, 'fails', 'fail')} the pod's node selector or node affinity: relax the selector, or label a node to match`,
      ko: (p: N) =>
        `노드 ${p.count}개가 파드의 노드 셀렉터나 노드 어피니티에 맞지 않습니다: 셀렉터를 완화하거나, 맞는 레이블을 노드에 붙입니다`,
    },
    taintNamed: {
      en: (p: N & { taint: string }) =>
        `${verb(p.count, 'has', 'have')} the taint ${p.taint} the pod does not tolerate: add a toleration for it, or remove the taint`,
      ko: (p: N & { taint: string }) =>
        `노드 ${p.count}개에 파드가 허용하지 않는 테인트가 있습니다(${p.taint}): 그 테인트의 톨러레이션을 추가하거나 테인트를 제거합니다`,
    },
    taintUnnamed: {
      en: (p: N & Command) =>
        `${verb(p.count, 'has', 'have')} a taint the pod does not tolerate (${p.command} shows which): add a toleration, or remove the taint`,
      ko: (p: N & Command) =>
        `노드 ${p.count}개에 파드가 허용하지 않는 테인트가 있습니다(어느 테인트인지는 ${p.command}로 봅니다): 톨러레이션을 추가하거나 테인트를 제거합니다`,
    },
    cordoned: {
      en: (p: N & Command) =>
        `${verb(p.count, 'is', 'are')} cordoned: uncordon one (${p.command}) if it is healthy`,
      ko: (p: N & Command) =>
        `노드 ${p.count}개가 cordon 상태입니다: 정상인 노드라면 uncordon합니다(${p.command})`,
    },
    notReady: {
      en: (p: N) =>
        `${verb(p.count, 'is', 'are')} not ready or under pressure: repair them (a toleration only hides it)`,
      ko: (p: N) =>
        `노드 ${p.count}개가 준비되지 않았거나 자원 압박 상태입니다: 노드를 고칩니다(톨러레이션은 문제를 가릴 뿐입니다)`,
    },
    hostPort: {
      en: (p: N) =>
        `${verb(p.count, 'already uses', 'already use')} the pod's hostPort: stop what holds it there (an old pod of the same Deployment: roll with maxSurge 0) or drop the hostPort`,
      ko: (p: N) =>
        `노드 ${p.count}개에서 파드의 hostPort를 이미 쓰고 있습니다: 그 포트를 잡은 것을 멈추거나(같은 디플로이먼트의 이전 파드라면 maxSurge 0으로 롤아웃합니다) hostPort를 뺍니다`,
    },
    claimUnbound: {
      en: (p: Who) =>
        `the pod's PersistentVolumeClaim is not bound (${p.who}): fix the claim first (StorageClass, size, access mode)`,
      ko: (p: Who) =>
        `파드의 PersistentVolumeClaim이 바인딩되지 않았습니다(${p.who}): 먼저 클레임을 고칩니다(StorageClass, 크기, 접근 모드)`,
    },
    attachLimit: {
      en: (p: N) =>
        `${verb(p.count, 'has', 'have')} reached the volume attach limit: detach volumes there or add a node`,
      ko: (p: N) =>
        `노드 ${p.count}개가 볼륨 연결 한도에 닿았습니다: 그 노드에서 볼륨을 떼거나 노드를 추가합니다`,
    },
    noFreeVolume: {
      en: (p: N) =>
        `no free PersistentVolume fits on ${nodes(p.count)}: create one there or use a StorageClass that provisions`,
      ko: (p: N) =>
        `노드 ${p.count}개에 맞는 빈 PersistentVolume이 없습니다: 그곳에 하나를 만들거나, 동적으로 프로비저닝하는 StorageClass를 씁니다`,
    },
    volumePinned: {
      en: (p: N) =>
        `${verb(p.count, 'is', 'are')} outside the zone or node the pod's volume is pinned to: run where the volume is, or move the data`,
      ko: (p: N) =>
        `노드 ${p.count}개가 파드의 볼륨이 고정된 존이나 노드 밖에 있습니다: 볼륨이 있는 곳에서 실행하거나 데이터를 옮깁니다`,
    },
    volumeConflict: {
      en: (p: N) =>
        `${verb(p.count, 'conflicts', 'conflict')} with the pod's volumes: run where the volume can attach (a ReadWriteOnce volume on one node: let the old pod go first)`,
      ko: (p: N) =>
        `노드 ${p.count}개가 파드의 볼륨과 충돌합니다: 볼륨을 붙일 수 있는 곳에서 실행합니다(한 노드의 ReadWriteOnce 볼륨이라면 이전 파드를 먼저 내보냅니다)`,
    },
    spread: {
      en: (p: N) =>
        `${nodes(p.count)} would break a topology spread constraint: raise maxSkew, use whenUnsatisfiable: ScheduleAnyway, or add nodes in other domains`,
      ko: (p: N) =>
        `노드 ${p.count}개는 토폴로지 분산 제약을 깨게 됩니다: maxSkew를 올리거나, whenUnsatisfiable: ScheduleAnyway를 쓰거나, 다른 도메인에 노드를 추가합니다`,
    },
    antiAffinity: {
      en: (p: N) =>
        `${verb(p.count, 'runs', 'run')} pods that an anti-affinity rule keeps apart from this one: make the rule preferred, add nodes, or move those pods (an old pod of the same Deployment: maxSurge 0)`,
      ko: (p: N) =>
        `노드 ${p.count}개에 안티 어피니티 규칙상 이 파드와 함께 둘 수 없는 파드가 있습니다: 규칙을 preferred로 바꾸거나, 노드를 추가하거나, 그 파드를 옮깁니다(같은 디플로이먼트의 이전 파드라면 maxSurge 0)`,
    },
    podAffinity: {
      en: (p: N) =>
        `${verb(p.count, 'fails', 'fail')} the pod's pod affinity: run the pods it needs there, or relax the rule`,
      ko: (p: N) =>
        `노드 ${p.count}개가 파드의 파드 어피니티를 만족하지 않습니다: 필요한 파드를 그곳에서 실행하거나 규칙을 완화합니다`,
    },
    noFreeDevice: {
      en: (p: N) =>
        `${verb(p.count, 'has', 'have')} no free device for the pod's resource claims: free one (claims of any namespace may hold it) or add devices`,
      ko: (p: N) =>
        `노드 ${p.count}개에 파드의 리소스 클레임에 줄 빈 장치가 없습니다: 하나를 비우거나(어느 네임스페이스의 클레임이든 장치를 잡고 있을 수 있습니다) 장치를 추가합니다`,
    },
    allocationTimedOut: {
      en: (p: N) =>
        `device allocation timed out on ${nodes(p.count)}: simplify the claim's selectors, or retry`,
      ko: (p: N) =>
        `노드 ${p.count}개에서 장치 할당 시간이 초과되었습니다: 클레임의 셀렉터를 단순하게 하거나 다시 시도합니다`,
    },
    claimOnOtherNode: {
      en: (p: N) =>
        `the pod's claim is allocated to another node, so ${nodes(p.count)} cannot use it: schedule there, or let the claim be deallocated`,
      ko: (p: N) =>
        `파드의 클레임이 다른 노드에 할당되어 있어 노드 ${p.count}개는 그 클레임을 쓸 수 없습니다: 그 노드에 스케줄하거나, 클레임의 할당이 풀리게 합니다`,
    },
    invalidPool: {
      en: (p: N & Command) =>
        `${verb(p.count, 'offers', 'offer')} devices only from a resource pool its DRA driver published inconsistently (${p.command}): the scheduler skips such a pool until the driver republishes it`,
      ko: (p: N & Command) =>
        `노드 ${p.count}개는 DRA 드라이버가 일관되지 않게 게시한 리소스 풀의 장치만 제공합니다(${p.command}): 드라이버가 다시 게시할 때까지 스케줄러는 그 풀을 건너뜁니다`,
    },
    claimReserved: {
      en: (p: Who) =>
        `the pod's resource claim is reserved by other pods (${p.who}): wait for them, or give each pod its own claim (resourceClaimTemplateName)`,
      ko: (p: Who) =>
        `파드의 리소스 클레임을 다른 파드가 예약하고 있습니다(${p.who}): 그 파드를 기다리거나, 파드마다 자기 클레임을 줍니다(resourceClaimTemplateName)`,
    },
    claimMissing: {
      en: (p: Who & Command) =>
        `the pod's resource claim or device class is missing, being allocated or being deleted (${p.who}): check ${p.command}`,
      ko: (p: Who & Command) =>
        `파드의 리소스 클레임이나 장치 클래스가 없거나, 할당 중이거나, 삭제 중입니다(${p.who}): ${p.command}로 확인합니다`,
    },
    unknownReason: {
      en: (p: N & { reason: string }) =>
        `${verb(p.count, 'fails', 'fail')} "${p.reason}": no change known for it; see the scheduler plugin that reports it`,
      ko: (p: N & { reason: string }) =>
        `노드 ${p.count}개가 실패한 이유는 "${p.reason}"입니다: 알려진 조치가 없습니다. 이 이유를 보고하는 스케줄러 플러그인을 확인합니다`,
    },
    // After eviction (explain-scheduling-advice.ts afterEvictionWords).
    alsoNeedsDevice: {
      en: () =>
        'a free matching device there (claims of any namespace may hold one); or add a node that has both',
      ko: () =>
        '그곳에 맞는 빈 장치(어느 네임스페이스의 클레임이든 잡고 있을 수 있습니다)도 필요합니다. 아니면 둘 다 있는 노드를 추가합니다',
    },
    alsoNeedsFixes: {
      en: () => 'what those reasons name to be fixed there',
      ko: () => '그 이유들이 가리키는 문제도 그곳에서 고쳐야 합니다',
    },
    stillFailsExact: {
      en: (p: Eviction & Scope) => {
        const one = p.one;
        const which = one ? 'that node' : p.all ? 'those nodes' : 'some of them';
        return (
          `; but with lower-priority pods evicted there, the scheduler's preemption check still fails ${which} (${p.said}), ` +
          `so freeing ${p.what} alone does not open ${one ? 'it' : 'them'}: ${one ? 'it' : 'they'} also need${one ? 's' : ''} ${p.alsoNeeded}`
        );
      },
      ko: (p: Eviction & Scope) => {
        const which = p.one ? '그 노드' : p.all ? '그 노드들' : '그중 일부 노드';
        return `; 그러나 그곳에서 우선순위가 낮은 파드를 축출해도 스케줄러의 선점 검사는 ${which}에서 여전히 실패합니다(${p.said}). ${p.what}만 비워서는 열리지 않습니다: ${p.alsoNeeded}`;
      },
    },
    stillFailsSome: {
      en: (p: Eviction & { tried: string }) =>
        `; the scheduler's preemption check, with lower-priority pods evicted, still fails some of the nodes counted for ${p.tried} (${p.said}), so freeing ${p.what} alone may not open them: they may also need ${p.alsoNeeded}`,
      ko: (p: Eviction & { tried: string }) =>
        `; 우선순위가 낮은 파드를 축출해도 스케줄러의 선점 검사는 ${p.tried} 이유로 센 노드 중 일부에서 여전히 실패합니다(${p.said}). ${p.what}만 비워서는 열리지 않을 수 있습니다: ${p.alsoNeeded}`,
    },
    // How the reasons combine (adviseScheduling's notes).
    aborted: {
      en: (p: { plugin: string }) =>
        `The scheduler stopped with an error from its ${p.plugin} plugin instead of judging the nodes: no node was counted, and it retries the pod (SchedulerError) until the error is gone.`,
      ko: (p: { plugin: string }) =>
        `스케줄러가 노드를 판정하지 않고 ${p.plugin} 플러그인의 오류로 멈췄습니다. 센 노드는 없으며, 오류가 사라질 때까지 파드를 다시 시도합니다(SchedulerError).`,
    },
    sawNoNodes: phrase(
      'The scheduler saw no nodes: add nodes, or check that they registered and are not all deleted.',
      '스케줄러가 본 노드가 없습니다. 노드를 추가하거나, 노드가 등록되어 있고 모두 삭제되지는 않았는지 확인합니다.',
    ),
    countless: phrase(
      'A reason without a node count applies to every node: nothing else opens a node until it is fixed.',
      '노드 수가 없는 이유는 모든 노드에 해당합니다. 그 이유를 고치기 전에는 다른 무엇을 바꿔도 노드가 열리지 않습니다.',
    ),
    hiddenBehindFirst: {
      en: (p: { hidden: string }) =>
        `Each node is counted once, for the first filter that rejected it; the preemption part, which re-runs the filters with lower-priority pods evicted, shows more on the nodes it tried (${p.hidden}): fixing the first reason alone does not open them.`,
      ko: (p: { hidden: string }) =>
        `노드마다 처음 거부한 필터 하나로만 셉니다. 우선순위가 낮은 파드를 축출한 채 필터를 다시 돌리는 선점 부분은 시도한 노드에서 이유를 더 보여 줍니다(${p.hidden}). 첫 이유만 고쳐서는 그 노드가 열리지 않습니다.`,
    },
    oneReasonEach: {
      en: (p: { total: number }) =>
        `The counts add up to the ${p.total} nodes, so each node fails for one reason only: fixing a reason opens the nodes it counts.`,
      ko: (p: { total: number }) =>
        `수를 더하면 노드 ${p.total}개와 같으므로 노드마다 실패 이유는 하나뿐입니다. 이유 하나를 고치면 그 이유로 센 노드가 열립니다.`,
    },
    severalReasons: {
      en: (p: { total: number }) =>
        `The counts add up to more than the ${p.total} nodes, so some nodes fail for several reasons: a node opens only when all of its reasons are fixed.`,
      ko: (p: { total: number }) =>
        `수를 더하면 노드 ${p.total}개보다 많으므로 일부 노드는 여러 이유로 실패합니다. 노드는 그 이유를 모두 고쳐야 열립니다.`,
    },
    neverPreempts: phrase(
      'The pod never preempts others (preemptionPolicy: Never): evicting lower-priority pods is not an option.',
      '이 파드는 다른 파드를 선점하지 않습니다(preemptionPolicy: Never). 우선순위가 낮은 파드를 축출하는 방법은 쓸 수 없습니다.',
    ),
    noVictims: {
      en: (p: N & Command) =>
        `Preemption found no lower-priority pod to evict on ${nodes(p.count)}: what holds it there has the same or a higher priority, often the pod's own older replica. If so, the rollout waits for itself: ${p.command} proves that surge deadlock and offers maxSurge 0.`,
      ko: (p: N & Command) =>
        `선점은 노드 ${p.count}개에서 축출할 낮은 우선순위 파드를 찾지 못했습니다. 그곳의 자원을 잡은 파드는 우선순위가 같거나 높으며, 흔히 같은 워크로드의 이전 레플리카입니다. 그렇다면 롤아웃이 자기 자신을 기다리는 것입니다: ${p.command} 명령이 그 surge 교착을 증명하고 maxSurge 0을 제안합니다.`,
    },
    // The parse, as text (explain-scheduling.ts renderParsed and renderAll).
    pasteHint: phrase(
      'Paste FailedScheduling messages (one per line), then press Ctrl-D.',
      'FailedScheduling 메시지를 붙여 넣고(한 줄에 하나씩) Ctrl-D를 누릅니다.',
    ),
    messageOf: {
      en: (p: { index: number; of: number; where: string }) => `Message ${p.index} of ${p.of} (${p.where}):`,
      ko: (p: { index: number; of: number; where: string }) =>
        `메시지 ${p.of}개 중 ${p.index}번째(${p.where}):`,
    },
    atLine: {
      en: (p: { line: number }) => `line ${p.line}`,
      ko: (p: { line: number }) => `${p.line}번째 줄`,
    },
    atLines: {
      en: (p: { lines: string; count: number }) => `lines ${p.lines}: the same message ${p.count} times`,
      ko: (p: { lines: string; count: number }) => `${p.lines}번째 줄: 같은 메시지 ${p.count}번`,
    },
    whatWouldChange: phrase('What would change the outcome:', '결과를 바꾸는 방법:'),
    abortedHeader: {
      en: (p: { plugin: string }) =>
        `The scheduler stopped with an error from its ${p.plugin} plugin before judging any node (no node count):`,
      ko: (p: { plugin: string }) =>
        `스케줄러가 노드를 판정하기 전에 ${p.plugin} 플러그인의 오류로 멈췄습니다(노드 수 없음):`,
    },
    noNodesConsidered: phrase(
      'The cluster had no nodes the scheduler could consider (0 nodes).',
      '클러스터에 스케줄러가 고려할 노드가 없었습니다(노드 0개).',
    ),
    noneFit: {
      en: (p: { total: number }) => `None of the ${p.total} node(s) could take the pod:`,
      ko: (p: { total: number }) => `노드 ${p.total}개 중 어느 노드도 파드를 받을 수 없었습니다:`,
    },
    alsoReported: {
      en: (p: { note: string }) => `Also reported: ${p.note}`,
      ko: (p: { note: string }) => `함께 보고됨: ${p.note}`,
    },
    noPreemption: phrase(
      'No preemption result in the message (older scheduler, or preemption disabled).',
      '메시지에 선점 결과가 없습니다(오래된 스케줄러이거나 선점이 꺼져 있습니다).',
    ),
    preemptionSaid: {
      en: (p: { text: string }) => `Preemption: ${p.text}.`,
      ko: (p: { text: string }) => `선점: ${p.text}.`,
    },
    preemptionConsidered: {
      en: (p: { total: number }) =>
        `Preemption (evicting lower-priority pods) considered ${p.total} node(s):`,
      ko: (p: { total: number }) => `선점(우선순위가 낮은 파드 축출)이 고려한 노드 ${p.total}개:`,
    },
    columnNodes: phrase('NODES', '노드 수'),
    columnReason: phrase('REASON', '이유'),
    columnCategory: phrase('CATEGORY', '분류'),
  }),
  {
    nodes: [{ count: 1 }, { count: 3 }],
    everyNode: [{}],
    theResource: [{}],
    thePort: [{}],
    that: [{}],
    resourceNamed: [{ resource: 'nvidia.com/gpu' }],
    lacksScalar: [
      { count: 1, resource: 'cpu' },
      { count: 3, resource: 'memory' },
    ],
    lacksExtended: [{ count: 2, resource: 'nvidia.com/gpu' }],
    podLimit: [{ count: 6 }],
    notNamedNode: [{ count: 2 }],
    lacksTopologyLabel: [{ count: 1 }],
    failsSelector: [{ count: 9 }],
    taintNamed: [{ count: 2, taint: 'dedicated=gpu' }],
    taintUnnamed: [{ count: 1, command: 'kubectl describe node' }],
    cordoned: [{ count: 1, command: 'kubectl uncordon NODE' }],
    notReady: [{ count: 2 }],
    hostPort: [{ count: 3 }],
    claimUnbound: [{ who: '3 nodes' }],
    attachLimit: [{ count: 1 }],
    noFreeVolume: [{ count: 2 }],
    volumePinned: [{ count: 4 }],
    volumeConflict: [{ count: 1 }],
    spread: [{ count: 3 }],
    antiAffinity: [{ count: 3 }],
    podAffinity: [{ count: 2 }],
    noFreeDevice: [{ count: 2 }],
    allocationTimedOut: [{ count: 1 }],
    claimOnOtherNode: [{ count: 2 }],
    invalidPool: [{ count: 1, command: 'kubectl get resourceslices' }],
    claimReserved: [{ who: 'every node, checked once for the pod' }],
    claimMissing: [{ who: '2 nodes', command: 'kubectl get resourceclaims' }],
    unknownReason: [{ count: 1, reason: 'node(s) had volume node affinity conflict' }],
    alsoNeedsDevice: [{}],
    alsoNeedsFixes: [{}],
    stillFailsExact: [
      {
        one: true,
        all: true,
        said: '1 cannot allocate all claims',
        what: 'cpu',
        alsoNeeded: 'a free device',
      },
      { one: false, all: true, said: '2 Insufficient memory', what: 'the port', alsoNeeded: 'a fix' },
      { one: false, all: false, said: '1 Too many pods', what: 'that', alsoNeeded: 'a fix' },
    ],
    stillFailsSome: [
      {
        tried: 'Insufficient cpu, Too many pods',
        said: '1 cannot allocate all claims',
        what: 'cpu',
        alsoNeeded: 'a free device',
      },
    ],
    aborted: [{ plugin: 'DynamicResources' }],
    sawNoNodes: [{}],
    countless: [{}],
    hiddenBehindFirst: [{ hidden: '1 cannot allocate all claims' }],
    oneReasonEach: [{ total: 10 }],
    severalReasons: [{ total: 4 }],
    neverPreempts: [{}],
    noVictims: [{ count: 2, command: 'rollout-doctor diagnose deployment/NAME' }],
    pasteHint: [{}],
    messageOf: [{ index: 1, of: 2, where: 'line 3' }],
    atLine: [{ line: 3 }],
    atLines: [{ lines: '1, 4', count: 2 }],
    whatWouldChange: [{}],
    abortedHeader: [{ plugin: 'DynamicResources' }],
    noNodesConsidered: [{}],
    noneFit: [{ total: 5 }],
    alsoReported: [{ note: 'no nodes available to schedule pods' }],
    noPreemption: [{}],
    preemptionSaid: [{ text: 'not eligible due to preemptionPolicy=Never' }],
    preemptionConsidered: [{ total: 3 }],
    columnNodes: [{}],
    columnReason: [{}],
    columnCategory: [{}],
  },
);
