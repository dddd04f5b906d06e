/**
 * meta.k8s.io/v1 Table renderings for `kubectl get` (it asks for them in Accept),
 * with the columns kube-apiserver prints for the kinds we serve.
 */
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeEvent, Node, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim, ResourceSlice } from '../../src/diagnosis/k8s-dra.js';
import type { PrinterColumn, ResourceType } from '../resources.js';
import type { SimObject } from '../store.js';
import { badRequest } from '../errors.js';
import { present } from './present.js';
import { workloadRow } from './table-workloads.js';
import { simNow } from '../clock.js';

/** True when the Accept header asks for a Table. */
export function wantsTable(accept: string | undefined): boolean {
  return accept !== undefined && /as=Table/.test(accept);
}

/** kubectl's short human duration (5s, 3m20s, 2d4h, ...). */
export function humanAge(since: string | undefined, now = simNow()): string {
  if (!since) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (seconds < 120) return `${seconds}s`;
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  return `${days}d`;
}

interface Column {
  name: string;
  type: string;
  format?: string;
  priority?: number;
}

function podStatusText(pod: Pod): string {
  if (pod.metadata.deletionTimestamp) return 'Terminating';
  let reason = pod.status?.reason ?? pod.status?.phase ?? 'Pending';
  for (const c of pod.status?.containerStatuses ?? []) {
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state?.terminated)
      reason = c.state.terminated.reason ?? `ExitCode:${c.state.terminated.exitCode}`;
  }
  return reason;
}

