/**
 * Label and field selector parsing and matching, following the API server's
 * grammar: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a` for
 * labels; `path=value`, `path==value`, `path!=value` for fields.
 */
import type { LabelSelector } from '../src/diagnosis/k8s.js';

export type LabelOp = 'in' | 'notin' | 'exists' | '!exists';

export interface LabelRequirement {
  key: string;
  op: LabelOp;
  values: string[];
}

export interface FieldRequirement {
  path: string;
  negate: boolean;
  value: string;
}

/** Thrown for a selector the API server would reject with 400. */
export class SelectorError extends Error {}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Parses a `labelSelector=` query value. An empty string selects everything. */
export function parseLabelSelector(text: string): LabelRequirement[] {
  return splitTopLevel(text).map((part) => {
    const setMatch = /^([^\s!=]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part);
    if (setMatch) {
      const [, key = '', op = 'in', list = ''] = setMatch;
      const values = list
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      return { key, op: op as LabelOp, values };
    }
    const eqMatch = /^([^\s!=]+)\s*(==|!=|=)\s*([^\s=!]*)$/.exec(part);
    if (eqMatch) {
      const [, key = '', op, value = ''] = eqMatch;
      return { key, op: op === '!=' ? 'notin' : 'in', values: [value] };
    }
    const existsMatch = /^(!?)\s*([^\s!=(),]+)$/.exec(part);
    if (existsMatch) {
      const [, bang, key = ''] = existsMatch;
      return { key, op: bang === '!' ? '!exists' : 'exists', values: [] };
    }
    throw new SelectorError(`unable to parse requirement: ${JSON.stringify(part)}`);
  });
}

/** True when the labels satisfy every requirement. */
export function matchesLabels(
  reqs: readonly LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const value = l[r.key];
    switch (r.op) {
      case 'exists':
        return has;
      case '!exists':
        return !has;
      case 'in':
        return has && value !== undefined && r.values.includes(value);
      case 'notin':
        return !has || value === undefined || !r.values.includes(value);
    }
  });
}

/** Converts a structured LabelSelector (matchLabels/matchExpressions) to requirements. */
export function requirementsOf(selector: LabelSelector | undefined): LabelRequirement[] {
  const reqs: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    reqs.push({ key, op: 'in', values: [value] });
  }
  for (const e of selector?.matchExpressions ?? []) {
    const op: LabelOp =
      e.operator === 'In'
        ? 'in'
        : e.operator === 'NotIn'
          ? 'notin'
          : e.operator === 'Exists'
            ? 'exists'
            : '!exists';
    reqs.push({ key: e.key, op, values: e.values ?? [] });
  }
  return reqs;
}

/** Renders a structured selector in query-string form (`a=b,c in (d)`). */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  return requirementsOf(selector)
    .map((r) => {
      switch (r.op) {
        case 'exists':
          return r.key;
        case '!exists':
          return `!${r.key}`;
        case 'in':
          return r.values.length === 1
            ? `${r.key}=${r.values[0] ?? ''}`
            : `${r.key} in (${r.values.join(',')})`;
        case 'notin':
          return r.values.length === 1
            ? `${r.key}!=${r.values[0] ?? ''}`
            : `${r.key} notin (${r.values.join(',')})`;
      }
    })
    .join(',');
}

/** Parses a `fieldSelector=` query value. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  return splitTopLevel(text).map((part) => {
    const m = /^([^=!]+)(==|!=|=)(.*)$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${part}'; can't understand '${part}'`);
    const [, path = '', op, value = ''] = m;
    return { path: path.trim(), negate: op === '!=', value: value.trim() };
  });
}

const FIELDS_BY_KIND: Record<string, readonly string[]> = {
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Node: ['spec.unschedulable'],
  Secret: ['type'],
  Namespace: ['status.phase'],
  ReplicaSet: ['status.replicas'],
  // pkg/registry/resource/resourceslice/strategy.go (kubelets and drivers list their node's slices so).
  ResourceSlice: ['spec.nodeName', 'spec.driver'],
};

/** Rejects field paths the API server does not support for the kind (it answers 400). */
export function checkFieldSelector(kind: string, reqs: readonly FieldRequirement[]): void {
  const allowed = FIELDS_BY_KIND[kind] ?? [];
  for (const r of reqs) {
    if (r.path === 'metadata.name' || r.path === 'metadata.namespace' || allowed.includes(r.path)) continue;
    throw new SelectorError(
      `"${r.path}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
  }
}

function fieldValue(obj: Record<string, unknown>, path: string): string {
  if (path === 'source') {
    const source = obj['source'] as { component?: string } | undefined;
    return source?.component ?? '';
  }
  let cur: unknown = obj;
  for (const segment of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[segment];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : String(cur);
}

/** True when the object satisfies every field requirement. */
export function matchesFields(reqs: readonly FieldRequirement[], obj: Record<string, unknown>): boolean {
  return reqs.every((r) => (fieldValue(obj, r.path) === r.value) !== r.negate);
}
