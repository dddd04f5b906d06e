/**
 * A plan's impact as data, said in the reader's language (the text report, the chat
 * result and its thread). A builder that words its impact here keeps `impact` as the
 * English of the same words (`impactInWords(said, 'en')`); a reader gets the words in
 * their language only while they still say exactly that English, so a later step that
 * rewrites `impact` (an outage below a disruption budget, proved-offer.ts) is shown as
 * written, never a translation of what it said before.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import {
  EXCLUSION_PLAN_SAMPLES,
  EXCLUSION_PLAN_WORDS,
  lastsFor as lasts,
  NODE_AGENT,
} from './exclusion-plan-words.js';
import type { Lead, NodeAgent, PlanParams, PlanSaid } from './plan-said.js';
import { remadePods, type RemadeBy } from '../diagnosis/workloads/remade-words.js';
import { sentenceIn } from '../i18n/sentences.js';
import './sentences.js';

export type { NodeAgent, PlanSaid } from './plan-said.js';
export { nodeAgentWords } from './exclusion-plan-words.js';

const LEAD_EN = (p: Lead): string =>
  p.paused
    ? 'Nothing rolls out while the Deployment is paused; from the resume on, and in every later rollout'
    : p.restart
      ? 'Now and in every later rollout'
      : 'Nothing restarts now; in every later rollout';
const LEAD_KO = (p: Lead): string =>
  p.paused
    ? 'Deployment가 일시 중지된 동안에는 아무것도 롤아웃되지 않고, 재개한 뒤와 이후의 모든 롤아웃에서'
    : p.restart
      ? '지금과 이후의 모든 롤아웃에서'
      : '지금은 아무것도 재시작하지 않고, 이후의 모든 롤아웃에서';

/** An aborted update's impact, with how its pods go (abortScaleDown in builders/abort-rollout.ts). */
const ABORT_EN = (pods: string): string =>
  `The new version stops rolling out: ${pods}; the stable pods serve. The Rollout turns Degraded (RolloutAborted) and stays so until spec.template is reverted to the stable version or the update is retried.`;
const ABORT_KO = (pods: string): string =>
  `새 버전의 롤아웃이 멈춥니다: ${pods}. 안정 버전 파드가 서비스합니다. Rollout은 Degraded(RolloutAborted) 상태가 되고, spec.template을 안정 버전으로 되돌리거나 업데이트를 다시 시도할 때까지 그대로입니다.`;

/** An exclusion's first sentence: the nodes that stay eligible and those excluded. */
const excludedEn = (p: PlanParams['excludeHost']): string =>
  `${p.after} of ${p.before} eligible node(s) stay eligible: ${p.eligible}; ${p.excluded} excluded.`;
const excludedKo = (p: PlanParams['excludeHost']): string =>
  `배치할 수 있는 노드 ${p.before}개 중 ${p.after}개가 그대로 남습니다: ${p.eligible}. ${p.excluded} 노드는 제외합니다.`;
type TemplateChange = Pick<
  PlanParams['excludeHost'],
  'strategy' | 'replicas' | 'waits' | 'waitsOne' | 'onDelete'
>;
/**
 * What the template change does to the pods: a rollout that replaces every one, none
 * by itself (OnDelete), or none until the pods OrderedReady waits for are deleted.
 */
export const templateChangeEn = (p: TemplateChange): string => {
  const all = `every pod, ${p.replicas} replica(s), the healthy ones included`;
  const after = `(delete-pods: offered beside it, refused until the exclusion is in place, and by a diagnosis after it)`;
  if (p.onDelete && p.waits)
    return `Changing the pod template replaces no pod by itself (OnDelete): a pod takes the exclusion only when it is deleted, so ${p.waits} must be deleted after it ${after}.`;
  if (p.waits)
    return `Changing the pod template starts a new rollout (${p.strategy}), but the StatefulSet controller changes no pod while ${p.waits} ${p.waitsOne ? 'is' : 'are'} not Ready (OrderedReady: each pod, in ordinal order, must be Running and Ready first), so the exclusion takes effect only once ${p.waits} ${p.waitsOne ? 'is' : 'are'} deleted after it ${after}; then it replaces ${all}.`;
  return `Changing the pod template starts a new rollout (${p.strategy}) that replaces ${all}.`;
};
const templateChangeKo = (p: TemplateChange): string => {
  const all = `정상 파드를 포함한 모든 파드(레플리카 ${p.replicas}개)`;
  const after = `(delete-pods: 함께 제안되며 제외가 적용되기 전에는 거부됩니다. 적용한 뒤 다시 진단해도 제안됩니다)`;
  if (p.onDelete && p.waits)
    return `파드 템플릿을 바꿔도 파드는 저절로 교체되지 않습니다(OnDelete): 파드는 삭제될 때에만 제외를 반영하므로, 그 뒤에 ${p.waits} 파드를 삭제해야 합니다${after}.`;
  if (p.waits)
    return `파드 템플릿이 바뀌므로 새 롤아웃(${p.strategy})이 시작되지만, ${p.waits} 파드가 Ready가 아닌 동안 StatefulSet 컨트롤러는 어떤 파드도 바꾸지 않습니다(OrderedReady: 서수 순서대로 각 파드가 먼저 Running이면서 Ready여야 합니다). 그래서 제외는 그 뒤에 ${p.waits} 파드를 삭제해야 반영되고${after}, 그다음 ${all}를 교체합니다.`;
  return `파드 템플릿이 바뀌므로 새 롤아웃(${p.strategy})이 시작되어 ${all}를 교체합니다.`;
};
/** What the template change does, and how long the exclusion lasts. */
const changeEn = (p: PlanParams['excludeHost']): string =>
  `${templateChangeEn(p)} Remove the exclusion once the node is repaired (undo restores the previous affinity). ${lasts(p.ttl, 'en')}`;
const changeKo = (p: PlanParams['excludeHost']): string =>
  `${templateChangeKo(p)} 노드를 고친 뒤에는 제외를 해제하세요(되돌리면 이전 nodeAffinity로 돌아갑니다). ${lasts(p.ttl, 'ko')}`;

