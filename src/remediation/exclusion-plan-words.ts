/**
 * An exclude-node plan's own words beyond its first sentence (plan-words.ts holds the
 * rest of the plan catalogue and registers these with it): a DaemonSet's exclusion,
 * what a StatefulSet's claims do, and the room left on the nodes that stay eligible.
 * Node names, claims and commands are parameters, kept as written.
 */
import { defineMessages, translate } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { exclusionWords } from './exclusion-words.js';
import type { NodeAgent, PlanParams } from './plan-said.js';

/** How long an exclusion lasts, in `lang` (absent: until someone removes it). */
export const lastsFor = (ttl: string | undefined, lang: Lang): string =>
  ttl === undefined
    ? translate(exclusionWords, lang, 'lastsUntilRemoved')
    : translate(exclusionWords, lang, 'lasts', { ttl });

/** What a node loses without the DaemonSet's pod, by what the pod does there. */
export const NODE_AGENT: Record<NodeAgent, Record<Lang, string>> = {
  cni: {
    en: 'it is a CNI plugin (it mounts the CNI configuration): pods created on a node without it get no network, so the node is unusable for new pods',
    ko: 'CNI 플러그인입니다(CNI 설정을 마운트합니다): 이 플러그인이 없는 노드에 만든 파드는 네트워크를 받지 못하므로, 그 노드는 새 파드에 쓸 수 없습니다',
  },
  csi: {
    en: "it is a CSI node plugin (it registers with the kubelet's plugin registry): volumes of its driver no longer mount on a node without it",
    ko: 'CSI 노드 플러그인입니다(kubelet의 플러그인 레지스트리에 등록합니다): 이 플러그인이 없는 노드에서는 그 드라이버의 볼륨이 더 이상 마운트되지 않습니다',
  },
  device: {
    en: "it is a device plugin (it registers in the kubelet's device-plugins directory): a node without it stops offering its devices, so pods that request them cannot start there",
    ko: '장치 플러그인입니다(kubelet의 장치 플러그인 디렉터리에 등록합니다): 이 플러그인이 없는 노드는 장치를 더 이상 제공하지 않으므로, 장치를 요청하는 파드가 그 노드에서 시작하지 못합니다',
  },
};

/** The node agent's role in `lang` (template-facts.ts nodeAgentOf says which). */
export const nodeAgentWords = (agent: NodeAgent, lang: Lang): string => NODE_AGENT[agent][lang];

type Daemon = PlanParams['excludeDaemon'];

/**
 * A DaemonSet's exclusion: its pods there go, none start elsewhere; what the node loses
 * (`agent`), then the rollout. `counted`: the nodes that keep it, where not every node
 * was read (the builder's English only).
 */
export const daemonImpactEn = (
  p: Daemon,
  agent: NodeAgent | undefined,
  counted = 'eligible node(s) keep it',
): string => {
  const one = p.count === 1;
  return (
    `${p.name} stops running on ${p.nodes}: the DaemonSet controller deletes its pod${one ? '' : 's'} there and starts none elsewhere; ` +
    `${p.after} of ${p.before} ${counted}. ` +
    (agent
      ? `Losing it matters: ${NODE_AGENT[agent].en}. Cordon or repair the excluded node${one ? '' : 's'} rather than leave ${one ? 'it' : 'them'} serving without it. `
      : 'Whatever it does on those nodes (logs, metrics, a node service) stops there until the exclusion is removed. ') +
    'Changing the pod template also starts a rolling update that replaces its pod on every other node. Remove the exclusion once the node is repaired (undo restores the previous affinity). ' +
    lastsFor(p.ttl, 'en')
  );
};
const daemonKo = (p: Daemon, agent: NodeAgent | undefined): string =>
  `${p.name} 파드는 ${p.nodes} 노드에서 더 이상 실행되지 않습니다: DaemonSet 컨트롤러가 그 노드의 파드를 삭제하고 다른 노드에 새로 만들지 않습니다. ` +
  `배치할 수 있는 노드 ${p.before}개 중 ${p.after}개에는 그대로 남습니다. ` +
  (agent
    ? `이 파드가 없으면 문제가 됩니다: ${NODE_AGENT[agent].ko}. 제외한 노드를 이 파드 없이 서비스하게 두지 말고 cordon하거나 고치세요. `
    : '로그, 메트릭, 노드 서비스처럼 이 파드가 그 노드에서 하던 일은 제외를 해제할 때까지 멈춥니다. ') +
  '파드 템플릿이 바뀌므로 롤링 업데이트도 시작되어 다른 모든 노드의 파드를 교체합니다. 노드를 고친 뒤에는 제외를 해제하세요(되돌리면 이전 nodeAffinity로 돌아갑니다). ' +
  lastsFor(p.ttl, 'ko');

