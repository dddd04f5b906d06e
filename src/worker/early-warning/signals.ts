/**
 * What the early-warning watch keeps of the cluster and which changes it calls a
 * signal. Pure: the list/watch streams (stream.ts) feed
 * objects in, signals come out.
 *
 * Memory stays bounded: per pod of a workload only a slim record (its workload's kind
 * and name, restart total, whether a container waits in CrashLoopBackOff, which event
 * signals it already raised); events are never stored. Which workload owns a pod is its
 * kind module's answer (src/diagnosis/workloads/), without a read.
 *
 * Signals, keyed on the pod and its workload, never on the Event object (a repeated
 * FailedScheduling arrives as MODIFIED with a higher count and raises nothing new):
 * - `FailedScheduling`: the first such event of a pod;
 * - `MultiAttach`: the first FailedAttachVolume Multi-Attach event of a pod;
 * - `CrashLoopBackOff`: a container of the pod starts waiting in CrashLoopBackOff;
 * - `Restarts`: the pod's restart total climbs past 1, 2, 4, 8, ... (doubling, so a
 *   pod crashing for hours raises a handful of signals, not one per crash).
 */

import type { WorkloadKind, WorkloadRef } from '../../diagnosis/workload-ref.js';
import { workloadOfPod } from '../../diagnosis/workloads/index.js';

type SignalReason = 'FailedScheduling' | 'MultiAttach' | 'CrashLoopBackOff' | 'Restarts';

/** A change of one pod of a workload (`kind`, `namespace`, `name`) worth a diagnosis. */
export interface Signal extends WorkloadRef {
  pod: string;
  reason: SignalReason;
}

/** The slim record of one pod owned by a workload. */
interface PodSlim {
  kind: WorkloadKind;
  /** The workload's name. */
  name: string;
  restarts: number;
  crash: boolean;
  /** Bit set of event signals already raised for this pod (EVENT_BITS). */
  raised: number;
  /** The list or watch generation that last saw the pod (stale ones go after a re-list). */
  generation: number;
}

const EVENT_BITS: Record<'FailedScheduling' | 'MultiAttach', number> = {
  FailedScheduling: 1,
  MultiAttach: 2,
};

type Obj = Record<string, unknown>;

const asObj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Namespace and name of an object, or undefined when either is missing. */
function objectKey(obj: Obj): { namespace: string; name: string } | undefined {
  const metadata = asObj(obj['metadata']);
  const namespace = asStr(metadata?.['namespace']);
  const name = asStr(metadata?.['name']);
  return namespace && name ? { namespace, name } : undefined;
}

/** The slim record of a pod, or undefined when no workload the registry knows owns it. */
export function projectPod(pod: Obj): PodSlim | undefined {
  const owner = workloadOfPod(pod);
  if (owner === undefined) return undefined;
  const status = asObj(pod['status']);
  let restarts = 0;
  let crash = false;
  for (const list of [status?.['containerStatuses'], status?.['initContainerStatuses']]) {
    for (const cs of asArr(list).map(asObj)) {
      const count = cs?.['restartCount'];
      if (typeof count === 'number' && Number.isFinite(count) && count > 0) restarts += count;
      const waiting = asObj(asObj(cs?.['state'])?.['waiting']);
      if (waiting?.['reason'] === 'CrashLoopBackOff') crash = true;
    }
  }
  return { kind: owner.kind, name: owner.name, restarts, crash, raised: 0, generation: 0 };
}

/** True when the restart total went past a power of two (1, 2, 4, 8, ...). */
export function restartsClimbed(before: number, after: number): boolean {
  if (after <= before || after < 1) return false;
  if (before < 1) return true;
  return Math.floor(Math.log2(after)) > Math.floor(Math.log2(before));
}

/** The event signal an Event carries (pods only), or undefined. */
export function eventSignalOf(
  event: Obj,
): { namespace: string; pod: string; reason: 'FailedScheduling' | 'MultiAttach' } | undefined {
  const involved = asObj(event['involvedObject']) ?? asObj(event['regarding']);
  if (involved?.['kind'] !== 'Pod') return undefined;
  // The namespace is the Event's own: whoever may create Events in one namespace can
  // name any other's pod in one (an Event with eventTime may), and that must not start
  // a diagnosis there. An Event about a pod of another namespace says nothing here.
  const namespace = objectKey(event)?.namespace;
  const about = asStr(involved['namespace']);
  if (about !== undefined && about !== namespace) return undefined;
  const pod = asStr(involved['name']);
  if (!namespace || !pod) return undefined;
  const reason = event['reason'];
  if (reason === 'FailedScheduling') return { namespace, pod, reason: 'FailedScheduling' };
  const message = asStr(event['message']) ?? asStr(event['note']) ?? '';
  if (reason === 'FailedAttachVolume' && message.includes('Multi-Attach')) {
    return { namespace, pod, reason: 'MultiAttach' };
  }
  return undefined;
}