const daemonGapEn = (agent: NodeAgent, u: number): string =>
  `While a node's pod is replaced the node runs without this DaemonSet: ${NODE_AGENT[agent].en}. maxUnavailable ${u} keeps that to ${u} node${u === 1 ? '' : 's'} at a time, each until its new pod is Ready.`;
const daemonGapKo = (agent: NodeAgent, u: number): string =>
  `노드의 파드를 교체하는 동안 그 노드는 이 DaemonSet 없이 돌아갑니다: ${NODE_AGENT[agent].ko}. maxUnavailable ${u}이므로 한 번에 노드 ${u}개까지, 각각 새 파드가 Ready가 될 때까지만 그렇습니다.`;

/** delete-pods of crash-looping pods: how they come back, then why capacity holds and how it meets exclude-node. */
const deleteCrashing = (by: Exclude<RemadeBy, 'sameNode'>) => ({
  en: (p: PlanParams['deleteCrashing']) =>
    `${remadePods(by, p.count, 'en')}; they were not serving (not Ready), so capacity does not drop. Without exclude-node the scheduler may put them on ${p.nodes} again. Not needed after exclude-node: its rollout replaces these pods itself, and because it changes the spec (generation) this plan is then refused as stale.`,
  ko: (p: PlanParams['deleteCrashing']) =>
    `${remadePods(by, p.count, 'ko')}. 삭제하는 파드는 서비스하지 않던(Ready가 아닌) 파드이므로 용량은 줄지 않습니다. exclude-node 없이는 스케줄러가 대체 파드를 다시 ${p.nodes} 노드에 둘 수 있습니다. exclude-node 뒤에는 필요 없습니다: 그 롤아웃이 이 파드들을 직접 교체하고, 스펙(generation)이 바뀌므로 이 계획은 오래된 것으로 거부됩니다.`,
});

/** delete-pods of a StatefulSet's crash-looping pods that its exclusion reaches only once deleted. */
const deleteAfterEn = (p: PlanParams['deleteAfterExclusion']): string => {
  const one = p.count === 1;
  const lead = p.inPlace
    ? `The template already keeps the pods off ${p.nodes}`
    : 'After exclude-node, not before';
  const why = p.onDelete
    ? 'no pod is replaced until someone deletes it (OnDelete)'
    : `the controller changes no pod while ${one ? 'it is' : 'they are'} not Ready (OrderedReady), and on ${p.nodes} ${one ? 'it never is' : 'they never are'}`;
  const refused = p.inPlace
    ? ''
    : " Refused until the exclusion is in place (the live template's node affinity must be the one exclude-node writes).";
  return `${lead}: the StatefulSet controller makes ${one ? 'the pod' : `the ${p.count} pods`} again under the same ${one ? 'name' : 'names'} from the template with the exclusion, so off ${p.nodes}; ${one ? 'it was' : 'they were'} not serving (not Ready), so capacity does not drop. Without this the exclusion never reaches ${one ? 'it' : 'them'}: ${why}.${refused}`;
};
const deleteAfterKo = (p: PlanParams['deleteAfterExclusion']): string => {
  const lead = p.inPlace
    ? `템플릿이 이미 파드를 ${p.nodes} 노드에서 제외합니다`
    : 'exclude-node를 적용한 뒤에 실행합니다(먼저 하지 않습니다)';
  const why = p.onDelete
    ? '누군가 삭제하기 전에는 어떤 파드도 교체되지 않습니다(OnDelete)'
    : `이 파드들이 Ready가 아닌 동안 컨트롤러는 어떤 파드도 바꾸지 않는데(OrderedReady), ${p.nodes} 노드에서는 Ready가 되지 않습니다`;
  const refused = p.inPlace
    ? ''
    : ' 제외가 적용되기 전에는 거부됩니다(실제 템플릿의 nodeAffinity가 exclude-node가 쓰는 값이어야 합니다).';
  return `${lead}: StatefulSet 컨트롤러가 파드 ${p.count}개를 같은 이름으로, 제외가 들어간 템플릿에서 다시 만들므로 ${p.nodes} 노드를 피합니다. 삭제하는 파드는 서비스하지 않던(Ready가 아닌) 파드이므로 용량은 줄지 않습니다. 이 단계가 없으면 제외가 이 파드들에 닿지 않습니다: ${why}.${refused}`;
};

const replicasEn = (n: number): string => `${n} replica${n === 1 ? '' : 's'}`;

