/**
 * Reads a saved dump of cluster objects: a `kubectl get ... -o yaml|json` List (kind
 * List or a typed list such as PodList), multi-document YAML, a JSON object or array.
 * Every object of a kind the analyzers read is checked for the fields they rely on,
 * so a truncated or hand-edited dump fails here with its location named, not as a
 * TypeError deep inside an analyzer.
 */
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { coreEvent } from './event-shape.js';
import { parseErrorText } from '../parse-error-text.js';
import type { KubeObject } from './k8s.js';

/** The dump is not YAML/JSON or holds a malformed object; the message names where. */
export class DumpError extends Error {
  override name = 'DumpError';
}

const metadata = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  namespace: z.string().optional(),
});
const labelSelector = z.looseObject({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z.array(z.looseObject({ key: z.string(), operator: z.string() })).optional(),
});
const container = z.looseObject({ name: z.string() });
const podSpec = z.looseObject({
  containers: z.array(container),
  nodeName: z.string().optional(),
  nodeSelector: z.record(z.string(), z.string()).optional(),
});
const base = { apiVersion: z.string().min(1), kind: z.string(), metadata };

/** Minimal shapes for the kinds the analyzers read; other kinds pass with kind and metadata. */
const schemas: Record<string, z.ZodType> = {
  Deployment: z.looseObject({
    ...base,
    spec: z.looseObject({
      replicas: z.number().int().nonnegative().optional(),
      selector: labelSelector,
      template: z.looseObject({ spec: podSpec }),
    }),
  }),
  ReplicaSet: z.looseObject({ ...base, spec: z.looseObject({ selector: labelSelector }) }),
  Pod: z.looseObject({ ...base, spec: podSpec }),
  Node: z.looseObject({ ...base }),
  PersistentVolumeClaim: z.looseObject({ ...base, spec: z.looseObject({}) }),
  Event: z.looseObject({
    ...base,
    involvedObject: z.looseObject({ kind: z.string().optional(), name: z.string().optional() }),
  }),
};
const anyObject = z.looseObject({ kind: z.string().min(1), metadata: z.looseObject({}).optional() });

/**
 * Parses a dump into plain objects, List items flattened in order.
 *
 * @throws DumpError naming the document, item and field that is wrong.
 * @example loadObjects(readFileSync('dump.yaml', 'utf8')).filter((o) => o.kind === 'Pod')
 */
export function loadObjects(text: string): KubeObject[] {
  if (!text.trim()) throw new DumpError('the dump is empty: expected a `kubectl get ... -o yaml` List');
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) {
    throw new DumpError('the dump is not YAML or JSON');
  }
  const objects: KubeObject[] = [];
  documents.forEach((doc, index) => {
    const where = documents.length > 1 ? `document ${index + 1}` : 'the dump';
    const error = doc.errors[0];
    // Position and code only: the parser's message quotes the dump, which may hold Secrets.
    if (error) throw new DumpError(`${where} is not valid YAML or JSON: ${parseErrorText(error)}`);
    let value: unknown;
    try {
      value = doc.toJS();
    } catch (cause) {
      // yaml throws here (not in doc.errors) for an alias whose anchor is missing.
      throw new DumpError(`${where} is not valid YAML: ${parseErrorText(cause)}`);
    }
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => objects.push(validate(item, `${where}, element ${i}`)));
      return;
    }
    if (typeof value !== 'object') {
      throw new DumpError(
        `${where} is ${typeof value === 'string' ? 'plain text' : `a ${typeof value}`}, not a Kubernetes object or List (expected \`kubectl get ... -o yaml\` output)`,
      );
    }
    const record = value as Record<string, unknown>;
    const kind = record['kind'];
    if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(record['items'])) {
      // Typed lists from the API (PodList) omit kind/apiVersion on items: restore them.
      const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
      const apiVersion = typeof record['apiVersion'] === 'string' ? record['apiVersion'] : undefined;
      record['items'].forEach((item: unknown, i: number) => {
        const filled =
          itemKind && item && typeof item === 'object' && !Array.isArray(item)
            ? { apiVersion, kind: itemKind, ...(item as Record<string, unknown>) }
            : item;
        objects.push(validate(filled, `${where}, items[${i}]`));
      });
      return;
    }
    objects.push(validate(value, where));
  });
  if (objects.length === 0) throw new DumpError('the dump holds no Kubernetes objects');
  return objects;
}

function validate(raw: unknown, where: string): KubeObject {
  // events.k8s.io/v1 events (regarding, note) are read in the core/v1 shape.
  const value =
    raw !== null && typeof raw === 'object' && (raw as Record<string, unknown>)['kind'] === 'Event'
      ? coreEvent(raw as Record<string, unknown>)
      : raw;
  const loose = anyObject.safeParse(value);
  if (!loose.success)
    throw new DumpError(`${where}: not a Kubernetes object (${describeIssue(loose.error)})`);
  const kind = loose.data.kind;
  const schema = schemas[kind];
  if (!schema) return loose.data as KubeObject;
  const result = schema.safeParse(value);
  if (!result.success) {
    const name = nameOf(value);
    throw new DumpError(`${where} (${kind}${name ? ` ${name}` : ''}): ${describeIssue(result.error)}`);
  }
  return result.data as KubeObject;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  const field = path.replace(/^\./, '');
  if (!field) return issue.message.replace(/^Invalid input: /, '');
  const problem =
    issue.code === 'invalid_type' && issue.message.includes('received undefined')
      ? 'is missing'
      : issue.message;
  return `${field} ${problem}`;
}

function nameOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const meta = (value as { metadata?: unknown }).metadata;
  if (!meta || typeof meta !== 'object') return undefined;
  const name = (meta as { name?: unknown }).name;
  return typeof name === 'string' && name ? `"${name}"` : undefined;
}
