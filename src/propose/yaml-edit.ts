/**
 * The change made as a person makes it: the one document of the workload edited in place
 * with the `yaml` package's Document API (comments, key order, quoting and the other
 * documents of the file kept), then proved: read back as kubectl reads it, the document
 * must equal the old one with the merge applied, and every other document must be the
 * same text. Pure: text in, text out.
 */
import { isMap, isScalar, parseAllDocuments, type Document, type YAMLMap } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { KUBECTL_YAML } from '../check/kubectl-yaml.js';
import { carryEdit } from './line-diff.js';

export interface DocumentRef {
  kind: string;
  name: string;
  /** Absent: any namespace (an overlay that sets the namespace). */
  namespace?: string;
}

type EditResult =
  { ok: true; text: string; line: number } | { ok: false; why: 'not-found' | 'refused'; detail: string };

type Doc = Document.Parsed;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const OPTIONS = { ...KUBECTL_YAML, keepSourceTokens: false } as const;

/** The value of a document, refusing an alias bomb (the same bound as check's reading). */
function valueOf(doc: Doc): unknown {
  return doc.toJS({ maxAliasCount: 100 });
}

/** The document of the workload: its kind and name, in its namespace (or none written). */
export function isDocumentOf(value: unknown, ref: DocumentRef): boolean {
  if (!isRecord(value) || value.kind !== ref.kind || !isRecord(value.metadata)) return false;
  const ns = value.metadata.namespace;
  return (
    value.metadata.name === ref.name &&
    (ns === undefined || ref.namespace === undefined || ns === ref.namespace)
  );
}

/** The merge applied to a plain value (what the edited document must read as). */
function merged(value: unknown, merge: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = isRecord(value) ? { ...value } : {};
  for (const [key, v] of Object.entries(merge)) {
    if (v === null) delete out[key];
    else out[key] = isRecord(v) ? merged(out[key], v) : v;
  }
  return out;
}

/** Applies the merge to the map node in place: scalars keep their comments, new keys go last. */
function mergeInto(doc: Doc, map: YAMLMap, merge: Record<string, unknown>): void {
  for (const [key, v] of Object.entries(merge)) {
    if (v === null) {
      map.delete(key);
      continue;
    }
    const current = map.get(key, true);
    if (isRecord(v)) {
      if (isMap(current)) {
        // An empty `{}` filled in is written as a block, as a person writes it.
        if (current.items.length === 0) current.flow = false;
        mergeInto(doc, current, v);
      } else map.set(key, doc.createNode(merged(undefined, v)));
    } else if (isScalar(current)) {
      current.value = v;
    } else map.set(key, doc.createNode(v));
  }
}

/**
 * The text with the workload's document edited, or why not: no such document, two of
 * them, an anchor or alias in it (an edit there would change every place it is used), or
 * a result that does not read back as the merge.
 */
export function editManifest(text: string, ref: DocumentRef, merge: Record<string, unknown>): EditResult {
  const docs = parseAllDocuments(text, OPTIONS);
  const list = (Array.isArray(docs) ? docs : [docs]) as Doc[];
  const found: Doc[] = [];
  for (const doc of list) {
    if (doc.errors.length > 0) return { ok: false, why: 'refused', detail: 'the file is not valid YAML' };
    let value: unknown;
    try {
      value = valueOf(doc);
    } catch {
      return { ok: false, why: 'refused', detail: 'a document repeats aliased values (a YAML alias bomb?)' };
    }
    if (isDocumentOf(value, ref)) found.push(doc);
  }
  const [doc, second] = found;
  if (!doc) return { ok: false, why: 'not-found', detail: `no ${ref.kind} ${ref.name} in it` };
  if (second) return { ok: false, why: 'refused', detail: `${ref.kind} ${ref.name} is written twice` };
  if (/(^|\s)[&*][^\s]/m.test(text.slice(doc.range[0], doc.range[2])))
    return {
      ok: false,
      why: 'refused',
      detail: 'its document uses YAML anchors or aliases: an edit there could change other places',
    };
  const before = valueOf(doc);
  if (!isMap(doc.contents)) return { ok: false, why: 'refused', detail: 'its document is not a map' };
  const original = doc.toString({ lineWidth: 0 });
  mergeInto(doc, doc.contents, merge);
  const index = list.indexOf(doc);
  const edited = spliced(text, doc, index, list[index + 1]?.range[0], original);
  const check = checkEdit(text, edited, ref, merged(before, merge));
  if (check) return { ok: false, why: 'refused', detail: check };
  return { ok: true, text: edited, line: lineOf(text, doc.range[0]) };
}

