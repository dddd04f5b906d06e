/**
 * `check`'s own sentences (its text output, render.ts, and its SARIF result messages,
 * sarif.ts), in every language. Finding codes, kinds, field names, paths and the fix's
 * YAML never translate; the English entries are the output's wording before the
 * catalogue, byte for byte. Values from the manifests or the cluster arrive as
 * parameters, already made one line (render.ts lineValue) or defanged (sarif.ts).
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import type { StoredSays } from './stored-fields.js';
import { whyInWords } from '../diagnosis/forward/model-why.js';

/** `stored`: the default the API stores in its place, where it writes one (replicas: 1). */
type Omitted = { path: string; live?: string; stored?: string; why: string };
type Deadlock = {
  ref: string;
  need?: string;
  fix: string;
  budget?: string;
  floor?: number;
  serving?: number;
};
/** What the Fix does to a PodDisruptionBudget's floor (strategy-fix.ts `below`). */
type BelowBudget = Pick<Deadlock, 'budget' | 'floor' | 'serving'>;
/** A rollout that waits for Jobs to end (job-wait.ts): their names, one or several, each or enough of them. */
type JobWait = { ref: string; jobs: string; one: boolean; some: boolean; fix?: string };

/** A new pod pinned by its volume to nodes without room for it (predict.ts pinnedBlock). */
type Pinned = { ref: string; pod: string; claim: string; volume: string; nodes: string; need?: string };
/** A node group a scale-up would grow (scale-up.ts): its name, whether Karpenter's, its nodes now. */
export type ScaleGroup = { name: string; karpenter: boolean; nodes: number };

/** A rollout whose new pods preempt pods of lower priority (predict.ts preemptions): `ours` of `replicas` its own. */
type Preempts = { ref: string; victims: string; count: number; ours: number; replicas: number };

/** What a rollout does under one outcome of the apply (check.ts storedNotKnown). */
export type Fate = { verdict: 'finishes' | 'never-finishes' | 'unknown'; reason?: string };

/** A prediction's sentences as the catalogue says them: the key and its parameters. */
export type CheckSays =
  | { key: 'notJudged'; why: 'notJudgedWhy'; params: { why: string } }
  | { key: 'storedNotKnown'; why: 'storedNotKnownWhy'; params: { fields: string; kept: Fate; dropped: Fate } }
  | { key: 'pinned'; why: 'pinnedWhy'; params: Pinned }
  | { key: 'stableKept'; why: 'stableKeptWhy'; params: { ref: string; blueGreen: boolean; need?: string } }
  | { key: 'scaleUp'; why: 'scaleUpWhy'; params: { ref: string; n: number; groups: readonly ScaleGroup[] } }
  | {
      key: 'scaleUpNotKnown';
      why: 'scaleUpNotKnownWhy';
      params: { ref: string; groups: readonly ScaleGroup[] };
    }
  | { key: 'deadlock'; why: 'deadlockWhy'; params: Deadlock }
  | { key: 'noNode'; why: 'noNodeWhy'; params: { ref: string; need?: string } }
  | { key: 'quota'; why: 'quotaWhy'; params: { ref: string; quota: string } }
  | { key: 'stuck'; why: 'stuckWhy'; params: { ref: string } }
  | { key: 'preempts'; why: 'preemptsWhy'; params: Preempts }
  | { key: 'jobWait'; why: 'jobWaitWhy'; params: JobWait }
  | {
      key: 'notKnown';
      why:
        | 'notKnownWhy'
        | 'admissionUnknownWhy'
        | 'runtimeClassUnknownWhy'
        | 'referencesUnknownWhy'
        | 'holdsUnknownWhy';
      params: { ref: string; why: string };
    }
  | {
      key: 'applyRefused';
      why:
        | 'applySelectorEmptyWhy'
        | 'applySelectorMismatchWhy'
        | 'applyImmutableWhy'
        | 'applyForbiddenWhy'
        | 'applyStrategyWhy'
        | 'applyResourcesWhy';
      params: ApplyRefused;
    }
  | {
      key: 'admissionDenied';
      why: 'admissionQuotaWhy' | 'admissionLimitWhy' | 'admissionPriorityWhy';
      params: { ref: string; object: string; message: string };
    };

/** An apply the API server refuses (refused-apply.ts): its message as kubectl prints it, the fields it names. */
type ApplyRefused = { ref: string; message: string; fields: string };

/** The counts of check's last line, by verdict. */
interface Tally {
  total: number;
  /** Can never finish (not those below). */
  never: number;
  /** Cannot finish while running Jobs hold their room (job-wait.ts). */
  waiting: number;
  /** Refused by the API server: nothing is stored, no rollout (refused-apply.ts). */
  refused: number;
  unknown: number;
  finishes: number;
  none: number;
  others: number;
}

