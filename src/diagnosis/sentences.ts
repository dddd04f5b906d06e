/**
 * The sentences the diagnosis writes in English into its data (an evidence table's
 * title and cells, who owns a workload and why, a guard it could not read), in every
 * language (i18n/sentences.ts): the engine writes the English with these entries, a
 * reader of another language gets the same facts from them.
 */
import { defineSentences } from '../i18n/sentences.js';

type Ns = { namespace: string };
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
        `${p.annotation} 어노테이션(kubectl의 클라이언트 측 apply만 씁니다). managedFields가 없어서(오래된 오브젝트이거나 --show-managed-fields 없이 저장한 덤프) 필드 매니저는 본 것이 아니라 그 apply가 쓰는 이름입니다`,
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
      ko: (p: { label: string; manager: string }) => `레이블 ${p.label}과 필드 매니저 ${p.manager}`,
    },
    // A guard not read (guards/guard-gaps.ts).
    guardUnread: {
      en: (p: { title: string; reason: string; settle: string }) =>
        `${p.title}: not read (${p.reason}): ${p.settle}`,
      ko: (p: { title: string; reason: string; settle: string }) =>
        `${p.title}: 읽지 못함(${p.reason}): ${p.settle}`,
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
      ko: (p: { resource: string }) => `${p.resource}가 설치되어 있지 않으면 읽을 것이 없습니다`,
    },
    dumpRecipe: {
      en: (p: { command: string }) => `${p.command}, and diagnose from the dump`,
      ko: (p: { command: string }) => `${p.command}로 저장한 덤프로 진단하세요`,
    },
    // The autoscaler that sets the replicas (guards/autoscaler.ts).
    hpaSets: {
      en: (p: { name: string; ref: string; min: string; max: string; what: string }) =>
        `HorizontalPodAutoscaler ${p.name} sets the replicas of ${p.ref} (min ${p.min}, max ${p.max}): ${p.what}.`,
      ko: (p: { name: string; ref: string; min: string; max: string; what: string }) =>
        `HorizontalPodAutoscaler ${p.name}가 ${p.ref}의 레플리카 수를 정합니다(최소 ${p.min}, 최대 ${p.max}): ${p.what}.`,
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
        `다음 동기화에서 ${p.next}로 정합니다(지금 ${p.replicas}). 상태 정보가 이미 이 값을 요구하므로 스케일 다운 안정화 기간은 이미 지났습니다`,
    },
    hpaHolds: {
      en: (p: { replicas: string }) => `it holds ${p.replicas} for now`,
      ko: (p: { replicas: string }) => `지금은 ${p.replicas}를 유지합니다`,
    },
    hpaHoldsIdle: {
      en: (p: { replicas: string; idle: string }) => `it holds ${p.replicas} for now: ${p.idle}`,
      ko: (p: { replicas: string; idle: string }) => `지금은 ${p.replicas}를 유지합니다: ${p.idle}`,
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
    forbidden: [{}],
    capped: [{}],
    notInDump: [{}],
    readFailed: [{}],
    notServed: [{}],
    notFound: [{}],
  },
);
