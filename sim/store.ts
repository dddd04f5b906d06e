/**
 * In-memory object store with a cluster-wide resourceVersion counter, a bounded
 * change log for watch resumption, and indexes (by kind+namespace, by label
 * key=value, by pod node and by owner uid) so label-selected lists stay fast at
 * 100,000 pods.
 */
import type { KubeObject, ObjectMeta } from '../src/diagnosis/k8s.js';
import type { ResourceType } from './resources.js';
import { matchesLabels, type LabelRequirement } from './selectors.js';

export type SimObject = KubeObject & {
  kind: string;
  metadata: ObjectMeta & { name: string; generateName?: string };
};
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeEvent {
  rv: number;
  type: WatchEventType;
  kind: string;
  object: SimObject;
  old?: SimObject;
}

type Listener = (event: ChangeEvent) => void;

const LOG_LIMIT = 50_000;

function keyOf(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

class KindTable {
  readonly objects = new Map<string, SimObject>();
  readonly byNamespace = new Map<string, Set<string>>();
  readonly byLabel = new Map<string, Set<string>>();
  sorted: string[] | undefined;
}

function addTo(index: Map<string, Set<string>>, k: string, v: string): void {
  let set = index.get(k);
  if (!set) {
    set = new Set();
    index.set(k, set);
  }
  set.add(v);
}

function removeFrom(index: Map<string, Set<string>>, k: string, v: string): void {
  const set = index.get(k);
  if (!set) return;
  set.delete(v);
  if (set.size === 0) index.delete(k);
}

/** Object storage shared by the HTTP server and the controllers. */
export class Store {
  private rv = 0;
  private readonly tables = new Map<string, KindTable>();
  private readonly podsByNode = new Map<string, Set<string>>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly log: ChangeEvent[] = [];
  private readonly listeners = new Set<Listener>();
  /**
   * Kinds this cluster holds that the simulator's resource table lacks (a dump's
   * ResourceQuota-like extras, custom resources): served as stored objects, no
   * controller (sim/stored-kinds.ts). Mutated in place; discovery reads it live.
   */
  readonly storedTypes: ResourceType[] = [];
  /**
   * The client certificate the API server presents to webhooks (kube-apiserver's
   * AdmissionConfiguration, WebhookAdmission kubeConfigFile): PEM of the certificate and
   * key; absent: none, as without that configuration (sim/webhooks/call.ts).
   */
  webhookClient?: { cert: string; key: string };

  /** The current cluster resourceVersion (of the newest write). */
  get resourceVersion(): number {
    return this.rv;
  }

  /** The oldest resourceVersion a watch can resume from. */
  get oldestResumable(): number {
    return this.log[0]?.rv ?? this.rv;
  }

  private table(kind: string): KindTable {
    let t = this.tables.get(kind);
    if (!t) {
      t = new KindTable();
      this.tables.set(kind, t);
    }
    return t;
  }

  /** The stored object (treat as read-only; clone before changing). */
  get(kind: string, namespace: string | undefined, name: string): SimObject | undefined {
    return this.tables.get(kind)?.objects.get(keyOf(namespace, name));
  }

  /**
   * Objects of a kind, optionally in one namespace and matching label requirements.
   * Uses the label index for `in` requirements with a single value.
   */
  list(kind: string, namespace?: string, labels?: readonly LabelRequirement[]): SimObject[] {
    const t = this.tables.get(kind);
    if (!t) return [];
    let candidates: Iterable<string> | undefined;
    let size = Infinity;
    if (namespace !== undefined) {
      const ns = t.byNamespace.get(namespace);
      if (!ns) return [];
      candidates = ns;
      size = ns.size;
    }
    for (const r of labels ?? []) {
      if (r.op !== 'in' || r.values.length !== 1) continue;
      const set = t.byLabel.get(`${r.key}=${r.values[0] ?? ''}`);
      if (!set) return [];
      if (set.size < size) {
        candidates = set;
        size = set.size;
      }
    }
    const out: SimObject[] = [];
    const keys = candidates ?? t.objects.keys();
    for (const k of keys) {
      const obj = t.objects.get(k);
      if (!obj) continue;
      if (namespace !== undefined && obj.metadata.namespace !== namespace) continue;
      if (labels && labels.length > 0 && !matchesLabels(labels, obj.metadata.labels)) continue;
      out.push(obj);
    }
    return out;
  }

  /** Keys of a kind in stable (namespace/name) order, for paging. */
  sortedKeys(kind: string): string[] {
    const t = this.tables.get(kind);
    if (!t) return [];
    if (!t.sorted) t.sorted = [...t.objects.keys()].sort();
    return t.sorted;
  }

  /** Looks an object up by its `namespace/name` key. */
  getByKey(kind: string, key: string): SimObject | undefined {
    return this.tables.get(kind)?.objects.get(key);
  }

  /** Pods bound to a node. */
  podsOnNode(nodeName: string): SimObject[] {
    const out: SimObject[] = [];
    for (const k of this.podsByNode.get(nodeName) ?? []) {
      const pod = this.tables.get('Pod')?.objects.get(k);
      if (pod) out.push(pod);
    }
    return out;
  }

  /** Objects whose ownerReferences name this uid. */
  ownedBy(uid: string): SimObject[] {
    const out: SimObject[] = [];
    for (const ref of this.byOwner.get(uid) ?? []) {
      const sep = ref.indexOf('|');
      const obj = this.getByKey(ref.slice(0, sep), ref.slice(sep + 1));
      if (obj) out.push(obj);
    }
    return out;
  }

  /** Every kind that has at least one object. */
  kinds(): string[] {
    return [...this.tables.keys()];
  }

  /**
   * Writes an object (create or replace), assigning the next resourceVersion.
   * The caller has filled in defaults; the store only indexes and notifies.
   */
  put(input: SimObject): SimObject {
    const obj = input;
    const t = this.table(obj.kind);
    const key = keyOf(obj.metadata.namespace, obj.metadata.name);
    const old = t.objects.get(key);
    if (old) this.unindex(t, key, old);
    this.rv += 1;
    obj.metadata.resourceVersion = String(this.rv);
    t.objects.set(key, obj);
    if (!old) t.sorted = undefined;
    this.index(t, key, obj);
    this.emit({
      rv: this.rv,
      type: old ? 'MODIFIED' : 'ADDED',
      kind: obj.kind,
      object: obj,
      ...(old ? { old } : {}),
    });
    return obj;
  }

  /** Removes an object; returns it (with a fresh resourceVersion) or undefined. */
  remove(kind: string, namespace: string | undefined, name: string): SimObject | undefined {
    const t = this.tables.get(kind);
    const key = keyOf(namespace, name);
    const old = t?.objects.get(key);
    if (!t || !old) return undefined;
    this.unindex(t, key, old);
    t.objects.delete(key);
    t.sorted = undefined;
    this.rv += 1;
    const gone: SimObject = { ...old, metadata: { ...old.metadata, resourceVersion: String(this.rv) } };
    this.emit({ rv: this.rv, type: 'DELETED', kind, object: gone, old });
    return gone;
  }

  /** Changes since a resourceVersion (exclusive), or undefined when too old to resume. */
  changesSince(rv: number): ChangeEvent[] | undefined {
    if (rv >= this.rv) return [];
    const first = this.log[0];
    if (!first || first.rv > rv + 1) return undefined;
    // The log is ordered by rv: binary search for the first newer entry.
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.log[mid]?.rv ?? 0) <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.log.slice(lo);
  }

  /** Subscribes to every change; returns an unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ChangeEvent): void {
    this.log.push(event);
    // Trim in batches: splicing on every write would make bulk loads quadratic.
    if (this.log.length > 2 * LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    for (const l of this.listeners) l(event);
  }

  private index(t: KindTable, key: string, obj: SimObject): void {
    addTo(t.byNamespace, obj.metadata.namespace ?? '', key);
    for (const [k, v] of Object.entries(obj.metadata.labels ?? {})) addTo(t.byLabel, `${k}=${v}`, key);
    for (const ref of obj.metadata.ownerReferences ?? []) addTo(this.byOwner, ref.uid, `${obj.kind}|${key}`);
    if (obj.kind === 'Pod') {
      const node = (obj['spec'] as { nodeName?: string } | undefined)?.nodeName;
      if (node) addTo(this.podsByNode, node, key);
    }
  }

  private unindex(t: KindTable, key: string, obj: SimObject): void {
    removeFrom(t.byNamespace, obj.metadata.namespace ?? '', key);
    for (const [k, v] of Object.entries(obj.metadata.labels ?? {})) removeFrom(t.byLabel, `${k}=${v}`, key);
    for (const ref of obj.metadata.ownerReferences ?? [])
      removeFrom(this.byOwner, ref.uid, `${obj.kind}|${key}`);
    if (obj.kind === 'Pod') {
      const node = (obj['spec'] as { nodeName?: string } | undefined)?.nodeName;
      if (node) removeFrom(this.podsByNode, node, key);
    }
  }
}