/**
 * The file with only this document's text changed, and in it only the lines the edit
 * changes (carryEdit); where the document's text is not what the yaml package writes
 * line for line, the document as it writes it.
 */
function spliced(text: string, doc: Doc, index: number, next: number | undefined, original: string): string {
  const start = index === 0 ? 0 : doc.range[0];
  const end = next ?? text.length;
  const written = text.slice(start, end);
  const after = doc.toString({ lineWidth: 0 });
  const body = carryEdit(written, original, after) ?? after;
  return `${text.slice(0, start)}${body}${text.slice(end)}`;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** Undefined when the edit reads back as intended; else what went wrong. */
function checkEdit(before: string, after: string, ref: DocumentRef, wanted: unknown): string | undefined {
  const read = (text: string): unknown[] => {
    const docs = parseAllDocuments(text, OPTIONS);
    return (Array.isArray(docs) ? docs : [docs]).map((d) => valueOf(d));
  };
  const old = read(before);
  const now = read(after);
  if (old.length !== now.length) return 'the edit changed the number of documents';
  for (let i = 0; i < old.length; i += 1) {
    const expected = isDocumentOf(old[i], ref) ? wanted : old[i];
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(now[i])), JSON.parse(JSON.stringify(expected))))
      return `the edited file does not read back as the change (document ${i + 1})`;
  }
  return undefined;
}

/**
 * A values file (one YAML document, no Kubernetes identity) with the merge made in
 * place, the rest as written; refused where it uses anchors or aliases (an edit there
 * could change other places; an alias bomb) or does not read back as the merge.
 */
export function editValues(text: string, merge: Record<string, unknown>): EditResult {
  const docs = parseAllDocuments(text, OPTIONS);
  const list = (Array.isArray(docs) ? docs : [docs]) as Doc[];
  const [doc, second] = list;
  if (!doc || second) return { ok: false, why: 'refused', detail: 'a values file holds one YAML document' };
  if (doc.errors.length > 0) return { ok: false, why: 'refused', detail: 'the file is not valid YAML' };
  if (/(^|\s)[&*][^\s]/m.test(text))
    return {
      ok: false,
      why: 'refused',
      detail: 'it uses YAML anchors or aliases (refused: an edit there could change other places)',
    };
  if (doc.contents !== null && !isMap(doc.contents))
    return { ok: false, why: 'refused', detail: 'it is not a map' };
  const before = valueOf(doc);
  const original = doc.toString({ lineWidth: 0 });
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (!isMap(doc.contents)) return { ok: false, why: 'refused', detail: 'it is not a map' };
  mergeInto(doc, doc.contents, merge);
  const after = doc.toString({ lineWidth: 0 });
  const edited = carryEdit(text, original, after) ?? after;
  const read = parseAllDocuments(edited, OPTIONS);
  const now = (Array.isArray(read) ? read : [read])[0];
  const wanted = JSON.parse(JSON.stringify(merged(before, merge))) as unknown;
  if (!now || !isDeepStrictEqual(JSON.parse(JSON.stringify(valueOf(now as Doc) ?? {})), wanted))
    return { ok: false, why: 'refused', detail: 'the edited file does not read back as the change' };
  return { ok: true, text: edited, line: 1 };
}