/** What was not read on the nodes whose room is unknown, worded as what it is. */
type Unread = PlanParams['roomNoneRead'];
const unreadEn = (p: Unread): string =>
  p.dump
    ? `other namespaces' pods on ${p.unread} are not in the dump`
    : p.capped !== undefined
      ? `the pods on ${p.unread} were not read (${p.capped}, past the cap)`
      : p.forbidden
        ? `the pods on ${p.unread} could not be read (forbidden)`
        : `the pods on ${p.unread} were not read`;
const unreadKo = (p: Unread): string =>
  p.dump
    ? `${p.unread} 노드에 있는 다른 네임스페이스의 파드는 덤프에 없습니다`
    : p.capped !== undefined
      ? `${p.unread} 노드의 파드는 읽지 않았습니다(${p.capped}, 상한 초과)`
      : p.forbidden
        ? `${p.unread} 노드의 파드는 권한이 없어 읽지 못했습니다`
        : `${p.unread} 노드의 파드는 읽지 않았습니다`;

/** "node-01 has room for 2 of 3 replica(s) (…)", the nodes read after the exclusion. */
type Room = PlanParams['roomOthersUnread'];
const roomEn = (p: Room): string =>
  `After the exclusion ${p.nodes} ha${p.read === 1 ? 's' : 've'} room for ${p.fits} of ${p.replicas} replica(s) (other workloads' requests counted)`;
const roomKo = (p: Room): string =>
  `제외한 뒤 ${p.nodes} 노드에는 레플리카 ${p.replicas}개 중 ${p.fits}개가 들어갈 자리가 있습니다(다른 워크로드의 요청 포함)`;

/** A node added later with the attributes is not kept off (an exclusion by name). */
const laterEn = (attributes: readonly string[]): string =>
  `a node added later with ${attributes.join(' and ')} is not kept off, and its pods will crash there.`;
const laterKo = (attributes: readonly string[]): string =>
  `나중에 ${attributes.join(', ')} 값으로 추가되는 노드는 제외되지 않으므로, 그 노드에서도 파드가 실패합니다.`;

