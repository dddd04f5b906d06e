/**
 * The writing verbs of one resource request (create, update, patch, delete), each worked
 * out first and admitted (admit-request.ts admitThenWrite) before it is made. The answer
 * is the status and body to send.
 */
import type { Operation } from '../admission/validating-policy.js';
import type { ResourceType } from '../resources.js';
import type { Store } from '../store.js';
import { generatedName } from '../defaults.js';
import { createObject, deleteObject, updateObject } from '../writes.js';
import { admitThenWrite, type AdmissionGuard } from './admit-request.js';
import { serverSideApply } from './apply-patch.js';
import { APPLY_PATCH, checkPatchType, patchObject } from './patch-request.js';
import { present } from './present.js';
import { getScale, patchScale, updateScale } from './scale-subresource.js';
import type { WarningRecorder } from './warnings.js';
import { checkFields, fieldValidationOf } from '../webhooks/fields.js';
import { KIND as WEBHOOK_CONFIGURATION } from '../webhooks/config.js';

export interface WriteRequest {
  store: Store;
  rt: ResourceType;
  ns: string | undefined;
  /** The name on the URL ('' for a create). */
  name: string;
  subresource?: string;
  body: unknown;
  contentType: string;
  params: URLSearchParams;
  manager?: string;
  dryRun: boolean;
  guard: AdmissionGuard | undefined;
  warnings: WarningRecorder;
}

export interface WriteAnswer {
  status: number;
  body: unknown;
}

interface DeleteBody {
  propagationPolicy?: string;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
  gracePeriodSeconds?: number;
}

const mediaType = (contentType: string): string => contentType.split(';')[0]?.trim().toLowerCase() ?? '';

const storedVersion = (w: WriteRequest) => (): string | undefined =>
  w.store.get(w.rt.kind, w.ns, w.name)?.metadata.resourceVersion;

function presentStored(w: WriteRequest): unknown {
  const stored = w.store.get(w.rt.kind, w.ns, w.name);
  return stored ? present(w.rt, stored) : null;
}

/**
 * Unknown fields of the kinds the simulator knows every field of (webhooks/fields.ts):
 * refused or warned about by the request's fieldValidation, before anything else.
 */
function checkKnownFields(w: WriteRequest, how: 'decode' | 'patch' | 'apply'): void {
  if (w.rt.kind !== WEBHOOK_CONFIGURATION || w.rt.group !== 'admissionregistration.k8s.io') return;
  const name = w.name || String((w.body as { metadata?: { name?: unknown } } | null)?.metadata?.name ?? '');
  for (const text of checkFields(w.body, fieldValidationOf(w.params), how, name)) w.warnings.add(text);
}

/**
 * Admits what `make` would do, worked out as a dry run (`preview`: ResourceQuota left for
 * after the webhooks), as `operation` on the object `shown`; then makes it.
 */
function admitted<T>(
  w: WriteRequest,
  make: (dryRun: boolean, preview: boolean) => T,
  operation: (preview: T) => Operation,
  shown: (made: T) => unknown,
): Promise<T> {
  return admitThenWrite(
    w.guard,
    storedVersion(w),
    () => {
      const preview = make(true, true);
      return [operation(preview), shown(preview), presentStored(w)];
    },
    () => make(w.dryRun, false),
  );
}

/** A generateName create named once, so the webhooks see the name that is stored. */
function namedOnce(body: unknown): unknown {
  const meta = (body as { metadata?: { name?: unknown; generateName?: unknown } } | null)?.metadata;
  if (!meta || meta.name || typeof meta.generateName !== 'string' || meta.generateName === '') return body;
  const b = body as { metadata: object };
  return { ...b, metadata: { ...b.metadata, name: generatedName(meta.generateName) } };
}

export async function createVerb(w: WriteRequest): Promise<WriteAnswer> {
  checkKnownFields(w, 'decode');
  const body = w.guard ? namedOnce(w.body) : w.body;
  const created = await admitThenWrite(
    w.guard,
    () => undefined,
    () => [
      'CREATE',
      present(w.rt, createObject(w.store, w.rt, body, w.ns, { dryRun: true, skipQuota: true })),
      null,
    ],
    () => createObject(w.store, w.rt, body, w.ns, { dryRun: w.dryRun }),
  );
  return { status: 201, body: present(w.rt, created) };
}

