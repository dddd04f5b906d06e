/** The TypeScript files under a folder of the repository, as repo-relative paths. */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir)).flatMap((entry) => {
    const path = join(REPO_ROOT, dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(relative(REPO_ROOT, path));
    return path.endsWith('.ts') ? [relative(REPO_ROOT, path)] : [];
  });
}
