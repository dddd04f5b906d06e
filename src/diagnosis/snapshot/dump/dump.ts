/**
 * Reads a saved dump of cluster objects: a `kubectl get ... -o yaml|json` List (kind
 * List or a typed list such as PodList), multi-document YAML, a JSON object or array.
 * Every object of a kind the analyzers read is checked for the fields they rely on,
 * so a truncated or hand-edited dump fails here with its location named, not as a
 * TypeError deep inside an analyzer.
 */
import { load } from 'js-yaml';
import { z } from 'zod';
import { splitDocuments, splitListItems, type Chunk, type ListChunks } from './dump-chunks.js';
import { readHead, type ObjectHead } from './object-head.js';
import { truncatedJson, truncatedList } from './truncation.js';
import { coreEvent } from '../../base/event-shape.js';
import { parseErrorText } from '../../../text/parse-error-text.js';
import { quoted } from '../../../text/clean.js';
import type { KubeObject } from '../../k8s.js';
import { isWorkloadKind } from '../../workload-ref.js';

/** The dump is not YAML/JSON or holds a malformed object; the message names where. */
export class DumpError extends Error {
  override name = 'DumpError';
}

const stringMap = z.record(z.string(), z.string());
const metadata = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  namespace: z.string().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
  ownerReferences: z.array(z.looseObject({ kind: z.string(), name: z.string() })).optional(),
  deletionTimestamp: z.string().optional(),
  finalizers: z.array(z.string()).optional(),
});
/** Lists of objects with a `type` (conditions) or a `name` (container statuses), as the analyzers walk them. */
const conditions = z.array(z.looseObject({ type: z.string() })).optional();
const containerStatuses = z.array(z.looseObject({ name: z.string() })).optional();
/** maxSurge / maxUnavailable: a non-negative integer or a percentage. */
const intOrPercent = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d+%$/, 'must be a non-negative integer or a percentage such as 25%'),
]);
const count = z.number().int().nonnegative().optional();
const quantities = z.record(z.string(), z.union([z.string(), z.number()])).optional();
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
      strategy: z
        .looseObject({
          type: z.string().optional(),
          rollingUpdate: z
            .looseObject({ maxSurge: intOrPercent.optional(), maxUnavailable: intOrPercent.optional() })
            .optional(),
        })
        .optional(),
      template: z.looseObject({ spec: podSpec }),
    }),
    status: z.looseObject({ conditions }).optional(),
  }),
  ReplicaSet: z.looseObject({ ...base, spec: z.looseObject({ selector: labelSelector }) }),
  Pod: z.looseObject({
    ...base,
    spec: podSpec,
    status: z
      .looseObject({
        phase: z.string().optional(),
        conditions,
        containerStatuses,
        initContainerStatuses: containerStatuses,
      })
      .optional(),
  }),
  Node: z.looseObject({
    ...base,
    spec: z.looseObject({ taints: z.array(z.looseObject({ key: z.string() })).optional() }).optional(),
    status: z.looseObject({ allocatable: quantities, capacity: quantities, conditions }).optional(),
  }),
  PersistentVolumeClaim: z.looseObject({ ...base, spec: z.looseObject({}) }),
  ResourceQuota: z.looseObject({
    ...base,
    spec: z.looseObject({ hard: quantities, scopes: z.array(z.string()).optional() }).optional(),
    status: z.looseObject({ hard: quantities, used: quantities }).optional(),
  }),
  Event: z.looseObject({
    ...base,
    involvedObject: z.looseObject({ kind: z.string().optional(), name: z.string().optional() }),
  }),
  // resource.k8s.io (DRA): the fields device matching reads.
  ResourceClaim: z.looseObject({ ...base, spec: z.looseObject({}) }),
  ResourceClaimTemplate: z.looseObject({ ...base, spec: z.looseObject({ spec: z.looseObject({}) }) }),
  ResourceSlice: z.looseObject({
    ...base,
    spec: z.looseObject({
      driver: z.string().min(1),
      pool: z.looseObject({
        name: z.string(),
        generation: z.number().int(),
        resourceSliceCount: z.number().int(),
      }),
      devices: z.array(z.looseObject({ name: z.string() })).optional(),
    }),
  }),
  DeviceClass: z.looseObject({ ...base, spec: z.looseObject({}) }),
  // What guards a workload (guards-in-dump.ts): the fields the plan proofs read.
  PodDisruptionBudget: z.looseObject({
    ...base,
    spec: z
      .looseObject({
        minAvailable: intOrPercent.optional(),
        maxUnavailable: intOrPercent.optional(),
        selector: labelSelector.optional(),
      })
      .optional(),
    status: z
      .looseObject({
        expectedPods: count,
        currentHealthy: count,
        desiredHealthy: count,
        disruptionsAllowed: count,
        conditions,
      })
      .optional(),
  }),
  HorizontalPodAutoscaler: z.looseObject({
    ...base,
    spec: z.looseObject({
      scaleTargetRef: z.looseObject({
        kind: z.string(),
        name: z.string(),
        apiVersion: z.string().optional(),
      }),
      minReplicas: count,
      maxReplicas: z.number().int().positive(),
    }),
  }),
  PersistentVolume: z.looseObject({
    ...base,
    spec: z
      .looseObject({
        storageClassName: z.string().optional(),
        claimRef: z.looseObject({ name: z.string().optional(), namespace: z.string().optional() }).optional(),
        nodeAffinity: z
          .looseObject({
            required: z.looseObject({ nodeSelectorTerms: z.array(z.looseObject({})) }).optional(),
          })
          .optional(),
      })
      .optional(),
  }),
  StorageClass: z.looseObject({
    ...base,
    volumeBindingMode: z.string().optional(),
    allowedTopologies: z
      .array(
        z.looseObject({
          matchLabelExpressions: z
            .array(z.looseObject({ key: z.string(), values: z.array(z.string()) }))
            .optional(),
        }),
      )
      .optional(),
  }),
  AnalysisRun: z.looseObject({ ...base, status: z.looseObject({ phase: z.string().optional() }).optional() }),
};
const anyObject = z.looseObject({ kind: z.string().min(1), metadata: z.looseObject({}).optional() });