/**
 * The pods the watch knows and the signals their changes raise. `inScope` drops
 * objects of namespaces that are not watched (a cluster-wide stream sees them all).
 */
export class SignalTracker {
  private readonly pods = new Map<string, PodSlim>();
  private generation = 0;

  constructor(private readonly inScope: (namespace: string) => boolean = () => true) {}

  /** Pods held (for the memory figure of the bench). */
  get size(): number {
    return this.pods.size;
  }

  /**
   * A (re)list of pods, page by page: `beginList` before the first page, `listPage`
   * per page, `endList` after the last (it forgets the pods of the listed scope that
   * the list no longer holds). The first list is the baseline and raises nothing (the
   * safety-net scan at start covers what already crashes); after a re-list (410 Gone)
   * changes against what was known raise signals.
   */
  beginList(): void {
    this.generation += 1;
  }

  listPage(items: Iterable<Obj>, baseline: boolean): Signal[] {
    const signals: Signal[] = [];
    for (const item of items) {
      const key = objectKey(item);
      if (!key || !this.inScope(key.namespace)) continue;
      signals.push(...this.update(key.namespace, key.name, item, baseline));
    }
    return signals;
  }

  /** `namespace` undefined: the list covered every namespace. */
  endList(namespace: string | undefined): void {
    for (const [id, slim] of this.pods) {
      if (slim.generation === this.generation) continue;
      if (namespace === undefined || id.startsWith(`${namespace}/`)) this.pods.delete(id);
    }
  }

  /** One pod watch event. */
  onPod(type: string, pod: Obj): Signal[] {
    const key = objectKey(pod);
    if (!key || !this.inScope(key.namespace)) return [];
    if (type === 'DELETED') {
      this.pods.delete(`${key.namespace}/${key.name}`);
      return [];
    }
    if (type !== 'ADDED' && type !== 'MODIFIED') return [];
    return this.update(key.namespace, key.name, pod, false);
  }

  /**
   * One event watch event. Returns the signal, or `unknownPod` when the event names a
   * pod this tracker does not hold yet (the caller resolves its owner with a read).
   */
  onEvent(
    type: string,
    event: Obj,
    baseline = false,
  ):
    | { signal: Signal }
    | { unknownPod: { namespace: string; pod: string; reason: SignalReason } }
    | undefined {
    if (type !== 'ADDED' && type !== 'MODIFIED') return undefined;
    const found = eventSignalOf(event);
    if (!found || !this.inScope(found.namespace)) return undefined;
    const slim = this.pods.get(`${found.namespace}/${found.pod}`);
    if (!slim) return baseline ? undefined : { unknownPod: found };
    const bit = EVENT_BITS[found.reason];
    if ((slim.raised & bit) !== 0) return undefined;
    slim.raised |= bit;
    if (baseline) return undefined;
    return {
      signal: {
        kind: slim.kind,
        namespace: found.namespace,
        name: slim.name,
        pod: found.pod,
        reason: found.reason,
      },
    };
  }

  /** Records a pod resolved by a read (an event came first) and raises its event signal once. */
  adopt(owner: WorkloadRef, pod: string, reason: SignalReason): Signal | undefined {
    const id = `${owner.namespace}/${pod}`;
    let slim = this.pods.get(id);
    if (!slim) {
      slim = {
        kind: owner.kind,
        name: owner.name,
        restarts: 0,
        crash: false,
        raised: 0,
        generation: this.generation,
      };
      this.pods.set(id, slim);
    }
    const bit = reason === 'FailedScheduling' || reason === 'MultiAttach' ? EVENT_BITS[reason] : 0;
    if (bit !== 0 && (slim.raised & bit) !== 0) return undefined;
    slim.raised |= bit;
    return { kind: slim.kind, namespace: owner.namespace, name: slim.name, pod, reason };
  }

  private update(namespace: string, name: string, pod: Obj, baseline: boolean): Signal[] {
    const id = `${namespace}/${name}`;
    const next = projectPod(pod);
    const before = this.pods.get(id);
    if (!next) {
      this.pods.delete(id);
      return [];
    }
    next.raised = before?.raised ?? 0;
    next.generation = this.generation;
    this.pods.set(id, next);
    if (baseline) return [];
    const signals: Signal[] = [];
    const base = { kind: next.kind, namespace, name: next.name, pod: name };
    if (next.crash && !(before?.crash ?? false)) signals.push({ ...base, reason: 'CrashLoopBackOff' });
    if (restartsClimbed(before?.restarts ?? 0, next.restarts)) signals.push({ ...base, reason: 'Restarts' });
    return signals;
  }
}
