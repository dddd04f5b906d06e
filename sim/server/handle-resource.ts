/** Dispatches one resource request (get, list, watch, create, update, patch, delete). */
import type { ServerResponse } from 'node:http';
import { ApiError, badRequest, notFound } from '../errors.js';
import { apiVersionOf } from '../resources.js';
import type { Store } from '../store.js';
import type { LogStore } from '../logs.js';
import { createObject, deleteObject, updateObject } from '../writes.js';
import { parseListQuery, runList, selects } from './list.js';
import { admissionGuard, admitThenWrite, type AdmissionGuard } from './admit-request.js';
import { serverSideApply } from './apply-patch.js';
import { ADMIN_USER, type UserInfo } from './identity.js';
import { APPLY_PATCH, checkPatchType, patchObject } from './patch-request.js';
import { podLog } from './pod-log.js';
import { getScale, patchScale, updateScale } from './scale-subresource.js';
import { present } from './present.js';
import type { ResourceRequest } from './request-info.js';
import { includeObjectOf, toTable, wantsTable } from './table.js';
import { serveWatch } from './watch.js';
import { warningRecorder, type WarningRecorder } from './warnings.js';
import { matchesLabels } from '../selectors.js';

export interface HandlerInput {
  info: ResourceRequest;
  url: URL;
  headers: { accept?: string; contentType?: string };
  body: unknown;
  res: ServerResponse;
  stopped: Promise<void>;
  /** Who asks (identity.ts): what admission policies see as request.userInfo. */
  user?: UserInfo;
  /** Where admission's warnings go (the response's Warning headers). */
  warnings?: WarningRecorder;
}

function sendJson(res: ServerResponse, status: number, body: unknown): number {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return status;
}

const mediaType = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

function dryRunOf(params: URLSearchParams): boolean {
  const values = params.getAll('dryRun');
  for (const v of values) if (v !== 'All') throw badRequest(`Invalid dry run value: ${v}`);
  return values.length > 0;
}

interface DeleteBody {
  propagationPolicy?: string;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
  gracePeriodSeconds?: number;
}