/**
 * Nesting deeper than any Kubernetes object is refused by the parser (maxDepth). Aliases
 * are allowed (tools other than kubectl write anchors for repeated values), but js-yaml
 * shares the aliased value, so every walk over the objects visits it once per use: a
 * 43 KB "billion laughs" would take hours. `loadYaml` refuses a document whose values,
 * counted with every repeat, outnumber what its text could spell out (exceeds).
 */
const YAML_OPTIONS = { maxDepth: 64 } as const;

/** A document that parsed to more values than its text could hold without aliases. */
class AliasBombError extends Error {}

function loadYaml(text: string): unknown {
  const value = load(text, YAML_OPTIONS);
  // Without an alias (`*name`) nothing repeats; the check runs only where one may be.
  if (text.includes('*') && exceeds(value, { values: 2 * text.length + 1000 })) throw new AliasBombError();
  return value;
}

/**
 * The walk over a parsed value that guards every later one, without recursion (a
 * hostile file must not overflow the stack): true when it nests deeper than `depth`,
 * or holds more than `values` values counting each repeat of an aliased one.
 */
function exceeds(value: unknown, limits: { depth?: number; values?: number }): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let seen = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    seen += 1;
    if (limits.values !== undefined && seen > limits.values) return true;
    if (node === null || typeof node !== 'object') continue;
    if (limits.depth !== undefined && depth > limits.depth) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Deeper than any Kubernetes object: refused before recursive walks overflow the stack. */
const MAX_DEPTH = 64;

