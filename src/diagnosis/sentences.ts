/**
 * The sentences the diagnosis writes in English into its data (an evidence table's
 * title and cells, who owns a workload and why, a guard it could not read), in every
 * language (i18n/sentences.ts): the engine writes the English with these entries, a
 * reader of another language gets the same facts from them.
 */
import { defineSentences } from '../i18n/sentences.js';

type Ns = { namespace: string };
/** What a failing device selector does, and how to fix it (the selector sentences below). */
const SELECTOR_STOPS = "which stops the pod's scheduling at every attempt";
const SELECTOR_STOPS_KO = '이 오류로 파드의 스케줄링이 시도할 때마다 멈춥니다';
const SELECTOR_FIX =
  'so it evaluates on every device (guard an optional attribute with has(), for example); no node, capacity or strategy change helps until then';
const SELECTOR_FIX_KO =
  '모든 장치에서 평가되도록 고칩니다(예: 없을 수 있는 속성은 has()로 확인합니다). 그 전에는 노드, 용량, 전략을 바꿔도 소용없습니다';
type Grant = { verb: string; resource: string };

export const DIAGNOSIS_SENTENCES = defineSentences(
  'diagnosis-sentences',
  {
    // The surge deadlock's pods table (analyzers/surge-deadlock.ts).
    podsHolding: {
      en: () => 'Pending new pods and the old pods holding what they need',
      ko: () => 'Pending 상태인 새 파드와, 새 파드에 필요한 자원을 점유한 기존 파드',
    },
    newUnscheduled: { en: () => 'new, unscheduled', ko: () => '새 파드, 스케줄되지 않음' },
    oldHolds: {
      en: () => 'old, holds what the new pod needs',
      ko: () => '기존 파드, 새 파드에 필요한 자원을 점유',
    },
    // Who applies the workload, and the evidence (ownership.ts).
    lastAppliedNoManagers: {
      en: (p: { annotation: string }) =>
        `annotation ${p.annotation}, which only kubectl's client-side apply writes; managedFields were absent (an older object or a dump saved without --show-managed-fields), so the field manager is the one it uses, not one seen`,
      ko: (p: { annotation: string }) =>
        `${p.annotation} 어노테이션(kubectl 클라이언트 측 apply만 이 어노테이션을 기록합니다). managedFields가 없으므로(오래된 오브젝트이거나 --show-managed-fields 없이 저장한 덤프) 필드 매니저 이름은 확인한 값이 아니라 클라이언트 측 apply가 쓰는 기본 이름입니다`,
    },
    lastAppliedWithManager: {
      en: (p: { annotation: string; manager: string }) =>
        `annotation ${p.annotation} with field manager ${p.manager}`,
      ko: (p: { annotation: string; manager: string }) =>
        `${p.annotation} 어노테이션과 필드 매니저 ${p.manager}`,
    },
    serverSideApply: {
      en: (p: { manager: string }) =>
        `field manager ${p.manager} with operation Apply (kubectl apply --server-side)`,
      ko: (p: { manager: string }) =>
        `operation이 Apply인 필드 매니저 ${p.manager}(kubectl apply --server-side)`,
    },
    ownerLabels: {
      en: (p: { name: string; namespace: string }) => `labels ${p.name}, ${p.namespace}`,
      ko: (p: { name: string; namespace: string }) => `레이블 ${p.name}, ${p.namespace}`,
    },
    ownerAnnotations: {
      en: (p: { name: string; namespace: string }) => `annotations ${p.name}, ${p.namespace}`,
      ko: (p: { name: string; namespace: string }) => `어노테이션 ${p.name}, ${p.namespace}`,
    },
    argoTrackingId: {
      en: (p: { annotation: string }) => `annotation ${p.annotation}`,
      ko: (p: { annotation: string }) => `어노테이션 ${p.annotation}`,
    },
    argoInstanceLabel: {
      en: (p: { label: string; manager: string }) => `label ${p.label} with field manager ${p.manager}`,
      ko: (p: { label: string; manager: string }) => `레이블 ${p.label}, 필드 매니저 ${p.manager}`,
    },
    // A guard not read (guards/guard-gaps.ts).
    guardUnread: {
      en: (p: { title: string; reason: string; settle: string }) =>
        `${p.title}: not read (${p.reason}): ${p.settle}`,
      ko: (p: { title: string; reason: string; settle: string }) =>
        `${p.title}: 읽지 못함(${p.reason}). ${p.settle}`,
    },
    grantClusterWide: {
      en: (p: Grant) => `grant ${p.verb} on ${p.resource} (cluster-wide)`,
      ko: (p: Grant) => `클러스터 전체의 ${p.resource}에 ${p.verb} 권한을 주세요`,
    },
    grantIn: {
      en: (p: Grant & Ns) => `grant ${p.verb} on ${p.resource} in ${p.namespace}`,
      ko: (p: Grant & Ns) => `${p.namespace} 네임스페이스의 ${p.resource}에 ${p.verb} 권한을 주세요`,
    },
    notInstalled: {
      en: (p: { resource: string }) => `nothing to read unless ${p.resource} is installed`,
      ko: (p: { resource: string }) => `${p.resource} API가 설치되어 있지 않으면 읽을 것이 없습니다`,
    },
    dumpRecipe: {
      en: (p: { command: string }) => `${p.command}, and diagnose from the dump`,
      ko: (p: { command: string }) => `${p.command} 명령으로 덤프를 저장해 다시 진단하세요`,
    },
    // The autoscaler that sets the replicas (guards/autoscaler.ts).
    hpaSets: {
      en: (p: { name: string; ref: string; min: string; max: string; what: string }) =>
        `HorizontalPodAutoscaler ${p.name} sets the replicas of ${p.ref} (min ${p.min}, max ${p.max}): ${p.what}.`,
      ko: (p: { name: string; ref: string; min: string; max: string; what: string }) =>
        `HorizontalPodAutoscaler(${p.name})가 ${p.ref}의 레플리카 수를 정합니다(최소 ${p.min}, 최대 ${p.max}): ${p.what}.`,
    },
    hpaLimited: {
      en: (p: { what: string; limited: string }) => `${p.what}; held at a limit (${p.limited})`,
      ko: (p: { what: string; limited: string }) => `${p.what}. 최소나 최대에 걸려 있습니다(${p.limited})`,
    },
    hpaNext: {
      en: (p: { next: string; replicas: string }) => `it sets ${p.next} at its next sync (${p.replicas} now)`,
      ko: (p: { next: string; replicas: string }) =>
        `다음 동기화에서 ${p.next}로 정합니다(지금 ${p.replicas})`,
    },
    hpaNextDown: {
      en: (p: { next: string; replicas: string }) =>
        `it sets ${p.next} at its next sync (${p.replicas} now): its status asks for it, so its scale-down stabilization window is already behind it`,
      ko: (p: { next: string; replicas: string }) =>
        `다음 동기화에서 레플리카 수를 ${p.next}개로 정합니다(지금 ${p.replicas}개). 상태 정보가 이미 이 값을 요구하므로 스케일 다운 안정화 기간은 이미 지났습니다`,
    },
    hpaHolds: {
      en: (p: { replicas: string }) => `it holds ${p.replicas} for now`,
      ko: (p: { replicas: string }) => `지금은 레플리카 ${p.replicas}개를 유지합니다`,
    },
    hpaHoldsIdle: {
      en: (p: { replicas: string; idle: string }) => `it holds ${p.replicas} for now: ${p.idle}`,
      ko: (p: { replicas: string; idle: string }) =>
        `지금은 레플리카 ${p.replicas}개를 유지합니다: ${p.idle}`,
    },
    hpaRunAtOnce: {
      en: (p: { next: string }) =>
        `This plan was run forward at ${p.next} replicas, the count it sets at once; the controller spreads the change over the ReplicaSets that still have pods (proportional scaling), which the run does not follow pod by pod: diagnose again once it has scaled.`,
      ko: (p: { next: string }) =>
        `이 조치는 HorizontalPodAutoscaler가 곧바로 정하는 레플리카 ${p.next}개로 실행해 보았습니다. 컨트롤러는 이 변경을 파드가 있는 ReplicaSet에 나눠 반영하는데(비례 스케일링), 실행해 본 결과는 이를 파드 단위로 따라가지 않습니다. 스케일이 끝난 뒤 다시 진단하세요.`,
    },
    hpaRunAtNextSync: {
      en: (p: { next: string }) =>
        `This plan was run forward at ${p.next} replicas, the count it sets at its next sync; the controller spreads the change over the ReplicaSets that still have pods (proportional scaling), which the run does not follow pod by pod: diagnose again once it has scaled.`,
      ko: (p: { next: string }) =>
        `이 조치는 HorizontalPodAutoscaler가 다음 동기화에서 정하는 레플리카 ${p.next}개로 실행해 보았습니다. 컨트롤러는 이 변경을 파드가 있는 ReplicaSet에 나눠 반영하는데(비례 스케일링), 실행해 본 결과는 이를 파드 단위로 따라가지 않습니다. 스케일이 끝난 뒤 다시 진단하세요.`,
    },
    hpaShouldItScale: {
      en: (p: { min: string; max: string }) =>
        `Should it scale during the rollout, the controller spreads the change over the ReplicaSets that still have pods (proportional scaling) and percentages resolve against the new count; setting replicas by hand is undone at its next sync unless within min ${p.min} and max ${p.max}.`,
      ko: (p: { min: string; max: string }) =>
        `롤아웃 중에 HorizontalPodAutoscaler가 스케일하면 컨트롤러는 그 변경을 파드가 있는 ReplicaSet에 나눠 반영하고(비례 스케일링), 퍼센트 값은 새 레플리카 수를 기준으로 계산합니다. 레플리카 수를 손으로 바꾸면 최소 ${p.min}개와 최대 ${p.max}개 사이가 아닌 한 HorizontalPodAutoscaler가 다음 동기화에서 되돌립니다.`,
    },
    // A device selector's CEL runtime error (scheduling/selector-error.ts).
    selectorOfClass: {
      en: (p: { index: string; name: string; error: string }) =>
        `selector #${p.index} of DeviceClass ${p.name} fails with a CEL runtime error (${p.error}) on a device the scheduler evaluated, ${SELECTOR_STOPS}: fix the DeviceClass selector ${SELECTOR_FIX}`,
      ko: (p: { index: string; name: string; error: string }) =>
        `DeviceClass ${p.name}의 셀렉터 #${p.index}가 스케줄러가 평가한 장치에서 CEL 런타임 오류로 실패합니다(${p.error}). ${SELECTOR_STOPS_KO}: DeviceClass 셀렉터를 ${SELECTOR_FIX_KO}`,
    },
    selectorOfClaim: {
      en: (p: { index: string; name: string; error: string }) =>
        `selector #${p.index} of claim ${p.name} (its request's selectors; the ResourceClaimTemplate for a per-pod claim) fails with a CEL runtime error (${p.error}) on a device the scheduler evaluated, ${SELECTOR_STOPS}: fix the claim selector ${SELECTOR_FIX}`,
      ko: (p: { index: string; name: string; error: string }) =>
        `클레임 ${p.name}의 셀렉터 #${p.index}(요청의 셀렉터, 파드별 클레임이면 ResourceClaimTemplate의 셀렉터)가 스케줄러가 평가한 장치에서 CEL 런타임 오류로 실패합니다(${p.error}). ${SELECTOR_STOPS_KO}: 클레임 셀렉터를 ${SELECTOR_FIX_KO}`,
    },
    selectorUnnamed: {
      en: () =>
        `a device selector fails with a CEL runtime error on a device the scheduler evaluated, ${SELECTOR_STOPS}: fix the DeviceClass or claim selector ${SELECTOR_FIX}`,
      ko: () =>
        `장치 셀렉터가 스케줄러가 평가한 장치에서 CEL 런타임 오류로 실패합니다. ${SELECTOR_STOPS_KO}: DeviceClass나 클레임의 셀렉터를 ${SELECTOR_FIX_KO}`,
    },
    forbidden: { en: () => 'forbidden', ko: () => '권한 없음' },
    capped: { en: () => 'capped', ko: () => '읽는 양의 상한에 걸림' },
    notInDump: { en: () => 'not in the dump', ko: () => '덤프에 없음' },
    readFailed: { en: () => 'the read failed', ko: () => '읽기 실패' },
    notServed: { en: () => 'not served by this cluster', ko: () => '이 클러스터에 없는 API' },
    notFound: { en: () => 'not found', ko: () => '찾을 수 없음' },
  },
  {
    podsHolding: [{}],
    newUnscheduled: [{}],
    oldHolds: [{}],
    lastAppliedNoManagers: [{ annotation: 'kubectl.kubernetes.io/last-applied-configuration' }],
    lastAppliedWithManager: [
      {
        annotation: 'kubectl.kubernetes.io/last-applied-configuration',
        manager: 'kubectl-client-side-apply',
      },
    ],
    serverSideApply: [{ manager: 'kubectl' }],
    ownerLabels: [
      {
        name: 'kustomize.toolkit.fluxcd.io/name=apps',
        namespace: 'kustomize.toolkit.fluxcd.io/namespace=flux-system',
      },
    ],
    ownerAnnotations: [
      { name: 'meta.helm.sh/release-name=shop', namespace: 'meta.helm.sh/release-namespace=shop' },
    ],
    argoTrackingId: [{ annotation: 'argocd.argoproj.io/tracking-id=shop:apps/Deployment:shop/web' }],
    argoInstanceLabel: [{ label: 'app.kubernetes.io/instance=shop', manager: 'argocd-controller' }],
    guardUnread: [{ title: 'PodDisruptionBudgets', reason: 'forbidden', settle: 'grant list on x in shop' }],
    grantClusterWide: [{ verb: 'get', resource: 'persistentvolumes' }],
    grantIn: [{ verb: 'list', resource: 'poddisruptionbudgets.policy', namespace: 'shop' }],
    notInstalled: [{ resource: 'analysisruns.argoproj.io' }],
    dumpRecipe: [{ command: 'kubectl get poddisruptionbudgets -n shop -o yaml' }],
    hpaSets: [{ name: 'web', ref: 'deployment/web', min: '2', max: '10', what: 'it holds 3 for now' }],
    hpaLimited: [{ what: 'it holds 3 for now', limited: 'TooManyReplicas' }],
    hpaNext: [{ next: '6', replicas: '4' }],
    hpaNextDown: [{ next: '2', replicas: '3' }],
    hpaHolds: [{ replicas: '3' }],
    hpaHoldsIdle: [{ replicas: '3', idle: 'no metrics' }],
    hpaRunAtOnce: [{ next: '6' }],
    hpaRunAtNextSync: [{ next: '2' }],
    hpaShouldItScale: [{ min: '2', max: '10' }],
    selectorOfClass: [{ index: '0', name: 'gpu.example.com', error: 'no such key: model' }],
    selectorOfClaim: [{ index: '1', name: 'shop/train-gpu', error: 'no such key: memory' }],
    selectorUnnamed: [{}],
    forbidden: [{}],
    capped: [{}],
    notInDump: [{}],
    readFailed: [{}],
    notServed: [{}],
    notFound: [{}],
  },
);
