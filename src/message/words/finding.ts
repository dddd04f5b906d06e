/**
 * A finding's headline and explanation, and a plan's, in the reader's language, from
 * the facts the engine keeps as data (src/diagnosis/finding-words.ts; a plan's kind,
 * patch and targets). Plain strings: the text report prints them and chat passes them
 * to `say` as text, so the names in them are escaped like any cluster text.
 *
 * English readers get the engine's own summary (richer than these sentences, and
 * byte-identical to what they read before); the English entries here say the same
 * facts, for completeness and for a reader of another language whose message has none.
 */
import type { FindingWords } from '../../diagnosis/finding-words.js';
import type { Finding } from '../../diagnosis/finding.js';
import { defineMessages, registerCatalogue, translate } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { roAfter } from '../../i18n/ko.js';
import { sentenceIn } from '../sentences.js';
import type { RemediationKind, RemediationPlan } from '../../remediation/plan.js';
import { argoPausedWords, deploymentPausedWords } from './paused.js';

type Surge = Extract<FindingWords, { key: 'surge-deadlock' }>['params'];
type SurgeWaits = Extract<FindingWords, { key: 'surge-deadlock-waits' }>['params'];
type SurgeRace = Extract<FindingWords, { key: 'surge-deadlock-race' }>['params'];
type Waits = Pick<
  SurgeWaits,
  | 'waitNames'
  | 'kinds'
  | 'rollouts'
  | 'scaleDown'
  | 'capped'
  | 'one'
  | 'some'
  | 'bound'
  | 'unread'
  | 'starting'
>;
type CrashOnNode = Extract<FindingWords, { key: 'crash-loop-on-node' }>['params'];
/** What the explanations say: fewer facts than the headlines. */
type SurgeWhy = Pick<
  Surge,
  'need' | 'node' | 'maxSurge' | 'maxUnavailable' | 'likely' | 'samePriority' | 'routed'
>;
type CrashWhy = Pick<CrashOnNode, 'badNodes'>;
type QuotaWaits = Extract<FindingWords, { key: 'quota-waits' }>['params'];
type OnDelete = Extract<FindingWords, { key: 'update-on-delete' }>['params'];
type OnDeleteHead = Pick<OnDelete, 'ref' | 'old' | 'total' | 'pods'>;
type OnDeleteWhy = Pick<OnDelete, 'first' | 'command' | 'byOrdinal'>;
type QuotaWaitsHead = Omit<QuotaWaits, 'edit' | 'abort'>;
type QuotaWaitsWhy = Pick<QuotaWaits, 'paused' | 'edit' | 'abort'>;

const waitsAtEn = (p: QuotaWaitsHead): string =>
  p.step === undefined ? 'its promotion after the last step' : `step ${p.step} (${p.action ?? ''})`;
const waitsAtKo = (p: QuotaWaitsHead): string =>
  p.step === undefined ? '마지막 단계 다음의 프로모션' : `${p.step}단계(${p.action ?? ''})`;

/** "while Job batch/etl runs", "while the rollout of deployment ml/beta holds its old pods". */
const whileEn = (p: Waits): string => {
  if (p.scaleDown) return `until deployment ${p.waitNames} scales down`;
  if (p.rollouts) {
    const kind = p.kinds ? '' : `deployment${p.one ? '' : 's'} `;
    const of = `the rollout${p.one ? '' : 's'} of ${kind}${p.waitNames}`;
    return p.some
      ? `while ${of} hold the room`
      : `while ${of} ${p.one ? 'holds its' : 'hold their'} old pods`;
  }
  const jobs = `Job${p.one ? '' : 's'} ${p.waitNames}`;
  return p.some ? `while ${jobs} hold the room` : `while ${jobs} ${p.one ? 'runs' : 'run'}`;
};
const whileKo = (p: Waits): string =>
  p.scaleDown
    ? `Deployment ${p.waitNames}가 ${p.capped ? '오토스케일러가 허용하는 최대 레플리카 수' : '레플리카 수'}까지 줄어들기 전`
    : p.rollouts
      ? `${p.kinds ? '' : 'Deployment '}${p.waitNames}의 롤아웃이 ${p.some ? '자리를' : '기존 파드를'} 점유하는 동안`
      : `${p.waitNames} Job이 ${p.some ? '자리를 점유하는' : '실행되는'} 동안`;