export interface LoadOptions {
  /**
   * Which objects to keep (default all). Every object is still checked; the others
   * are dropped as soon as they are read, so a large dump's unrelated namespaces
   * never pile up in memory (see relevantTo in dump-relevance.ts).
   */
  keep?: (object: KubeObject) => boolean;
  /**
   * What to do with an object judged from its kind and namespace as read off its text
   * (object-head.ts), before any parsing: 'skip' those `keep` would drop for those two
   * fields alone; 'defer' those that matter only if `resolve` says so once the rest is
   * read (other namespaces' pods: only those on the nodes the diagnosis looks at). A
   * skipped or unparsed object is not checked either: what no diagnosis reads cannot
   * mislead one. An object whose head cannot be read is parsed. See dump-relevance.ts.
   */
  triage?: (head: ObjectHead) => 'parse' | 'skip' | 'defer';
  /** Given the objects kept, which deferred objects to parse (undefined: all of them). */
  resolve?: (kept: readonly KubeObject[]) => ((piece: DeferredPiece) => boolean) | undefined;
  /** Each deferred object left unparsed. */
  unparsed?: (piece: DeferredPiece) => void;
  /** How far the reading is, 0 to 1, after each document or List item (a terminal's progress line). */
  progress?: (fraction: number) => void;
}

/** An object set aside unparsed: its text, the indentation of its keys, its head. */
export interface DeferredPiece {
  text: string;
  indent: number;
  head: ObjectHead;
}

interface Deferred {
  piece: DeferredPiece;
  chunk: Chunk;
  where: string;
  fill: (item: unknown) => unknown;
}

/**
 * Parses a dump into plain objects, List items flattened in order. Documents and the
 * items of a List are parsed one at a time (dump-chunks.ts) with js-yaml, JSON with
 * JSON.parse, so memory holds the text, one item's tree and the objects kept.
 *
 * @throws DumpError naming the document, item and field that is wrong.
 * @example loadObjects(readFileSync('dump.yaml', 'utf8')).filter((o) => o.kind === 'Pod')
 */
export function loadObjects(text: string, options: LoadOptions = {}): KubeObject[] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!/\S/.test(source)) throw new DumpError('the dump is empty: expected a `kubectl get ... -o yaml` List');
  const keep = options.keep ?? (() => true);
  const objects: KubeObject[] = [];
  // The same object twice (two `kubectl get` runs in one file) is one object: the later
  // copy replaces the earlier in its place, so nothing is counted twice.
  const at = new Map<string, number>();
  const add = (raw: unknown, where: string): void => {
    const object = validate(raw, where);
    if (!keep(object)) return;
    const name = object.metadata?.name;
    const key = name ? `${object.kind ?? ''}/${object.metadata?.namespace ?? ''}/${name}` : undefined;
    const earlier = key === undefined ? undefined : at.get(key);
    if (earlier === undefined) {
      if (key !== undefined) at.set(key, objects.length);
      objects.push(slim(object));
    } else objects[earlier] = slim(object);
  };
  let done = 0;
  const advance = (characters: number): void => {
    done += characters;
    options.progress?.(Math.min(1, done / source.length));
  };
  const json = parseJson(source);
  const documents: Chunk[] = json.ok ? [] : splitDocuments(source);
  const whereOf = (index: number): string => (documents.length > 1 ? `document ${index + 1}` : 'the dump');
  if (json.ok && exceeds(json.value, { depth: MAX_DEPTH })) {
    throw new DumpError(`the dump nests deeper than ${MAX_DEPTH} levels: not kubectl output`);
  }
  if (json.ok) addDocument(json.value, 'the dump', add, advance, source.length);
  const deferred: Deferred[] = [];
  const sort = triageOf(options, deferred);
  documents.forEach((doc, index) => {
    const where = whereOf(index);
    // One object per document (multi-document YAML): skipped or deferred when it may be.
    if (!sort(doc, 0, where, (v) => v)) return;
    const list = splitListItems(doc);
    // Only the file's last document can have been cut off.
    if (list && index === documents.length - 1) {
      const cut = truncatedList(parseHeader(list.header), { text: source, itemCount: list.items.length });
      if (cut) throw new DumpError(cut);
    }
    if (list) {
      const mark = objects.length;
      const deferredMark = deferred.length;
      const doneMark = done;
      try {
        addCutList(list, where, add, sort, advance);
        advance(list.header.text.length);
        return;
      } catch (error) {
        if (!(error instanceof CutListError)) throw error;
        // Not a List after all, or a piece that does not parse alone: parse it whole.
        objects.length = mark;
        deferred.length = deferredMark;
        done = doneMark;
      }
    }
    addDocument(parseChunk(doc, where), where, add);
    advance(doc.text.length);
  });
  resolveDeferred(deferred, objects, options, add);
  options.progress?.(1); // the document markers and deferred objects counted nowhere above
  if (objects.length === 0) throw new DumpError('the dump holds no Kubernetes objects');
  return objects;
}