const PLAN_WORDS = registerCatalogue(
  'plan',
  defineMessages({
    ...EXCLUSION_PLAN_WORDS,
    /** set-rolling-update on a Deployment: maxSurge 0, `down` old pods at a time. */
    rollingOldFirst: {
      en: (p: PlanParams['rollingOldFirst']) =>
        `${LEAD_EN(p)}: ${
          p.down >= p.replicas
            ? `brief outage: ${p.down} of ${p.replicas} replicas down until the new pod${p.replicas === 1 ? ' is' : 's are'} Ready`
            : `reduced capacity: ${p.down} of ${p.replicas} replicas down at a time until each replacement is Ready; the other ${p.replicas - p.down} keep serving`
        }. No extra pod is created (maxSurge 0).`,
      ko: (p: PlanParams['rollingOldFirst']) =>
        `${LEAD_KO(p)} ${
          p.down >= p.replicas
            ? `서비스가 잠깐 중단됩니다: 새 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개 중 ${p.down}개가 내려갑니다`
            : `용량이 줄어듭니다: 교체한 파드가 Ready가 될 때까지 한 번에 레플리카 ${p.replicas}개 중 ${p.down}개가 내려가고, 나머지 ${p.replicas - p.down}개는 계속 서비스합니다`
        }. 추가 파드는 만들지 않습니다(maxSurge 0).`,
    },
    /** set-recreate: every old pod stops before any new one starts. */
    recreate: {
      en: (p: PlanParams['recreate']) =>
        `${LEAD_EN(p)}: outage, all ${replicasEn(p.replicas)} down from the moment the old pods stop until the new pods are Ready.`,
      ko: (p: PlanParams['recreate']) =>
        `${LEAD_KO(p)} 서비스가 중단됩니다: 기존 파드가 멈춘 순간부터 새 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개가 모두 내려갑니다.`,
    },
    /** scale-old-replicaset of a single replica: the only old pod goes first. */
    scaleOldOnly: {
      en: (p: PlanParams['scaleOldOnly']) =>
        `brief outage: the only replica (old ReplicaSet ${p.replicaSet}) goes down before the new pod is Ready, as with maxSurge 0. The Deployment spec and generation are not touched.`,
      ko: (p: PlanParams['scaleOldOnly']) =>
        `서비스가 잠깐 중단됩니다: 하나뿐인 레플리카(기존 ReplicaSet ${p.replicaSet})가 새 파드가 Ready가 되기 전에 내려갑니다. maxSurge 0과 같습니다. Deployment 스펙은 바꾸지 않습니다.`,
    },
    /** scale-old-replicaset at once: every old pod goes; `newReady` new pods serve meanwhile. */
    scaleOldAll: {
      en: (p: PlanParams['scaleOldAll']) =>
        `OUTAGE: all ${p.from} old replicas go down at once; ${p.newReady === 0 ? 'no pod serves until the new pods are Ready' : `until the new pods are Ready only ${p.newReady} new pod${p.newReady === 1 ? '' : 's'} serve${p.newReady === 1 ? 's' : ''}`}. Scaling down by one instead cannot choose which pod goes and deadlocks again one pod later. The Deployment spec and generation are not touched.`,
      ko: (p: PlanParams['scaleOldAll']) =>
        `서비스 중단: 기존 레플리카 ${p.from}개가 한꺼번에 내려갑니다. ${p.newReady === 0 ? '새 파드가 Ready가 될 때까지 서비스하는 파드가 없습니다' : `새 파드가 Ready가 될 때까지 새 파드 ${p.newReady}개만 서비스합니다`}. 하나씩 줄이면 어느 파드가 내려갈지 고를 수 없어서 파드 하나 뒤에 다시 교착 상태(deadlock)가 됩니다. Deployment 스펙은 바꾸지 않습니다.`,
    },
    /** scale-old-replicaset stepped: one old pod at a time, the blocking one marked to go. */
    scaleOldStepped: {
      en: (p: PlanParams['scaleOldStepped']) =>
        `reduced capacity: ${Math.max(0, p.replicas - 1)} of ${p.replicas} replicas keep serving at every step, as with maxSurge 0 (one old replica goes, its replacement becomes Ready, then the next). The Deployment spec and generation are not touched.`,
      ko: (p: PlanParams['scaleOldStepped']) =>
        `용량이 줄어듭니다: 단계마다 레플리카 ${p.replicas}개 중 ${Math.max(0, p.replicas - 1)}개가 계속 서비스합니다. maxSurge 0과 같습니다(기존 레플리카 하나가 내려가고, 그 교체 파드가 Ready가 되면 다음 레플리카로 넘어갑니다). Deployment 스펙은 바꾸지 않습니다.`,
    },
    /** A strategy change that restarts the rollout (strategy-situation.ts commonWarnings). */
    restartedAt: {
      en: (p: PlanParams['restartedAt']) =>
        `Also sets the kubectl.kubernetes.io/restartedAt annotation: a new rollout starts${p.paused ? ' once the Deployment is resumed' : ''} and replaces every pod${p.quota ? `; the ReplicaSet whose pods quota ${p.quota} refuses is scaled down as an old one` : p.stuck ? `, including the stuck ${p.stuck}` : ''}.`,
      ko: (p: PlanParams['restartedAt']) =>
        `kubectl.kubernetes.io/restartedAt 어노테이션도 설정합니다: ${p.paused ? 'Deployment를 재개하면 ' : ''}새 롤아웃이 시작되어 모든 파드를 교체합니다${p.quota ? `. ResourceQuota ${p.quota}가 파드를 거부하는 ReplicaSet은 기존 ReplicaSet처럼 축소됩니다` : p.stuck ? `(멈춘 ${p.stuck} 포함)` : ''}.`,
    },
    undoPrevious: {
      en: (p: PlanParams['undoPrevious']) =>
        `Undo restores the previous strategy (${p.previous}), which makes the next rollout deadlock again.`,
      ko: (p: PlanParams['undoPrevious']) =>
        `되돌리면 이전 전략(${p.previous})으로 돌아가서 다음 롤아웃이 다시 교착 상태(deadlock)가 됩니다.`,
    },
    pausedStrategy: {
      en: (p: PlanParams['pausedStrategy']) =>
        p.scalesNow > 0
          ? `The Deployment is paused, but it still scales: with maxSurge 0 its ReplicaSets may hold ${p.holding - p.scalesNow} pod${p.holding - p.scalesNow === 1 ? '' : 's'}, not the ${p.holding} they hold, so the controller removes ${p.scalesNow} as soon as this is applied (in proportion to each ReplicaSet's size, the rest from the largest, the older where they tie), not at the resume; a Pending new pod may then take the room.${p.restart ? ` The restart takes effect only at ${p.command}.` : ''}`
          : `The Deployment is paused: the strategy${p.restart ? ' and the restart' : ''} only take effect at ${p.command}; until then no pod is replaced${p.restart ? ' and the stuck pod stays Pending' : ''}.`,
      ko: (p: PlanParams['pausedStrategy']) =>
        p.scalesNow > 0
          ? `Deployment가 일시 중지되어 있지만 크기 조정은 계속됩니다: maxSurge 0이면 ReplicaSet들이 지금의 파드 ${p.holding}개가 아니라 ${p.holding - p.scalesNow}개까지만 가질 수 있으므로, 적용하는 즉시(재개할 때가 아니라) 컨트롤러가 파드 ${p.scalesNow}개를 삭제합니다(각 ReplicaSet 크기에 비례해서, 나머지는 가장 큰 ReplicaSet에서, 크기가 같으면 기존 것부터). 그러면 Pending 상태인 새 파드가 그 자리를 얻을 수 있습니다.${p.restart ? ` 재시작은 ${p.command} 뒤에야 적용됩니다.` : ''}`
          : `Deployment가 일시 중지되어 있습니다: 전략${p.restart ? '과 재시작' : ''}은 ${p.command} 뒤에야 적용됩니다. 그때까지는 어떤 파드도 교체되지 않습니다${p.restart ? '(멈춘 파드는 Pending 상태로 남습니다)' : ''}.`,
    },
    fromManifest: {
      en: (p: PlanParams['fromManifest']) =>
        `This ${p.kind} is applied from a manifest: commit the strategy there too (see the change to commit), or the next rollout deadlocks again.`,
      ko: (p: PlanParams['fromManifest']) =>
        `매니페스트로 적용하는 ${p.kind}입니다: 전략을 매니페스트에도 커밋하세요(커밋할 변경 참고). 그러지 않으면 다음 롤아웃이 다시 교착 상태(deadlock)가 됩니다.`,
    },
    recreateLater: {
      en: () =>
        'Every later rollout is a full outage too: Recreate never runs old and new pods side by side.',
      ko: () =>
        '이후의 모든 롤아웃도 전면 중단입니다: Recreate는 기존 파드와 새 파드를 함께 실행하지 않습니다.',
    },
    excludeHost: {
      en: (p: PlanParams['excludeHost']) => `${excludedEn(p)} ${changeEn(p)}`,
      ko: (p: PlanParams['excludeHost']) => `${excludedKo(p)} ${changeKo(p)}`,
    },
    excludeLabel: {
      en: (p: PlanParams['excludeLabel']) =>
        `${excludedEn(p)} Every node with ${p.label}=${p.values.join(' or ')} is excluded, now and later${p.others ? `, including ${p.others} where no pod of this template runs yet.` : '.'} ${changeEn(p)}`,
      ko: (p: PlanParams['excludeLabel']) =>
        `${excludedKo(p)} ${p.label}=${p.values.join(' 또는 ')} 레이블이 있는 노드는 지금과 앞으로 모두 제외합니다${p.others ? `. 이 템플릿의 파드가 아직 없는 ${p.others} 노드도 포함됩니다` : ''}. ${changeKo(p)}`,
    },
    restartPaused: {
      en: (p: PlanParams['restartPaused']) =>
        `none while the Deployment is paused: the new template waits for ${p.resume}, then ${p.recreate ? `all ${p.replicas} replica(s) stop and new ones start (Recreate)` : `all ${p.replicas} replica(s) are replaced gradually`}`,
      ko: (p: PlanParams['restartPaused']) =>
        `Deployment가 일시 중지된 동안에는 아무 일도 없습니다: 새 템플릿은 ${p.resume} 명령을 기다리고, 그 뒤 ${p.recreate ? `레플리카 ${p.replicas}개가 모두 멈춘 다음 새 파드가 시작됩니다(Recreate)` : `레플리카 ${p.replicas}개가 모두 차례로 교체됩니다`}`,
    },
    restartRecreate: {
      en: (p: PlanParams['restartRecreate']) =>
        `outage: all ${p.replicas} replica(s) stop, then new ones start (Recreate)`,
      ko: (p: PlanParams['restartRecreate']) =>
        `서비스 중단: 레플리카 ${p.replicas}개가 모두 멈춘 뒤 새 파드가 시작됩니다(Recreate)`,
    },
    restartRolling: {
      en: (p: PlanParams['restartRolling']) =>
        `replaces all ${p.replicas} ${p.perNode ? 'pod(s), one per node' : 'replica(s)'} gradually: up to ${p.surge} extra and ${p.unavailable} unavailable at a time`,
      ko: (p: PlanParams['restartRolling']) =>
        `${p.perNode ? `노드마다 하나씩, 파드 ${p.replicas}개` : `레플리카 ${p.replicas}개`}를 모두 차례로 교체합니다: 한 번에 최대 ${p.surge}개를 더 만들고 ${p.unavailable}개까지 내려갑니다`,
    },
    restartPausedWarning: {
      en: (p: PlanParams['restartPausedWarning']) =>
        `The Deployment is paused: nothing restarts until ${p.resume}; the restart annotation waits in the template.`,
      ko: (p: PlanParams['restartPausedWarning']) =>
        `Deployment가 일시 중지되어 있습니다: ${p.resume} 명령 전에는 아무것도 재시작하지 않습니다. 재시작 어노테이션은 템플릿에서 기다립니다.`,
    },
    antiOnePending: {
      en: (p: PlanParams['antiOnePending']) =>
        `A required pod anti-affinity allows one pod per node, and only ${p.eligible} node(s) stay eligible for ${p.replicas} replicas: ${p.replicas - p.eligible} replica(s) will stay Pending.`,
      ko: (p: PlanParams['antiOnePending']) =>
        `필수 파드 안티-어피니티가 노드마다 파드 하나만 허용하는데, 레플리카 ${p.replicas}개에 배치할 수 있는 노드는 ${p.eligible}개뿐입니다: 레플리카 ${p.replicas - p.eligible}개는 Pending으로 남습니다.`,
    },
    antiOneSurge: {
      en: (p: PlanParams['antiOneSurge']) =>
        `A required pod anti-affinity allows one pod per node and ${p.eligible} node(s) stay eligible for ${p.replicas} replicas: the rolling update's surge pod has no free node and the rollout can stall (set maxSurge 0 / maxUnavailable 1 first).`,
      ko: (p: PlanParams['antiOneSurge']) =>
        `필수 파드 안티-어피니티가 노드마다 파드 하나만 허용하고, 레플리카 ${p.replicas}개에 배치할 수 있는 노드가 ${p.eligible}개입니다: 롤링 업데이트가 더 만드는 파드가 들어갈 빈 노드가 없어서 롤아웃이 멈출 수 있습니다(먼저 maxSurge 0 / maxUnavailable 1로 설정하세요).`,
    },
    oneNodeLeft: {
      en: (p: PlanParams['oneNodeLeft']) =>
        `Only one node (${p.node}) stays eligible: all ${p.replicas} replicas will run there.`,
      ko: (p: PlanParams['oneNodeLeft']) =>
        `배치할 수 있는 노드가 하나(${p.node})뿐입니다: 레플리카 ${p.replicas}개가 모두 그 노드에서 실행됩니다.`,
    },
    daemonGapCni: {
      en: (p: PlanParams['daemonGapCni']) => daemonGapEn('cni', p.unavailable),
      ko: (p: PlanParams['daemonGapCni']) => daemonGapKo('cni', p.unavailable),
    },
    daemonGapCsi: {
      en: (p: PlanParams['daemonGapCsi']) => daemonGapEn('csi', p.unavailable),
      ko: (p: PlanParams['daemonGapCsi']) => daemonGapKo('csi', p.unavailable),
    },
    daemonGapDevice: {
      en: (p: PlanParams['daemonGapDevice']) => daemonGapEn('device', p.unavailable),
      ko: (p: PlanParams['daemonGapDevice']) => daemonGapKo('device', p.unavailable),
    },
    daemonOldFirst: {
      en: (p: PlanParams['daemonOldFirst']) =>
        `${p.restart ? 'Now and in every later rollout' : 'In every later rollout'}: on ${p.unavailable} of ${p.nodes} node(s) at a time the DaemonSet's pod is down from the old pod's exit until the new one is Ready; the other nodes keep theirs. No extra pod is created (maxSurge 0).`,
      ko: (p: PlanParams['daemonOldFirst']) =>
        `${p.restart ? '지금과 이후의 모든 롤아웃에서' : '이후의 모든 롤아웃에서'} 한 번에 노드 ${p.nodes}개 중 ${p.unavailable}개에서, 기존 파드가 끝난 때부터 새 파드가 Ready가 될 때까지 DaemonSet 파드가 없습니다. 다른 노드의 파드는 그대로입니다. 추가 파드는 만들지 않습니다(maxSurge 0).`,
    },
    canaryOldFirst: {
      en: (p: PlanParams['canaryOldFirst']) =>
        `${p.restart ? 'Now and in every later update' : 'In every later update'}: ${p.down >= p.replicas ? `brief outage, ${p.down} of ${p.replicas} replicas down until the canary pod is Ready` : `reduced capacity, ${p.down} of ${p.replicas} replicas down at a time until each canary pod is Ready`}. No extra pod is created (maxSurge 0).`,
      ko: (p: PlanParams['canaryOldFirst']) =>
        `${p.restart ? '지금과 이후의 모든 업데이트에서' : '이후의 모든 업데이트에서'} ${p.down >= p.replicas ? `서비스가 잠깐 중단됩니다: 카나리 파드가 Ready가 될 때까지 레플리카 ${p.replicas}개 중 ${p.down}개가 내려갑니다` : `용량이 줄어듭니다: 카나리 파드가 하나씩 Ready가 될 때까지 한 번에 레플리카 ${p.replicas}개 중 ${p.down}개가 내려갑니다`}. 추가 파드는 만들지 않습니다(maxSurge 0).`,
    },
    canaryUndo: {
      en: (p: PlanParams['canaryUndo']) =>
        `Undo restores the previous canary bounds (maxSurge ${p.maxSurge ?? '25% (default)'}, maxUnavailable ${p.maxUnavailable ?? '25% (default)'}), which makes the next update deadlock again.`,
      ko: (p: PlanParams['canaryUndo']) =>
        `되돌리면 이전 카나리 설정(maxSurge ${p.maxSurge ?? '25%(기본값)'}, maxUnavailable ${p.maxUnavailable ?? '25%(기본값)'})으로 돌아가서 다음 업데이트가 다시 교착 상태(deadlock)가 됩니다.`,
    },
    canaryStepsKept: {
      en: (p: PlanParams['canaryStepsKept']) =>
        `The canary steps go on as written after the fix: a pause step still pauses, and promotion is still yours (${p.promote}).`,
      ko: (p: PlanParams['canaryStepsKept']) =>
        `조치 뒤에도 카나리 단계는 적힌 대로 진행됩니다: 일시 중지 단계에서는 여전히 멈추고, 승격도 여전히 직접 해야 합니다(${p.promote}).`,
    },
    rolloutPausedSpec: {
      en: (p: PlanParams['rolloutPausedSpec']) =>
        `The Rollout is paused (spec.paused): nothing moves until ${p.resume}.`,
      ko: (p: PlanParams['rolloutPausedSpec']) =>
        `Rollout이 일시 중지되어 있습니다(spec.paused): ${p.resume} 전에는 아무것도 움직이지 않습니다.`,
    },
    abortNow: {
      en: () => ABORT_EN('its pods (the stuck one too) are removed at once'),
      ko: () => ABORT_KO('업데이트의 파드(멈춘 파드 포함)가 바로 제거됩니다'),
    },
    abortKept: {
      en: () =>
        ABORT_EN(
          'its pods stay up (abortScaleDownDelaySeconds 0) until the template is reverted or they are scaled away by hand: those running keep what they hold, the stuck one stays Pending',
        ),
      ko: () =>
        ABORT_KO(
          '업데이트의 파드는 템플릿을 되돌리거나 직접 줄일 때까지 남습니다(abortScaleDownDelaySeconds 0). 실행 중인 파드는 점유한 것을 그대로 쥐고, 멈춘 파드는 Pending으로 남습니다',
        ),
    },
    abortDynamic: {
      en: () =>
        ABORT_EN(
          'its pods (the stuck one too) are removed as the stable pods scale back up (dynamicStableScale)',
        ),
      ko: () =>
        ABORT_KO(
          '안정 버전 파드가 다시 늘어나는 만큼 업데이트의 파드(멈춘 파드 포함)가 제거됩니다(dynamicStableScale)',
        ),
    },
    abortDelayed: {
      en: (p: PlanParams['abortDelayed']) =>
        ABORT_EN(
          `its pods (the stuck one too) are removed after abortScaleDownDelaySeconds (${p.seconds ?? 30} s${p.seconds === undefined ? ', the default' : ''})`,
        ),
      ko: (p: PlanParams['abortDelayed']) =>
        ABORT_KO(
          `abortScaleDownDelaySeconds(${p.seconds ?? 30}초${p.seconds === undefined ? ', 기본값' : ''})가 지나면 업데이트의 파드(멈춘 파드 포함)가 제거됩니다`,
        ),
    },
    abortRetry: {
      en: (p: PlanParams['abortRetry']) =>
        `spec.template still holds the new version: ${p.retry} (or any template change) starts the same update again, and it blocks the same way until the cause is fixed.`,
      ko: (p: PlanParams['abortRetry']) =>
        `spec.template에는 여전히 새 버전이 있습니다: ${p.retry} 명령(또는 템플릿 변경)으로 같은 업데이트가 다시 시작되고, 원인을 고칠 때까지 같은 방식으로 막힙니다.`,
    },
    abortNoUndo: {
      en: () => 'There is no Undo: retrying is the way back, once the update can finish.',
      ko: () => '되돌리기는 없습니다: 업데이트가 끝날 수 있게 되면 다시 시도하는 것이 돌아가는 길입니다.',
    },
    forcedRollback: {
      en: (p: PlanParams['forcedRollback']) =>
        `${p.pod} is down until its replacement is Running and Ready (it is not Ready now, so nothing that serves is lost). The replacement keeps its name, its ordinal and${p.claims ? ' its PersistentVolumeClaims (the data stays)' : ' its identity'}; the other pods are not touched.`,
      ko: (p: PlanParams['forcedRollback']) =>
        `대체 파드가 Running이고 Ready가 될 때까지 ${p.pod} 파드가 내려갑니다(지금 Ready가 아니므로 서비스 중인 것은 잃지 않습니다). 대체 파드는 이름과 순번, ${p.claims ? 'PVC(데이터는 그대로)를' : '고유한 식별자를'} 그대로 이어받고, 다른 파드는 건드리지 않습니다.`,
    },
    taintDevice: {
      en: (p: PlanParams['taintDevice']) =>
        `Creates one cluster-scoped DeviceTaintRule, then deletes ${p.pods} pod(s) of this Deployment; their ReplicaSet replaces them and the new claims are allocated devices other than ${p.device}, on ${p.node} or elsewhere, while the node's other devices stay in use. A replacement with no other free matching device stays Pending. The Deployment spec is not changed. Undo deletes the rule.`,
      ko: (p: PlanParams['taintDevice']) =>
        `클러스터 범위의 DeviceTaintRule 하나를 만든 뒤 이 Deployment의 파드 ${p.pods}개를 삭제합니다. ReplicaSet이 파드를 다시 만들고, 새 클레임에는 ${p.node} 노드나 다른 노드에서 ${p.device} 장치가 아닌 장치가 할당됩니다. 그 노드의 다른 장치는 계속 쓰입니다. 맞는 빈 장치가 없는 대체 파드는 Pending으로 남습니다. Deployment 스펙은 바꾸지 않습니다. 되돌리면 이 규칙을 삭제합니다.`,
    },
    waitJobs: {
      en: (p: PlanParams['waitJobs']) =>
        `Waiting may be enough: the rollout ${p.bound ? 'can go' : 'goes'} on by itself once ${p.some ? 'enough of ' : ''}${p.one ? 'Job' : 'Jobs'} ${p.names} ${p.one ? 'ends' : 'end'} (${p.bound ? 'with their pods gone, the nodes have room for it' : 'run forward with their pods gone'}). This plan acts now, at the cost its impact says.`,
      ko: (p: PlanParams['waitJobs']) =>
        `기다리는 것으로 충분할 수 있습니다: ${p.names} Job이${p.some ? ' 충분히' : ''} 끝나면 롤아웃이 스스로 이어${p.bound ? '질 수 있습니다(그 파드가 없으면 노드에 자리가 있습니다)' : '집니다(그 파드가 없다고 보고 따라가 확인했습니다)'}. 이 조치는 지금 적용되고, 영향에 적힌 대가가 따릅니다.`,
    },
    waitRollouts: {
      en: (p: PlanParams['waitRollouts']) =>
        `Waiting may be enough: the rollout ${p.bound ? 'can go' : 'goes'} on by itself once the rollout${p.one ? '' : 's'} of ${p.names} ${p.one ? 'removes its' : 'remove their'} old pods, as ${p.argo ? `${p.one ? 'its controller does at the end of its update' : 'their controllers do as they go on or at the end of their updates'}, which ${p.one ? 'waits' : 'wait'} for nobody` : `${p.one ? 'its' : 'their'} Deployment controller does while ${p.one ? 'it goes' : 'they go'} on`}${p.starting ? ` once ${p.one ? 'its' : 'their'} new pods, still starting, are Ready` : ''} (${p.bound ? 'with those pods gone, the nodes have room for it' : 'run forward with those pods gone'}), unless ${p.one ? 'its' : 'their'} new pods take the room first${p.unread ? `, and unless ${p.one ? 'it is' : 'they are'} paused (${p.one ? 'its Deployment was' : 'their Deployments were'} not read)` : ''}. This plan acts now, at the cost its impact says.`,
      ko: (p: PlanParams['waitRollouts']) =>
        `기다리는 것으로 충분할 수 있습니다: ${p.names}의 롤아웃이 기존 파드를 내리면 이 롤아웃이 스스로 이어${p.bound ? '질 수 있습니다' : '집니다'}. ${p.argo ? '그 업데이트가 사람이나 분석을 기다리지 않고 끝나면' : '그 롤아웃이 진행되면서'}${p.starting ? ' 아직 시작 중인 새 파드가 Ready가 되면' : ''} ${p.argo ? '' : 'Deployment '}컨트롤러가 기존 파드를 내립니다(${p.bound ? '그 파드가 없으면 노드에 자리가 있습니다' : '그 파드가 없다고 보고 따라가 확인했습니다'}). 다만 그 롤아웃의 새 파드가 먼저 자리를 차지하면 이어지지 않습니다.${p.unread ? ' 그 Deployment는 읽지 않아서 일시 중지되어 있는지 알 수 없습니다. 일시 중지되어 있으면 기존 파드를 내리지 않습니다.' : ''} 이 조치는 지금 적용되고, 영향에 적힌 대가가 따릅니다.`,
    },
    waitScaleDown: {
      en: (p: PlanParams['waitScaleDown']) =>
        `Waiting may be enough: the rollout goes on by itself once ${p.names}, which runs more pods than its replicas, scales down: its ReplicaSet removes the pods above them, and run forward with any of them gone the rollout finishes, unless an autoscaler raises its replicas back first. This plan acts now, at the cost its impact says.`,
      ko: (p: PlanParams['waitScaleDown']) =>
        `기다리는 것으로 충분할 수 있습니다: ${p.names}는 레플리카 수보다 파드가 많아 줄어드는 중이며, 그 ReplicaSet이 넘는 파드를 내리면 이 롤아웃이 스스로 이어집니다(어느 파드가 내려가든 끝까지 따라가 확인했습니다). 다만 오토스케일러가 먼저 레플리카 수를 다시 올리면 이어지지 않습니다. 이 조치는 지금 적용되고, 영향에 적힌 대가가 따릅니다.`,
    },
    waitScaleDownCapped: {
      en: (p: PlanParams['waitScaleDownCapped']) =>
        `Waiting may be enough: the rollout goes on by itself once ${p.names} scales down to what its autoscaler allows at most (maxReplicas ${p.max}): its ReplicaSet removes the pods above them, and run forward with any of them gone the rollout finishes. This plan acts now, at the cost its impact says.`,
      ko: (p: PlanParams['waitScaleDownCapped']) =>
        `기다리는 것으로 충분할 수 있습니다: ${p.names}는 오토스케일러가 허용하는 최대 레플리카 수(${p.max}개)까지 줄어들며, 그 ReplicaSet이 넘는 파드를 내리면 이 롤아웃이 스스로 이어집니다(어느 파드가 내려가든 끝까지 따라가 확인했습니다). 이 조치는 지금 적용되고, 영향에 적힌 대가가 따릅니다.`,
    },
    deleteCrashing: deleteCrashing('replicaSet'),
    deleteCrashingRollout: deleteCrashing('rolloutReplicaSet'),
    deleteCrashingOrdered: deleteCrashing('orderedReady'),
    deleteAfterExclusion: { en: deleteAfterEn, ko: deleteAfterKo },
    deleteCrashingParallel: deleteCrashing('parallel'),
    noOtherNode: {
      en: (p: PlanParams['noOtherNode']) =>
        `No other known node is eligible for this template: the replacements can only land on ${p.nodes} again.`,
      ko: (p: PlanParams['noOtherNode']) =>
        `이 템플릿을 받을 수 있는 다른 노드가 없습니다: 대체 파드는 다시 ${p.nodes} 노드에만 갈 수 있습니다.`,
    },
  }),
  {
    ...EXCLUSION_PLAN_SAMPLES,
    excludeLabel: [
      {
        after: 3,
        before: 6,
        eligible: 'node-01, node-02, node-03',
        excluded: 'node-05',
        strategy: 'RollingUpdate',
        replicas: 3,
        label: 'topology.kubernetes.io/zone',
        values: ['zone-b'],
        others: 'node-06',
        ttl: '24h',
      },
      {
        after: 4,
        before: 6,
        eligible: 'node-01, node-02, node-03, node-04',
        excluded: 'node-05, node-06',
        strategy: 'Recreate',
        replicas: 2,
        label: 'kernel',
        values: ['5.15', '6.1'],
      },
    ],
    restartPaused: [
      { recreate: false, replicas: 3, resume: '`kubectl rollout resume`' },
      { recreate: true, replicas: 2, resume: '`kubectl rollout resume`' },
    ],
    restartRecreate: [{ replicas: 3 }],
    restartRolling: [
      { replicas: 4, perNode: false, surge: 1, unavailable: 0 },
      { replicas: 6, perNode: true, surge: 0, unavailable: 1 },
    ],
    restartPausedWarning: [{ resume: '`kubectl rollout resume`' }],
    antiOnePending: [{ eligible: 2, replicas: 3 }],
    antiOneSurge: [{ eligible: 3, replicas: 3 }],
    oneNodeLeft: [{ node: 'node-02', replicas: 3 }],
    daemonGapCni: [{ unavailable: 1 }],
    daemonGapCsi: [{ unavailable: 2 }],
    daemonGapDevice: [{ unavailable: 1 }],
    daemonOldFirst: [
      { restart: true, unavailable: 1, nodes: 5 },
      { restart: false, unavailable: 2, nodes: 8 },
    ],
    canaryOldFirst: [
      { restart: true, down: 1, replicas: 1 },
      { restart: false, down: 1, replicas: 4 },
    ],
    canaryUndo: [{}, { maxSurge: '1', maxUnavailable: '0' }],
    canaryStepsKept: [{ promote: 'kubectl argo rollouts promote' }],
    rolloutPausedSpec: [{ resume: 'kubectl argo rollouts resume' }],
    abortNow: [{}],
    abortKept: [{}],
    abortDynamic: [{}],
    abortDelayed: [{}, { seconds: 600 }],
    abortRetry: [{ retry: '`kubectl argo rollouts retry`' }],
    abortNoUndo: [{}],
    forcedRollback: [
      { pod: 'orders-db-2', claims: true },
      { pod: 'cache-1', claims: false },
    ],
    taintDevice: [{ pods: 2, device: 'gpu.example.com/pool-a/gpu-3', node: 'gpu-node-2' }],
    noOtherNode: [{ nodes: 'node-05' }],
    excludeHost: [
      {
        after: 2,
        before: 3,
        eligible: 'node-a, node-c',
        excluded: 'node-b',
        strategy: 'RollingUpdate',
        replicas: 3,
        ttl: '24h',
      },
      { after: 1, before: 2, eligible: 'node-a', excluded: 'node-b', strategy: 'Recreate', replicas: 2 },
      {
        after: 2,
        before: 3,
        eligible: 'node-b, node-c',
        excluded: 'node-a',
        strategy: 'RollingUpdate',
        replicas: 3,
        waits: 'web-1',
        waitsOne: true,
      },
      {
        after: 2,
        before: 3,
        eligible: 'node-b, node-c',
        excluded: 'node-a',
        strategy: 'OnDelete',
        replicas: 3,
        waits: 'web-1, web-4',
        waitsOne: false,
        onDelete: true,
      },
    ],
    restartedAt: [
      { paused: false, stuck: 'tracker-7d9f-q4w8z' },
      { paused: true, quota: 'team-quota' },
      { paused: false },
    ],
    undoPrevious: [{ previous: 'server default: RollingUpdate 25%/25%' }],
    pausedStrategy: [
      { restart: true, command: '`kubectl rollout resume`', scalesNow: 0, holding: 2 },
      { restart: false, command: '`kubectl rollout resume`', scalesNow: 0, holding: 2 },
      { restart: true, command: '`kubectl rollout resume`', scalesNow: 1, holding: 2 },
    ],
    fromManifest: [{ kind: 'Deployment' }],
    recreateLater: [{}],
    scaleOldOnly: [{ replicaSet: 'tracker-5c6b' }],
    scaleOldAll: [
      { from: 3, newReady: 0 },
      { from: 3, newReady: 1 },
      { from: 4, newReady: 2 },
    ],
    scaleOldStepped: [{ replicas: 3 }],
    waitJobs: [
      { names: 'batch/nightly-report', one: true, some: false, bound: false },
      { names: 'batch/a, batch/b', one: false, some: true, bound: false },
      { names: 'batch/nightly-report', one: true, some: false, bound: true },
    ],
    waitScaleDown: [{ names: 'deployment ml/beta' }],
    waitScaleDownCapped: [{ names: 'deployment ml/beta', max: '1' }],
    waitRollouts: [
      {
        names: 'deployment ml/beta',
        one: true,
        some: false,
        unread: false,
        bound: false,
        starting: false,
        argo: false,
      },
      {
        names: 'deployment ml/beta',
        one: true,
        some: false,
        unread: true,
        bound: false,
        starting: false,
        argo: false,
      },
      {
        names: 'Rollout ml/beta',
        one: true,
        some: false,
        unread: false,
        bound: false,
        starting: false,
        argo: true,
      },
      {
        names: 'deployments ml/beta, ml/gamma',
        one: false,
        some: false,
        unread: true,
        bound: false,
        starting: true,
        argo: false,
      },
      {
        names: 'deployment ml/beta',
        one: true,
        some: false,
        unread: false,
        bound: true,
        starting: true,
        argo: false,
      },
    ],
    deleteCrashing: [
      { count: 1, nodes: 'node-07' },
      { count: 2, nodes: 'node-07, node-09' },
    ],
    deleteCrashingRollout: [{ count: 2, nodes: 'node-07' }],
    deleteCrashingOrdered: [
      { count: 1, nodes: 'node-07' },
      { count: 2, nodes: 'node-07' },
    ],
    deleteCrashingParallel: [{ count: 1, nodes: 'node-07' }],
    deleteAfterExclusion: [
      { count: 1, nodes: 'node-07', onDelete: false, inPlace: false },
      { count: 2, nodes: 'node-07, node-09', onDelete: true, inPlace: false },
      { count: 1, nodes: 'node-07', onDelete: false, inPlace: true },
    ],
    rollingOldFirst: [
      { paused: false, restart: true, down: 1, replicas: 1 },
      { paused: false, restart: false, down: 1, replicas: 4 },
      { paused: true, restart: true, down: 2, replicas: 6 },
    ],
    recreate: [
      { paused: false, restart: true, replicas: 1 },
      { paused: false, restart: false, replicas: 3 },
      { paused: true, restart: true, replicas: 3 },
    ],
  },
);