const onceEn = (p: Waits): string =>
  p.scaleDown
    ? p.capped
      ? "It goes on by itself once that Deployment's ReplicaSet removes the pods above what its autoscaler allows at most (maxReplicas), whichever it removes."
      : "It goes on by itself once that Deployment's ReplicaSet removes the pods above its replicas, whichever it removes, unless an autoscaler raises them back first."
    : p.rollouts
      ? `It can go on by itself once ${p.one ? 'that rollout removes its' : 'those rollouts remove their'} old pods${p.starting ? `, after ${p.one ? 'its' : 'their'} new pods are Ready` : ''}, unless new pods of ${p.one ? 'that rollout' : 'theirs'} take the room first${p.unread ? ` or ${p.one ? 'it is' : 'they are'} paused (not read)` : ''}.`
      : `It ${p.bound ? 'can go' : 'goes'} on by itself once ${p.one ? 'that Job ends' : p.some ? 'enough of them end' : 'those Jobs end'}.`;
const onceKo = (p: Waits): string =>
  p.scaleDown
    ? p.capped
      ? '그 Deployment의 ReplicaSet이 오토스케일러가 허용하는 최대 레플리카 수(maxReplicas)를 넘는 파드를 내리면, 어느 파드를 내리든 롤아웃이 스스로 이어집니다.'
      : '그 Deployment의 ReplicaSet이 레플리카 수를 넘는 파드를 내리면, 어느 파드를 내리든 롤아웃이 스스로 이어집니다. 다만 오토스케일러가 먼저 레플리카 수를 다시 올리면 이어지지 않습니다.'
    : p.rollouts
      ? `그 롤아웃이${p.starting ? ' 새 파드가 Ready가 된 뒤' : ''} 기존 파드를 내리면 스스로 이어질 수 있습니다. 다만 그 롤아웃의 새 파드가 먼저 자리를 차지하면 이어지지 않습니다.${p.unread ? ' 그 Deployment는 읽지 않아서 일시 중지되어 있는지 알 수 없습니다.' : ''}`
      : `${p.some ? '그중 충분한 수의 Job이' : 'Job이'} 끝나면 스스로 이어${p.bound ? '질 수 있습니다' : '집니다'}.`;

const exitEn = (p: CrashOnNode): string =>
  p.exitCode === undefined ? '' : `, last exit code ${p.exitCode}${p.reason ? ` (${p.reason})` : ''}`;
const exitKo = (p: CrashOnNode): string =>
  p.exitCode === undefined ? '' : `(마지막 종료 코드 ${p.exitCode}${p.reason ? `, ${p.reason}` : ''})`;

/** A surge deadlock's facts, the samples of its keys start from. */
const SURGE_SAMPLE: Surge = {
  name: 'tracker',
  kind: 'Deployment',
  pod: 'tracker-new',
  node: 'gpu-node-1',
  need: 'nvidia.com/gpu',
  holders: 'tracker-old',
  maxSurge: 1,
  maxUnavailable: 0,
  likely: false,
};