export async function updateVerb(w: WriteRequest): Promise<WriteAnswer> {
  const { store, rt, ns, name } = w;
  if (w.subresource === 'scale') {
    const options = { ...(w.manager ? { fieldManager: w.manager } : {}) };
    const scale = await admitThenWrite(
      w.guard,
      storedVersion(w),
      () => [
        'UPDATE',
        updateScale(store, rt, ns, name, w.body, { ...options, dryRun: true }),
        getScale(store, rt, ns, name),
      ],
      () => updateScale(store, rt, ns, name, w.body, { ...options, dryRun: w.dryRun }),
    );
    return { status: 200, body: scale };
  }
  checkKnownFields(w, 'decode');
  const options = { ...(w.subresource ? { subresource: w.subresource } : {}) };
  const updated = await admitted(
    w,
    (dryRun) => updateObject(store, rt, w.body, ns, name, { ...options, dryRun }),
    () => 'UPDATE',
    (o) => present(rt, o),
  );
  return { status: 200, body: present(rt, updated) };
}

export async function patchVerb(w: WriteRequest): Promise<WriteAnswer> {
  const { store, rt, ns, name, contentType } = w;
  const manager = { ...(w.manager ? { fieldManager: w.manager } : {}) };
  if (w.subresource === 'scale') {
    const scale = await admitThenWrite(
      w.guard,
      storedVersion(w),
      () => [
        'UPDATE',
        patchScale(store, rt, ns, name, contentType, w.body, { ...manager, dryRun: true }),
        getScale(store, rt, ns, name),
      ],
      () => patchScale(store, rt, ns, name, contentType, w.body, { ...manager, dryRun: w.dryRun }),
    );
    return { status: 200, body: scale };
  }
  if (mediaType(contentType) === APPLY_PATCH && !w.subresource) {
    checkPatchType(rt, APPLY_PATCH);
    checkKnownFields(w, 'apply');
    const applied = await admitted(
      w,
      (dryRun, preview) =>
        serverSideApply(store, rt, ns, name, w.body, {
          ...manager,
          dryRun,
          ...(preview ? { skipQuota: true } : {}),
        }),
      (next) => (next.created ? 'CREATE' : 'UPDATE'),
      (next) => present(rt, next.object),
    );
    return { status: applied.created ? 201 : 200, body: present(rt, applied.object) };
  }
  if (mediaType(contentType) !== 'application/json-patch+json') checkKnownFields(w, 'patch');
  const options = { ...(w.subresource ? { subresource: w.subresource } : {}), ...manager };
  const patched = await admitted(
    w,
    (dryRun) => patchObject(store, rt, ns, name, contentType, w.body, { ...options, dryRun }),
    () => 'UPDATE',
    (o) => present(rt, o),
  );
  return { status: 200, body: present(rt, patched) };
}

export async function deleteVerb(w: WriteRequest): Promise<WriteAnswer> {
  const { store, rt, ns, name, params } = w;
  const body = (w.body ?? {}) as DeleteBody;
  const dryRun = w.dryRun || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  const grace = params.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
  const gone = await admitThenWrite(
    w.guard,
    storedVersion(w),
    () => ['DELETE', null, presentStored(w)],
    () =>
      deleteObject(store, rt, ns, name, {
        dryRun,
        propagation: params.get('propagationPolicy') ?? body.propagationPolicy ?? 'Background',
        ...(grace !== undefined && grace !== null && Number.isFinite(Number(grace))
          ? { gracePeriodSeconds: Number(grace) }
          : {}),
        ...(body.preconditions?.uid ? { preconditionUid: body.preconditions.uid } : {}),
        ...(body.preconditions?.resourceVersion
          ? { preconditionRv: body.preconditions.resourceVersion }
          : {}),
      }),
  );
  if (rt.kind === 'Pod') return { status: 200, body: present(rt, gone) };
  return {
    status: 200,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: gone.metadata.name,
        ...(rt.group ? { group: rt.group } : {}),
        kind: rt.plural,
        uid: gone.metadata.uid,
      },
    },
  };
}
