/**
 * The API server's write path, shared by HTTP handlers and in-process controllers:
 * defaulting, validation, resourceVersion preconditions, generation, status
 * subresource rules, dry run, and deletion with owner-reference propagation.
 */
import { alreadyExists, ApiError, badRequest, conflict, notFound } from './errors.js';
import {
  applyDefaults,
  generatedName,
  nowRfc3339,
  prepareCreate,
  prepareUpdate,
  validate,
} from './defaults.js';
import { resourceForKind, type ResourceType } from './resources.js';
import type { SimObject, Store } from './store.js';
import { typeForKind } from './stored-kinds.js';
import { simNow } from './clock.js';
import { boundLimitRanges, defaultLimitRanges } from './admission/limit-range.js';
import { admitQuota } from './admission/resource-quota.js';

export interface WriteOptions {
  dryRun?: boolean;
  subresource?: string;
  /**
   * Leave ResourceQuota out: the write is only being worked out for the validating
   * webhooks, which the API server calls before the quota plugin, its last one.
   */
  skipQuota?: boolean;
}

const STATUS_KINDS = new Set([
  'Deployment',
  'ReplicaSet',
  'Pod',
  'Node',
  'PersistentVolumeClaim',
  'StatefulSet',
  'DaemonSet',
  'ResourceClaim',
  'DeviceTaintRule',
  'ResourceQuota',
  'Rollout',
]);

const NAMESPACE_RT = resourceForKind('Namespace');

function nsRt(): ResourceType {
  if (!NAMESPACE_RT) throw new Error('namespace resource missing');
  return NAMESPACE_RT;
}

/** Checks an input object has a usable metadata block; copies it unless told not to. */
export function asSimObject(input: unknown, rt: ResourceType, copy = true): SimObject {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw badRequest('Object is not a JSON object');
  const obj = (copy ? structuredClone(input) : { ...input }) as SimObject;
  const meta = (copy ? (obj.metadata ?? {}) : { ...(obj.metadata ?? {}) }) as SimObject['metadata'];
  obj.metadata = meta;
  obj.kind = rt.kind;
  return obj;
}

/** Creates a namespace object if it does not exist (scenario loading and direct apply). */
export function ensureNamespace(store: Store, name: string): void {
  if (store.get('Namespace', undefined, name)) return;
  const ns: SimObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
  prepareCreate(nsRt(), ns);
  ns.metadata.labels = { 'kubernetes.io/metadata.name': name, ...(ns.metadata.labels ?? {}) };
  store.put(ns);
}

/** POST: creates an object in `namespace` (validated, defaulted, stored unless dry run). */
export function createObject(
  store: Store,
  rt: ResourceType,
  input: unknown,
  namespace: string | undefined,
  options: WriteOptions = {},
): SimObject {
  const obj = asSimObject(input, rt);
  if (rt.namespaced) {
    const ns = namespace ?? obj.metadata.namespace ?? 'default';
    if (obj.metadata.namespace !== undefined && obj.metadata.namespace !== ns) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    obj.metadata.namespace = ns;
    if (!store.get('Namespace', undefined, ns)) throw notFound(nsRt(), ns);
  } else {
    delete obj.metadata.namespace;
  }
  if (!obj.metadata.name) {
    const prefix = (obj.metadata as { generateName?: string }).generateName;
    if (!prefix) {
      throw new ApiError(
        422,
        'Invalid',
        `${rt.kind} "" is invalid: metadata.name: Required value: name or generateName is required`,
      );
    }
    obj.metadata.name = generatedName(prefix);
  }
  if (store.get(rt.kind, obj.metadata.namespace, obj.metadata.name))
    throw alreadyExists(rt, obj.metadata.name);
  prepareCreate(rt, obj);
  applyDefaults(obj);
  admitCreate(store, rt, obj, options.dryRun ?? false, !options.skipQuota);
  if (options.dryRun) return obj;
  return store.put(obj);
}

