/**
 * A plain-manifest repository: the one YAML file under the path that holds the
 * workload's document, edited in place (yaml-edit.ts). None, or two files holding it,
 * is said, never guessed.
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { manifestFiles, RefusedInput } from './checkout.js';
import { editManifest, type DocumentRef } from './yaml-edit.js';

export interface FileEdit {
  /** Path in the repository. */
  file: string;
  full: string;
  before: string;
  after: string;
  line: number;
  /** A file the change adds (a kustomize patch). */
  created?: true;
}

export type Located = { ok: true; edits: FileEdit[] } | { ok: false; why: string };

/** The file under `full` that writes the workload, with the merge made in it. */
export async function editPlain(
  root: string,
  full: string,
  ref: DocumentRef,
  merge: Record<string, unknown>,
): Promise<Located> {
  const files = await manifestFiles(root, full);
  const edits: FileEdit[] = [];
  for (const at of files) {
    const before = await readFile(at, 'utf8');
    const file = relative(root, at);
    const result = editManifest(before, ref, merge);
    if (result.ok) edits.push({ file, full: at, before, after: result.text, line: result.line });
    else if (result.why === 'refused') throw new RefusedInput(`${file}: ${result.detail}`);
  }
  const where = relative(root, full) || 'the repository root';
  if (edits.length === 0)
    return {
      ok: false,
      why: `no YAML file under ${where} (${files.length} read) holds ${ref.kind} ${ref.name}`,
    };
  if (edits.length > 1)
    return {
      ok: false,
      why: `${ref.kind} ${ref.name} is written in ${edits.length} files (${edits.map((e) => e.file).join(', ')}): which one is applied is not clear`,
    };
  return { ok: true, edits };
}
