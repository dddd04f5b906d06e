/**
 * The cluster as the forward model changes it: which pods hold which node (an overlay
 * on the analysis' placement index, so the same filters judge fit: resources, pod
 * slots, host ports, anti-affinity, topology spread, ReadWriteOncePod), and what the
 * namespace's quotas have counted (the one that refused the workload, the ones read).
 * Pods leave when they are gone (a terminating pod holds its node and its quota until
 * then), pods arrive when bound.
 */
import type { Node, Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { requiredAntiAffinity } from '../base/pod-constraints.js';
import { quotaCharge } from '../base/quota-charge.js';
import { blockersOn, fitsOn, type Blocker, type PlacementContext } from '../placement/placement.js';

export interface QuotaLedger {
  /** The quota's name. */
  name: string;
  namespace: string;
  /**
   * Where its numbers come from: the event of its refusal of one of our pods, or its
   * status as read (a quota that has not refused anything yet, but will).
   */
  source: 'refusal' | 'status';
  entries: { resource: string; hard: number; used: number }[];
}

/** Which quota refuses, and whether it has said so yet (its refusal) or its status tells (it will). */
export type QuotaRef = Pick<QuotaLedger, 'name' | 'source'>;

export function quotaRef(ledger: QuotaLedger): QuotaRef {
  return { name: ledger.name, source: ledger.source };
}

export class World {
  readonly ctx: PlacementContext;
  readonly quotas: readonly QuotaLedger[];

  constructor(base: PlacementContext, quotas: readonly QuotaLedger[]) {
    this.ctx = {
      ...base,
      occupantsByNode: new Map([...base.occupantsByNode].map(([node, pods]) => [node, [...pods]])),
      antiAffinityHolders: [...base.antiAffinityHolders],
      domainIndexes: new Map(),
      spreadCounts: new WeakMap(),
    };
    this.quotas = quotas.map((q) => ({ ...q, entries: q.entries.map((e) => ({ ...e })) }));
  }

  /** The pod is gone: its node's resources and its quota charge are free. */
  remove(pod: Pod): void {
    const node = pod.spec.nodeName;
    if (node) {
      const list = this.ctx.occupantsByNode.get(node);
      const at = list?.indexOf(pod) ?? -1;
      if (list && at >= 0) list.splice(at, 1);
    }
    const holder = this.ctx.antiAffinityHolders.indexOf(pod);
    if (holder >= 0) this.ctx.antiAffinityHolders.splice(holder, 1);
    this.charge(pod, -1);
    this.changed();
  }

  /** Binds a (model) pod to a node; returns the bound pod. */
  bind(pod: Pod, node: string): Pod {
    const bound: Pod = { ...pod, spec: { ...pod.spec, nodeName: node } };
    const list = this.ctx.occupantsByNode.get(node) ?? [];
    list.push(bound);
    this.ctx.occupantsByNode.set(node, list);
    if (requiredAntiAffinity(bound.spec).length > 0) this.ctx.antiAffinityHolders.push(bound);
    this.changed();
    return bound;
  }

  /** What keeps the pod off the node now (selection and taints aside). */
  blockers(pod: Pod, node: Node): Blocker[] {
    return blockersOn(this.ctx, pod, node);
  }

  /** Where the last search stopped: the next one starts there, as the scheduler's nextStartNodeIndex does. */
  #start = 0;
  /** Bumped on every change: a pod that found no node finds none again until it moves. */
  #version = 0;
  readonly #noRoom = new WeakMap<Pod, number>();

  /** A node (of `nodes`) that selects, tolerates and has room for the pod. */
  placeOn(pod: Pod, nodes: readonly Node[]): Node | undefined {
    if (this.#noRoom.get(pod) === this.#version) return undefined;
    const count = nodes.length;
    for (let i = 0; i < count; i += 1) {
      const at = (this.#start + i) % count;
      const node = nodes[at];
      if (node && isEligible(node, pod.spec) && fitsOn(this.ctx, pod, node)) {
        this.#start = at;
        return node;
      }
    }
    this.#noRoom.set(pod, this.#version);
    return undefined;
  }

  /**
   * The victims the scheduler would preempt for `pod` on the best of `nodes`: pods of
   * lower priority, the fewest of them, highest priority reprieved first
   * (pkg/scheduler/framework/preemption: SelectVictimsOnNode). Undefined: no node works.
   */
  preemption(
    pod: Pod,
    nodes: readonly Node[],
    leaving: ReadonlySet<Pod>,
  ): { node: Node; victims: Pod[] } | undefined {
    if (pod.spec.preemptionPolicy === 'Never') return undefined;
    const priority = pod.spec.priority ?? 0;
    let best: { node: Node; victims: Pod[] } | undefined;
    for (const node of nodes) {
      if (!isEligible(node, pod.spec)) continue;
      const lower = (this.ctx.occupantsByNode.get(node.metadata.name ?? '') ?? [])
        .filter((p) => (p.spec.priority ?? 0) < priority && !leaving.has(p))
        .sort((a, b) => (b.spec.priority ?? 0) - (a.spec.priority ?? 0));
      if (lower.length === 0) continue;
      const removed = new Set(lower);
      if (!fitsOn(this.ctx, pod, node, removed)) continue;
      for (const candidate of lower) {
        removed.delete(candidate);
        if (!fitsOn(this.ctx, pod, node, removed)) removed.add(candidate);
      }
      if (!best || removed.size < best.victims.length) best = { node, victims: [...removed] };
    }
    return best;
  }

  /**
   * The first quota that refuses one more pod of this spec, or undefined: admitted (no
   * quota known to refuse it). Admission checks only the entries the pod charges
   * (plugin/pkg/admission/resourcequota: the new usage masked to the pod's delta).
   */
  refusing(pod: Pod): QuotaLedger | undefined {
    return this.quotas.find(
      (q) =>
        pod.metadata.namespace === q.namespace &&
        q.entries.some((e) => {
          const charge = quotaCharge(pod.spec, e.resource) ?? 0;
          return charge > 0 && e.used + charge > e.hard;
        }),
    );
  }

  /** Charges (+1) or releases (-1) the pod's quota usage. */
  charge(pod: Pod, sign: 1 | -1): void {
    for (const q of this.quotas) {
      if (pod.metadata.namespace !== q.namespace) continue;
      this.#version += 1;
      for (const e of q.entries)
        e.used = Math.max(0, e.used + sign * (quotaCharge(pod.spec, e.resource) ?? 0));
    }
  }

  private changed(): void {
    this.#version += 1;
    // Spread counts and domain indexes are derived from the occupants: derive them again.
    this.ctx.domainIndexes = new Map();
    this.ctx.spreadCounts = new WeakMap();
  }
}
