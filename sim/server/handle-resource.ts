/** Dispatches one resource request (get, list, watch, create, update, patch, delete). */
import type { ServerResponse } from 'node:http';
import { ApiError, badRequest, notFound } from '../errors.js';
import { apiVersionOf } from '../resources.js';
import type { Store } from '../store.js';
import type { LogStore } from '../logs.js';
import { deleteObject } from '../writes.js';
import { parseListQuery, runList, selects } from './list.js';
import { admissionGuard, type AdmissionGuard } from './admit-request.js';
import { ADMIN_USER, type UserInfo } from './identity.js';
import { podLog } from './pod-log.js';
import { getScale } from './scale-subresource.js';
import { present } from './present.js';
import type { ResourceRequest } from './request-info.js';
import { includeObjectOf, toTable, wantsTable } from './table.js';
import { serveWatch } from './watch.js';
import { warningRecorder, type WarningRecorder } from './warnings.js';
import { createVerb, deleteVerb, patchVerb, updateVerb } from './write-verbs.js';
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

function dryRunOf(params: URLSearchParams): boolean {
  const values = params.getAll('dryRun');
  for (const v of values) if (v !== 'All') throw badRequest(`Invalid dry run value: ${v}`);
  return values.length > 0;
}

const WRITE_VERBS = { create: createVerb, update: updateVerb, patch: patchVerb, delete: deleteVerb };

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
  const bodyName = (input.body as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  const guardFor = (dryRun: boolean): AdmissionGuard | undefined =>
    admissionGuard(store, info, {
      user: input.user ?? ADMIN_USER,
      dryRun,
      warnings,
      ...(manager ? { fieldManager: manager } : {}),
      ...(typeof bodyName === 'string' ? { bodyName } : {}),
    });
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
    case 'create':
    case 'update':
    case 'patch':
    case 'delete': {
      const body = input.body as { dryRun?: unknown } | null;
      const dryRun =
        dryRunOf(params) ||
        (info.verb === 'delete' && Array.isArray(body?.dryRun) && body.dryRun.includes('All'));
      const answer = await WRITE_VERBS[info.verb]({
        store,
        rt,
        ns,
        name: info.name ?? '',
        ...(info.subresource ? { subresource: info.subresource } : {}),
        body: input.body,
        contentType: headers.contentType ?? '',
        params,
        ...(manager ? { manager } : {}),
        dryRun,
        guard: guardFor(dryRun),
        warnings,
      });
      return sendJson(res, answer.status, answer.body);
    }
    case 'deletecollection': {
      const query = parseListQuery(rt, params, ns);
      const dryRun = dryRunOf(params);
      const victims = store
        .list(rt.kind, query.namespace, query.labelSelector)
        .filter((o) => matchesLabels(query.labelSelector, o.metadata.labels) && selects(query, o));
      // Each item is admitted as its own DELETE (the registry deletes them one by one); a
      // refusal stops there, as the items before it are gone already.
      const guard = guardFor(dryRun);
      for (const v of victims) {
        if (guard) {
          await guard('DELETE', null, present(rt, v));
          if (!store.get(rt.kind, v.metadata.namespace, v.metadata.name)) continue;
        }
        deleteObject(store, rt, v.metadata.namespace, v.metadata.name, { dryRun });
      }
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
