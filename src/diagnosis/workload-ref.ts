/**
 * Which workloads a diagnosis can be about, and how the API and people name each kind.
 * The vocabulary every layer shares (the parsers, the queue schema, the alert map, the
 * collector, the analyzers); what a kind decides lives in its module under
 * src/diagnosis/workloads/ (docs/architecture.md, "Adding a workload kind").
 */

import { apiTable, workloadVocabulary, type KindOf } from './workload-api.js';
import { WORKLOAD_APIS } from './workloads/kinds.js';

/** The kinds of workload a diagnosis can be about: the registry's (workloads/kinds.ts). */
export type WorkloadKind = KindOf<typeof WORKLOAD_APIS>;

/** The kind a bare NAME means, as in kubectl's own `diagnose NAME` habit (DESIGN.md §3). */
export const DEFAULT_WORKLOAD_KIND: WorkloadKind = 'Deployment';

const vocabulary = workloadVocabulary(WORKLOAD_APIS, DEFAULT_WORKLOAD_KIND);

/** The kinds in the registry's order (a non-empty tuple: zod's enum takes it). */
export const WORKLOAD_KINDS = vocabulary.kinds;

/** What a diagnosis is about. */
export interface WorkloadRef {
  kind: WorkloadKind;
  namespace: string;
  name: string;
}
/** Each kind's identity by name: group, version, resource, TYPE spellings, title, RBAC verbs. */
export const WORKLOAD_NAMES = apiTable(WORKLOAD_APIS);

export const isWorkloadKind: (kind: string | undefined) => kind is WorkloadKind = vocabulary.isKind;

/** Every kind's singular TYPE, in WORKLOAD_KINDS order. */
export function workloadTypes(): WorkloadType[] {
  return WORKLOAD_KINDS.map(typeOfKind);
}

/**
 * The kind a TYPE of TYPE/NAME names, as kubectl spells it (any case).
 *
 * @example kindOfType('deploy') // 'Deployment'
 */
export const kindOfType: (type: string) => WorkloadKind | undefined = vocabulary.kindOfType;

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
 * "Deployments, DaemonSets, StatefulSets and Rollouts", `kindsPhrase('', 'or')`
 * "Deployment, DaemonSet, StatefulSet or Rollout".
 */
export const kindsPhrase: (plural: 's' | '', last: 'and' | 'or') => string = vocabulary.kindsPhrase;

/**
 * The kinds as people call them, for help texts and sentences: `titlesPhrase('s', 'and')`
 * is "Deployments, DaemonSets, StatefulSets and Argo Rollouts", `titlesPhrase('', 'or')`
 * "Deployment, DaemonSet, StatefulSet or Argo Rollout".
 */
export const titlesPhrase: (plural: 's' | '', last: 'and' | 'or') => string = vocabulary.titlesPhrase;

/**
 * TYPE/NAME or NAME as kubectl reads it: the kind (the default one for a bare NAME) and
 * the name, or the TYPE no kind answers to. The name is not checked here.
 *
 * @example splitTypeName('deploy/web') // { kind: 'Deployment', name: 'web' }
 */
export const splitTypeName: (text: string) => { kind: WorkloadKind; name: string } | { unknownType: string } =
  vocabulary.splitTypeName;