function rowsFor(rt: ResourceType, o: SimObject): { columns: Column[]; cells: unknown[] } {
  const name: Column = { name: 'Name', type: 'string', format: 'name' };
  const age: Column = { name: 'Age', type: 'string' };
  const created = o.metadata.creationTimestamp;
  if (rt.printerColumns) return printerColumnRow(rt.printerColumns, o);
  const workload = workloadRow(o, humanAge(created));
  if (workload) return workload;
  switch (rt.kind) {
    case 'Pod': {
      const pod = o as unknown as Pod;
      const statuses = pod.status?.containerStatuses ?? [];
      const ready = statuses.filter((c) => c.ready).length;
      const restarts = statuses.reduce((n, c) => n + c.restartCount, 0);
      return {
        columns: [
          name,
          { name: 'Ready', type: 'string' },
          { name: 'Status', type: 'string' },
          { name: 'Restarts', type: 'string' },
          age,
          { name: 'IP', type: 'string', priority: 1 },
          { name: 'Node', type: 'string', priority: 1 },
          { name: 'Nominated Node', type: 'string', priority: 1 },
          { name: 'Readiness Gates', type: 'string', priority: 1 },
        ],
        cells: [
          o.metadata.name,
          `${ready}/${pod.spec.containers.length}`,
          podStatusText(pod),
          String(restarts),
          humanAge(created),
          pod.status?.podIP ?? '<none>',
          pod.spec.nodeName ?? '<none>',
          pod.status?.nominatedNodeName ?? '<none>',
          '<none>',
        ],
      };
    }
    case 'Deployment': {
      const d = o as unknown as Deployment;
      const s = d.status ?? {};
      return {
        columns: [
          name,
          { name: 'Ready', type: 'string' },
          { name: 'Up-to-date', type: 'integer' },
          { name: 'Available', type: 'integer' },
          age,
        ],
        cells: [
          o.metadata.name,
          `${s.readyReplicas ?? 0}/${d.spec.replicas ?? 1}`,
          s.updatedReplicas ?? 0,
          s.availableReplicas ?? 0,
          humanAge(created),
        ],
      };
    }
    case 'ReplicaSet': {
      const r = o as unknown as ReplicaSet;
      return {
        columns: [
          name,
          { name: 'Desired', type: 'integer' },
          { name: 'Current', type: 'integer' },
          { name: 'Ready', type: 'integer' },
          age,
        ],
        cells: [
          o.metadata.name,
          r.spec.replicas ?? 0,
          r.status?.replicas ?? 0,
          r.status?.readyReplicas ?? 0,
          humanAge(created),
        ],
      };
    }
    case 'Node': {
      const n = o as unknown as Node;
      const ready =
        n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? 'Ready' : 'NotReady';
      const roles = Object.keys(n.metadata.labels ?? {})
        .filter((k) => k.startsWith('node-role.kubernetes.io/'))
        .map((k) => k.slice('node-role.kubernetes.io/'.length));
      return {
        columns: [
          name,
          { name: 'Status', type: 'string' },
          { name: 'Roles', type: 'string' },
          age,
          { name: 'Version', type: 'string' },
        ],
        cells: [
          o.metadata.name,
          n.spec?.unschedulable ? `${ready},SchedulingDisabled` : ready,
          roles.length ? roles.join(',') : '<none>',
          humanAge(created),
          n.status?.nodeInfo?.kubeletVersion ?? '',
        ],
      };
    }
    case 'Event': {
      const e = o as unknown as KubeEvent;
      return {
        columns: [
          { name: 'Last Seen', type: 'string' },
          { name: 'Type', type: 'string' },
          { name: 'Reason', type: 'string' },
          { name: 'Object', type: 'string' },
          { name: 'Message', type: 'string' },
        ],
        cells: [
          humanAge(e.lastTimestamp ?? created),
          e.type ?? '',
          e.reason ?? '',
          `${(e.involvedObject.kind ?? '').toLowerCase()}/${e.involvedObject.name ?? ''}`,
          e.message ?? '',
        ],
      };
    }
    case 'Namespace':
      return {
        columns: [name, { name: 'Status', type: 'string' }, age],
        cells: [o.metadata.name, 'Active', humanAge(created)],
      };
    // resource.k8s.io/v1, with kube-apiserver's printer columns.
    case 'ResourceClaim': {
      // printers.go resourceClaimState: "pending" only while not deleted, "reserved" only when allocated.
      const claim = o as unknown as ResourceClaim;
      const deleted = !!o.metadata.deletionTimestamp;
      const allocated = !!claim.status?.allocation;
      const state = [
        deleted ? 'deleted' : '',
        allocated ? 'allocated' : deleted ? '' : 'pending',
        allocated && (claim.status?.reservedFor ?? []).length > 0 ? 'reserved' : '',
      ].filter(Boolean);
      return {
        columns: [name, { name: 'State', type: 'string' }, age],
        cells: [o.metadata.name, state.join(','), humanAge(created)],
      };
    }
    case 'ResourceSlice': {
      const slice = o as unknown as ResourceSlice;
      return {
        columns: [
          name,
          { name: 'Node', type: 'string' },
          { name: 'Driver', type: 'string' },
          { name: 'Pool', type: 'string' },
          age,
        ],
        cells: [
          o.metadata.name,
          slice.spec?.nodeName ?? '',
          slice.spec?.driver ?? '',
          slice.spec?.pool?.name ?? '',
          humanAge(created),
        ],
      };
    }
    default:
      return plainRow(rt, o);
  }
}

/** Kinds printed by name and age, with a column or two of their own; else name and creation time. */
function plainRow(rt: ResourceType, o: SimObject): { columns: Column[]; cells: unknown[] } {
  const name: Column = { name: 'Name', type: 'string', format: 'name' };
  const age: Column = { name: 'Age', type: 'string' };
  const created = o.metadata.creationTimestamp;
  switch (rt.kind) {
    case 'ResourceQuota':
      return {
        columns: [name, age, ...QUOTA_COLUMNS],
        cells: [o.metadata.name, humanAge(created), ...quotaCells(o)],
      };
    case 'ValidatingWebhookConfiguration':
      return {
        columns: [name, { name: 'Webhooks', type: 'integer' }, age],
        cells: [o.metadata.name, Array.isArray(o['webhooks']) ? o['webhooks'].length : 0, humanAge(created)],
      };
    case 'DeviceClass':
    case 'ResourceClaimTemplate':
    case 'DeviceTaintRule':
      return { columns: [name, age], cells: [o.metadata.name, humanAge(created)] };
    default:
      return {
        columns: [name, { name: 'Created At', type: 'date' }],
        cells: [o.metadata.name, created ?? ''],
      };
  }
}

const QUOTA_COLUMNS: Column[] = [
  { name: 'Request', type: 'string' },
  { name: 'Limit', type: 'string' },
];