const FINDING_WORDS = registerCatalogue(
  'finding',
  defineMessages({
    'surge-deadlock': {
      en: (p: Surge) =>
        `Rollout of ${p.name} ${p.likely ? 'probably can never finish' : 'can never finish'}: new pod ${p.pod} needs ${p.need} on ${p.node}, held by old pod(s) ${p.holders} of this ${p.kind}, and maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable} keeps old pods until new ones are Ready.`,
      ko: (p: Surge) =>
        `${p.name} 롤아웃이 ${p.likely ? '끝나지 않을 가능성이 높습니다' : '끝나지 않습니다'}: 새 파드(${p.pod})에 필요한 ${p.node} 노드의 ${p.need} 자원을 이 ${p.kind}의 기존 파드(${p.holders})가 점유하고 있습니다. maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable} 설정에서는 새 파드가 Ready가 되기 전에 기존 파드가 삭제되지 않습니다.`,
    },
    'surge-deadlock-waits': {
      en: (p: SurgeWaits) =>
        `Rollout of ${p.name} ${p.likely ? 'probably cannot' : 'cannot'} finish ${whileEn(p)}: new pod ${p.pod} needs ${p.need} on ${p.node}, held by old pod(s) ${p.holders} of this ${p.kind}, and maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable} keeps old pods until new ones are Ready. ${onceEn(p)}`,
      ko: (p: SurgeWaits) =>
        `${p.name} 롤아웃은 ${whileKo(p)}에는 ${p.likely ? '끝나지 않을 가능성이 높습니다' : '끝나지 않습니다'}: 새 파드(${p.pod})에 필요한 ${p.node} 노드의 ${p.need} 자원을 이 ${p.kind}의 기존 파드(${p.holders})가 점유하고 있습니다. maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable} 설정에서는 새 파드가 Ready가 되기 전에 기존 파드가 삭제되지 않습니다. ${onceKo(p)}`,
    },
    'surge-deadlock-race': {
      en: (p: SurgeRace) =>
        `Rollout of ${p.name} may never finish: new pod ${p.pod} needs ${p.need} on ${p.node}, held by old pod(s) ${p.holders} of this ${p.kind}, and maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable} keeps old pods until new ones are Ready. Whether it finishes turns on the scheduler's queue: the Pending pods of ${p.rivals} want the same room at the same priority, and which goes first is not known from here; placed first, they take it and the rollout stops here; placed after ours, it finishes by itself.`,
      ko: (p: SurgeRace) =>
        `${p.name} 롤아웃이 끝나지 않을 수 있습니다: 새 파드(${p.pod})에 필요한 ${p.node} 노드의 ${p.need} 자원을 이 ${p.kind}의 기존 파드(${p.holders})가 점유하고 있습니다. maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable} 설정에서는 새 파드가 Ready가 되기 전에 기존 파드가 삭제되지 않습니다. 끝날지는 스케줄러 큐의 순서에 달려 있습니다. ${p.rivals}의 Pending 파드가 같은 우선순위로 같은 자리를 기다리고, 어느 쪽이 먼저인지는 여기서 알 수 없습니다. 그 파드가 먼저 배치되면 자리를 차지해서 롤아웃이 여기서 멈추고, 이 롤아웃의 파드가 먼저 배치되면 스스로 끝납니다.`,
    },
    'race-why': {
      en: (p: { rivals: string }) =>
        `Only if the Pending pods of ${p.rivals} take the room first: run forward with ours placed first, the controllers finish the rollout. Then:`,
      ko: (p: { rivals: string }) =>
        `${p.rivals}의 Pending 파드가 먼저 자리를 차지할 때만 그렇습니다. 이 롤아웃의 파드를 먼저 배치하고 따라가면 컨트롤러가 롤아웃을 끝냅니다. 그 경우:`,
    },
    'waits-why': {
      en: (p: Waits) =>
        `Only ${whileEn(p)}: ${p.bound ? `with ${p.one ? 'its' : 'their'} pods gone, the nodes have room for it (the note says which pods).` : `run forward with ${p.one ? 'its' : 'their'} pods gone, the controllers finish the rollout (the note says how).`}`,
      ko: (p: Waits) =>
        `${whileKo(p)}에만 그렇습니다. ${p.bound ? '그 파드가 없으면 노드에 자리가 있습니다(참고에 어떤 파드인지 있습니다).' : '그 파드가 없다고 보고 따라가면 컨트롤러가 롤아웃을 끝냅니다(참고에 과정이 있습니다).'}`,
    },
    'surge-deadlock-why': {
      en: (p: SurgeWhy) =>
        `${p.routed ? 'A traffic-routed canary keeps every stable pod until it is promoted, and its canary pods start beside them (maxSurge and maxUnavailable do not apply).' : `The controller creates new pods first (maxSurge ${p.maxSurge}) and removes an old pod only after a new one is Ready (maxUnavailable ${p.maxUnavailable}).`} So each side waits for the other: the new pod for the old pod's ${p.need}, the old pod for the new pod to become Ready. ${p.samePriority === false ? 'The scheduler does not preempt the old pod for it.' : 'The scheduler cannot preempt the old pod, which has the same priority.'} ` +
        (p.likely
          ? `It is likely, not proved: some of what holds room on ${p.node} was not read, and no strategy change is offered until it is.`
          : `Letting the old pods go first frees room on ${p.node} (maxSurge 0, maxUnavailable 1, or Recreate); then restart the rollout so the stuck Pending pod is replaced.`),
      ko: (p: SurgeWhy) =>
        `${p.routed ? '트래픽 라우팅을 쓰는 카나리는 프로모션할 때까지 안정 버전 파드를 모두 유지하고, 카나리 파드는 그 옆에서 시작합니다(maxSurge와 maxUnavailable은 적용되지 않습니다).' : `컨트롤러는 새 파드를 먼저 만들고(maxSurge ${p.maxSurge}), 새 파드가 Ready가 된 뒤에야 기존 파드를 삭제합니다(maxUnavailable ${p.maxUnavailable}).`} 새 파드는 기존 파드가 점유한 ${p.need} 자원을 기다리고, 기존 파드는 새 파드가 Ready가 되기를 기다립니다. 서로를 기다리는 교착 상태(deadlock)입니다. ${p.samePriority === false ? '스케줄러는 새 파드를 위해 기존 파드를 선점하지 않습니다.' : '두 파드의 우선순위가 같아서 스케줄러가 기존 파드를 선점할 수도 없습니다.'} ` +
        (p.likely
          ? `다만 ${p.node} 노드에서 읽지 못한 정보가 있어 아직 추정입니다. 확인되기 전에는 전략 변경을 제안하지 않습니다.`
          : `기존 파드를 먼저 내리면(maxSurge 0, maxUnavailable 1 또는 Recreate) ${p.node} 노드에 자리가 생깁니다. 그다음 롤아웃을 재시작해서 Pending 상태로 멈춘 새 파드를 교체합니다.`),
    },
    'crash-loop-on-node': {
      en: (p: CrashOnNode) =>
        `${p.name} crash-loops only on ${p.badNodes}: ${p.containers} fails in ${p.crashing} of ${p.total} pods${exitEn(p)}; the same template runs Ready on ${p.goodNodes}.`,
      ko: (p: CrashOnNode) =>
        `${p.name}의 파드가 ${p.badNodes} 노드에서만 CrashLoopBackOff를 반복합니다: 파드 ${p.total}개 중 ${p.crashing}개에서 ${p.containers} 컨테이너가 실패합니다${exitKo(p)}. 같은 템플릿이 ${p.goodNodes} 노드에서는 Ready 상태로 잘 동작합니다.`,
    },
    'crash-loop-on-node-why': {
      en: (p: CrashWhy) =>
        `Every pod comes from the same template, so image, command and configuration are identical; it fails only on ${p.badNodes}, so the cause is on the node, not in the application. Stopgap: exclude the node with a required nodeAffinity NotIn and replace the crashing pods; the cause on the node still needs finding.`,
      ko: (p: CrashWhy) =>
        `모든 파드가 같은 템플릿에서 만들어져 이미지, 명령, 설정이 같습니다. 그런데 ${p.badNodes} 노드에서만 실패하므로 원인은 애플리케이션이 아니라 노드 쪽에 있습니다. 임시 조치로 nodeAffinity의 NotIn으로 해당 노드를 제외하고, CrashLoopBackOff 상태인 파드를 교체합니다. 근본 원인(커널, 컨테이너 런타임, 하드웨어 등 노드의 차이)은 따로 찾아야 합니다.`,
    },
    'quota-waits': {
      en: (p: QuotaWaitsHead) =>
        `Once ${p.paused ? 'resumed' : 'it gets there'}, ${p.ref} waits at ${waitsAtEn(p)}: it needs ${p.canary} canary and ${p.stable} stable pods (${p.resource} ${p.ours}), which ResourceQuota ${p.quota} (hard ${p.hard}) holds only without the ${p.count} other pod(s) of the namespace it also charges (${p.pods}).`,
      ko: (p: QuotaWaitsHead) =>
        `${p.ref}: ${p.paused ? '재개하면' : '진행하면'} ${waitsAtKo(p)}에서 기다리게 됩니다. 카나리 파드 ${p.canary}개와 기존 파드 ${p.stable}개가 함께 필요한데(${p.resource} ${p.ours}), ResourceQuota(${p.quota}, 상한 ${p.hard})는 같은 네임스페이스의 다른 파드 ${p.count}개(${p.pods})가 빠져야 이를 허용합니다.`,
    },
    'quota-waits-why': {
      en: (p: QuotaWaitsWhy) =>
        `A ResourceQuota charges every pod of its namespace: quota admission refuses the step's pods past the hard limit until enough of the other pods leave. A Job's pods leave when it ends; pods a controller keeps running (a Deployment's, for one) stay until it scales them down. Raise the quota's hard limit (${p.edit}), or ${p.paused ? 'promote' : 'let it wait'} once they are gone; ${p.abort} keeps the stable pods serving.`,
      ko: (p: QuotaWaitsWhy) =>
        `ResourceQuota는 네임스페이스의 모든 파드에 적용됩니다. 상한을 넘는 파드는 다른 파드가 충분히 빠질 때까지 생성이 거부됩니다. 배치 작업의 파드는 작업이 끝나면 빠지고, 컨트롤러가 유지하는 파드는 소유자가 줄이기 전까지 남습니다. 쿼터 상한을 올리거나(${p.edit}), 그 파드들이 빠진 뒤에 ${p.paused ? '프로모션합니다' : '기다립니다'}. 중단하면(${p.abort}) 기존 파드가 계속 서비스합니다.`,
    },
    'update-on-delete': {
      en: (p: OnDeleteHead) =>
        `${p.ref} has an update waiting: ${p.old} of ${p.total} pods still run an old revision (${p.pods}), and under updateStrategy OnDelete the controller replaces a pod only once someone deletes it. Nothing rolls the update out by itself.`,
      ko: (p: OnDeleteHead) =>
        `${p.ref}: 업데이트가 대기 중입니다. 파드 ${p.total}개 중 ${p.old}개(${p.pods})가 아직 이전 리비전으로 실행 중이고, updateStrategy가 OnDelete라서 컨트롤러는 누군가 파드를 삭제해야만 그 파드를 교체합니다. 업데이트는 저절로 진행되지 않습니다.`,
    },
    'update-on-delete-why': {
      en: (p: OnDeleteWhy) =>
        `To roll it out, delete the old pods ${p.byOrdinal ? `one at a time from the highest ordinal down, as the controller's own rolling update would (${p.first} first: ${p.command})` : `node by node (${p.first} first: ${p.command})`}, waiting for each replacement to be Ready; or set spec.updateStrategy to RollingUpdate and let the controller replace them.`,
      ko: (p: OnDeleteWhy) =>
        `업데이트하려면 이전 파드를 ${p.byOrdinal ? `컨트롤러의 롤링 업데이트처럼 서수가 큰 것부터 하나씩` : '노드마다 하나씩'} 삭제하고(먼저 ${p.first}: ${p.command}), 새 파드가 Ready가 될 때까지 기다립니다. 또는 spec.updateStrategy를 RollingUpdate로 바꿔 컨트롤러가 교체하게 합니다.`,
    },
    'set-rolling-update': {
      en: (p: { maxSurge: string; maxUnavailable: string; restart: boolean }) =>
        `Let old pods go first: RollingUpdate maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable}${p.restart ? ', and restart the rollout so the stuck pod is replaced' : ''}.`,
      ko: (p: { maxSurge: string; maxUnavailable: string; restart: boolean }) =>
        `기존 파드를 먼저 내립니다: RollingUpdate maxSurge ${p.maxSurge}, maxUnavailable ${p.maxUnavailable}${p.restart ? '. 롤아웃을 재시작해서 멈춘 파드를 교체합니다' : ''}.`,
    },
    'set-recreate': {
      en: (p: { restart: boolean }) =>
        `Switch to Recreate${p.restart ? ' and restart the rollout so the stuck pod is replaced' : ''}.`,
      ko: (p: { restart: boolean }) =>
        `전략을 Recreate로 바꿉니다${p.restart ? '. 롤아웃을 재시작해서 멈춘 파드를 교체합니다' : ''}.`,
    },
    'scale-old-replicaset': {
      en: (p: { replicaSet: string; from: number; to: number }) =>
        `Scale the old ReplicaSet ${p.replicaSet} from ${p.from} to ${p.to} so the new pod can take its place; the Deployment spec is not changed.`,
      ko: (p: { replicaSet: string; from: number; to: number }) =>
        `기존 ReplicaSet(${p.replicaSet})의 replicas를 ${p.from}에서 ${p.to}${roAfter(p.to)} 줄여 새 파드가 자리를 얻게 합니다. Deployment 스펙은 바꾸지 않습니다.`,
    },
    'exclude-node': {
      en: (p: { nodes: string; waits?: string }) =>
        p.waits
          ? `Keep the pods off ${p.nodes} (required nodeAffinity NotIn); ${p.waits} move only once deleted after it (delete-pods).`
          : `Keep the pods off ${p.nodes} (required nodeAffinity NotIn) and replace the crashing pods.`,
      ko: (p: { nodes: string; waits?: string }) =>
        p.waits
          ? `nodeAffinity(NotIn)로 ${p.nodes} 노드를 제외합니다. ${p.waits} 파드는 그 뒤에 삭제해야 다른 노드로 옮겨집니다(delete-pods).`
          : `nodeAffinity(NotIn)로 ${p.nodes} 노드를 제외하고, CrashLoopBackOff 상태인 파드를 다른 노드의 새 파드로 교체합니다.`,
    },
    'rollout-restart': {
      en: () => 'Restart the rollout: every pod is replaced.',
      ko: () => '롤아웃을 재시작합니다. 모든 파드가 교체됩니다.',
    },
    'delete-pods': {
      en: (p: { pods: string; after?: boolean }) =>
        p.after
          ? `After exclude-node, delete pods ${p.pods}; their controller makes them again from the template with the exclusion.`
          : `Delete pods ${p.pods}; their controller replaces them.`,
      ko: (p: { pods: string; after?: boolean }) =>
        p.after
          ? `exclude-node를 적용한 뒤 파드를 삭제합니다(${p.pods}). 컨트롤러가 제외가 들어간 템플릿으로 다시 만듭니다.`
          : `파드를 삭제합니다(${p.pods}). 컨트롤러가 새 파드로 교체합니다.`,
    },
  }),
  {
    'surge-deadlock': [SURGE_SAMPLE, { ...SURGE_SAMPLE, likely: true }],
    'surge-deadlock-waits': [
      {
        ...SURGE_SAMPLE,
        waitNames: 'batch/train',
        kinds: false,
        rollouts: false,
        scaleDown: false,
        capped: false,
        one: true,
        some: false,
        bound: false,
        unread: false,
        starting: false,
      },
      {
        ...SURGE_SAMPLE,
        kind: 'Rollout',
        waitNames: 'ml/beta',
        kinds: false,
        rollouts: true,
        scaleDown: false,
        capped: false,
        one: true,
        some: false,
        bound: true,
        unread: true,
        starting: true,
      },
      {
        ...SURGE_SAMPLE,
        waitNames: 'ml/beta',
        kinds: false,
        rollouts: false,
        scaleDown: true,
        capped: false,
        one: true,
        some: false,
        bound: false,
        unread: false,
        starting: false,
      },
      {
        ...SURGE_SAMPLE,
        waitNames: 'ml/beta',
        kinds: false,
        rollouts: false,
        scaleDown: true,
        capped: true,
        one: true,
        some: false,
        bound: false,
        unread: false,
        starting: false,
      },
      {
        ...SURGE_SAMPLE,
        waitNames: 'Rollout ml/beta',
        kinds: true,
        rollouts: true,
        scaleDown: false,
        capped: false,
        one: true,
        some: false,
        bound: false,
        unread: false,
        starting: false,
      },
    ],
    'surge-deadlock-race': [{ ...SURGE_SAMPLE, rivals: 'deployment ml/beta' }],
    'race-why': [{ rivals: 'deployment ml/beta' }],
    'waits-why': [
      {
        waitNames: 'batch/train',
        kinds: false,
        rollouts: false,
        scaleDown: false,
        capped: false,
        one: true,
        some: false,
        bound: false,
        unread: false,
        starting: false,
      },
      {
        waitNames: 'batch/a, batch/b',
        kinds: false,
        rollouts: false,
        scaleDown: false,
        capped: false,
        one: false,
        some: true,
        bound: true,
        unread: false,
        starting: false,
      },
      {
        waitNames: 'ml/beta, ml/gamma',
        kinds: false,
        rollouts: true,
        scaleDown: false,
        capped: false,
        one: false,
        some: false,
        bound: false,
        unread: true,
        starting: true,
      },
      {
        waitNames: 'ml/beta',
        kinds: false,
        rollouts: false,
        scaleDown: true,
        capped: false,
        one: true,
        some: false,
        bound: false,
        unread: false,
        starting: false,
      },
      {
        waitNames: 'deployment ml/beta, Rollout ml/gamma',
        kinds: true,
        rollouts: true,
        scaleDown: false,
        capped: false,
        one: false,
        some: true,
        bound: false,
        unread: false,
        starting: false,
      },
    ],
    'surge-deadlock-why': [
      { node: 'gpu-node-1', need: 'nvidia.com/gpu', maxSurge: 1, maxUnavailable: 0, likely: false },
      { node: 'gpu-node-1', need: 'nvidia.com/gpu', maxSurge: 1, maxUnavailable: 0, likely: true },
      {
        node: 'gpu-node-1',
        need: 'nvidia.com/gpu',
        maxSurge: 1,
        maxUnavailable: 0,
        likely: false,
        samePriority: false,
      },
      {
        node: 'gpu-node-1',
        need: 'nvidia.com/gpu',
        maxSurge: 2,
        maxUnavailable: 0,
        likely: false,
        routed: true,
      },
    ],
    'crash-loop-on-node': [
      {
        name: 'checkout',
        badNodes: 'node-b',
        goodNodes: 'node-a, node-c',
        containers: 'app',
        crashing: 1,
        total: 3,
        exitCode: 139,
        reason: 'Error',
      },
      { name: 'checkout', badNodes: 'node-b', goodNodes: 'node-a', containers: 'app', crashing: 1, total: 2 },
    ],
    'crash-loop-on-node-why': [{ badNodes: 'node-b' }],
    'quota-waits': [
      {
        ref: 'rollout/ranker',
        paused: true,
        step: 3,
        action: 'setWeight 80',
        canary: 3,
        stable: 3,
        quota: 'vision-pods',
        resource: 'pods',
        ours: '6',
        hard: '7',
        count: 2,
        pods: 'report-1-x1 (Job report-1), report-2-x1 (Job report-2)',
      },
      {
        ref: 'rollout/ranker',
        paused: false,
        canary: 3,
        stable: 3,
        quota: 'vision-pods',
        resource: 'pods',
        ours: '6',
        hard: '7',
        count: 1,
        pods: 'report-1-x1 (Job report-1)',
      },
    ],
    'quota-waits-why': [
      {
        paused: true,
        edit: '`kubectl edit resourcequota vision-pods -n vision`',
        abort: '`kubectl argo rollouts abort ranker -n vision`',
      },
    ],
    'update-on-delete': [
      {
        ref: 'statefulset/db',
        old: 3,
        total: 3,
        pods: 'db-2, db-1, db-0',
      },
    ],
    'update-on-delete-why': [
      { first: 'db-2', command: '`kubectl delete pod db-2 -n data`', byOrdinal: true },
      { first: 'agent-x1', command: '`kubectl delete pod agent-x1 -n mon`', byOrdinal: false },
    ],
    'set-rolling-update': [
      { maxSurge: '0', maxUnavailable: '1', restart: true },
      { maxSurge: '0', maxUnavailable: '1', restart: false },
    ],
    'set-recreate': [{ restart: true }, { restart: false }],
    'scale-old-replicaset': [{ replicaSet: 'tracker-5c6b', from: 1, to: 0 }],
    'exclude-node': [{ nodes: 'node-b' }, { nodes: 'node-a', waits: 'web-1' }],
    'rollout-restart': [{}],
    'delete-pods': [{ pods: 'tracker-7d9-q4w8z' }, { pods: 'web-1', after: true }],
  },
);

