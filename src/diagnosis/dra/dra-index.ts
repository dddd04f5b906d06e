/**
 * The DRA index of a snapshot, built once per analysis context: the devices each claim
 * holds, the pods by uid and name, the shared counters of partitionable devices, and
 * the memos of the device check (each pod's needs, each selector's match per device).
 * And who uses a claim: the pods it is reserved for, else the pod it was generated for
 * while that pod may run; a claim comes free when they are all gone (the resourceclaim
 * controller deallocates a claim with no user left, the garbage collector deletes a
 * pod's generated claim with it).
 */
import type { Node, Pod } from '../k8s.js';
import type { ResourceClaim } from '../k8s-dra.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { DraObjects } from '../snapshot/types.js';
import { counterIndex, type CounterIndex } from './counters.js';
import { allocatedDevices, type DeviceMatch, type Holding, type NodeDevice } from './devices.js';
import type { PublishedMatch } from './device-blocker.js';
import { podDeviceNeeds, type Alternative, type PodDeviceNeeds } from './needs.js';
import { unusedClaimState, type PodLookup, type UnusedClaimState } from './unused-claims.js';

export interface DraIndex {
  dra: DraObjects;
  held: Map<string, Holding[]>;
  podsByUid: Map<string, Pod>;
  classesComplete: boolean;
  needs: WeakMap<Pod, PodDeviceNeeds>;
  /** Match results per request alternative and device key (CEL is evaluated once). */
  matches: WeakMap<Alternative, Map<string, DeviceMatch>>;
  devicesByNode: WeakMap<Node, NodeDevice[]>;
  /** Stand-ins by uid for pods a claim names that the snapshot does not hold (one object each). */
  standIns: Map<string, Pod>;
  /** Shared counters of partitionable devices. */
  counters: CounterIndex;
  pods: PodLookup;
  /** What holds an allocated claim no pod is reserved for (memoized). */
  unused: WeakMap<ResourceClaim, UnusedClaimState>;
  /** Every ResourceSlice and DeviceClass was read: a device published nowhere is none. */
  publishedComplete: boolean;
  /** How the published devices fare against an alternative (memoized). */
  published: WeakMap<Alternative, PublishedMatch | undefined>;
}

/** The DRA index of the context's snapshot (built once per context; none without DRA objects). */
export function indexOf(ctx: AnalysisContext): DraIndex | undefined {
  return ctx.once('dra-index', () => buildIndex(ctx));
}

function buildIndex(ctx: AnalysisContext): DraIndex | undefined {
  const { snapshot } = ctx;
  const dra = snapshot.dra;
  if (!dra) return undefined;
  const read = [...snapshot.pods, ...snapshot.otherPods];
  const podsByUid = new Map(
    read.filter((p) => p.metadata.uid).map((p) => [p.metadata.uid ?? '', p] as const),
  );
  return {
    dra,
    held: allocatedDevices(dra.claims),
    podsByUid,
    pods: {
      byUid: podsByUid,
      byName: new Map(
        read.map((p) => [`${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`, p] as const),
      ),
      complete: snapshot.coverage.podsReadOn === 'all',
      capturedAt: snapshot.capturedAt,
    },
    unused: new WeakMap(),
    classesComplete: snapshot.coverage.dra?.classes === 'complete',
    publishedComplete:
      snapshot.coverage.dra?.classes === 'complete' && snapshot.coverage.dra.slices === 'complete',
    published: new WeakMap(),
    needs: new WeakMap(),
    matches: new WeakMap(),
    devicesByNode: new WeakMap(),
    standIns: new Map(),
    counters: counterIndex(dra.slices),
  };
}

/** The pod's DRA needs in the context's snapshot (computed once per pod and context). */
export function needsOf(ctx: AnalysisContext, pod: Pod): PodDeviceNeeds | undefined {
  const index = indexOf(ctx);
  if (!index) return undefined;
  let needs = index.needs.get(pod);
  if (!needs) {
    const read = ctx.snapshot.coverage.dra?.claims;
    needs = podDeviceNeeds(pod, index.dra, read === 'all' || read === 'namespace');
    index.needs.set(pod, needs);
  }
  return needs;
}

/** Pods a claim is reserved for. */
function reservedPods(claim: ResourceClaim): { name: string; uid: string }[] {
  return (claim.status?.reservedFor ?? []).filter((r) => r.resource === 'pods');
}

/** What holds a claim no pod is reserved for. */
export function unusedState(index: DraIndex, claim: ResourceClaim): UnusedClaimState {
  let state = index.unused.get(claim);
  if (!state) {
    state = unusedClaimState(claim, index.pods);
    index.unused.set(claim, state);
  }
  return state;
}

/** The pods using a claim: those it is reserved for, else the pod it was generated for while that pod may run. */
export function consumers(index: DraIndex, claim: ResourceClaim): { name: string; uid: string }[] {
  const reserved = reservedPods(claim);
  if (reserved.length > 0) return reserved;
  const state = unusedState(index, claim);
  return state.kind === 'owner'
    ? [{ name: state.pod.metadata.name ?? '', uid: state.pod.metadata.uid ?? '' }]
    : [];
}

export function claimName(claim: ResourceClaim): string {
  return `${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''}`;
}

/**
 * The claim comes free with `removed` gone: every pod it is reserved for is among them;
 * with `freeing`, also a claim the controller or the garbage collector frees by itself.
 */
export function freedBy(
  index: DraIndex,
  claim: ResourceClaim,
  removedUids: ReadonlySet<string>,
  freeing: boolean,
): boolean {
  const users = consumers(index, claim);
  if (users.length > 0) return users.every((u) => removedUids.has(u.uid));
  return freeing && unusedState(index, claim).kind === 'freeing';
}

/** A pod named by a claim's reservedFor that the snapshot does not hold (another namespace). */
export function standIn(index: DraIndex, claim: ResourceClaim, user: { name: string; uid: string }): Pod {
  let pod = index.standIns.get(user.uid);
  if (!pod) {
    pod = {
      metadata: {
        name: user.name,
        uid: user.uid,
        ...(claim.metadata.namespace ? { namespace: claim.metadata.namespace } : {}),
      },
      spec: { containers: [] },
    };
    index.standIns.set(user.uid, pod);
  }
  return pod;
}
