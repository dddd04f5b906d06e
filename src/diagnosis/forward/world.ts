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
import { claimNames, requiredAntiAffinity } from '../base/pod-constraints.js';
import { EVENTUALLY, podQuotaCharge, quotaCharge } from '../base/quota-charge.js';
import { quotaTakesIn } from '../base/quota-scopes.js';
import type { ResourceQuota } from '../k8s-policy.js';
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
  /** A scoped quota: it charges and refuses only the pods its scopes take in (quota-scopes.ts). */
  scoped?: ResourceQuota;
}

/** The quota charges the pod: same namespace, and taken in by its scopes where it has any. */
function charges(q: QuotaLedger, pod: Pod): boolean {
  return (
    pod.metadata.namespace === q.namespace &&
    (q.scoped === undefined || quotaTakesIn(q.scoped, pod.spec) === true)
  );
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

  /**
   * What the occupants of each node asked for, kept as pods come and go: the search for
   * a node skips one whose room for a resource is too small before the full filters run
   * (the same arithmetic as placement.ts shortfalls, so it never skips a node they take).
   */
  readonly #used = new Map<string, Map<string, number>>();
  /** How many occupants hold each priority (every node's, counted once the first search asks). */
  readonly #priorities = new Map<number, number>();
  #prioritiesCounted = false;

  /** Some occupant has a priority below `priority`: preemption has victims to look at. */
  #anyBelow(priority: number): boolean {
    if (!this.#prioritiesCounted) {
      for (const node of this.ctx.occupantsByNode.keys()) this.#usedOn(node);
      this.#prioritiesCounted = true;
    }
    for (const [p, count] of this.#priorities) if (p < priority && count > 0) return true;
    return false;
  }

  #usedOn(node: string): Map<string, number> {
    let used = this.#used.get(node);
    if (!used) {
      used = new Map();
      for (const pod of this.ctx.occupantsByNode.get(node) ?? []) this.#account(used, pod, 1);
      this.#used.set(node, used);
    }
    return used;
  }

  readonly #needs = new WeakMap<object, [string, number][]>();

  /** The pod's requests as entries, kept per requests object (pods of one template share it). */
  #need(pod: Pod): [string, number][] {
    const amounts = this.ctx.requests(pod);
    let need = this.#needs.get(amounts);
    if (!need) {
      need = Object.entries(amounts);
      this.#needs.set(amounts, need);
    }
    return need;
  }

  #account(used: Map<string, number>, pod: Pod, sign: 1 | -1): void {
    used.set('pods', (used.get('pods') ?? 0) + sign);
    for (const [resource, amount] of this.#need(pod))
      used.set(resource, (used.get(resource) ?? 0) + sign * amount);
    this.#priorities.set(pod.spec.priority ?? 0, (this.#priorities.get(pod.spec.priority ?? 0) ?? 0) + sign);
  }

  /** The node's allocatable leaves too little of a resource the pod asks for (a quick, partial check). */
  #tooSmall(pod: Pod, node: Node): boolean {
    const allocatable = this.ctx.allocatable(node);
    const used = this.#usedOn(node.metadata.name ?? '');
    if (allocatable.pods !== undefined && (used.get('pods') ?? 0) + 1 > allocatable.pods) return true;
    for (const [resource, amount] of this.#need(pod)) {
      const available = allocatable[resource];
      if (available !== undefined && amount > available - (used.get(resource) ?? 0)) return true;
    }
    return false;
  }

  /** The pod is gone: its node's resources and its quota charge are free. */
  remove(pod: Pod): void {
    const node = pod.spec.nodeName;
    if (node) {
      const list = this.ctx.occupantsByNode.get(node);
      const at = list?.indexOf(pod) ?? -1;
      if (list && at >= 0) {
        list.splice(at, 1);
        const used = this.#used.get(node);
        if (used) this.#account(used, pod, -1);
      }
    }
    const holder = this.ctx.antiAffinityHolders.indexOf(pod);
    if (holder >= 0) this.ctx.antiAffinityHolders.splice(holder, 1);
    if (node) {
      this.#departed.push(node);
      this.#leftNode.set(node, (this.#leftNode.get(node) ?? 0) + 1);
    }
    this.charge(pod, -1);
    this.changed();
  }

  /** Binds a (model) pod to a node; returns the bound pod. */
  bind(pod: Pod, node: string): Pod {
    const bound: Pod = { ...pod, spec: { ...pod.spec, nodeName: node } };
    const list = this.ctx.occupantsByNode.get(node) ?? [];
    list.push(bound);
    this.ctx.occupantsByNode.set(node, list);
    const used = this.#used.get(node);
    if (used) this.#account(used, bound, 1);
    // Counted from its occupants (this one among them) once priorities are counted everywhere.
    else if (this.#prioritiesCounted) this.#usedOn(node);
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
  /**
   * The node of every pod that left, in order. For a pod whose fit turns on its node
   * alone (resources, the pod count, host ports, anti-affinity by hostname), only a
   * departure makes room, and only on that node: a search that found no node looks
   * again at the nodes pods left since, not at all of them.
   */
  readonly #departed: string[] = [];
  /** By spec: pods made from one template (which share their spec object) fit alike. */
  readonly #noRoom = new WeakMap<object, { version: number; departures: number }>();
  /** How many pods left each node: a node's room for a node-scoped fit grows only then. */
  readonly #leftNode = new Map<string, number>();
  /**
   * By spec, for fits that turn on the node alone: the nodes found without room, with how
   * many pods had left each then. Such a node is not asked again until a pod leaves it,
   * so a rollout of a thousand ticks does not search every node at every tick.
   */
  readonly #fullFor = new WeakMap<object, Map<string, number>>();

  /** A node (of `nodes`) that selects, tolerates and has room for the pod. */
  placeOn(pod: Pod, nodes: readonly Node[]): Node | undefined {
    const last = this.#noRoom.get(pod.spec);
    const nodeScoped = this.#fitIsNodeScoped(pod);
    if (last && (nodeScoped ? last.departures === this.#departed.length : last.version === this.#version))
      return undefined;
    const candidates = last && nodeScoped ? this.#departedAmong(nodes, last.departures) : nodes;
    const count = candidates.length;
    const from = candidates === nodes ? this.#start : 0;
    let full = nodeScoped ? this.#fullFor.get(pod.spec) : undefined;
    if (nodeScoped && !full) this.#fullFor.set(pod.spec, (full = new Map()));
    for (let i = 0; i < count; i += 1) {
      const at = (from + i) % count;
      const node = candidates[at];
      if (!node) continue;
      const name = node.metadata.name ?? '';
      const left = this.#leftNode.get(name) ?? 0;
      if (full?.get(name) === left) continue;
      if (!this.#tooSmall(pod, node) && isEligible(node, pod.spec) && fitsOn(this.ctx, pod, node)) {
        if (candidates === nodes) this.#start = at;
        return node;
      }
      full?.set(name, left);
    }
    this.#noRoom.set(pod.spec, { version: this.#version, departures: this.#departed.length });
    return undefined;
  }

  /** Of `nodes`, those a pod left since the `since`-th departure, in `nodes`' order. */
  #departedAmong(nodes: readonly Node[], since: number): readonly Node[] {
    const freed = new Set(this.#departed.slice(since));
    return nodes.filter((n) => freed.has(n.metadata.name ?? ''));
  }

  /**
   * Nothing but the node itself decides whether the pod fits there: no topology spread
   * or claims (volumes, devices: held cluster-wide or across nodes), and no required
   * anti-affinity, its own or a running pod's, by anything wider than the hostname.
   */
  #fitIsNodeScoped(pod: Pod): boolean {
    const spec = pod.spec;
    if ((spec.topologySpreadConstraints ?? []).length > 0) return false;
    if ((spec.resourceClaims ?? []).length > 0 || claimNames(spec).length > 0) return false;
    const byHostname = (p: Pod): boolean =>
      requiredAntiAffinity(p.spec).every((t) => t.topologyKey === 'kubernetes.io/hostname');
    return byHostname(pod) && this.ctx.antiAffinityHolders.every(byHostname);
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
    nominated: readonly { pod: Pod; node: string }[] = [],
  ): { node: Node; victims: Pod[] } | undefined {
    if (pod.spec.preemptionPolicy === 'Never') return undefined;
    const priority = pod.spec.priority ?? 0;
    if (!this.#anyBelow(priority)) return undefined;
    // Pods already nominated to a node, of this pod's priority or higher, count there as
    // if they ran (the framework's addNominatedPods, RunFilterPluginsWithNominatedPods):
    // two pods are never promised the same room.
    const reserved = nominated
      .filter((n) => (n.pod.spec.priority ?? 0) >= priority)
      .map((n) => ({ ...n.pod, spec: { ...n.pod.spec, nodeName: n.node } }));
    if (reserved.length === 0) return this.#preempt(pod, nodes, leaving, priority);
    for (const r of reserved) {
      const list = this.ctx.occupantsByNode.get(r.spec.nodeName ?? '') ?? [];
      list.push(r);
      this.ctx.occupantsByNode.set(r.spec.nodeName ?? '', list);
    }
    this.changed();
    try {
      return this.#preempt(pod, nodes, new Set([...leaving, ...reserved]), priority);
    } finally {
      for (const r of reserved) {
        const list = this.ctx.occupantsByNode.get(r.spec.nodeName ?? '');
        const at = list?.indexOf(r) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
      }
      this.changed();
    }
  }

  #preempt(
    pod: Pod,
    nodes: readonly Node[],
    leaving: ReadonlySet<Pod>,
    priority: number,
  ): { node: Node; victims: Pod[] } | undefined {
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
        charges(q, pod) &&
        q.entries.some((e) => {
          const charge = quotaCharge(pod.spec, e.resource) ?? 0;
          return charge > 0 && e.used + charge > e.hard;
        }),
    );
  }

  /** Charges (+1) or releases (-1) the pod's quota usage. */
  charge(pod: Pod, sign: 1 | -1): void {
    for (const q of this.quotas) {
      if (!charges(q, pod)) continue;
      this.#version += 1;
      // As the ledger counted it (quota-ledgers.ts: a terminating pod is charged nothing once its grace period is over).
      for (const e of q.entries)
        e.used = Math.max(0, e.used + sign * (podQuotaCharge(pod, e.resource, EVENTUALLY) ?? 0));
    }
  }

  private changed(): void {
    this.#version += 1;
    // Spread counts and domain indexes are derived from the occupants: derive them again.
    this.ctx.domainIndexes = new Map();
    this.ctx.spreadCounts = new WeakMap();
  }
}