/** A finding's headline for `lang`: the engine's summary in English, the catalogue's otherwise when the finding says its facts. */
export function findingSummary(finding: Pick<Finding, 'summary' | 'says'>, lang: Lang): string {
  if (lang === 'en') return finding.summary;
  if (!finding.says) return sentenceIn(finding.summary, lang);
  return findingWords(finding.says, lang).summary;
}

/** A finding's explanation for `lang`, as findingSummary chooses. */
export function findingExplanation(finding: Finding, lang: Lang): string | undefined {
  if (lang === 'en') return finding.explanation;
  if (!finding.says)
    return finding.explanation === undefined ? undefined : sentenceIn(finding.explanation, lang);
  return findingWords(finding.says, lang).explanation;
}

function findingWords(says: FindingWords, lang: Lang): { summary: string; explanation: string } {
  switch (says.key) {
    case 'surge-deadlock':
      return {
        summary: translate(FINDING_WORDS, lang, 'surge-deadlock', says.params),
        explanation: translate(FINDING_WORDS, lang, 'surge-deadlock-why', says.params),
      };
    case 'surge-deadlock-waits':
      return {
        summary: translate(FINDING_WORDS, lang, 'surge-deadlock-waits', says.params),
        explanation: `${translate(FINDING_WORDS, lang, 'waits-why', says.params)} ${translate(FINDING_WORDS, lang, 'surge-deadlock-why', says.params)}`,
      };
    case 'surge-deadlock-race':
      return {
        summary: translate(FINDING_WORDS, lang, 'surge-deadlock-race', says.params),
        explanation: `${translate(FINDING_WORDS, lang, 'race-why', says.params)} ${translate(FINDING_WORDS, lang, 'surge-deadlock-why', says.params)}`,
      };
    case 'crash-loop-on-node':
      return {
        summary: translate(FINDING_WORDS, lang, 'crash-loop-on-node', says.params),
        explanation: translate(FINDING_WORDS, lang, 'crash-loop-on-node-why', says.params),
      };
    case 'argo-paused':
      return argoPausedWords(says.params, lang);
    case 'deployment-paused':
      return deploymentPausedWords(says.params, lang);
    case 'quota-waits':
      return {
        summary: translate(FINDING_WORDS, lang, 'quota-waits', says.params),
        explanation: translate(FINDING_WORDS, lang, 'quota-waits-why', says.params),
      };
    case 'update-on-delete':
      return {
        summary: translate(FINDING_WORDS, lang, 'update-on-delete', says.params),
        explanation: translate(FINDING_WORDS, lang, 'update-on-delete-why', says.params),
      };
  }
}