export const EXCLUSION_PLAN_WORDS = defineMessages({
  sharedAlso: {
    en: (p: PlanParams['sharedAlso']) =>
      `${p.sharing} share${p.one ? 's' : ''} ${p.attributes.join(' and ')} with ${p.bad}, where the pods crash, and run${p.one ? 's' : ''} no pod of this template yet: once the rollout reaches ${p.one ? 'it' : 'them'} the pods crash there too, so ${p.one ? 'it is' : 'they are'} excluded as well.`,
    ko: (p: PlanParams['sharedAlso']) =>
      `${p.sharing} 노드는 파드가 실패하는 ${p.bad} 노드와 같은 ${p.attributes.join(', ')} 값을 가지고 있고, 아직 이 템플릿의 파드가 없습니다: 롤아웃이 그 노드에 이르면 거기서도 파드가 실패하므로 함께 제외합니다.`,
  },
  sharedNamedLabel: {
    en: (p: PlanParams['sharedNamedLabel']) =>
      `the exclusion names the nodes (a label exclusion is not admitted here, or the label holds other nodes too): ${laterEn(p.attributes)}`,
    ko: (p: PlanParams['sharedNamedLabel']) =>
      `제외는 노드를 이름으로 지정합니다(여기서는 레이블로 제외할 수 없거나, 그 레이블이 다른 노드에도 있습니다): ${laterKo(p.attributes)}`,
  },
  sharedNamedField: {
    en: (p: PlanParams['sharedNamedField']) =>
      `${p.fields.join(' and ')} ${p.fields.length === 1 ? 'is' : 'are'} not a node label (the node's status.nodeInfo or conditions), so the exclusion names the nodes: ${laterEn(p.attributes)}`,
    ko: (p: PlanParams['sharedNamedField']) =>
      `${p.fields.join(', ')}은(는) 노드 레이블이 아니므로(노드의 status.nodeInfo 또는 conditions) 제외는 노드를 이름으로 지정합니다: ${laterKo(p.attributes)}`,
  },
  exclusionCarried: {
    en: (p: PlanParams['exclusionCarried']) =>
      `The earlier exclusion of ${p.nodes}, which ends at ${p.until}, is carried on into this one record: the record ends at the later of that time and this exclusion's end, so neither ends early (its removal ends both).`,
    ko: (p: PlanParams['exclusionCarried']) =>
      `앞서 설정한 ${p.nodes} 노드 제외는 ${p.until}에 끝납니다. 이 제외와 한 기록으로 합치므로, 그 시각과 이번 제외의 종료 시각 중 늦은 쪽에 끝나며 어느 쪽도 일찍 끝나지 않습니다(해제하면 둘 다 끝납니다).`,
  },
  exclusionCarriedNever: {
    en: (p: PlanParams['exclusionCarriedNever']) =>
      `The earlier exclusion of ${p.nodes}, which lasts until someone removes it, is carried on into this one record: the record then lasts until removed too, whatever duration is chosen (Undo or a removal ends both).`,
    ko: (p: PlanParams['exclusionCarriedNever']) =>
      `앞서 설정한 ${p.nodes} 노드 제외는 직접 해제할 때까지 유지됩니다. 이 제외와 한 기록으로 합치므로, 선택한 기간과 관계없이 기록 전체가 해제할 때까지 유지됩니다(해제하면 둘 다 끝납니다).`,
  },
  sharedSuspects: {
    en: (p: PlanParams['sharedSuspects']) =>
      `Only the crashing node${p.badOne ? '' : 's'} ${p.bad} ${p.badOne ? 'is' : 'are'} excluded. ${p.suspects} ${p.suspectsOne ? 'has' : 'have'} ${p.attributes.join(' and ')} too and run${p.suspectsOne ? 's' : ''} no pod of this template yet: a suspicion one crashing node cannot prove, so ${p.suspectsOne ? 'it stays' : 'they stay'} eligible; if pods crash there as well, exclude ${p.suspectsOne ? 'it' : 'them'} too.`,
    ko: (p: PlanParams['sharedSuspects']) =>
      `파드가 실패하는 ${p.bad} 노드만 제외합니다. ${p.suspects} 노드도 같은 ${p.attributes.join(', ')} 값을 가지고 있지만 아직 이 템플릿의 파드가 없습니다: 실패하는 노드 하나로는 증명할 수 없는 의심이므로 배치 대상으로 남겨 둡니다. 그 노드에서도 파드가 실패하면 함께 제외하세요.`,
  },
  excludeDaemon: {
    en: (p: Daemon) => daemonImpactEn(p, undefined),
    ko: (p: Daemon) => daemonKo(p, undefined),
  },
  excludeDaemonCni: {
    en: (p: PlanParams['excludeDaemonCni']) => daemonImpactEn(p, 'cni'),
    ko: (p: PlanParams['excludeDaemonCni']) => daemonKo(p, 'cni'),
  },
  excludeDaemonCsi: {
    en: (p: PlanParams['excludeDaemonCsi']) => daemonImpactEn(p, 'csi'),
    ko: (p: PlanParams['excludeDaemonCsi']) => daemonKo(p, 'csi'),
  },
  excludeDaemonDevice: {
    en: (p: PlanParams['excludeDaemonDevice']) => daemonImpactEn(p, 'device'),
    ko: (p: PlanParams['excludeDaemonDevice']) => daemonKo(p, 'device'),
  },
  daemonDeleted: {
    en: (p: PlanParams['daemonDeleted']) =>
      `The pods on ${p.nodes} are deleted, not moved: a DaemonSet runs exactly one pod per node it selects.`,
    ko: (p: PlanParams['daemonDeleted']) =>
      `${p.nodes} 노드의 파드는 옮겨지지 않고 삭제됩니다: DaemonSet은 고른 노드마다 파드를 정확히 하나씩 실행합니다.`,
  },
  statefulClaims: {
    en: (p: PlanParams['statefulClaims']) =>
      `The pods of a StatefulSet keep their claims (${p.claims}${p.more ? ', …' : ''}) when they move: a claim bound to a node-local volume (a local PersistentVolume, node-attached storage, a disk of another zone) holds its pod to ${p.nodes}, so after the exclusion that pod stays Pending until its data moves. Check the PersistentVolumes' nodeAffinity first (${p.command}).`,
    ko: (p: PlanParams['statefulClaims']) =>
      `StatefulSet 파드는 옮겨 가도 자기 클레임(${p.claims}${p.more ? ', …' : ''})을 그대로 가집니다: 노드 로컬 볼륨(로컬 PersistentVolume, 노드에 붙은 스토리지, 다른 존의 디스크)에 바인딩된 클레임은 파드를 ${p.nodes} 노드에 묶어 두므로, 제외한 뒤 그 파드는 데이터를 옮길 때까지 Pending으로 남습니다. 먼저 PersistentVolume의 nodeAffinity를 확인하세요(${p.command}).`,
  },
  roomShort: {
    en: (p: PlanParams['roomShort']) =>
      `After the exclusion the nodes that stay eligible have room for ${p.fits} of ${p.replicas} replica(s) (other workloads' requests counted): ${p.replicas - p.fits} will stay Pending until nodes are added.`,
    ko: (p: PlanParams['roomShort']) =>
      `제외한 뒤 배치할 수 있는 노드에는 레플리카 ${p.replicas}개 중 ${p.fits}개가 들어갈 자리만 있습니다(다른 워크로드의 요청 포함): ${p.replicas - p.fits}개는 노드를 추가할 때까지 Pending으로 남습니다.`,
  },
  roomOthersUnread: {
    en: (p: Room) =>
      `${roomEn(p)}; other nodes the template may use were not read, so the other ${p.replicas - p.fits} may fit there or stay Pending.`,
    ko: (p: Room) =>
      `${roomKo(p)}. 이 템플릿이 쓸 수 있는 다른 노드는 읽지 않았으므로, 나머지 ${p.replicas - p.fits}개는 그곳에 들어가거나 Pending으로 남을 수 있습니다.`,
  },
  roomPartlyRead: {
    en: (p: PlanParams['roomPartlyRead']) => `${roomEn(p)}; ${unreadEn(p)}, so the room there is unknown.`,
    ko: (p: PlanParams['roomPartlyRead']) =>
      `${roomKo(p)}. ${unreadKo(p)}. 그래서 그곳의 자리는 알 수 없습니다.`,
  },
  roomNoneRead: {
    en: (p: Unread) => {
      const words = unreadEn(p);
      return `${words.charAt(0).toUpperCase()}${words.slice(1)}: whether the ${p.replicas} replica(s) fit there after the exclusion is unknown.`;
    },
    ko: (p: Unread) =>
      `${unreadKo(p)}. 그래서 제외한 뒤 레플리카 ${p.replicas}개가 그곳에 들어갈지는 알 수 없습니다.`,
  },
});

