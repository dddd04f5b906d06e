/**
 * Which workloads a diagnosis can be about, and how the API and people name each kind.
 * The vocabulary every layer shares (the parsers, the queue schema, the alert map, the
 * collector, the analyzers); what a kind decides lives in its module under
 * src/diagnosis/workloads/ (docs/architecture.md, "Adding a workload kind").
 */

/** The kinds of workload a diagnosis can be about (issue 30 adds StatefulSet, DaemonSet, Rollout). */
export const WORKLOAD_KINDS = ['Deployment'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

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
}

export const WORKLOAD_NAMES = Object.freeze({
  Deployment: {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    types: ['deployment', 'deployments', 'deploy', 'deployment.apps', 'deployments.apps'],
  },
} as const satisfies Record<WorkloadKind, WorkloadNames>);

export function isWorkloadKind(kind: string | undefined): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind ?? '');
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

/** The singular TYPE of a kind, as in `deployment/NAME`. */
export function typeOfKind(kind: WorkloadKind): string {
  return WORKLOAD_NAMES[kind].types[0];
}

/** "Deployments" (later "Deployments, StatefulSets, DaemonSets and Rollouts"), for refusals. */
export function kindsPhrase(): string {
  const plural = WORKLOAD_KINDS.map((k) => `${k}s`);
  return plural.length <= 1
    ? (plural[0] ?? '')
    : `${plural.slice(0, -1).join(', ')} and ${plural.at(-1) ?? ''}`;
}