/**
 * The API server's create path after decoding: mutating admission (LimitRanger's
 * defaults; the pod's QoS class is set after it, in the strategy's PrepareForCreate),
 * validation, then validating admission (LimitRanger's bounds, ResourceQuota, which
 * charges the quota unless this is a dry run).
 */
function admitCreate(store: Store, rt: ResourceType, obj: SimObject, dryRun: boolean, quota: boolean): void {
  const ranged = rt.kind === 'Pod' && store.list('LimitRange', obj.metadata.namespace).length > 0;
  if (ranged) {
    const before = JSON.stringify(obj['spec']);
    defaultLimitRanges(store, rt, obj);
    if (JSON.stringify(obj['spec']) !== before) {
      delete (obj['status'] as { qosClass?: unknown } | undefined)?.qosClass;
      applyDefaults(obj);
    }
  }
  validate(rt, obj, undefined);
  if (ranged) boundLimitRanges(store, rt, obj);
  if (quota) admitQuota(store, rt, obj, dryRun);
}

/**
 * PUT semantics on the object or its status subresource. A resourceVersion in the
 * body must match the stored one (409 otherwise); none means unconditional.
 */
export function updateObject(
  store: Store,
  rt: ResourceType,
  input: unknown,
  namespace: string | undefined,
  name: string,
  options: WriteOptions = {},
): SimObject {
  const obj = asSimObject(input, rt);
  const old = store.get(rt.kind, rt.namespaced ? namespace : undefined, name);
  if (!old) throw notFound(rt, name);
  if (obj.metadata.name !== undefined && obj.metadata.name !== name) {
    throw badRequest(
      `the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`,
    );
  }
  obj.metadata.name = name;
  if (rt.namespaced) obj.metadata.namespace = namespace;
  const rv = obj.metadata.resourceVersion;
  if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion) throw conflict(rt, name);
  if (obj.metadata.uid && obj.metadata.uid !== old.metadata.uid) {
    throw new ApiError(
      409,
      'Conflict',
      `Precondition failed: UID in precondition: ${obj.metadata.uid}, UID in object meta: ${old.metadata.uid ?? ''}`,
    );
  }
  let next: SimObject = obj;
  if (STATUS_KINDS.has(rt.kind)) {
    if (options.subresource === 'status') {
      next = { ...structuredClone(old), status: obj['status'] };
    } else {
      next = { ...obj, ...(old['status'] !== undefined ? { status: structuredClone(old['status']) } : {}) };
      if (old['status'] === undefined) delete next['status'];
    }
  }
  prepareUpdate(rt, next, old);
  applyDefaults(next);
  validate(rt, next, old);
  if (options.dryRun)
    return { ...next, metadata: { ...next.metadata, resourceVersion: old.metadata.resourceVersion } };
  const stored = store.put(next);
  finishDeletion(store, stored);
  return stored;
}

/**
 * An object whose deletion waited for its finalizers goes once the last one is
 * removed (by an update here, or by a controller writing the store itself).
 */
export function finishDeletion(store: Store, obj: SimObject): void {
  if (!obj.metadata.deletionTimestamp || (obj.metadata.finalizers ?? []).length > 0) return;
  const rt = typeForKind(store, obj.kind);
  if (rt && store.get(rt.kind, obj.metadata.namespace, obj.metadata.name))
    deleteObject(store, rt, obj.metadata.namespace, obj.metadata.name);
}

export interface DeleteOptions {
  dryRun?: boolean;
  propagation?: string;
  preconditionUid?: string;
  preconditionRv?: string;
  /** DeleteOptions.gracePeriodSeconds (pods): absent takes the pod's terminationGracePeriodSeconds. */
  gracePeriodSeconds?: number;
}

/**
 * The pod strategy's CheckGracefulDelete (kubernetes pkg/registry/core/pod/strategy.go):
 * the request's grace period, else the pod's terminationGracePeriodSeconds (30 by
 * default); 0 for a pod that is not bound (nothing runs it) or already terminal; a
 * negative value becomes 1.
 */