export const CHECK_WORDS = registerCatalogue(
  'check',
  defineMessages({
    finishes: { en: () => 'will finish', ko: () => '롤아웃이 끝납니다' },
    neverFinishes: { en: () => 'CAN NEVER FINISH', ko: () => '롤아웃이 절대 끝나지 않습니다' },
    whileJobsRun: {
      en: () => 'CANNOT FINISH WHILE JOBS RUN',
      ko: () => 'Job이 끝나기 전에는 롤아웃이 끝나지 않습니다',
    },
    applyRefusedLabel: { en: () => 'APPLY REFUSED', ko: () => 'API 서버가 적용을 거부합니다' },
    unknown: { en: () => 'not known', ko: () => '알 수 없습니다' },
    noRollout: { en: () => 'no rollout', ko: () => '롤아웃 없음' },
    newObject: { en: () => 'new object', ko: () => '새 객체' },
    templateChanges: {
      en: (p: { changes: string }) => `template changes: ${p.changes}`,
      ko: (p: { changes: string }) => `템플릿 변경: ${p.changes}`,
    },
    renderedFrom: {
      en: (p: { template: string }) => `from ${p.template}`,
      ko: (p: { template: string }) => `원본 템플릿: ${p.template}`,
    },
    omitted: {
      en: (p: Omitted) =>
        `The manifest leaves out ${p.path}: the apply ${p.live === undefined ? (p.stored === undefined ? 'removes it (the default applies)' : `removes it and the API stores its default, ${p.stored}`) : `keeps the live value ${p.live}`}; ${p.why}.`,
      ko: (p: Omitted) =>
        `매니페스트에 ${p.path} 필드가 없습니다. 적용하면 ${p.live === undefined ? (p.stored === undefined ? '이 필드가 지워지고 기본값이 쓰입니다' : `이 필드가 지워지고 API가 기본값 ${p.stored}을(를) 저장합니다`) : `현재 값(${p.live})이 유지됩니다`}. 이유: ${p.why}.`,
    },
    neverSet: {
      en: (p: { who: string }) => `the manifest ${p.who} last applied never set it, so the apply keeps it`,
      ko: (p: { who: string }) =>
        `마지막으로 적용한 매니페스트(${p.who})가 이 필드를 설정한 적이 없어서, 적용해도 현재 값이 유지됩니다`,
    },
    alsoHeld: {
      en: (p: { others: string }) => `${p.others} also hold it, so the apply leaves it`,
      ko: (p: { others: string }) =>
        `다른 필드 관리자(${p.others})도 이 필드를 갖고 있어서, 적용해도 그대로 남습니다`,
    },
    dropped: {
      en: (p: { who: string }) =>
        `the manifest ${p.who} last applied set it and this one drops it, so the apply removes it and the default applies`,
      ko: (p: { who: string }) =>
        `마지막으로 적용한 매니페스트(${p.who})에는 이 필드가 있었는데 이번 매니페스트에는 없어서, 적용하면 필드가 지워지고 기본값이 쓰입니다`,
    },
    acceptedAnnotation: {
      en: (p: { reason: string }) => ` (accepted in the annotation: ${p.reason})`,
      ko: (p: { reason: string }) => ` (어노테이션에서 수용함: ${p.reason})`,
    },
    acceptedBaseline: {
      en: (p: { reason: string }) => ` (accepted in the baseline: ${p.reason})`,
      ko: (p: { reason: string }) => ` (베이스라인 파일에서 수용함: ${p.reason})`,
    },
    fix: {
      en: (p: { words: string }) => `Fix: set ${p.words} in the manifest (a merge into the object):`,
      ko: (p: { words: string }) => `조치: 매니페스트에 ${p.words} 설정을 넣습니다(객체에 병합됩니다):`,
    },
    noWorkloads: {
      en: (p: { titles: string }) => `No ${p.titles} in the manifests.`,
      ko: (p: { titles: string }) => `매니페스트에 판정할 워크로드(${p.titles})가 없습니다.`,
    },
    tally: {
      en: (p: Tally) =>
        `${p.total} workload(s): ${p.never} can never finish, ${p.waiting > 0 ? `${p.waiting} cannot finish while Jobs run, ` : ''}${p.refused > 0 ? `${p.refused} refused by the API server, ` : ''}${p.unknown} not known, ${p.finishes} will finish, ${p.none} start no rollout${p.others > 0 ? ` (${p.others} other object(s) not judged)` : ''}.`,
      ko: (p: Tally) =>
        `워크로드 ${p.total}개: 끝나지 않음 ${p.never}개, ${p.waiting > 0 ? `Job이 끝나야 끝남 ${p.waiting}개, ` : ''}${p.refused > 0 ? `API 서버가 거부함 ${p.refused}개, ` : ''}알 수 없음 ${p.unknown}개, 끝남 ${p.finishes}개, 롤아웃 없음 ${p.none}개${p.others > 0 ? ` (판정하지 않은 다른 객체 ${p.others}개)` : ''}.`,
    },
    note: { en: (p: { text: string }) => `Note: ${p.text}`, ko: (p: { text: string }) => `참고: ${p.text}` },
    notRead: {
      en: (p: { text: string }) => `not read: ${p.text}`,
      ko: (p: { text: string }) => `읽지 못함: ${p.text}`,
    },
    // A prediction's headline and explanation (predict.ts), for a reader of another
    // language: English readers get predict.ts's own, richer sentences, byte for byte.
    deadlock: {
      en: (p: Deadlock) =>
        `The rollout of ${p.ref} can never finish: the new pod waits for room${p.need ? ` (${p.need})` : ''} that only the old pods hold, and they go only once it is Ready; ${p.fix} would let it.`,
      ko: (p: Deadlock) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: 새 파드는 기존 파드가 점유한 자리${p.need ? `(${p.need})` : ''}를 기다리고, 기존 파드는 새 파드가 Ready가 되어야 내려갑니다. ${p.fix} 설정이면 롤아웃이 끝납니다.`,
    },
    deadlockWhy: {
      en: (p: BelowBudget) =>
        `Run forward in this cluster as it is now, the controller creates new pods before removing old ones, and no node (or quota) has room for them while the old pods hold it. Letting the old pods go first makes the room.${p.budget ? ` That is below PodDisruptionBudget ${p.budget} (${p.floor ?? 0} must serve, ${p.serving ?? 0} would) in every rollout: a rolling update does not consult the budget.` : ''}`,
      ko: (p: BelowBudget) =>
        `지금 클러스터 상태로 롤아웃을 따라가 보면, 컨트롤러는 기존 파드를 내리기 전에 새 파드를 만듭니다. 기존 파드가 자리를 점유하는 동안 새 파드가 들어갈 노드(또는 쿼터)가 없습니다. 기존 파드를 먼저 내리면 자리가 생깁니다. 그동안 서비스하는 레플리카가 줄어듭니다.${p.budget ? ` 이는 롤아웃 때마다 PodDisruptionBudget(${p.budget})의 하한 아래로 내려갑니다(${p.floor ?? 0}개가 서비스해야 하는데 ${p.serving ?? 0}개만 서비스). 롤링 업데이트는 PodDisruptionBudget을 확인하지 않습니다.` : ''}`,
    },
    noNode: {
      en: (p: { ref: string; need?: string }) =>
        `The rollout of ${p.ref} can never finish: its new pods fit no node${p.need ? ` (${p.need})` : ''}, even with its old pods gone; no strategy change helps.`,
      ko: (p: { ref: string; need?: string }) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: 기존 파드가 모두 없어져도 새 파드가 들어갈 노드가 없습니다${p.need ? `(${p.need})` : ''}. 전략을 바꿔도 해결되지 않습니다.`,
    },
    noNodeWhy: {
      en: (p: { ref: string }) =>
        `Run forward with every old pod of ${p.ref} gone first, the new pods still find no node. The template asks for what the cluster does not have (a node selection, a resource, a port).`,
      ko: (p: { ref: string }) =>
        `${p.ref}의 기존 파드를 모두 먼저 내려도 새 파드가 들어갈 노드가 없습니다. 여기서 maxSurge 0을 권하면 가용성만 잃습니다. 템플릿이 클러스터에 없는 것(노드 선택 조건, 리소스, 포트)을 요구합니다.`,
    },
    quota: {
      en: (p: { ref: string; quota: string }) =>
        `The rollout of ${p.ref} can never finish: ResourceQuota ${p.quota} refuses its new pods, whatever order the old ones go in.`,
      ko: (p: { ref: string; quota: string }) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: 기존 파드를 어떤 순서로 내려도 ResourceQuota(${p.quota})가 새 파드를 거부합니다.`,
    },
    quotaWhy: {
      en: () =>
        'The quota has no room for the new pods even once every old pod is gone. Raise the quota, or ask for less per pod.',
      ko: () =>
        '기존 파드가 모두 없어져도 쿼터에 새 파드가 들어갈 여유가 없습니다. 쿼터를 늘리거나 파드당 요청량을 줄입니다.',
    },
    stuck: {
      en: (p: { ref: string }) =>
        `The rollout of ${p.ref} will not finish: its new pods never become Ready in the model.`,
      ko: (p: { ref: string }) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: 모델에서 새 파드가 Ready가 되지 않습니다.`,
    },
    jobWait: {
      en: (p: JobWait) =>
        `The rollout of ${p.ref} cannot finish ${p.some ? `while Jobs ${p.jobs} hold the room` : `while Job${p.one ? '' : 's'} ${p.jobs} ${p.one ? 'runs' : 'run'}`}: its new pods need room or quota ${p.one ? "that Job's" : 'their'} pods hold. It goes on by itself once ${p.one ? 'that Job ends' : p.some ? 'enough of them end' : 'those Jobs end'}.${p.fix ? ` ${p.fix} would let it finish now.` : ''}`,
      ko: (p: JobWait) =>
        `${p.ref} 롤아웃은 Job ${p.jobs} 실행 중에는 끝나지 않습니다: 새 파드에 필요한 자리나 쿼터를 ${p.one ? '그 Job의' : '이 Job들의'} 파드가 점유하고 있습니다. ${p.one ? 'Job이 끝나면' : p.some ? '이 중 충분히 많은 Job이 끝나면' : '이 Job들이 모두 끝나면'} 롤아웃은 저절로 진행됩니다.${p.fix ? ` ${p.fix} 설정이면 지금 끝납니다.` : ''}`,
    },
    jobWaitWhy: {
      en: () =>
        "Run forward with the Jobs' pods gone, the controllers finish the rollout, whichever pending pod the scheduler takes first. A Job's pods go once it ends (it completes, or fails for good); a Job may run for hours, or never end.",
      ko: () =>
        'Job의 파드가 없다고 보고 롤아웃을 따라가 보면, 스케줄러가 어느 대기 파드를 먼저 배치하든 컨트롤러가 롤아웃을 끝냅니다. Job의 파드는 Job이 끝나면(완료되거나 최종 실패하면) 사라집니다. Job은 몇 시간씩 실행되거나 끝나지 않을 수도 있습니다.',
    },
    stuckWhy: {
      en: () =>
        'Run forward, the new pods are placed but do not become Ready (a volume attached elsewhere, a crash the cluster already shows).',
      ko: () =>
        '롤아웃을 따라가 보면 새 파드는 노드에 배치되지만 Ready가 되지 않습니다(다른 곳에 연결된 볼륨, 클러스터에 이미 보이는 비정상 종료 등).',
    },
    notKnown: {
      en: (p: { ref: string; why: string }) =>
        `Whether the rollout of ${p.ref} finishes is not known: ${p.why}.`,
      ko: (p: { ref: string; why: string }) => `${p.ref} 롤아웃이 끝날지 알 수 없습니다. 이유: ${p.why}.`,
    },
    notKnownWhy: {
      en: () =>
        'check predicts a rollout only where it read everything the new pods compete with and the model follows the update. Where it cannot, it says so instead of guessing.',
      ko: () =>
        '새 파드와 경쟁하는 것을 모두 읽었고 모델이 그 업데이트를 따라갈 수 있을 때만 롤아웃을 예측합니다. 그렇지 않으면 추측하지 않고 알 수 없다고 답합니다.',
    },
    runtimeClassUnknownWhy: {
      en: () =>
        "The RuntimeClass admission plugin adds the class's pod overhead to what every new pod asks for, which can be what decides whether it fits beside the old pods: check does not guess it. Check against a cluster or dump with a pod of that class, or set spec.overhead in the template as the class does.",
      ko: () =>
        'RuntimeClass 어드미션 플러그인은 클래스의 파드 오버헤드를 새 파드마다 요청량에 더합니다. 이 값이 기존 파드 옆에 새 파드가 들어갈지를 가를 수 있어서 추측하지 않습니다. 그 클래스로 실행 중인 파드가 있는 클러스터나 덤프로 다시 확인하거나, 클래스와 같은 값으로 템플릿에 spec.overhead를 설정합니다.',
    },
    referencesUnknownWhy: {
      en: () =>
        'A missing ServiceAccount refuses every new pod (FailedCreate), and a missing ConfigMap or Secret keeps each in ContainerCreating (a volume) or CreateContainerConfigError (an environment variable), so no old pod goes: check does not read them. Apply them before, or in the same change, or check that they exist (kubectl get configmap,secret,serviceaccount -n NAMESPACE).',
      ko: () =>
        'ServiceAccount가 없으면 새 파드가 모두 거부되고(FailedCreate), ConfigMap이나 Secret이 없으면 새 파드가 ContainerCreating(볼륨) 또는 CreateContainerConfigError(환경 변수) 상태에 머물러 기존 파드도 내려가지 않습니다. check는 이 객체들을 읽지 않습니다. 먼저 적용하거나 같은 변경에 넣거나, 네임스페이스에 있는지 확인하세요.',
    },
    holdsUnknownWhy: {
      en: () =>
        'A pod that something other than room holds back (a scheduling gate, a scheduler of its own, a readiness gate) goes on only once that something acts, and check reads none of them: with maxSurge the old pods stay and the rollout waits; with maxUnavailable the old pods go and nothing new serves. Check against a cluster where a pod of the workload already went through it, or remove the hold from the template.',
      ko: () =>
        '자리 말고 다른 것(스케줄링 게이트, 별도 스케줄러, 레디니스 게이트)이 붙잡은 파드는 그것이 움직여야 진행되는데, check는 그중 어느 것도 읽지 않습니다. maxSurge로는 기존 파드가 남은 채 롤아웃이 기다리고, maxUnavailable로는 기존 파드가 내려간 뒤 새 파드가 아무것도 서비스하지 않습니다. 이 워크로드의 파드가 이미 그 단계를 거친 클러스터로 다시 확인하거나, 템플릿에서 그 제약을 뺍니다.',
    },
    admissionUnknownWhy: {
      en: () =>
        'Quota admission refuses a pod whose containers do not set what a ResourceQuota limits, unless a LimitRange of the namespace sets it first. Grant list on limitranges, or set the requests and limits in the template.',
      ko: () =>
        '컨테이너가 ResourceQuota가 제한하는 값을 설정하지 않으면, 네임스페이스의 LimitRange가 먼저 채워 주지 않는 한 쿼터 어드미션이 그 파드를 거부합니다. LimitRange를 읽을 권한을 주거나, 템플릿에 요청량과 제한을 설정합니다.',
    },
    applyRefused: {
      en: (p: ApplyRefused) =>
        `The API server refuses this apply of ${p.ref} (${p.message}): nothing is stored and no rollout starts.`,
      ko: (p: ApplyRefused) =>
        `API 서버가 ${p.ref} 적용을 거부합니다(${p.message}). 아무것도 저장되지 않고 롤아웃도 시작되지 않습니다.`,
    },
    applySelectorEmptyWhy: {
      en: () =>
        'An apps/v1 workload needs a selector with at least one label or expression, and it must select the labels of its own template.',
      ko: () =>
        'apps/v1 워크로드에는 레이블이나 표현식이 하나 이상 있는 selector가 있어야 하고, selector는 자기 템플릿의 레이블을 골라야 합니다.',
    },
    applySelectorMismatchWhy: {
      en: () =>
        "The selector must select the template's own labels, or the controller would not own the pods it makes. Add the labels the selector asks for to spec.template.metadata.labels.",
      ko: () =>
        'selector는 템플릿의 레이블을 골라야 합니다. 그렇지 않으면 컨트롤러가 자기가 만든 파드를 소유하지 못합니다. selector가 요구하는 레이블을 spec.template.metadata.labels에 넣습니다.',
    },
    applyImmutableWhy: {
      en: () =>
        "apps/v1 keeps a workload's selector for the object's whole life. To change it, delete the object with --cascade=orphan and apply the new one (its controller then adopts or replaces the old pods), or keep the selector as it is.",
      ko: () =>
        'apps/v1 워크로드의 selector는 객체가 있는 동안 바꿀 수 없습니다. 바꾸려면 --cascade=orphan으로 객체를 지우고 새 객체를 적용합니다(컨트롤러가 기존 파드를 넘겨받거나 교체합니다). 아니면 selector를 그대로 둡니다.',
    },
    applyStrategyWhy: {
      en: () =>
        'The API server validates the rolling update\'s bounds before it stores anything: each of maxSurge and maxUnavailable is a whole number of 0 or more or a percentage ("25%"), maxUnavailable at most 100%, and they may not both be 0 (a DaemonSet: exactly one of them above 0; a StatefulSet: maxUnavailable above 0). The controller\'s own rounding never sees such an object. Write the bounds within those rules.',
      ko: () =>
        'API 서버는 저장하기 전에 롤링 업데이트의 범위를 검증합니다: maxSurge와 maxUnavailable은 각각 0 이상의 정수이거나 백분율("25%")이어야 하고, maxUnavailable은 100%를 넘을 수 없으며, 둘 다 0일 수 없습니다(DaemonSet은 둘 중 정확히 하나만 0보다 커야 하고, StatefulSet은 maxUnavailable이 0보다 커야 합니다). 이런 객체는 컨트롤러의 반올림 규칙까지 가지 않습니다. 범위를 이 규칙에 맞게 씁니다.',
    },
    applyResourcesWhy: {
      en: () =>
        "The API server validates each container's resources before it stores anything: every quantity is 0 or more, an extended resource such as nvidia.com/gpu is a whole number, a request is at most its limit, and a resource that cannot be overcommitted (an extended resource, hugepages) has a limit equal to its request; a limit alone is enough, the request is set from it. Nothing is stored and no pod is made. Write the resources within those rules.",
      ko: () =>
        'API 서버는 저장하기 전에 각 컨테이너의 resources를 검증합니다: 모든 수량은 0 이상이어야 하고, GPU 같은 확장 리소스는 정수여야 하며, requests는 limits를 넘을 수 없고, 오버커밋할 수 없는 리소스(확장 리소스, hugepages)는 limits가 requests와 같아야 합니다. limits만 써도 되며, 그러면 requests가 같은 값으로 채워집니다. 아무것도 저장되지 않고 파드도 만들어지지 않습니다. resources를 이 규칙에 맞게 씁니다.',
    },
    applyForbiddenWhy: {
      en: (p: { fields: string }) =>
        `A StatefulSet's spec may change only in replicas, ordinals, template, updateStrategy, revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and minReadySeconds; this apply changes ${p.fields}. Keep those fields as they are, or delete the StatefulSet with --cascade=orphan (its pods and claims stay) and apply the new one; claims already made keep their old size.`,
      ko: (p: { fields: string }) =>
        `StatefulSet에서 업데이트로 바꿀 수 있는 필드는 replicas, ordinals, template, updateStrategy, revisionHistoryLimit, persistentVolumeClaimRetentionPolicy, minReadySeconds뿐입니다. 이 적용은 ${p.fields} 필드를 바꿉니다. 그 필드를 그대로 두거나, --cascade=orphan으로 StatefulSet을 지우고(파드와 클레임은 남습니다) 새 객체를 적용합니다. 이미 만들어진 클레임의 크기는 그대로입니다.`,
    },
    admissionDenied: {
      en: (p: { ref: string; object: string; message: string }) =>
        `The rollout of ${p.ref} can never finish: ${p.object} refuses every new pod (${p.message}); no pod of the new template is created.`,
      ko: (p: { ref: string; object: string; message: string }) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: ${p.object} 객체가 새 파드를 모두 거부합니다(${p.message}). 새 템플릿의 파드는 하나도 만들어지지 않습니다.`,
    },
    admissionQuotaWhy: {
      en: () =>
        'Quota admission refuses a pod any of whose containers does not set a resource the quota limits, before counting anything. Set the named requests or limits on every container, or give the namespace a LimitRange whose defaults set them.',
      ko: () =>
        '쿼터 어드미션은 쿼터가 제한하는 리소스를 설정하지 않은 컨테이너가 하나라도 있으면, 사용량을 세기도 전에 파드를 거부합니다. 컨트롤러의 파드 생성은 여유와 상관없이 실패합니다. 모든 컨테이너(초기화 컨테이너 포함)에 해당 요청량이나 제한을 설정하거나, 기본값을 채워 주는 LimitRange를 네임스페이스에 둡니다.',
    },
    admissionLimitWhy: {
      en: () =>
        "LimitRanger sets a container's missing requests and limits from the LimitRange's defaults, then refuses a pod outside its min, max and limit-to-request ratio; a default limit below a request the container sets makes the pod invalid (no request may exceed its limit). Bring the template's requests and limits within the LimitRange, or change it.",
      ko: () =>
        'LimitRange의 기본값으로 컨테이너에 빠진 요청량과 제한을 채운 뒤, 최솟값, 최댓값, 제한 대 요청 비율을 벗어난 파드를 거부합니다. 기본 제한이 컨테이너가 설정한 요청량보다 작으면 파드가 유효하지 않습니다(요청량은 제한을 넘을 수 없습니다). 컨트롤러의 파드 생성은 실패합니다. 템플릿의 요청량과 제한을 LimitRange 범위 안으로 맞추거나, LimitRange를 바꿉니다.',
    },
    admissionPriorityWhy: {
      en: () =>
        "The Priority admission plugin sets each pod's priority from the PriorityClass its priorityClassName names, and refuses a pod whose class the cluster does not have. Create the PriorityClass first, or name one that exists.",
      ko: () =>
        '우선순위 어드미션 플러그인은 priorityClassName이 가리키는 PriorityClass로 파드의 우선순위를 정하고, 클러스터에 없는 클래스를 쓰는 파드는 거부합니다. 컨트롤러의 파드 생성은 실패합니다. PriorityClass를 먼저 만들거나, 있는 클래스를 지정합니다.',
    },
    preempts: {
      en: (p: Preempts) =>
        `The rollout of ${p.ref} finishes, but its new pods preempt ${p.count} pod(s) of lower priority first (${p.victims})${p.ours > 0 ? `: ${p.ours} of its ${p.replicas} old pod(s) stop serving before their replacements are Ready${p.ours >= p.replicas ? ', an outage' : ''}` : ''}.`,
      ko: (p: Preempts) =>
        `${p.ref} 롤아웃은 끝나지만, 새 파드가 먼저 우선순위가 낮은 파드 ${p.count}개(${p.victims})를 선점합니다${p.ours > 0 ? `. 기존 파드 ${p.replicas}개 중 ${p.ours}개가 대체 파드가 Ready가 되기 전에 서비스를 멈춥니다${p.ours >= p.replicas ? '(서비스 중단)' : ''}` : ''}.`,
    },
    preemptsWhy: {
      en: () =>
        "The new template raises the pods' priority: the scheduler's preemption takes pods of lower priority for them, this workload's own old pods included, rather than wait for the strategy to remove them.",
      ko: () =>
        '새 템플릿이 파드의 우선순위를 높입니다. 스케줄러의 선점은 새 파드를 위해 우선순위가 낮은 파드를 내보내며, 이 워크로드의 기존 파드도 포함됩니다. 전략이 기존 파드를 줄일 때까지 기다리지 않습니다.',
    },
    pinned: {
      en: (p: Pinned) =>
        `The rollout of ${p.ref} can never finish: its new pod ${p.pod} mounts claim ${p.claim}, bound to volume ${p.volume}, which only ${p.nodes || 'no node the cluster has'} may use, and there ${p.need ? `it needs ${p.need}` : 'no node takes it'}, even with its old pods gone; no strategy change helps.`,
      ko: (p: Pinned) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: 새 파드(${p.pod})가 마운트하는 PVC(${p.claim})는 PV(${p.volume})에 바인딩되어 있고, 이 볼륨은 ${p.nodes ? `${p.nodes} 노드에서만` : '클러스터의 어느 노드에서도'} 쓸 수 있습니다. ${p.need ? `그 노드에는 새 파드에 필요한 ${p.need} 여유가 없습니다` : '그 노드는 새 파드를 받지 못합니다'}. 기존 파드가 모두 없어져도 마찬가지이고, 전략을 바꿔도 해결되지 않습니다.`,
    },
    pinnedWhy: {
      en: (p: Pick<Pinned, 'volume' | 'claim' | 'nodes'>) =>
        `The volume's node affinity (spec.nodeAffinity of PersistentVolume ${p.volume}, a local volume) places every pod mounting claim ${p.claim} on ${p.nodes || 'no node the cluster has'}, whatever room other nodes have: the scheduler reports "volume node affinity conflict" there, and the pod stays Pending for good. Ask for what that node has left, make room on it, or move the data to a volume other nodes can use.`,
      ko: (p: Pick<Pinned, 'volume' | 'claim' | 'nodes'>) =>
        `볼륨의 노드 어피니티(PersistentVolume ${p.volume}의 spec.nodeAffinity, 로컬 볼륨)에 따라 PVC(${p.claim})를 마운트하는 파드는 다른 노드에 여유가 있어도 ${p.nodes ? `${p.nodes} 노드에만` : '어느 노드에도'} 배치될 수 있습니다. 스케줄러는 그 노드에서 볼륨 노드 어피니티 충돌을 보고하고, 파드는 계속 Pending 상태로 남습니다. 그 노드에 남은 만큼만 요청하거나, 그 노드에 자리를 만들거나, 다른 노드에서도 쓸 수 있는 볼륨으로 데이터를 옮깁니다.`,
    },
    stableKept: {
      en: (p: { ref: string; blueGreen: boolean; need?: string }) =>
        `The rollout of ${p.ref} can never finish: with ${p.blueGreen ? 'blue-green' : 'its traffic-routed canary'} every stable pod stays until the new revision is promoted, and no node has room for the new pods beside them${p.need ? ` (${p.need})` : ''}; no strategy change helps.`,
      ko: (p: { ref: string; blueGreen: boolean; need?: string }) =>
        `${p.ref} 롤아웃이 끝나지 않습니다: ${p.blueGreen ? '블루-그린 배포' : '트래픽 라우팅을 쓰는 카나리 배포'}에서는 새 리비전이 승격될 때까지 안정 파드가 모두 남는데, 그 옆에 새 파드가 들어갈 여유${p.need ? `(${p.need})` : ''}가 있는 노드가 없습니다. 전략을 바꿔도 해결되지 않습니다.`,
    },
    stableKeptWhy: {
      en: (p: { blueGreen: boolean }) => {
        const words = p.blueGreen ? 'blue-green' : 'its traffic-routed canary';
        return `Run forward, the new pods wait for room the stable pods hold, and ${words} lets those go only after promotion. The way out: ${p.blueGreen ? 'blue-green' : 'a canary with traffic routing'} keeps every stable pod until promotion and no field changes that, so only aborting frees the room (the stable pods serve, the update does not go on) until there is room for both revisions.`;
      },
      ko: (p: { blueGreen: boolean }) =>
        `롤아웃을 따라가 보면 새 파드는 안정 파드가 점유한 자리를 기다리고, ${p.blueGreen ? '블루-그린 배포' : '트래픽 라우팅을 쓰는 카나리 배포'}는 승격한 뒤에야 안정 파드를 내립니다. 이를 바꾸는 필드는 없으므로, 두 리비전이 함께 들어갈 자리가 생기기 전까지는 업데이트를 중단하는 것만이 자리를 비웁니다(안정 파드는 계속 서비스하고, 업데이트는 진행되지 않습니다).`,
    },
    scaleUp: {
      en: (p: { ref: string; n: number; groups: string }) =>
        `The rollout of ${p.ref} finishes once the cluster adds ${p.n === 1 ? 'a node' : `${p.n} nodes`}: its new pods fit no node there is now, and ${p.n === 1 ? 'one more node' : `${p.n} more nodes`} like those of ${p.groups} take them.`,
      ko: (p: { ref: string; n: number; groups: string }) =>
        `${p.ref} 롤아웃은 클러스터에 노드가 ${p.n}개 추가되면 끝납니다: 지금 있는 노드에는 새 파드가 들어갈 자리가 없지만, 다음 그룹의 노드와 같은 노드가 ${p.n}개 더 있으면 들어갑니다: ${p.groups}.`,
    },
    scaleUpGroup: {
      en: (p: ScaleGroup) =>
        `${p.name} (${p.karpenter ? 'Karpenter NodePool' : 'cluster autoscaler node group'}, ${p.nodes} node(s) now)`,
      ko: (p: ScaleGroup) =>
        `${p.name}(${p.karpenter ? 'Karpenter NodePool' : '클러스터 오토스케일러 노드 그룹'}, 현재 노드 ${p.nodes}개)`,
    },
    scaleUpWhy: {
      en: (p: { karpenter: boolean }) =>
        `Run forward with new nodes copied from the group's own (allocatable, labels, taints and the DaemonSet pods every node runs), the rollout finishes. ${p.karpenter ? 'Karpenter usually launches a node in about a minute' : 'A new node usually joins in a few minutes'}; the cluster autoscaler waits up to 15 minutes for one (--max-node-provision-time). Until then the new pods are Pending.`,
      ko: (p: { karpenter: boolean }) =>
        `그룹의 기존 노드를 복사한 새 노드(할당 가능 리소스, 레이블, 테인트, 모든 노드에서 도는 DaemonSet 파드까지)를 넣고 따라가 보면 롤아웃이 끝납니다. ${p.karpenter ? 'Karpenter는 보통 1분 안팎에 노드를 띄웁니다' : '새 노드는 보통 몇 분 안에 합류합니다'}. 클러스터 오토스케일러는 새 노드를 최대 15분까지 기다립니다(--max-node-provision-time). 그때까지 새 파드는 Pending 상태입니다.`,
    },
    scaleUpNotKnown: {
      en: (p: { ref: string; groups: string }) =>
        `Whether the rollout of ${p.ref} finishes is not known: its new pods fit no node there is now, and ${p.groups} may add nodes whose size is not known.`,
      ko: (p: { ref: string; groups: string }) =>
        `${p.ref} 롤아웃이 끝날지 알 수 없습니다: 지금 있는 노드에는 새 파드가 들어갈 자리가 없고, 크기를 알 수 없는 노드를 추가할 수 있는 그룹이 있습니다: ${p.groups}.`,
    },
    groupName: {
      en: (p: { name: string; karpenter: boolean }) =>
        `${p.karpenter ? 'Karpenter NodePool' : 'cluster autoscaler node group'} ${p.name}`,
      ko: (p: { name: string; karpenter: boolean }) =>
        `${p.karpenter ? 'Karpenter NodePool' : '클러스터 오토스케일러 노드 그룹'}(${p.name})`,
    },
    scaleUpNotKnownWhy: {
      en: () =>
        'A node group whose nodes cannot be told (no node-pool label its name holds, or no node yet), or a Karpenter NodePool, which may launch a larger instance type than any it runs, may add the room. check does not promise it either way.',
      ko: () =>
        '노드를 알 수 없는 노드 그룹(이름이 가리키는 노드 풀 레이블이 없거나 아직 노드가 없음)이나, 지금보다 큰 인스턴스 유형을 띄울 수 있는 Karpenter NodePool은 자리를 만들 수도 있습니다. 어느 쪽이라고도 장담하지 않습니다.',
    },
    notJudged: {
      en: (p: { why: string }) => `Not judged: ${p.why}.`,
      ko: (p: { why: string }) => `판정하지 않았습니다: ${p.why}.`,
    },
    notJudgedWhy: {
      en: () => 'Without the live object check cannot tell whether the manifest starts a rollout.',
      ko: () => '실제 객체를 읽지 못하면 이 매니페스트가 롤아웃을 시작하는지 알 수 없습니다.',
    },
    storedNotKnown: {
      en: (p: { fields: string; kept: string; dropped: string }) =>
        `Whether the rollout finishes turns on what the apply stores for ${p.fields}, which the manifest leaves out: with the live value ${p.kept}; with the default ${p.dropped}.`,
      ko: (p: { fields: string; kept: string; dropped: string }) =>
        `롤아웃이 끝날지는 매니페스트에 없는 필드(${p.fields})를 적용이 어떻게 저장하는지에 달려 있습니다. 현재 값이 유지되면 ${p.kept}. 기본값이 쓰이면 ${p.dropped}.`,
    },
    fateFinishes: { en: () => 'it finishes', ko: () => '롤아웃이 끝납니다' },
    fateNever: {
      en: (p: { reason?: string }) => `it can never finish${p.reason ? ` (${p.reason})` : ''}`,
      ko: (p: { reason?: string }) => `롤아웃이 끝나지 않습니다${p.reason ? `(${p.reason})` : ''}`,
    },
    fateUnknown: { en: () => 'whether it finishes is not known', ko: () => '끝날지 알 수 없습니다' },
    storedNotKnownWhy: {
      en: (p: { fields: string }) =>
        `The apply may keep or drop ${p.fields}. kubectl apply keeps a field its last-applied configuration never listed, server-side apply and Helm keep one their manifest never set, and each removes one its manifest set and dropped. Set the field in the manifest to say what you mean.`,
      ko: (p: { fields: string }) =>
        `적용할 때 이 필드(${p.fields})가 유지될지 지워질지 알 수 없습니다. kubectl의 클라이언트 측 적용은 마지막으로 적용한 설정에 없던 필드를 유지하고, 서버 측 적용과 Helm은 자기 매니페스트가 설정한 적 없는 필드를 유지하며, 어느 쪽이든 자기 매니페스트가 설정했다가 뺀 필드는 지웁니다. 원하는 값을 매니페스트에 직접 적습니다.`,
    },
    sarifRendered: {
      en: (p: { template: string }) => ` (rendered from ${p.template})`,
      ko: (p: { template: string }) => ` (${p.template} 템플릿에서 렌더링됨)`,
    },
    sarifFix: {
      en: (p: { words: string; field: string }) =>
        ` Fix: set ${p.words} in the manifest (a merge into the object, ${p.field}).`,
      ko: (p: { words: string; field: string }) =>
        ` 조치: 매니페스트에 ${p.words} 설정을 넣습니다(객체에 병합됩니다, ${p.field}).`,
    },
  }),
  {
    finishes: [{}],
    neverFinishes: [{}],
    whileJobsRun: [{}],
    unknown: [{}],
    noRollout: [{}],
    newObject: [{}],
    templateChanges: [{ changes: 'spec.template.spec.containers[0].image, …' }],
    renderedFrom: [{ template: 'tracker/templates/deployment.yaml' }],
    omitted: [
      {
        path: 'spec.strategy',
        live: '{"type":"Recreate"}',
        why: 'the manifest kubectl (last-applied-configuration) last applied never set it, so the apply keeps it',
      },
      { path: 'spec.minReadySeconds', why: 'the manifest Helm last applied set it and this one drops it' },
      {
        path: 'spec.replicas',
        stored: '1',
        why: 'the manifest kubectl last applied set it and this one drops it',
      },
    ],
    neverSet: [{ who: 'kubectl (last-applied-configuration)' }],
    alsoHeld: [{ others: 'hpa-controller, argocd-controller' }],
    dropped: [{ who: 'Helm (field manager helm)' }],
    acceptedAnnotation: [{ reason: 'GPU nodes are added before this ships (OPS-12)' }],
    acceptedBaseline: [{ reason: 'accepted until the next quarter' }],
    fix: [{ words: 'maxSurge 0, maxUnavailable 1' }],
    noWorkloads: [{ titles: 'Deployment, Argo Rollout' }],
    tally: [
      { total: 2, never: 1, waiting: 0, refused: 0, unknown: 0, finishes: 1, none: 0, others: 3 },
      { total: 1, never: 0, waiting: 0, refused: 0, unknown: 1, finishes: 0, none: 0, others: 0 },
      { total: 3, never: 0, waiting: 1, refused: 1, unknown: 0, finishes: 1, none: 0, others: 0 },
    ],
    note: [{ text: 'baseline entry vision/Deployment/tracker:Unschedulable matched no finding' }],
    notRead: [{ text: 'nodes: forbidden' }],
    deadlock: [
      { ref: 'deployment/tracker', need: '1 nvidia.com/gpu', fix: 'maxSurge 0, maxUnavailable 1' },
      { ref: 'deployment/tracker', fix: 'strategy Recreate' },
    ],
    deadlockWhy: [{}, { budget: 'pdb-all', floor: 2, serving: 1 }],
    noNode: [{ ref: 'deployment/tracker', need: '2 nvidia.com/gpu' }, { ref: 'daemonset/agent' }],
    noNodeWhy: [{ ref: 'deployment/tracker' }],
    quota: [{ ref: 'deployment/tracker', quota: 'gpu-quota' }],
    quotaWhy: [{}],
    stuck: [{ ref: 'deployment/tracker' }],
    stuckWhy: [{}],
    jobWait: [
      { ref: 'deployment/ingress', jobs: 'batch/nightly-report', one: true, some: false },
      { ref: 'deployment/ingress', jobs: 'batch/a, batch/b', one: false, some: false },
      {
        ref: 'deployment/ingress',
        jobs: 'batch/a, batch/b',
        one: false,
        some: true,
        fix: 'maxSurge 0, maxUnavailable 1',
      },
    ],
    jobWaitWhy: [{}],
    notKnown: [{ ref: 'deployment/tracker', why: 'the pods on gpu-node-2 were not read' }],
    notKnownWhy: [{}],
    admissionUnknownWhy: [{}],
    holdsUnknownWhy: [{}],
    runtimeClassUnknownWhy: [{}],
    referencesUnknownWhy: [{}],
    applyRefusedLabel: [{}],
    applyRefused: [
      {
        ref: 'deployment/web',
        message: 'spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
        fields: 'spec.selector',
      },
    ],
    applySelectorEmptyWhy: [{}],
    applySelectorMismatchWhy: [{}],
    applyImmutableWhy: [{}],
    applyStrategyWhy: [{}],
    applyResourcesWhy: [{}],
    applyForbiddenWhy: [{ fields: 'spec.volumeClaimTemplates' }],
    admissionDenied: [
      {
        ref: 'deployment/tracker',
        object: 'LimitRange limits',
        message: 'maximum cpu usage per Container is 2, but limit is 4',
      },
    ],
    admissionQuotaWhy: [{}],
    admissionLimitWhy: [{}],
    admissionPriorityWhy: [{}],
    preempts: [
      { ref: 'deployment/trk', victims: 'trk-aaa111-x1', count: 1, ours: 1, replicas: 1 },
      { ref: 'deployment/web', victims: 'web-5c6b-q2x9p, batch-7f9c', count: 2, ours: 1, replicas: 4 },
      { ref: 'deployment/api', victims: 'batch-7f9c', count: 1, ours: 0, replicas: 2 },
    ],
    preemptsWhy: [{}],
    pinned: [
      {
        ref: 'statefulset/db',
        pod: 'db-1',
        claim: 'data-db-1',
        volume: 'local-pv-b',
        nodes: 'node-b',
        need: '2 cpu',
      },
      { ref: 'deployment/web', pod: 'web-7d9f-x2', claim: 'data', volume: 'local-pv-a', nodes: '' },
    ],
    pinnedWhy: [
      { volume: 'local-pv-b', claim: 'data-db-1', nodes: 'node-b' },
      { volume: 'local-pv-a', claim: 'data', nodes: '' },
    ],
    stableKept: [
      { ref: 'rollout/tracker', blueGreen: true, need: '1 nvidia.com/gpu' },
      { ref: 'rollout/tracker', blueGreen: false },
    ],
    stableKeptWhy: [{ blueGreen: true }, { blueGreen: false }],
    scaleUp: [
      { ref: 'deployment/tracker', n: 1, groups: 'gpu-pool (cluster autoscaler node group, 2 node(s) now)' },
      { ref: 'deployment/tracker', n: 2, groups: 'gpu (Karpenter NodePool, 1 node(s) now)' },
    ],
    scaleUpGroup: [
      { name: 'gpu-pool', karpenter: false, nodes: 2 },
      { name: 'gpu', karpenter: true, nodes: 1 },
    ],
    scaleUpWhy: [{ karpenter: true }, { karpenter: false }],
    scaleUpNotKnown: [
      {
        ref: 'deployment/tracker',
        groups: 'Karpenter NodePool gpu',
      },
    ],
    groupName: [
      { name: 'gpu', karpenter: true },
      { name: 'gpu-pool', karpenter: false },
    ],
    scaleUpNotKnownWhy: [{}],
    notJudged: [{ why: 'deployments in ml were not read (forbidden)' }],
    notJudgedWhy: [{}],
    storedNotKnown: [
      {
        fields: 'spec.strategy',
        kept: 'it finishes',
        dropped: 'it can never finish (its new pod needs 1 nvidia.com/gpu)',
      },
    ],
    fateFinishes: [{}],
    fateNever: [{ reason: 'its new pods fit no node' }, {}],
    fateUnknown: [{}],
    storedNotKnownWhy: [{ fields: 'spec.strategy, spec.replicas' }],
    sarifRendered: [{ template: '"tracker/templates/deployment.yaml"' }],
    sarifFix: [{ words: 'strategy Recreate', field: 'properties.fix' }],
  },
);

