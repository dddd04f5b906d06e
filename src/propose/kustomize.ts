/**
 * A kustomize overlay: every kustomization reachable from it read first (paths inside
 * the checkout, no symlink, nothing remote, no helmCharts), then the change made where a
 * person would make it: in a patch the overlay already has for the workload; in the
 * overlay's own manifest; or, where the workload comes from a base (which other overlays
 * may share), as a new strategic-merge patch in the overlay, listed under `patches`.
 * Rendered with the real `kubectl kustomize` for check.
 */
import { lstat, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Document, isMap, isSeq, parseDocument } from 'yaml';
import { insideCheckout, MAX_FILE_BYTES, RefusedInput } from './checkout.js';
import { carryEdit } from './line-diff.js';
import type { FileEdit, Located } from './plain.js';
import { editManifest, type DocumentRef } from './yaml-edit.js';

const NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

interface Kustomization {
  dir: string;
  file: string;
  text: string;
  value: Record<string, unknown>;
}

/** The kustomization file in `dir`, if any. */
export async function kustomizationFile(dir: string): Promise<string | undefined> {
  for (const name of NAMES) {
    const info = await lstat(join(dir, name)).catch(() => undefined);
    if (info?.isFile()) return join(dir, name);
  }
  return undefined;
}

async function readSmall(root: string, file: string): Promise<string> {
  const info = await lstat(file);
  const shown = JSON.stringify(relative(root, file));
  if (info.isSymbolicLink())
    throw new RefusedInput(`${shown} is a symlink (refused: it could point outside the repository)`);
  if (info.size > MAX_FILE_BYTES)
    throw new RefusedInput(
      `${shown} is ${info.size} bytes, over the ${MAX_FILE_BYTES} a manifest file may be`,
    );
  return readFile(file, 'utf8');
}

async function readKustomization(root: string, dir: string): Promise<Kustomization> {
  const file = await kustomizationFile(dir);
  if (!file) throw new RefusedInput(`${JSON.stringify(relative(root, dir))} has no kustomization.yaml`);
  const text = await readSmall(root, file);
  const doc = parseDocument(text, { uniqueKeys: false });
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    throw new RefusedInput(`${relative(root, file)}: repeats aliased values (a YAML alias bomb?)`);
  }
  if (doc.errors.length > 0 || typeof value !== 'object' || value === null)
    throw new RefusedInput(`${relative(root, file)} is not a kustomization`);
  if ('helmCharts' in value)
    throw new RefusedInput(`${relative(root, file)}: helmCharts are not rendered here`);
  return { dir, file, text, value: value as Record<string, unknown> };
}

/** The paths a kustomization names: resources, bases, components and patch files. */
function namedPaths(k: Kustomization): { resources: string[]; patches: string[] } {
  const strings = (key: string): string[] =>
    Array.isArray(k.value[key])
      ? (k.value[key] as unknown[]).filter((v): v is string => typeof v === 'string')
      : [];
  const patchList = Array.isArray(k.value['patches']) ? (k.value['patches'] as unknown[]) : [];
  const patches = [
    ...patchList.flatMap((p) =>
      typeof p === 'object' && p !== null && typeof (p as { path?: unknown }).path === 'string'
        ? [(p as { path: string }).path]
        : [],
    ),
    ...strings('patchesStrategicMerge').filter((p) => !p.includes('\n')),
  ];
  return { resources: [...strings('resources'), ...strings('bases'), ...strings('components')], patches };
}

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/|^git@|^github\.com\/|\?ref=|^ssh:/i;

async function local(root: string, from: string, entry: string): Promise<string> {
  if (REMOTE.test(entry))
    throw new RefusedInput(
      `${relative(root, from)} names a remote resource ${JSON.stringify(entry)} (refused: only the repository's own files are read)`,
    );
  return insideCheckout(root, relative(root, join(from, entry)));
}

interface Graph {
  /** Manifest files of the overlay itself, and of its bases. */
  own: string[];
  based: string[];
  /** The overlay's patch files. */
  patches: string[];
}

async function walk(root: string, overlay: Kustomization): Promise<Graph> {
  const graph: Graph = { own: [], based: [], patches: [] };
  const seen = new Set<string>();
  const visit = async (k: Kustomization, inOverlay: boolean): Promise<void> => {
    if (seen.has(k.dir)) return;
    seen.add(k.dir);
    if (seen.size > 100) throw new RefusedInput('more than 100 kustomizations');
    const { resources, patches } = namedPaths(k);
    for (const entry of patches) {
      const full = await local(root, k.dir, entry);
      if (inOverlay) graph.patches.push(full);
    }
    for (const entry of resources) {
      const full = await local(root, k.dir, entry);
      const info = await lstat(full);
      if (info.isDirectory()) await visit(await readKustomization(root, full), false);
      else (inOverlay && dirname(full) === overlay.dir ? graph.own : graph.based).push(full);
    }
  };
  await visit(overlay, true);
  return graph;
}