function podGracePeriod(pod: SimObject, requested: number | undefined): number {
  const spec = (pod['spec'] ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const phase = ((pod['status'] ?? {}) as { phase?: string }).phase;
  if (!spec.nodeName || phase === 'Failed' || phase === 'Succeeded') return 0;
  const period = requested ?? spec.terminationGracePeriodSeconds ?? 30;
  return period < 0 ? 1 : period;
}

/**
 * Graceful deletion (apiserver registry/rest BeforeDelete): the pod stays, with
 * deletionTimestamp = now + grace and deletionGracePeriodSeconds = grace, until its
 * kubelet has stopped it and deletes it for good (controllers/kubelet.ts). A second
 * request may only shorten the grace period.
 */
function markTerminating(store: Store, pod: SimObject, grace: number): SimObject {
  const meta = pod.metadata as SimObject['metadata'] & { deletionGracePeriodSeconds?: number };
  if (meta.deletionTimestamp && (meta.deletionGracePeriodSeconds ?? 0) <= grace) return pod;
  const marked = structuredClone(pod);
  const markedMeta = marked.metadata as typeof meta;
  markedMeta.deletionTimestamp = nowRfc3339(new Date(simNow() + grace * 1000));
  markedMeta.deletionGracePeriodSeconds = grace;
  return store.put(marked);
}

/**
 * Deletes an object and, unless orphaning, its dependents (garbage collection). An
 * object with finalizers is only marked (deletionTimestamp) and stays until they are
 * removed (finishDeletion), as the API server keeps it.
 */
export function deleteObject(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  options: DeleteOptions = {},
): SimObject {
  const old = store.get(rt.kind, rt.namespaced ? namespace : undefined, name);
  if (!old) throw notFound(rt, name);
  if (options.preconditionUid && options.preconditionUid !== old.metadata.uid) {
    throw new ApiError(
      409,
      'Conflict',
      `Precondition failed: UID in precondition: ${options.preconditionUid}, UID in object meta: ${old.metadata.uid ?? ''}`,
    );
  }
  if (options.preconditionRv && options.preconditionRv !== old.metadata.resourceVersion) {
    throw new ApiError(
      409,
      'Conflict',
      `Precondition failed: ResourceVersion in precondition: ${options.preconditionRv}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`,
    );
  }
  if (options.dryRun) return old;
  if (rt.kind === 'Pod' && rt.group === '') {
    const grace = podGracePeriod(old, options.gracePeriodSeconds);
    if (grace > 0) return markTerminating(store, old, grace);
  }
  if ((old.metadata.finalizers ?? []).length > 0) {
    if (old.metadata.deletionTimestamp) return old;
    const marked = structuredClone(old);
    marked.metadata.deletionTimestamp = nowRfc3339();
    (marked.metadata as { deletionGracePeriodSeconds?: number }).deletionGracePeriodSeconds = 0;
    return store.put(marked);
  }
  const gone = store.remove(rt.kind, rt.namespaced ? namespace : undefined, name);
  const uid = old.metadata.uid;
  if (uid) {
    for (const dependent of store.ownedBy(uid)) {
      const drt = typeForKind(store, dependent.kind);
      if (!drt) continue;
      if (options.propagation === 'Orphan') {
        const copy = structuredClone(dependent);
        copy.metadata.ownerReferences = (copy.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (copy.metadata.ownerReferences.length === 0) delete copy.metadata.ownerReferences;
        store.put(copy);
      } else {
        const remaining = (dependent.metadata.ownerReferences ?? []).filter(
          (r) => r.uid !== uid && store.get(r.kind, dependent.metadata.namespace, r.name),
        );
        if (remaining.length === 0)
          deleteObject(store, drt, dependent.metadata.namespace, dependent.metadata.name, {
            propagation: 'Background',
          });
      }
    }
  }
  if (rt.kind === 'Namespace') {
    for (const kind of store.kinds()) {
      const krt = typeForKind(store, kind);
      if (!krt?.namespaced) continue;
      for (const o of store.list(kind, name)) store.remove(kind, name, o.metadata.name);
    }
  }
  return gone ?? old;
}