const DAEMON_SAMPLES: Daemon[] = [
  { name: 'node-exporter', nodes: 'node-05', count: 1, after: 5, before: 6, ttl: '24h' },
  { name: 'calico-node', nodes: 'node-05, node-07', count: 2, after: 4, before: 6 },
];

/** Sample parameters of each message above, for the catalogue's completeness and glossary tests. */
export const EXCLUSION_PLAN_SAMPLES = {
  sharedAlso: [
    { sharing: 'node-07', one: true, attributes: ['kernelVersion 6.8.0-1009-aws'], bad: 'node-05' },
    {
      sharing: 'node-07, node-09',
      one: false,
      attributes: ['example.com/pool=gpu-b', 'osImage Ubuntu 24.04'],
      bad: 'node-05, node-06',
    },
  ],
  sharedNamedLabel: [{ attributes: ['example.com/pool=gpu-b'] }],
  sharedNamedField: [
    { fields: ['kernelVersion'], attributes: ['kernelVersion 6.8.0-1009-aws'] },
    {
      fields: ['kernelVersion', 'containerRuntimeVersion'],
      attributes: ['kernelVersion 6.8.0', 'containerRuntimeVersion containerd://2.0.0'],
    },
  ],
  exclusionCarried: [{ nodes: 'node-b', until: '2026-11-27T16:00:00Z' }],
  exclusionCarriedNever: [{ nodes: 'node-b, node-c' }],
  sharedSuspects: [
    {
      bad: 'node-05',
      badOne: true,
      suspects: 'node-07',
      suspectsOne: true,
      attributes: ['topology.kubernetes.io/zone=zone-b'],
    },
    {
      bad: 'node-05, node-06',
      badOne: false,
      suspects: 'node-07, node-09',
      suspectsOne: false,
      attributes: ['kernelVersion 6.8.0'],
    },
  ],
  excludeDaemon: DAEMON_SAMPLES,
  excludeDaemonCni: DAEMON_SAMPLES,
  excludeDaemonCsi: DAEMON_SAMPLES,
  excludeDaemonDevice: DAEMON_SAMPLES,
  daemonDeleted: [{ nodes: 'node-05' }],
  statefulClaims: [
    {
      claims: 'data-orders-db-2',
      more: false,
      nodes: 'node-05',
      command: 'kubectl get pv -o custom-columns=NAME:.metadata.name',
    },
    {
      claims: 'data-db-0, logs-db-0, data-db-1, logs-db-1',
      more: true,
      nodes: 'node-05, node-07',
      command: 'kubectl get pv',
    },
  ],
  roomShort: [{ fits: 2, replicas: 3 }],
  roomOthersUnread: [
    { nodes: 'node-01', read: 1, fits: 1, replicas: 3 },
    { nodes: 'node-01, node-02', read: 2, fits: 2, replicas: 3 },
  ],
  roomPartlyRead: [
    { nodes: 'node-01', read: 1, fits: 1, replicas: 3, unread: 'node-02', dump: true, forbidden: false },
    {
      nodes: 'node-01, node-02',
      read: 2,
      fits: 2,
      replicas: 4,
      unread: 'node-03',
      dump: false,
      forbidden: false,
      capped: 'pods past the first 500',
    },
    { nodes: 'node-01', read: 1, fits: 0, replicas: 2, unread: 'node-02', dump: false, forbidden: true },
  ],
  roomNoneRead: [
    { replicas: 3, unread: 'node-02, node-03', dump: false, forbidden: false },
    { replicas: 2, unread: 'node-02', dump: true, forbidden: false },
    { replicas: 2, unread: 'node-04', dump: false, forbidden: true },
  ],
};
