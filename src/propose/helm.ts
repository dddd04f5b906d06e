/**
 * A Helm chart: the values key that sets each field the change writes, found by
 * rendering the chart with the real `helm template` (once as it is, once with every
 * value replaced by a marker of its own: where a marker lands in the workload, that
 * value writes that field; a marker map in an empty map finds a `toYaml` block), and
 * the values file edited in place. A field no value sets is said, with the template
 * that writes it: that template is the change to make.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { manifestFiles, RefusedInput } from './checkout.js';
import type { Located } from './plain.js';
import { runTool, type Tools } from './tool.js';
import { editValues, isDocumentOf } from './yaml-edit.js';

interface HelmContext {
  release: string;
  namespace: string;
  tools: Tools;
  home: string;
}

const MARK = 'rdprobe';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

interface Rendered {
  source?: string;
  value: Record<string, unknown>;
}

/** The workload's document in `helm template` output, with the template it came from. */
function findRendered(
  text: string,
  ref: { kind: string; name: string; namespace: string },
  source?: string,
): Rendered | undefined {
  const docs = parseAllDocuments(text, { uniqueKeys: false });
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    const comment = [doc.commentBefore, doc.contents?.commentBefore].filter(Boolean).join('\n');
    const from = /Source: (\S+)/.exec(comment)?.[1];
    const same = source
      ? from === source && isRecord(value) && value.kind === ref.kind
      : isDocumentOf(value, ref);
    if (same && isRecord(value)) return { ...(from ? { source: from } : {}), value };
  }
  return undefined;
}

/** The values with every scalar a marker, and empty maps holding a marker key; the markers' paths. */
function markers(values: unknown, path: string[], found: Map<string, string[]>): unknown {
  if (Array.isArray(values)) return values;
  if (isRecord(values)) {
    const keys = Object.keys(values);
    if (keys.length === 0) {
      const mark = `${MARK}${found.size}x`;
      found.set(mark, [...path, MARK]);
      return { [MARK]: mark };
    }
    return Object.fromEntries(keys.map((k) => [k, markers(values[k], [...path, k], found)]));
  }
  const mark = `${MARK}${found.size}x`;
  found.set(mark, path);
  return mark;
}

/** Field path (dotted) → values path, for every marker that landed whole on a field. */
function landed(
  value: unknown,
  found: Map<string, string[]>,
  path: string[] = [],
  out = new Map<string, string[]>(),
): Map<string, string[]> {
  if (isRecord(value)) for (const [k, v] of Object.entries(value)) landed(v, found, [...path, k], out);
  else if (typeof value === 'string' && found.has(value)) out.set(path.join('.'), found.get(value) ?? []);
  return out;
}

function leaves(merge: Record<string, unknown>, path: string[] = []): { path: string[]; value: unknown }[] {
  return Object.entries(merge).flatMap(([k, v]) =>
    isRecord(v) ? leaves(v, [...path, k]) : [{ path: [...path, k], value: v }],
  );
}

const getAt = (value: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((at, k) => (isRecord(at) ? at[k] : undefined), value);

/** The values key for a field: one that lands on it, or a map (toYaml) that lands on a parent. */
function valuesKey(field: string[], map: Map<string, string[]>): string[] | undefined {
  const exact = map.get(field.join('.'));
  if (exact) return exact;
  for (let cut = field.length - 1; cut > 0; cut -= 1) {
    const parent = map.get([...field.slice(0, cut), MARK].join('.'));
    if (parent) return [...parent.slice(0, -1), ...field.slice(cut)];
  }
  return undefined;
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1))
    at = (isRecord(at[key]) ? at[key] : (at[key] = {})) as Record<string, unknown>;
  const last = path[path.length - 1];
  if (last !== undefined) at[last] = value;
}

export async function editHelm(
  root: string,
  chart: string,
  valuesFile: string,
  target: { kind: string; name: string; namespace: string },
  merge: Record<string, unknown>,
  context: HelmContext,
): Promise<Located & { render?: () => Promise<string> }> {
  await manifestFiles(root, chart);
  const text = await readFile(valuesFile, 'utf8');
  const file = relative(root, valuesFile);
  if (/(^|\s)[&*][^\s]/m.test(text))
    throw new RefusedInput(
      `${file}: it uses YAML anchors or aliases (refused: an alias bomb, or an edit that could change other places)`,
    );
  const render = (extra: string[]): Promise<string> =>
    runTool(
      context.tools.helm,
      ['template', context.release, chart, '-n', context.namespace, '-f', valuesFile, ...extra],
      root,
      context.home,
    );
  const before = findRendered(await render([]), target);
  if (!before)
    return {
      ok: false,
      why: `helm template of ${relative(root, chart)} (release ${context.release}) renders no ${target.kind} ${target.name}`,
    };
  const found = new Map<string, string[]>();
  const values: unknown = parseAllDocuments(text)[0]?.toJS({ maxAliasCount: 100 }) ?? {};
  const probe = join(context.home, 'probe-values.json');
  await writeFile(probe, JSON.stringify(markers(values, [], found)));
  const probed = findRendered(await render(['-f', probe]), target, before.source);
  const map = probed ? landed(probed.value, found) : new Map<string, string[]>();
  const valuesMerge: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const leaf of leaves(merge)) {
    const current = getAt(before.value, leaf.path);
    if (isDeepStrictEqual(current, leaf.value) || (leaf.value === null && current === undefined)) continue;
    const key = valuesKey(leaf.path, map);
    if (key) setAt(valuesMerge, key, leaf.value);
    else unset.push(leaf.path.join('.'));
  }
  if (unset.length > 0)
    return {
      ok: false,
      why: `no value of the chart sets ${unset.join(', ')}: ${before.source ?? 'its template'} writes ${unset.length > 1 ? 'them' : 'it'}, so that template is the change to make`,
    };
  const edited = editValues(text, valuesMerge);
  if (!edited.ok) throw new RefusedInput(`${file}: ${edited.detail}`);
  return {
    ok: true,
    edits: [{ file, full: valuesFile, before: text, after: edited.text, line: 1 }],
    render: () => render([]),
  };
}
