/**
 * The repository's TypeScript sources as the whole-tree checks read them
 * (test/unit/structure.test.ts, test/unit/import-boundaries.test.ts): each folder walked
 * once, each file read once and parsed once, whatever number of checks ask. The two
 * files run in one worker without isolation (vitest.config.ts, project `source-tree`),
 * so the tree is walked, read and parsed once per `npm test`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');

const listed = new Map<string, string[]>();
const texts = new Map<string, string>();
const trees = new Map<string, ts.SourceFile>();

/** Every .ts file under `dir` (repository-relative paths, as `dir` is); none when it does not exist. */
export function sourceFiles(dir: string): string[] {
  const known = listed.get(dir);
  if (known) return [...known];
  const abs = join(ROOT, dir);
  const files = !existsSync(abs)
    ? []
    : readdirSync(abs, { withFileTypes: true }).flatMap((entry) => {
        const path = relative(ROOT, join(abs, entry.name));
        if (entry.isDirectory()) return sourceFiles(path);
        return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
      });
  listed.set(dir, files);
  return [...files];
}

/** The text of a repository file. */
export function sourceText(file: string): string {
  let text = texts.get(file);
  if (text === undefined) {
    text = readFileSync(join(ROOT, file), 'utf8');
    texts.set(file, text);
  }
  return text;
}

/** The parse tree of a repository file, or of `text` when given (a check's own sample, not kept). */
export function sourceTree(file: string, text?: string): ts.SourceFile {
  if (text !== undefined) return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let tree = trees.get(file);
  if (!tree) {
    tree = ts.createSourceFile(file, sourceText(file), ts.ScriptTarget.Latest, true);
    trees.set(file, tree);
  }
  return tree;
}
