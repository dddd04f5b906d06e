/** PATCH: picks the patch algorithm from Content-Type, then writes through updateObject. */
import { ApiError, badRequest, notFound } from '../errors.js';
import { applyJsonPatch, JsonPatchError } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/json-merge.js';
import { applyStrategicPatch, StrategicPatchError } from '../patch/strategic.js';
import { isCustomResource, type ResourceType } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { recordUpdate } from '../managed-fields.js';
import { updateObject } from '../writes.js';

/** The patch types the API server accepts for a built-in kind (server-side apply: apply-patch.ts). */
export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;

export const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * What a custom resource's PATCH accepts, in the order the API server lists them in its
 * 415 (apiextensions-apiserver customresource_handler.go serveResource: JSON patch,
 * merge patch, apply; no strategic merge, a CRD has no patch strategies).
 */
const CUSTOM_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  APPLY_PATCH,
] as const;

/** 415 for a patch type `rt` does not take (handlers/patch.go, negotiation.NewUnsupportedMediaTypeError). */
export function checkPatchType(rt: ResourceType, type: string): void {
  const custom = isCustomResource(rt);
  const accepted: readonly string[] = custom ? CUSTOM_PATCH_TYPES : PATCH_TYPES;
  if (!accepted.includes(type)) {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    );
  }
}

/** Applies a PATCH request body to the stored object. */
export function patchObject(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  contentType: string,
  body: unknown,
  options: { dryRun: boolean; subresource?: string; fieldManager?: string },
): SimObject {
  const type = contentType.split(';')[0]?.trim() ?? '';
  checkPatchType(rt, type);
  const old = store.get(rt.kind, rt.namespaced ? namespace : undefined, name);
  if (!old) throw notFound(rt, name);
  let patched: unknown;
  try {
    if (type === 'application/json-patch+json') patched = applyJsonPatch(old, body);
    else if (type === 'application/merge-patch+json') patched = applyMergePatch(structuredClone(old), body);
    else patched = applyStrategicPatch(rt.kind, old, body);
  } catch (err) {
    if (err instanceof JsonPatchError) throw new ApiError(422, 'Invalid', err.message);
    if (err instanceof StrategicPatchError) throw badRequest(err.message);
    throw err;
  }
  const result = patched as SimObject;
  const meta = result.metadata;
  if (meta === null || typeof meta !== 'object') throw badRequest('metadata must be an object');
  // A patch that does not mention resourceVersion applies to whatever is stored;
  // one that names a version acts as a precondition (409 on mismatch).
  const patchMeta = (body as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
  const patchRv = Array.isArray(body) ? meta.resourceVersion : patchMeta?.resourceVersion;
  if (patchRv === undefined || patchRv === null) meta.resourceVersion = old.metadata.resourceVersion;
  if (options.fieldManager && !options.subresource) {
    recordUpdate(result, old, options.fieldManager, String(old.apiVersion ?? 'v1'));
  }
  return updateObject(store, rt, result, namespace, name, {
    dryRun: options.dryRun,
    ...(options.subresource ? { subresource: options.subresource } : {}),
  });
}