/** Handles the request and returns the HTTP status sent. */
export async function handleResource(store: Store, logs: LogStore, input: HandlerInput): Promise<number> {
  const { info, url, res, headers } = input;
  const { rt } = info;
  const params = url.searchParams;
  const ns = rt.namespaced ? info.namespace : undefined;
  if (rt.namespaced && info.namespace === undefined && info.name !== undefined) {
    throw notFound(rt, info.name);
  }
  const manager = params.get('fieldManager') ?? undefined;
  const warnings = input.warnings ?? warningRecorder(res);
  const guardFor = (dryRun: boolean): AdmissionGuard | undefined =>
    admissionGuard(store, info, {
      user: input.user ?? ADMIN_USER,
      dryRun,
      warnings,
      ...(manager ? { fieldManager: manager } : {}),
    });
  const storedVersion = (): string | undefined =>
    store.get(rt.kind, ns, info.name ?? '')?.metadata.resourceVersion;
  const presentStored = (): unknown => {
    const stored = store.get(rt.kind, ns, info.name ?? '');
    return stored ? present(rt, stored) : null;
  };
  const table = wantsTable(headers.accept);
  const include = table ? includeObjectOf(params) : 'Metadata';
  switch (info.verb) {
    case 'get': {
      const name = info.name ?? '';
      if (info.subresource === 'log' && rt.kind === 'Pod') {
        const text = podLog(store, logs, rt, ns ?? '', name, params);
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
        return 200;
      }
      if (info.subresource === 'scale') return sendJson(res, 200, getScale(store, rt, ns, name));
      const obj = store.get(rt.kind, ns, name);
      if (!obj) throw notFound(rt, name);
      if (table) return sendJson(res, 200, toTable(rt, [obj], String(store.resourceVersion), include));
      return sendJson(res, 200, present(rt, obj));
    }
    case 'list': {
      const query = parseListQuery(rt, params, ns);
      const result = runList(store, rt, query, params);
      const metadata = {
        resourceVersion: String(store.resourceVersion),
        ...(result.continueToken
          ? { continue: result.continueToken, remainingItemCount: result.remaining }
          : {}),
      };
      if (table)
        return sendJson(res, 200, {
          ...(toTable(rt, result.items, metadata.resourceVersion, include) as object),
          metadata,
        });
      return sendJson(res, 200, {
        kind: `${rt.kind}List`,
        apiVersion: apiVersionOf(rt),
        metadata,
        items: result.items.map((o) => present(rt, o)),
      });
    }
    case 'watch': {
      const query = parseListQuery(rt, params, ns);
      await serveWatch(store, rt, query, params, res, input.stopped, table ? include : undefined);
      return 200;
    }
    case 'create': {
      const dryRun = dryRunOf(params);
      const created = await admitThenWrite(
        guardFor(dryRun),
        () => undefined,
        () => ['CREATE', present(rt, createObject(store, rt, input.body, ns, { dryRun: true })), null],
        () => createObject(store, rt, input.body, ns, { dryRun }),
      );
      return sendJson(res, 201, present(rt, created));
    }
    case 'update': {
      const dryRun = dryRunOf(params);
      const name = info.name ?? '';
      if (info.subresource === 'scale') {
        const options = { dryRun, ...(manager ? { fieldManager: manager } : {}) };
        const scale = await admitThenWrite(
          guardFor(dryRun),
          storedVersion,
          () => [
            'UPDATE',
            updateScale(store, rt, ns, name, input.body, { ...options, dryRun: true }),
            getScale(store, rt, ns, name),
          ],
          () => updateScale(store, rt, ns, name, input.body, options),
        );
        return sendJson(res, 200, scale);
      }
      const options = { ...(info.subresource ? { subresource: info.subresource } : {}) };
      const updated = await admitThenWrite(
        guardFor(dryRun),
        storedVersion,
        () => [
          'UPDATE',
          present(rt, updateObject(store, rt, input.body, ns, name, { ...options, dryRun: true })),
          presentStored(),
        ],
        () => updateObject(store, rt, input.body, ns, name, { ...options, dryRun }),
      );
      return sendJson(res, 200, present(rt, updated));
    }
    case 'patch': {
      const dryRun = dryRunOf(params);
      const name = info.name ?? '';
      const contentType = headers.contentType ?? '';
      if (info.subresource === 'scale') {
        const scaleOptions = { ...(manager ? { fieldManager: manager } : {}) };
        const scale = await admitThenWrite(
          guardFor(dryRun),
          storedVersion,
          () => [
            'UPDATE',
            patchScale(store, rt, ns, name, contentType, input.body, { ...scaleOptions, dryRun: true }),
            getScale(store, rt, ns, name),
          ],
          () => patchScale(store, rt, ns, name, contentType, input.body, { dryRun, ...scaleOptions }),
        );
        return sendJson(res, 200, scale);
      }
      if (mediaType(contentType) === APPLY_PATCH && !info.subresource) {
        checkPatchType(rt, APPLY_PATCH);
        const applyOptions = { ...(manager ? { fieldManager: manager } : {}) };
        const applied = await admitThenWrite(
          guardFor(dryRun),
          storedVersion,
          () => {
            const next = serverSideApply(store, rt, ns, name, input.body, { ...applyOptions, dryRun: true });
            return [next.created ? 'CREATE' : 'UPDATE', present(rt, next.object), presentStored()];
          },
          () => serverSideApply(store, rt, ns, name, input.body, { ...applyOptions, dryRun }),
        );
        return sendJson(res, applied.created ? 201 : 200, present(rt, applied.object));
      }
      const patchOptions = {
        ...(info.subresource ? { subresource: info.subresource } : {}),
        ...(manager ? { fieldManager: manager } : {}),
      };
      const patched = await admitThenWrite(
        guardFor(dryRun),
        storedVersion,
        () => [
          'UPDATE',
          present(
            rt,
            patchObject(store, rt, ns, name, contentType, input.body, { ...patchOptions, dryRun: true }),
          ),
          presentStored(),
        ],
        () => patchObject(store, rt, ns, name, contentType, input.body, { ...patchOptions, dryRun }),
      );
      return sendJson(res, 200, present(rt, patched));
    }
    case 'delete': {
      const body = (input.body ?? {}) as DeleteBody;
      const dryRun = dryRunOf(params) || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
      const propagation = params.get('propagationPolicy') ?? body.propagationPolicy ?? 'Background';
      const grace = params.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
      const gone = await admitThenWrite(
        guardFor(dryRun),
        storedVersion,
        () => ['DELETE', null, presentStored()],
        () =>
          deleteObject(store, rt, ns, info.name ?? '', {
            dryRun,
            propagation,
            ...(grace !== undefined && grace !== null && Number.isFinite(Number(grace))
              ? { gracePeriodSeconds: Number(grace) }
              : {}),
            ...(body.preconditions?.uid ? { preconditionUid: body.preconditions.uid } : {}),
            ...(body.preconditions?.resourceVersion
              ? { preconditionRv: body.preconditions.resourceVersion }
              : {}),
          }),
      );
      if (rt.kind === 'Pod') return sendJson(res, 200, present(rt, gone));
      return sendJson(res, 200, {
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
      });
    }
    case 'deletecollection': {
      const query = parseListQuery(rt, params, ns);
      const dryRun = dryRunOf(params);
      const victims = store
        .list(rt.kind, query.namespace, query.labelSelector)
        .filter((o) => matchesLabels(query.labelSelector, o.metadata.labels) && selects(query, o));
      for (const v of victims) deleteObject(store, rt, v.metadata.namespace, v.metadata.name, { dryRun });
      return sendJson(res, 200, {
        kind: `${rt.kind}List`,
        apiVersion: apiVersionOf(rt),
        metadata: { resourceVersion: String(store.resourceVersion) },
        items: victims.map((o) => present(rt, o)),
      });
    }
  }
  throw new ApiError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
}