/** The workload's name as the bases write it: the overlay's namePrefix and nameSuffix taken off. */
function baseName(overlay: Kustomization, name: string): string {
  const prefix = typeof overlay.value['namePrefix'] === 'string' ? overlay.value['namePrefix'] : '';
  const suffix = typeof overlay.value['nameSuffix'] === 'string' ? overlay.value['nameSuffix'] : '';
  const start = name.startsWith(prefix) ? prefix.length : 0;
  const end = suffix && name.endsWith(suffix) ? name.length - suffix.length : name.length;
  return name.slice(start, end);
}

async function tryEdit(
  root: string,
  files: readonly string[],
  ref: DocumentRef,
  merge: Record<string, unknown>,
): Promise<FileEdit[]> {
  const edits: FileEdit[] = [];
  for (const full of files) {
    const before = await readSmall(root, full);
    const result = editManifest(before, ref, merge);
    const file = relative(root, full);
    if (result.ok) edits.push({ file, full, before, after: result.text, line: result.line });
    else if (result.why === 'refused') throw new RefusedInput(`${file}: ${result.detail}`);
  }
  return edits;
}

/** The edit in the overlay at `dir`: a patch it has, its own manifest, or a new patch over the base. */
export async function editKustomize(
  root: string,
  dir: string,
  ref: { kind: string; name: string; apiVersion: string },
  merge: Record<string, unknown>,
): Promise<Located> {
  const overlay = await readKustomization(root, dir);
  const graph = await walk(root, overlay);
  const doc = { kind: ref.kind, name: baseName(overlay, ref.name) };
  const where = relative(root, dir) || '.';
  for (const set of [graph.patches, graph.own]) {
    const edits = await tryEdit(root, set, doc, merge);
    if (edits.length > 1)
      return { ok: false, why: `${ref.kind} ${doc.name} is written in ${edits.length} files of ${where}` };
    const [edit] = edits;
    if (edit) return { ok: true, edits: [edit] };
  }
  const inBase = await tryEdit(root, graph.based, doc, {});
  if (inBase.length === 0)
    return { ok: false, why: `no file the kustomization in ${where} reads holds ${ref.kind} ${doc.name}` };
  return {
    ok: true,
    edits: [
      await newPatch(root, overlay, { ...doc, apiVersion: ref.apiVersion }, merge),
      await listPatch(root, overlay, patchName(doc)),
    ],
  };
}

const patchName = (doc: { kind: string; name: string }): string =>
  `rollout-doctor-${doc.kind.toLowerCase()}-${doc.name}.yaml`;

async function newPatch(
  root: string,
  overlay: Kustomization,
  doc: { kind: string; name: string; apiVersion: string },
  merge: Record<string, unknown>,
): Promise<FileEdit> {
  const full = join(overlay.dir, patchName(doc));
  if (await lstat(full).catch(() => undefined))
    throw new RefusedInput(`${relative(root, full)} exists but is not listed under patches`);
  const body = new Document({
    apiVersion: doc.apiVersion,
    kind: doc.kind,
    metadata: { name: doc.name },
    ...merge,
  });
  if (body.contents)
    body.contents.commentBefore =
      ' The lasting fix rollout-doctor proposed (docs/propose-in-git.md): the base is shared, so it is patched here.';
  return {
    file: relative(root, full),
    full,
    before: '',
    after: body.toString({ lineWidth: 0 }),
    line: 1,
    created: true,
  };
}

/** The overlay's kustomization with the patch listed under `patches`, the rest as written. */
async function listPatch(root: string, overlay: Kustomization, file: string): Promise<FileEdit> {
  const doc: Document = parseDocument(overlay.text, { uniqueKeys: false });
  const original = doc.toString({ lineWidth: 0 });
  if (!isMap(doc.contents)) throw new RefusedInput(`${relative(root, overlay.file)} is not a map`);
  const patches = doc.contents.get('patches', true);
  if (isSeq(patches)) patches.add(doc.createNode({ path: file }));
  else if (patches === undefined) doc.contents.set('patches', doc.createNode([{ path: file }]));
  else throw new RefusedInput(`${relative(root, overlay.file)}: patches is not a list`);
  const after = doc.toString({ lineWidth: 0 });
  const text = carryEdit(overlay.text, original, after) ?? after;
  return {
    file: relative(root, overlay.file),
    full: overlay.file,
    before: overlay.text,
    after: text,
    line: 1,
  };
}
