/**
 * The pod-to-pod placement rules of the model in placement.ts: required pod
 * anti-affinity (the incoming pod's terms and existing pods' terms against it) and
 * volume restrictions (missing or unbound claims, ReadWriteOncePod in use).
 */
import type { Node, Pod } from '../k8s.js';
import { claimNames, requiredAntiAffinity, termSelectsPod } from '../base/pod-constraints.js';
import type { Blocker, HolderRef, PlacementContext } from './placement-types.js';
import { pvcsRead } from '../snapshot/types.js';
import { matchesTerms } from '../base/node-match.js';

/** Bound pods by the value of `key` on their node (zone, region, ...), built once per key and context. */
function domainIndex(ctx: PlacementContext, key: string): Map<string, Pod[]> {
  const byKey = ctx.domainIndexes;
  let index = byKey.get(key);
  if (!index) {
    index = new Map();
    for (const [nodeName, pods] of ctx.occupantsByNode) {
      const value = ctx.nodesByName.get(nodeName)?.metadata.labels?.[key];
      if (value === undefined) continue;
      index.set(value, [...(index.get(value) ?? []), ...pods]);
    }
    byKey.set(key, index);
  }
  return index;
}

export function antiAffinityBlockers(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  removed: ReadonlySet<Pod>,
): Blocker[] {
  const ownTerms = requiredAntiAffinity(incoming.spec);
  if (ownTerms.length === 0 && ctx.antiAffinityHolders.length === 0) return [];
  const labels = node.metadata.labels ?? {};
  const byKey = new Map<string, HolderRef[]>();
  const add = (key: string, pod: Pod): void => {
    const list = byKey.get(key) ?? [];
    if (!list.some((h) => h.pod === pod)) list.push({ pod, amount: 1 });
    byKey.set(key, list);
  };
  const inDomain = (pod: Pod, key: string): boolean => {
    const other = ctx.nodesByName.get(pod.spec.nodeName ?? '');
    if (pod.spec.nodeName === node.metadata.name) return labels[key] !== undefined;
    return other !== undefined && labels[key] !== undefined && other.metadata.labels?.[key] === labels[key];
  };
  for (const term of ownTerms) {
    if (labels[term.topologyKey] === undefined) continue;
    const candidates =
      term.topologyKey === 'kubernetes.io/hostname'
        ? (ctx.occupantsByNode.get(node.metadata.name ?? '') ?? [])
        : (domainIndex(ctx, term.topologyKey).get(labels[term.topologyKey] ?? '') ?? []);
    for (const pod of candidates) {
      if (pod === incoming || removed.has(pod)) continue;
      if (inDomain(pod, term.topologyKey) && termSelectsPod(term, incoming.metadata.namespace, pod)) {
        add(term.topologyKey, pod);
      }
    }
  }
  for (const pod of ctx.antiAffinityHolders) {
    if (pod === incoming || removed.has(pod)) continue;
    for (const term of requiredAntiAffinity(pod.spec)) {
      if (inDomain(pod, term.topologyKey) && termSelectsPod(term, pod.metadata.namespace, incoming)) {
        add(term.topologyKey, pod);
      }
    }
  }
  return [...byKey.entries()].map(([topologyKey, holders]) => ({
    kind: 'anti-affinity',
    topologyKey,
    domain: labels[topologyKey] ?? '',
    holders,
  }));
}

export function volumeBlockers(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  removed: ReadonlySet<Pod>,
): Blocker[] {
  const claims = claimNames(incoming.spec);
  if (claims.length === 0) return [];
  const { snapshot } = ctx;
  const pvcsReadable = pvcsRead(snapshot);
  const blockers: Blocker[] = [];
  for (const claim of claims) {
    const pvc = snapshot.pvcs.find(
      (p) =>
        p.metadata.name === claim &&
        (p.metadata.namespace ?? incoming.metadata.namespace) === incoming.metadata.namespace,
    );
    if (!pvc) {
      if (pvcsReadable) blockers.push({ kind: 'volume', claim, problem: 'not-found', holders: [] });
      continue;
    }
    if (pvc.status?.phase && pvc.status.phase !== 'Bound') {
      blockers.push({ kind: 'volume', claim, problem: 'unbound', holders: [] });
      continue;
    }
    // VolumeBinding: a bound claim's volume may be usable on some nodes only (a local PV).
    const volume = pvc.spec.volumeName
      ? snapshot.guards?.persistentVolumes?.find((v) => v.metadata.name === pvc.spec.volumeName)
      : undefined;
    const terms = volume?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
    if (terms && terms.length > 0 && !matchesTerms(node, terms)) {
      blockers.push({
        kind: 'volume',
        claim,
        problem: 'node-affinity',
        volume: volume?.metadata.name ?? '',
        holders: [],
      });
      continue;
    }
    const modes = pvc.spec.accessModes ?? pvc.status?.accessModes ?? [];
    if (!modes.includes('ReadWriteOncePod')) continue;
    const holders = [...ctx.occupantsByNode.values()]
      .flat()
      .filter(
        (pod) => pod !== incoming && !removed.has(pod) && usesClaim(pod, incoming.metadata.namespace, claim),
      )
      .map((pod) => ({ pod, amount: 1 }));
    if (holders.length > 0) blockers.push({ kind: 'volume', claim, problem: 'in-use-rwop', holders });
  }
  return blockers;
}

/** The pod mounts the claim (same namespace). */
export function usesClaim(pod: Pod, namespace: string | undefined, claim: string): boolean {
  return pod.metadata.namespace === namespace && claimNames(pod.spec).includes(claim);
}
