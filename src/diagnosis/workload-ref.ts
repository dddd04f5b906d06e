/**
 * Which workloads a diagnosis can be about, and how the API and people name each kind.
 * The vocabulary every layer shares (the parsers, the queue schema, the alert map, the
 * collector, the analyzers); what a kind decides lives in its module under
 * src/diagnosis/workloads/ (docs/architecture.md, "Adding a workload kind").
 */

/** The kinds of workload a diagnosis can be about. */
export const WORKLOAD_KINDS = ['Deployment', 'DaemonSet', 'StatefulSet', 'Rollout'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

/** The kind a bare NAME means, as in kubectl's own `diagnose NAME` habit (DESIGN.md §3). */
export const DEFAULT_WORKLOAD_KIND: WorkloadKind = 'Deployment';

/** What a diagnosis is about. */
export interface WorkloadRef {
  kind: WorkloadKind;
  namespace: string;
  name: string;
}

/** How the API and people name one kind. */
export interface WorkloadNames {
  /** API group and version it is read at: "apps", "v1". */
  group: string;
  version: string;
  /** The plural resource, as RBAC, the API path and kubectl name it: "deployments". */
  resource: string;
  /**
   * The TYPE spellings kubectl accepts in TYPE/NAME, lower case, the singular first
   * (the alert map's word and the label kube-state-metrics puts the name in).
   */
  types: readonly [string, ...string[]];
  /** What people call one ("Argo Rollout"): the kind's word in sentences. */
  title: string;
}

export const WORKLOAD_NAMES = Object.freeze({
  Deployment: {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    types: ['deployment', 'deployments', 'deploy', 'deployment.apps', 'deployments.apps'],
    title: 'Deployment',
  },
  DaemonSet: {
    group: 'apps',
    version: 'v1',
    resource: 'daemonsets',
    types: ['daemonset', 'daemonsets', 'ds', 'daemonset.apps', 'daemonsets.apps'],
    title: 'DaemonSet',
  },
  StatefulSet: {
    group: 'apps',
    version: 'v1',
    resource: 'statefulsets',
    types: ['statefulset', 'statefulsets', 'sts', 'statefulset.apps', 'statefulsets.apps'],
    title: 'StatefulSet',
  },
  // Argo Rollouts' CRD (manifests/crds/rollout-crd.yaml: shortName ro). Served only where installed.
  Rollout: {
    group: 'argoproj.io',
    version: 'v1alpha1',
    resource: 'rollouts',
    types: ['rollout', 'rollouts', 'ro', 'rollout.argoproj.io', 'rollouts.argoproj.io'],
    title: 'Argo Rollout',
  },
} as const satisfies Record<WorkloadKind, WorkloadNames>);

export function isWorkloadKind(kind: string | undefined): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind ?? '');
}

/** Every kind's singular TYPE, in WORKLOAD_KINDS order. */
export function workloadTypes(): WorkloadType[] {
  return WORKLOAD_KINDS.map(typeOfKind);
}

/**
 * The kind a TYPE of TYPE/NAME names, as kubectl spells it (any case).
 *
 * @example kindOfType('deploy') // 'Deployment'
 */
export function kindOfType(type: string): WorkloadKind | undefined {
  const lower = type.toLowerCase();
  return WORKLOAD_KINDS.find((kind) => (WORKLOAD_NAMES[kind].types as readonly string[]).includes(lower));
}

/** A kind's singular TYPE: "deployment" (the alert map's word, kube-state-metrics' label). */
export type WorkloadType = (typeof WORKLOAD_NAMES)[WorkloadKind]['types'][0];

/** What people call a kind in a sentence: "DaemonSet", "Argo Rollout". */
export function titleOfKind(kind: WorkloadKind): string {
  return WORKLOAD_NAMES[kind].title;
}

/** The singular TYPE of a kind, as in `deployment/NAME`. */
export function typeOfKind(kind: WorkloadKind): WorkloadType {
  return WORKLOAD_NAMES[kind].types[0];
}

/**
 * The kinds in a phrase, for usage errors and refusals: `kindsPhrase('s', 'and')` is
 * "Deployments" (later "Deployments, StatefulSets, DaemonSets and Rollouts"),
 * `kindsPhrase('', 'or')` "Deployment".
 */
export function kindsPhrase(plural: 's' | '', last: 'and' | 'or'): string {
  const words = WORKLOAD_KINDS.map((k) => `${k}${plural}`);
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1) ?? ''}`;
}

/**
 * TYPE/NAME or NAME as kubectl reads it: the kind (the default one for a bare NAME) and
 * the name, or the TYPE no kind answers to. The name is not checked here.
 *
 * @example splitTypeName('deploy/web') // { kind: 'Deployment', name: 'web' }
 */
export function splitTypeName(text: string): { kind: WorkloadKind; name: string } | { unknownType: string } {
  const slash = text.indexOf('/');
  if (slash < 0) return { kind: DEFAULT_WORKLOAD_KIND, name: text };
  const type = text.slice(0, slash);
  const kind = kindOfType(type);
  return kind ? { kind, name: text.slice(slash + 1) } : { unknownType: type };
}
