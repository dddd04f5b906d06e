/**
 * Which of the objects read (live or from a dump) guard one workload (DESIGN.md §4d):
 * the HorizontalPodAutoscalers that target it, the PersistentVolumes bound to
 * its pods' claims, the StorageClasses those claims name, an Argo Rollout's
 * AnalysisRuns. PodDisruptionBudgets are kept whole (every one of the namespace): which
 * pods a budget covers is the reader's question, since a budget may span workloads.
 * Pure: the collector and the dump path both choose through here.
 */
import type { AnalysisRun } from '../k8s-argo.js';
import type { HorizontalPodAutoscaler } from '../k8s-policy.js';
import type { ObjectMeta, PodSpec } from '../k8s.js';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../k8s-storage.js';
import type { WorkloadObject } from '../snapshot/types.js';
import { WORKLOAD_NAMES, type WorkloadRef } from '../workload-ref.js';
import { claimNames } from '../base/pod-constraints.js';

/** The HPAs whose scaleTargetRef names the workload (kind, name and, when given, API group). */
export function autoscalersOf(
  ref: WorkloadRef,
  hpas: readonly HorizontalPodAutoscaler[],
): HorizontalPodAutoscaler[] {
  const group = WORKLOAD_NAMES[ref.kind].group;
  return hpas.filter((hpa) => {
    if ((hpa.metadata.namespace ?? ref.namespace) !== ref.namespace) return false;
    const target = hpa.spec?.scaleTargetRef;
    if (target?.kind !== ref.kind || target.name !== ref.name) return false;
    // "apps/v1" → "apps"; "v1" (core) has no group. An HPA naming another group's kind of
    // the same name targets something else.
    const apiVersion = target.apiVersion;
    if (apiVersion === undefined) return true;
    const named = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    return named === group;
  });
}

/** The AnalysisRuns a Rollout owns (ownerReferences by uid, or by kind and name where a dump has no uid). */
export function analysisRunsOf(
  rollout: { metadata: ObjectMeta },
  runs: readonly AnalysisRun[],
  kind: string,
): AnalysisRun[] {
  const { uid, name, namespace } = rollout.metadata;
  return runs.filter(
    (run) =>
      (run.metadata.namespace ?? namespace) === namespace &&
      (run.metadata.ownerReferences ?? []).some((o) =>
        uid !== undefined && o.uid !== undefined ? o.uid === uid : o.kind === kind && o.name === name,
      ),
  );
}

/**
 * The claims a StatefulSet's pods get from its volumeClaimTemplates, as the controller
 * names them (`<template>-<set>-<ordinal>`, stateful_set_utils.go
 * getPersistentVolumeClaimName): a name of that shape for one of its templates.
 */
export function isClaimOfTemplates(claim: string, setName: string, templates: readonly string[]): boolean {
  return templates.some((t) => {
    const prefix = `${t}-${setName}-`;
    return claim.startsWith(prefix) && /^\d+$/.test(claim.slice(prefix.length));
  });
}

/** The PVs bound to the claims: the claim's volumeName, or the PV's claimRef naming the claim. */
export function volumesOfClaims(
  claims: readonly PersistentVolumeClaim[],
  volumes: readonly PersistentVolume[],
): PersistentVolume[] {
  const names = new Set(claims.flatMap((c) => (c.spec.volumeName ? [c.spec.volumeName] : [])));
  const refs = new Set(claims.map((c) => `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`));
  return volumes.filter((pv) => {
    if (names.has(pv.metadata.name ?? '')) return true;
    const ref = pv.spec?.claimRef;
    return ref?.name !== undefined && refs.has(`${ref.namespace ?? ''}/${ref.name}`);
  });
}

/**
 * The StorageClass names the claims (and a StatefulSet's claim templates) ask for. A
 * claim with no class takes the cluster's default (`storageclass.kubernetes.io/is-default-class`).
 */
export function classNamesOf(
  claims: readonly PersistentVolumeClaim[],
  templateClasses: readonly (string | undefined)[],
): { names: Set<string>; wantsDefault: boolean } {
  const asked = [...claims.map((c) => c.spec.storageClassName), ...templateClasses];
  return {
    names: new Set(asked.filter((n): n is string => n !== undefined && n !== '')),
    wantsDefault: asked.some((n) => n === undefined),
  };
}

/** The classes named, and the default class when a claim names none. */
export function classesOf(
  classes: readonly StorageClass[],
  wanted: { names: Set<string>; wantsDefault: boolean },
): StorageClass[] {
  return classes.filter(
    (c) =>
      wanted.names.has(c.metadata.name ?? '') ||
      (wanted.wantsDefault &&
        c.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true'),
  );
}

/** A StatefulSet's claim templates: their names and the classes they ask for. */
export function claimTemplatesOf(object: WorkloadObject): {
  names: string[];
  classes: (string | undefined)[];
} {
  const templates =
    'volumeClaimTemplates' in object.spec && Array.isArray(object.spec.volumeClaimTemplates)
      ? object.spec.volumeClaimTemplates
      : [];
  return {
    names: templates.map((t) => t.metadata.name ?? '').filter((n) => n !== ''),
    classes: templates.map((t) => {
      const name = t.spec?.['storageClassName'];
      return typeof name === 'string' ? name : undefined;
    }),
  };
}

/** The workload mounts claims: in its template, or through claim templates. */
export function mountsClaims(template: PodSpec, object: WorkloadObject): boolean {
  return claimNames(template).length > 0 || claimTemplatesOf(object).names.length > 0;
}