/** Each message of the plan catalogue takes the parameters `PlanParams` gives its key. */
type ByKey = {
  readonly [K in keyof PlanParams]: { readonly [L in Lang]: (params: PlanParams[K]) => string };
};

export function impactInWords<K extends keyof PlanParams>(
  said: { key: K; params: PlanParams[K] },
  lang: Lang,
): string {
  // The catalogue seen by key, so one call covers every message (TS's correlated-union form).
  const byKey: ByKey = PLAN_WORDS;
  return byKey[said.key][lang](said.params);
}

/**
 * Stored words in `lang`, or undefined where this version has no such message (a plan
 * written by a newer worker, read during a mixed-version deploy): then the stored
 * English stands.
 */
function storedInWords(said: PlanSaid, lang: Lang): string | undefined {
  const byKey: Partial<Record<string, unknown>> = PLAN_WORDS;
  return Object.hasOwn(byKey, said.key) ? impactInWords(said, lang) : undefined;
}

/** A builder's impact and its words, from the words: `{ ...withImpact(said) }` in the plan. */
export function withImpact(impactSaid: PlanSaid): { impact: string; impactSaid: PlanSaid } {
  return { impact: impactInWords(impactSaid, 'en'), impactSaid };
}

/**
 * Warnings to spread into a plan, each from its words or, where a builder has none for
 * it, as written: the English to store, in order, and the words (`warningsSaid`) where
 * there are any (none stored where no warning is worded).
 */
