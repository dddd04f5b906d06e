/**
 * More of the sentences the remediation writes in English into its data, in every
 * language (i18n/sentences.ts): why a plan is not offered, and plan warnings. Each
 * entry's comment names the engine code that writes its English.
 */
import { defineSentences } from '../i18n/sentences.js';

type Pod = { pod: string };
type Label = { label: string };

defineSentences(
  'plan-sentences',
  {
    // ---- A plan not offered: why (notOffered[].reason; work today) ----
    // The label: src/engine/plan-proof.ts:375-378 planLabel() quotes the summary of
    // src/remediation/builders/strategy-plans.ts:80 (no restart), without its final '.'.
    labelOldFirst: {
      en: (p: { unavailable: string }) =>
        `"Let old pods go first: RollingUpdate maxSurge 0, maxUnavailable ${p.unavailable} (no restart)"`,
      ko: (p: { unavailable: string }) =>
        `"기존 파드를 먼저 내립니다: RollingUpdate maxSurge 0, maxUnavailable ${p.unavailable}(재시작 없음)"`,
    },
    // src/engine/plan-proof.ts:248 (pods find no room)
    stillStopsNoRoom: {
      en: (p: Label & { count: string }) =>
        `${p.label}: run forward, the rollout still stops (${p.count} new pod(s) find no room), so it finishes nothing`,
      ko: (p: Label & { count: string }) =>
        `${p.label}: 미리 실행해 보면 롤아웃이 여전히 멈춥니다(새 파드 ${p.count}개가 들어갈 자리 없음). 이 조치로는 롤아웃이 끝나지 않습니다`,
    },
    // src/engine/plan-proof.ts:248 (the quota refuses)
    stillStopsQuota: {
      en: (p: Label) =>
        `${p.label}: run forward, the rollout still stops (the quota refuses the next new pod), so it finishes nothing`,
      ko: (p: Label) =>
        `${p.label}: 미리 실행해 보면 롤아웃이 여전히 멈춥니다(ResourceQuota가 다음 새 파드를 거부). 이 조치로는 롤아웃이 끝나지 않습니다`,
    },
    // src/engine/plan-proof.ts:245
    neverReadyNodesDown: {
      en: (p: Label & { nodes: string }) =>
        `${p.label}: run forward, the new pods on ${p.nodes} never become Ready (the kubelet there does not report: the node is NotReady or unreachable), so it finishes nothing`,
      ko: (p: Label & { nodes: string }) =>
        `${p.label}: 미리 실행해 보면 ${p.nodes} 노드의 새 파드는 Ready가 되지 않습니다(그 노드의 kubelet이 상태를 보고하지 않음: 노드가 Ready가 아니거나 연결할 수 없음). 이 조치로는 롤아웃이 끝나지 않습니다`,
    },
    // src/engine/plan-proof.ts:246
    neverReady: {
      en: (p: Label) =>
        `${p.label}: run forward, the new pods never become Ready (they fail on their own), so it finishes nothing`,
      ko: (p: Label) =>
        `${p.label}: 미리 실행해 보면 새 파드가 Ready가 되지 않습니다(파드 자체가 실패함). 이 조치로는 롤아웃이 끝나지 않습니다`,
    },
    // src/remediation/builders/delete-pods.ts:41
    pinnedToCrashingNodes: {
      en: (p: Pod & { volume: string }) =>
        `${p.pod} mounts volume ${p.volume}, which only the crashing nodes may use: its replacement comes back there, to the same crash`,
      ko: (p: Pod & { volume: string }) =>
        `파드(${p.pod})가 마운트하는 볼륨(${p.volume})은 크래시하는 노드에서만 쓸 수 있습니다. 대체 파드도 그 노드로 돌아가 똑같이 크래시합니다`,
    },
    // src/remediation/builders/exclude-node.ts:188
    pinnedNoNodeLeft: {
      en: (p: Pod & { volume: string; nodes: string }) =>
        `${p.pod} mounts volume ${p.volume}, which no node left after the exclusion may use: its replacement would stay Pending for good (volume node affinity conflict); repair ${p.nodes} or move its data first`,
      ko: (p: Pod & { volume: string; nodes: string }) =>
        `파드(${p.pod})가 마운트하는 볼륨(${p.volume})은 제외한 뒤 남는 어느 노드에서도 쓸 수 없습니다. 대체 파드는 계속 Pending 상태로 남습니다(볼륨의 노드 어피니티 충돌). 먼저 ${p.nodes} 노드를 고치거나 데이터를 옮기세요`,
    },

    // ---- A plan below its PodDisruptionBudget (impact and warning; work today) ----
    // src/engine/proved-offer.ts:85 + :94 (first sentence of the impact)
    outageBelowBudget: {
      en: (p: { target: string; lowest: string; below: string; budget: string; rule: string; min: string }) =>
        `Outage below the disruption budget: it takes ${p.target} to ${p.lowest} serving, ${p.below} below its PodDisruptionBudget ${p.budget} (${p.rule}: ${p.min} must serve).`,
      ko: (p: { target: string; lowest: string; below: string; budget: string; rule: string; min: string }) =>
        `PodDisruptionBudget 아래로 내려가는 서비스 중단: ${p.target}의 서비스 중인 파드가 ${p.lowest}개로 줄어 PodDisruptionBudget ${p.budget}(${p.rule}: ${p.min}개는 서비스해야 함)보다 ${p.below}개 적습니다.`,
    },
    // src/engine/proved-offer.ts:96
    noPlanWithinBudget: {
      en: (p: { budget: string; below: string }) =>
        `No plan reaches the goal within PodDisruptionBudget ${p.budget}: this one goes ${p.below} below it. The budget only guards evictions; the controller will not stop it.`,
      ko: (p: { budget: string; below: string }) =>
        `PodDisruptionBudget ${p.budget} 안에서 목표에 이르는 조치는 없습니다. 이 조치는 하한보다 ${p.below}개 아래로 내려갑니다. PodDisruptionBudget은 축출만 막으므로 컨트롤러는 이 조치를 멈추지 않습니다.`,
    },
  },
  {
    labelOldFirst: [{ unavailable: '1' }],
    stillStopsNoRoom: [{ label: '"Let old pods go first"', count: '1' }],
    stillStopsQuota: [{ label: '"Let old pods go first"' }],
    neverReadyNodesDown: [{ label: '"Let old pods go first"', nodes: 'node-c' }],
    neverReady: [{ label: '"Let old pods go first"' }],
    pinnedToCrashingNodes: [{ pod: 'db-1', volume: 'local-pv-1' }],
    pinnedNoNodeLeft: [{ pod: 'db-1', volume: 'local-pv-1', nodes: 'node-a' }],
    outageBelowBudget: [
      {
        target: 'deployment/trk',
        lowest: '0',
        below: '1',
        budget: 'pdb-all',
        rule: 'maxUnavailable 0',
        min: '1',
      },
    ],
    noPlanWithinBudget: [{ budget: 'pdb-all', below: '1' }],
  },
);