/** A prediction's headline in `lang`: predict.ts's own in English or where it says no words. */
export function checkSummary(finding: { summary: string; says?: CheckSays }, lang: Lang): string {
  const says = finding.says;
  if (lang === 'en' || !says) return finding.summary;
  const groups = (g: readonly ScaleGroup[], key: 'scaleUpGroup' | 'groupName', or: string): string =>
    g.map((x) => CHECK_WORDS[key][lang](x)).join(or);
  const fate = (f: Fate): string =>
    f.verdict === 'finishes'
      ? CHECK_WORDS.fateFinishes[lang]()
      : f.verdict === 'never-finishes'
        ? // The reason is predict.ts's English clause: left out here (English readers get the summary).
          CHECK_WORDS.fateNever[lang]({})
        : CHECK_WORDS.fateUnknown[lang]();
  switch (says.key) {
    case 'storedNotKnown':
      return CHECK_WORDS.storedNotKnown[lang]({
        fields: says.params.fields,
        kept: fate(says.params.kept),
        dropped: fate(says.params.dropped),
      });
    case 'scaleUp':
      return CHECK_WORDS.scaleUp[lang]({
        ...says.params,
        groups: groups(says.params.groups, 'scaleUpGroup', ', '),
      });
    case 'scaleUpNotKnown':
      return CHECK_WORDS.scaleUpNotKnown[lang]({
        ...says.params,
        groups: groups(says.params.groups, 'groupName', ', '),
      });
    case 'notKnown':
      // The model's reason, where its words are catalogued (model-why.ts); else as written.
      return CHECK_WORDS.notKnown[lang]({ ...says.params, why: whyInWords(says.params.why, lang) });
    default:
      return (CHECK_WORDS[says.key][lang] as (params: CheckSays['params']) => string)(says.params);
  }
}

/** A prediction's explanation in `lang`, as checkSummary chooses. */
export function checkExplanation(finding: { explanation: string; says?: CheckSays }, lang: Lang): string {
  const says = finding.says;
  if (lang === 'en' || !says) return finding.explanation;
  if (says.key === 'scaleUp')
    return CHECK_WORDS.scaleUpWhy[lang]({ karpenter: says.params.groups.some((g) => g.karpenter) });
  return (CHECK_WORDS[says.why][lang] as (params: CheckSays['params']) => string)(says.params);
}

/** Why the apply keeps or drops an omitted field, in `lang`: stored-fields.ts's own in English. */
export function storedWhy(field: { why: string; says?: StoredSays }, lang: Lang): string {
  const says = field.says;
  if (lang === 'en' || !says) return field.why;
  return says.key === 'alsoHeld'
    ? CHECK_WORDS.alsoHeld[lang](says.params)
    : CHECK_WORDS[says.key][lang](says.params);
}