export function warningsFrom(items: readonly (string | PlanSaid)[]): {
  warnings: string[];
  warningsSaid?: PlanSaid[];
} {
  const warnings = items.map((w) => (typeof w === 'string' ? w : impactInWords(w, 'en')));
  const said = items.filter((w): w is PlanSaid => typeof w !== 'string');
  return said.length > 0 ? { warnings, warningsSaid: said } : { warnings };
}

/**
 * A plan's warnings in `lang`: each one its words say exactly, in `lang`; the others (a
 * builder's own, one added or rewritten later) as written.
 */
export function planWarnings(
  plan: { warnings: readonly string[]; warningsSaid?: readonly PlanSaid[] | undefined },
  lang: Lang,
): string[] {
  if (lang === 'en') return [...plan.warnings];
  const byEnglish = new Map((plan.warningsSaid ?? []).map((s) => [storedInWords(s, 'en'), s]));
  return plan.warnings.map((w) => {
    const words = byEnglish.get(w);
    return (words && storedInWords(words, lang)) ?? sentenceIn(w, lang);
  });
}

/** A plan's impact in `lang`: its words where they still say its English impact, else the impact as written. */
export function planImpact(plan: { impact: string; impactSaid?: PlanSaid | undefined }, lang: Lang): string {
  const said = plan.impactSaid;
  if (lang === 'en') return plan.impact;
  if (!said || storedInWords(said, 'en') !== plan.impact) return sentenceIn(plan.impact, lang);
  return storedInWords(said, lang) ?? sentenceIn(plan.impact, lang);
}