/**
 * printResourceQuota (pkg/printers/internalversion/printers.go): the hard resources
 * sorted, `name: used/hard` each, `limits.*` in the Limit column and the rest in Request.
 */
function quotaCells(o: SimObject): [string, string] {
  const spec = (o['spec'] ?? {}) as { hard?: Record<string, unknown> };
  const status = (o['status'] ?? {}) as { hard?: Record<string, unknown>; used?: Record<string, unknown> };
  const request: string[] = [];
  const limit: string[] = [];
  for (const r of Object.keys(spec.hard ?? {}).sort()) {
    const text = `${r}: ${String(status.used?.[r] ?? '0')}/${String(status.hard?.[r] ?? '0')}`;
    (r.startsWith('limits.') ? limit : request).push(text);
  }
  return [request.join(', '), limit.join(', ')];
}

/** The value at a CRD column's simple JSONPath (`.status.replicas`, `.spec.items[0].name`). */
function atPath(o: unknown, path: string): unknown {
  let value: unknown = o;
  for (const part of path.replace(/^\./, '').split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    if (m[1]) value = (value as Record<string, unknown> | undefined)?.[m[1]];
    for (const index of (m[2] ?? '').match(/\d+/g) ?? [])
      value = (value as unknown[] | undefined)?.[Number(index)];
    if (value === undefined || value === null) return undefined;
  }
  return value;
}

/**
 * The custom resource table convertor (apiextensions-apiserver tableconvertor.go): Name,
 * then each additionalPrinterColumn; a missing value is null, an integer column an
 * integer, a date column a human age (ConvertToHumanReadableDateType), strings as printed.
 */
function printerColumnRow(
  columns: readonly PrinterColumn[],
  o: SimObject,
): { columns: Column[]; cells: unknown[] } {
  const cells: unknown[] = [o.metadata.name];
  for (const c of columns) {
    const value = atPath(o, c.jsonPath);
    if (value === undefined) cells.push(null);
    else if (c.type === 'integer') cells.push(typeof value === 'number' ? Math.trunc(value) : null);
    else if (c.type === 'number') cells.push(typeof value === 'number' ? value : null);
    else if (c.type === 'boolean') cells.push(typeof value === 'boolean' ? value : null);
    else if (c.type === 'date') cells.push(typeof value === 'string' ? humanAge(value) : null);
    else cells.push(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return {
    columns: [
      { name: 'Name', type: 'string', format: 'name' },
      ...columns.map((c) => ({
        name: c.name,
        type: c.type,
        ...(c.format ? { format: c.format } : {}),
        ...(c.priority ? { priority: c.priority } : {}),
      })),
    ],
    cells,
  };
}

/**
 * What each row carries, as kube-apiserver's `includeObject` table option says
 * (handlers/response.go transformTable): Metadata (the default, also for "") a
 * PartialObjectMetadata, Object the whole object as the resource's version serves it
 * (kubectl asks for it with --sort-by and custom columns), None nothing (null).
 * Anything else is a 400, as there.
 */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function includeObjectOf(params: URLSearchParams): IncludeObject {
  const value = params.get('includeObject') ?? '';
  if (value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(`unrecognized includeObject value: ${JSON.stringify(value)}`);
}

/**
 * Builds a Table for the objects (columns from the kind, one row each). `noHeaders`
 * leaves the column definitions out, as the API server does for every watch event
 * after the first (handlers/response.go, watchEmbeddedEncoder).
 */
export function toTable(
  rt: ResourceType,
  objects: readonly SimObject[],
  resourceVersion: string,
  include: IncludeObject = 'Metadata',
  noHeaders = false,
): unknown {
  const blank = {
    kind: rt.kind,
    metadata: { name: '' },
    spec: { containers: [], template: { spec: { containers: [] } } },
    involvedObject: {},
  };
  let columns: Column[] = rowsFor(rt, blank).columns;
  const rows = objects.map((o) => {
    const r = rowsFor(rt, o);
    columns = r.columns;
    const object =
      include === 'None'
        ? null
        : include === 'Object'
          ? present(rt, o)
          : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
    return { cells: r.cells, object };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: noHeaders
      ? []
      : columns.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? '',
          description: '',
          priority: c.priority ?? 0,
        })),
    rows,
  };
}