/**
 * A plan's one-line summary for `lang`: its own in English, else from its kind and
 * patch, by the table below (the English one when its kind has no entry there).
 */
export function planSummary(plan: RemediationPlan, lang: Lang): string {
  if (lang === 'en') return plan.summary;
  return PLAN_WORDS[plan.kind]?.(plan, lang) ?? plan.summary;
}

type PatchBody = { spec?: { strategy?: { rollingUpdate?: Record<string, unknown> }; template?: unknown } };
const bodyOf = (plan: RemediationPlan): PatchBody | undefined => plan.patch?.body as PatchBody | undefined;
const restarts = (plan: RemediationPlan): boolean =>
  JSON.stringify(bodyOf(plan)?.spec?.template ?? {}).includes('restartedAt');

/** What each kind's plan says, from its data (a table, so that no kind is branched on by name). */
const PLAN_WORDS: Partial<
  Record<RemediationKind, (plan: RemediationPlan, lang: Lang) => string | undefined>
> = {
  'set-rolling-update': (plan, lang) => {
    const rolling = bodyOf(plan)?.spec?.strategy?.rollingUpdate ?? {};
    return translate(FINDING_WORDS, lang, 'set-rolling-update', {
      maxSurge: String(rolling['maxSurge'] ?? '25%'),
      maxUnavailable: String(rolling['maxUnavailable'] ?? '25%'),
      restart: restarts(plan),
    });
  },
  'set-recreate': (plan, lang) => translate(FINDING_WORDS, lang, 'set-recreate', { restart: restarts(plan) }),
  'scale-old-replicaset': (plan, lang) =>
    plan.replicaSet
      ? translate(FINDING_WORDS, lang, 'scale-old-replicaset', {
          replicaSet: plan.replicaSet.name,
          from: plan.replicaSet.replicas,
          to: plan.replicaSet.to,
        })
      : undefined,
  'exclude-node': (plan, lang) => {
    const nodes = excludedNodes(plan.patch?.body);
    // The pods the controller waits to see deleted before the exclusion reaches them (exclusion-waits.ts).
    const said = plan.impactSaid;
    const waits = said?.key === 'excludeHost' || said?.key === 'excludeLabel' ? said.params.waits : undefined;
    return nodes.length > 0
      ? translate(FINDING_WORDS, lang, 'exclude-node', {
          nodes: nodes.join(', '),
          ...(waits ? { waits } : {}),
        })
      : undefined;
  },
  'rollout-restart': (_plan, lang) => translate(FINDING_WORDS, lang, 'rollout-restart'),
  'delete-pods': (plan, lang) =>
    plan.pods
      ? translate(FINDING_WORDS, lang, 'delete-pods', {
          pods: plan.pods.map((p) => p.name).join(', '),
          // Bound to the affinity exclude-node writes: meant for after it (builders/delete-pods.ts).
          after: plan.preconditions.fields.some((f) => f.path === '/spec/template/spec/affinity'),
        })
      : undefined,
};

/** The hostnames a patch's `kubernetes.io/hostname NotIn` expressions exclude. */
function excludedNodes(body: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const v = value as Record<string, unknown>;
      if (v['key'] === 'kubernetes.io/hostname' && v['operator'] === 'NotIn' && Array.isArray(v['values']))
        out.push(...v['values'].filter((x): x is string => typeof x === 'string'));
      else Object.values(v).forEach(walk);
    }
  };
  walk(body);
  return [...new Set(out)];
}