/** Whether a piece is to be parsed now (true), or was skipped or set aside (false). */
type Sort = (
  chunk: Chunk,
  indent: number,
  where: string,
  fill: (item: unknown) => unknown,
  listKind?: string,
) => boolean;

function triageOf(options: LoadOptions, deferred: Deferred[]): Sort {
  const triage = options.triage;
  if (!triage) return () => true;
  return (chunk, indent, where, fill, listKind) => {
    const head = readHead(chunk.text, indent, listKind);
    const verdict = triage(head);
    // A piece that may hold an alias may not parse alone (its anchor in another item):
    // it is parsed now, where a failure falls back to parsing the document whole.
    if (verdict === 'defer' && chunk.text.includes('*')) return true;
    if (verdict === 'defer') deferred.push({ piece: { text: chunk.text, indent, head }, chunk, where, fill });
    return verdict === 'parse';
  };
}

/** The deferred pieces `resolve` asks for, parsed and added; the others reported unparsed. */
function resolveDeferred(
  deferred: readonly Deferred[],
  objects: readonly KubeObject[],
  options: LoadOptions,
  add: (raw: unknown, where: string) => void,
): void {
  if (deferred.length === 0) return;
  const wanted = options.resolve?.(objects);
  for (const d of deferred) {
    if (wanted === undefined || wanted(d.piece)) add(d.fill(parseChunk(d.chunk, d.where)), d.where);
    else options.unparsed?.(d.piece);
  }
}

/** A cut List that is not one, or whose pieces do not parse alone. */
class CutListError extends Error {}

/** JSON.parse for text that looks like JSON; anything else (or broken JSON) goes to the YAML path, whose errors quote nothing. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const cut = truncatedJson(text, error);
    if (cut) throw new DumpError(cut);
    return { ok: false };
  }
}

/** A List's header (its items taken out), or undefined when it does not parse alone. */
function parseHeader(header: Chunk): unknown {
  try {
    return loadYaml(header.text);
  } catch {
    return undefined;
  }
}

