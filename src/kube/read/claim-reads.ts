/**
 * The PersistentVolumeClaims the workload's pods mount, read in the collector's second
 * round: each claim the pod template names, by GET (a 404 proves it absent), and a
 * StatefulSet's per-pod claims (`<template>-<set>-<ordinal>`) in one list by the set's
 * matchLabels, which the StatefulSet controller copies onto every claim it creates
 * (stateful_set_utils.go getPersistentVolumeClaims). A refused or failed read is an
 * access problem (pvcsRead then says the claims are not known whole) and leaves those
 * claims' volumes unknown; a capped list is a 'pvcs' gap.
 */
import type { PersistentVolumeClaim } from '../../diagnosis/k8s-storage.js';
import type { PodSpec } from '../../diagnosis/k8s.js';
import type { AccessProblem, CoverageGap, WorkloadObject } from '../../diagnosis/snapshot/types.js';
import { claimNames } from '../../diagnosis/base/pod-constraints.js';
import { claimTemplatesOf, isClaimOfTemplates } from '../../diagnosis/guards/select-guards.js';
import type { KubeClient } from '../client.js';
import { labelSelectorString } from '../label-selector.js';
import { getObjectIfExists, listObjects } from '../list.js';
import { secondaryRead } from './secondary-read.js';
import { namespacedListState } from './read-coverage.js';

/** The claims the pods mount, as read (the collector's round 2), and those that could not be. */
export interface ClaimsRead {
  claims: PersistentVolumeClaim[];
  /** Claims that could not be read (refused, failed): their volumes are unknown. */
  unread: string[];
}

/** A StatefulSet's claims per page (one page). */
const CLAIM_PAGE = 500;

export async function readClaims(
  client: KubeClient,
  namespace: string,
  object: WorkloadObject,
  template: PodSpec,
  problems: AccessProblem[],
  gaps: CoverageGap[],
): Promise<ClaimsRead> {
  const names = claimNames(template);
  const templates = claimTemplatesOf(object).names;
  const setName = object.metadata.name ?? '';
  const [named, perPod] = await Promise.all([
    Promise.all(
      names.map(async (name) => {
        const failed = { unread: true as const };
        const claim = await secondaryRead<PersistentVolumeClaim | undefined | typeof failed>(
          problems,
          failed,
          () =>
            getObjectIfExists<PersistentVolumeClaim>(client, {
              resource: 'persistentvolumeclaims',
              namespace,
              name,
            }),
        );
        return claim && 'unread' in claim ? { name } : { claim };
      }),
    ),
    templates.length > 0
      ? secondaryRead(problems, undefined, () =>
          listObjects<PersistentVolumeClaim>(
            client,
            {
              resource: 'persistentvolumeclaims',
              namespace,
              query: { labelSelector: matchLabelsOf(object) },
            },
            { limit: CLAIM_PAGE, maxPages: 1 },
          ),
        )
      : Promise.resolve(null),
  ]);
  const claims = named.flatMap((r) => ('claim' in r && r.claim ? [r.claim] : []));
  const unread = named.flatMap((r) => ('name' in r && r.name !== undefined ? [r.name] : []));
  if (perPod === undefined) unread.push(`${templates.join(', ')} of ${setName}`);
  if (perPod) {
    if (perPod.truncated) namespacedListState(perPod, 'persistentvolumeclaims', namespace, gaps);
    const held = new Set(claims.map((c) => c.metadata.name));
    claims.push(
      ...perPod.items.filter(
        (c) => !held.has(c.metadata.name) && isClaimOfTemplates(c.metadata.name ?? '', setName, templates),
      ),
    );
  }
  return { claims, unread };
}

/** The set's matchLabels only: the controller copies those, not matchExpressions, onto its claims. */
function matchLabelsOf(object: WorkloadObject): string | undefined {
  const labels = object.spec.selector?.matchLabels;
  return labels && Object.keys(labels).length > 0 ? labelSelectorString({ matchLabels: labels }) : undefined;
}
