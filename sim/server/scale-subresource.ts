/**
 * The scale subresource of Deployments, ReplicaSets and StatefulSets (autoscaling/v1 Scale), as the
 * API server serves it: the Scale's metadata is the object's name, namespace, uid,
 * resourceVersion and creationTimestamp; spec.replicas is the object's; status has
 * the observed replicas and the label selector as a string. A PATCH is applied to the
 * Scale and only spec.replicas is carried back to the object (a changed uid or
 * resourceVersion in the patched Scale is a precondition failure, 409).
 */
import { ApiError, badRequest, conflict, notFound } from '../errors.js';
import { applyJsonPatch, JsonPatchError } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/json-merge.js';
import type { ResourceType } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { updateObject } from '../writes.js';
import { checkPatchType } from './patch-request.js';
import { simNow } from '../clock.js';

interface LabelSelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

function selectorString(selector: LabelSelectorLike | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of selector?.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.sort().join(',');
}

export function toScale(o: SimObject): unknown {
  const spec = (o['spec'] ?? {}) as { replicas?: number; selector?: LabelSelectorLike };
  const status = (o['status'] ?? {}) as { replicas?: number; HPAReplicas?: number; selector?: string };
  // A Rollout's CRD declares statusReplicasPath .status.HPAReplicas and labelSelectorPath
  // .status.selector (argo-rollouts manifests/crds/rollout-crd.yaml): the CR scale
  // subresource reads those paths, and the selector string as the controller wrote it.
  const rollout = o.kind === 'Rollout';
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: o.metadata.name,
      namespace: o.metadata.namespace,
      uid: o.metadata.uid,
      resourceVersion: o.metadata.resourceVersion,
      creationTimestamp: o.metadata.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: rollout
      ? { replicas: status.HPAReplicas ?? 0, ...(status.selector ? { selector: status.selector } : {}) }
      : { replicas: status.replicas ?? 0, selector: selectorString(spec.selector) },
  };
}

function stored(store: Store, rt: ResourceType, namespace: string | undefined, name: string): SimObject {
  if (!rt.subresources?.includes('scale')) throw notFound(rt, name);
  const old = store.get(rt.kind, rt.namespaced ? namespace : undefined, name);
  if (!old) throw notFound(rt, name);
  return old;
}

export function getScale(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
): unknown {
  return toScale(stored(store, rt, namespace, name));
}

/** PATCH …/scale: the patch applies to the Scale; spec.replicas goes back to the object. */
export function patchScale(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  contentType: string,
  body: unknown,
  options: { dryRun: boolean; fieldManager?: string },
): unknown {
  const type = contentType.split(';')[0]?.trim() ?? '';
  checkPatchType(rt, type);
  const old = stored(store, rt, namespace, name);
  const before = toScale(old) as { metadata: { uid?: string; resourceVersion?: string } };
  let patched: unknown;
  try {
    patched =
      type === 'application/json-patch+json'
        ? applyJsonPatch(before, body)
        : applyMergePatch(structuredClone(before), body);
  } catch (err) {
    if (err instanceof JsonPatchError) throw new ApiError(422, 'Invalid', err.message);
    throw err;
  }
  return writeScale(store, rt, name, old, patched as ScaleLike, options);
}

interface ScaleLike {
  metadata?: { uid?: string; resourceVersion?: string };
  spec?: { replicas?: unknown };
}

/**
 * PUT …/scale (`kubectl scale --current-replicas`: GET the Scale, then PUT it back):
 * a resourceVersion or uid in the Scale sent is a precondition; only spec.replicas is
 * carried to the object.
 */
export function updateScale(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  body: unknown,
  options: { dryRun: boolean; fieldManager?: string },
): unknown {
  const old = stored(store, rt, namespace, name);
  const sent = (body ?? {}) as ScaleLike;
  const scale: ScaleLike = {
    metadata: {
      uid: sent.metadata?.uid || old.metadata.uid,
      resourceVersion: sent.metadata?.resourceVersion || old.metadata.resourceVersion,
    },
    ...(sent.spec ? { spec: sent.spec } : {}),
  };
  return writeScale(store, rt, name, old, scale, options);
}

/** Checks the Scale's preconditions against the object and writes its replicas. */
function writeScale(
  store: Store,
  rt: ResourceType,
  name: string,
  old: SimObject,
  scale: ScaleLike,
  options: { dryRun: boolean; fieldManager?: string },
): unknown {
  const before = toScale(old) as { metadata: { uid?: string; resourceVersion?: string } };
  const namespace = old.metadata.namespace;
  if (scale.metadata?.uid !== before.metadata.uid) {
    throw new ApiError(
      409,
      'Conflict',
      `Precondition failed: UID in precondition: ${String(scale.metadata?.uid)}, UID in object meta: ${before.metadata.uid ?? ''}`,
    );
  }
  if (scale.metadata?.resourceVersion !== before.metadata.resourceVersion) throw conflict(rt, name);
  const replicas = scale.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw badRequest(`${rt.kind} "${name}" is invalid: spec.replicas: must be a non-negative integer`);
  }
  const next = structuredClone(old);
  next['spec'] = { ...(old['spec'] as object), replicas };
  if (options.fieldManager) recordManager(next, options.fieldManager, 'scale');
  const updated = updateObject(store, rt, next, namespace, name, { dryRun: options.dryRun });
  return toScale(updated);
}

/**
 * Records an Update by `manager` in managedFields as the API server does for a
 * non-apply write of spec.replicas through the scale subresource.
 */
function recordManager(o: SimObject, manager: string, subresource: string): void {
  const meta = o.metadata as SimObject['metadata'] & { managedFields?: unknown[] };
  const entries = (meta.managedFields ?? []).filter(
    (e) =>
      !(
        (e as { manager?: string }).manager === manager &&
        (e as { subresource?: string }).subresource === subresource
      ),
  );
  entries.push({
    manager,
    operation: 'Update',
    apiVersion: 'autoscaling/v1',
    time: new Date(simNow()).toISOString().replace(/\.\d+Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    subresource,
  });
  meta.managedFields = entries;
}
