/**
 * Where a manifest's new pods must go because of their volumes: a pod
 * bound to a node-pinned volume (a local PV, any PV with spec.nodeAffinity, a local-path
 * provisioner's) is placed only where the volume's node affinity allows (VolumeBinding,
 * "volume node affinity conflict"). A StatefulSet's pod `<set>-<ordinal>` mounts its
 * claims `<template>-<set>-<ordinal>` (one volume per volumeClaimTemplate, named after
 * the template: the controller's updateStorage), so the replacement of an ordinal goes
 * where that ordinal's claim is bound, whatever room other nodes have. The forward model
 * gives each new pod it makes the ordinal the controller replaces (one whose old pod is
 * gone, the highest first) with the claims of that ordinal that exist and are bound; a
 * claim not made yet (a new ordinal) or not bound yet (WaitForFirstConsumer) binds with
 * the pod and pins nothing. A bound claim whose volume was not read leaves where the
 * pod may go unknown: the model makes no claim then. Pure.
 */
import type { PersistentVolumeClaim } from '../k8s-storage.js';
import type { Pod, Volume } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { pvcsRead } from '../snapshot/types.js';
import { claimNames } from '../base/pod-constraints.js';
import { workloadKind } from '../workloads/index.js';
import type { ModelPods } from './model-pods.js';

export interface Ordinals {
  /** The StatefulSet's name: pods `<set>-<ordinal>`. */
  set: string;
  /** Its volumeClaimTemplates' names. */
  templates: string[];
  replicas: number;
  /** spec.ordinals.start: the ordinals run from it to start + replicas - 1. */
  start: number;
  /** The namespace's bound claims, by name. */
  bound: ReadonlyMap<string, PersistentVolumeClaim>;
}

/** A StatefulSet's per-ordinal claims for the model, or undefined (no claim templates, another kind). */
export function ordinalsOf(snapshot: WorkloadSnapshot): Ordinals | undefined {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const templates = kind.claimTemplates(object);
  if (templates.length === 0) return undefined;
  return {
    set: object.metadata.name ?? '',
    templates,
    replicas: kind.desiredReplicas(object),
    start: kind.firstOrdinal(object),
    bound: boundClaims(snapshot),
  };
}

function boundClaims(snapshot: WorkloadSnapshot): Map<string, PersistentVolumeClaim> {
  const namespace = snapshot.target.namespace;
  const out = new Map<string, PersistentVolumeClaim>();
  for (const pvc of snapshot.pvcs)
    if ((pvc.metadata.namespace ?? namespace) === namespace && pvc.spec.volumeName)
      out.set(pvc.metadata.name ?? '', pvc);
  return out;
}

/** The claims the new pods mount: the template's, and a StatefulSet's per ordinal. */
function newPodClaims(template: Pod, ordinals: Ordinals | undefined): string[] {
  const claims = claimNames(template.spec);
  if (!ordinals) return claims;
  const { start, replicas } = ordinals;
  for (let k = start; k < start + replicas; k += 1)
    for (const t of ordinals.templates) claims.push(`${t}-${ordinals.set}-${k}`);
  return claims;
}

/**
 * Why where the new pods may go is not known, or undefined: the claims were not read
 * (the template or the StatefulSet's claim templates name some), or a claim they mount
 * is bound to a volume that was not read (its node affinity may pin them).
 */
export function unreadVolumes(
  snapshot: WorkloadSnapshot,
  template: Pod,
  ordinals: Ordinals | undefined,
): string | undefined {
  const claims = newPodClaims(template, ordinals);
  if (claims.length === 0) return undefined;
  if (!pvcsRead(snapshot)) return 'the claims the new pods mount were not read';
  if (snapshot.guards?.persistentVolumes !== undefined) return undefined;
  const namespace = snapshot.target.namespace;
  const pvc = snapshot.pvcs.find(
    (p) =>
      claims.includes(p.metadata.name ?? '') &&
      (p.metadata.namespace ?? namespace) === namespace &&
      p.spec.volumeName,
  );
  return pvc
    ? `the PersistentVolume ${pvc.spec.volumeName ?? ''} that claim ${pvc.metadata.name ?? ''} is bound to was not read, so whether its node affinity pins the new pods is not known`
    : undefined;
}

const ORDINAL = /-(\d+)$/;

function ordinalOf(set: string, pod: Pod): number | undefined {
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(`${set}-`)) return undefined;
  const match = ORDINAL.exec(name);
  return match && match.index === set.length ? Number(match[1]) : undefined;
}

/**
 * The new pod the StatefulSet controller makes next: the ordinal it replaces (no new
 * pod holds it; one whose old pod is gone first, the highest first, as the rolling
 * update goes down from the top), named `<set>-<ordinal>`, with that ordinal's bound
 * claims as its volumes.
 */
export function ordinalPod(pods: ModelPods, ordinals: Ordinals, pod: Pod): Pod {
  const { set, templates, replicas, start, bound } = ordinals;
  const taken = new Set(pods.live('new').map((p) => ordinalOf(set, p.pod)));
  const held = new Set(pods.live('old').map((p) => ordinalOf(set, p.pod)));
  const free: number[] = [];
  for (let k = start + replicas - 1; k >= start; k -= 1) if (!taken.has(k)) free.push(k);
  const ordinal = free.find((k) => !held.has(k)) ?? free[0];
  if (ordinal === undefined) return pod;
  const volumes: Volume[] = (pod.spec.volumes ?? []).filter((v) => !templates.includes(v.name));
  for (const t of templates) {
    const claim = `${t}-${set}-${ordinal}`;
    if (bound.has(claim)) volumes.push({ name: t, persistentVolumeClaim: { claimName: claim } });
  }
  return {
    ...pod,
    metadata: { ...pod.metadata, name: `${set}-${ordinal}` },
    spec: { ...pod.spec, volumes },
  };
}