/** One chunk parsed; a parse error becomes a DumpError with the line in the whole file. */
function parseChunk(chunk: Chunk, where: string): unknown {
  // An empty document (`---` twice) is null, as YAML has it; js-yaml refuses empty input.
  if (/^(\s*(#.*)?\n?)*$/.test(chunk.text)) return null;
  try {
    const value = loadYaml(chunk.text);
    // A List item cut as it stands parses to a sequence of one (dump-chunks.ts).
    return chunk.entry && Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
  } catch (cause) {
    if (cause instanceof AliasBombError) {
      throw new DumpError(`${where} repeats aliased values beyond any real object (a YAML alias bomb?)`);
    }
    // Position and reason only: the parser's message quotes the dump, which may hold Secrets.
    throw new DumpError(
      `${where} is not valid YAML or JSON: ${parseErrorText(shiftLines(cause, chunk.line))}`,
    );
  }
}

function loadPiece(chunk: Chunk): unknown {
  let value: unknown;
  try {
    value = loadYaml(chunk.text);
  } catch {
    throw new CutListError();
  }
  if (!chunk.entry) return value;
  if (!Array.isArray(value) || value.length !== 1) throw new CutListError();
  return value[0] as unknown;
}

/** A List cut into items: its header, then each item parsed, checked and kept or dropped in turn. */
function addCutList(
  list: ListChunks,
  where: string,
  add: (raw: unknown, where: string) => void,
  sort: Sort,
  advance: (characters: number) => void,
): void {
  const header = loadPiece(list.header);
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw new CutListError();
  const record = header as Record<string, unknown>;
  if (typeof record['kind'] !== 'string' || !record['kind'].endsWith('List')) throw new CutListError();
  const fill = listFill(record);
  const itemKind = record['kind'] === 'List' ? undefined : record['kind'].slice(0, -'List'.length);
  list.items.forEach((item, i) => {
    const at = `${where}, items[${i}]`;
    if (sort(item, list.indent, at, fill, itemKind)) add(fill(loadPiece(item)), at);
    advance(item.text.length);
  });
}

/** Typed lists from the API (PodList) omit kind/apiVersion on items: restore them. */
function listFill(record: Record<string, unknown>): (item: unknown) => unknown {
  const kind = typeof record['kind'] === 'string' ? record['kind'] : '';
  const itemKind = kind === 'List' || !kind.endsWith('List') ? undefined : kind.slice(0, -'List'.length);
  const apiVersion = typeof record['apiVersion'] === 'string' ? record['apiVersion'] : undefined;
  return (item) =>
    itemKind && item && typeof item === 'object' && !Array.isArray(item)
      ? { apiVersion, kind: itemKind, ...(item as Record<string, unknown>) }
      : item;
}

/** One document's value: nothing, an array of objects, a List, or one object. */
function addDocument(
  value: unknown,
  where: string,
  add: (raw: unknown, where: string) => void,
  advance?: (characters: number) => void,
  length = 0,
): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => add(item, `${where}, element ${i}`));
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
    const fill = listFill(record);
    const items = record['items'] as unknown[];
    items.forEach((item: unknown, i: number) => {
      add(fill(item), `${where}, items[${i}]`);
      advance?.(length / items.length);
    });
    return;
  }
  add(value, where);
}

/** A js-yaml error with its mark moved by `offset` lines (a chunk's place in the file). */
function shiftLines(error: unknown, offset: number): unknown {
  if (offset === 0 || typeof error !== 'object' || error === null) return error;
  const { name, reason, mark } = error as { name?: unknown; reason?: unknown; mark?: unknown };
  const m = mark as { line?: unknown; column?: unknown } | undefined;
  if (typeof m?.line !== 'number') return error;
  return { name, reason, mark: { line: m.line + offset, column: m.column } };
}

/**
 * Drops what no analyzer reads and only costs memory or carries secrets: managed
 * fields of everything but the workloads (their kind modules, such as
 * workloads/deployment/deployment-strategy.ts, and ownership read those), and the data of Secrets
 * (only their existence matters).
 */
function slim(object: KubeObject): KubeObject {
  const meta = object.metadata as (KubeObject['metadata'] & { managedFields?: unknown }) | undefined;
  let slimmed = object;
  if (!isWorkloadKind(object.kind) && meta?.managedFields !== undefined) {
    const { managedFields: _dropped, ...rest } = meta;
    slimmed = { ...slimmed, metadata: rest };
  }
  if (object.kind === 'Secret') {
    const {
      data: _data,
      stringData: _stringData,
      ...rest
    } = slimmed as KubeObject & {
      data?: unknown;
      stringData?: unknown;
    };
    slimmed = rest as KubeObject;
  }
  return slimmed;
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
  // Own keys only: a dump's `kind: __proto__` or `constructor` names no schema.
  const schema = Object.hasOwn(schemas, kind) ? schemas[kind] : undefined;
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
  // Quoted as it is, controls shown and cut (src/text/clean.ts): the error names the object the file holds.
  return typeof name === 'string' && name ? quoted(name) : undefined;
}
