/**
 * The lint step that keeps src/'s exports to what other files import (issue 68.4,
 * scripts/unused-exports.ts), on a small repository of its own: each way of using a name
 * counts, and a name only its own file uses is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findUnusedExports } from '../../scripts/unused-exports.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function repo(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'unused-exports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const names = (at: string): string[] =>
  findUnusedExports(at)
    .map((u) => u.name)
    .sort();

describe('scripts/unused-exports.ts', () => {
  it('reports an export only its own file uses, and none that another file imports in any way', () => {
    const at = repo({
      'src/a.ts': [
        'export const used = 1;',
        'export type UsedType = number;',
        'export function onlyHere(): number { return used; }',
        'export const reExported = 2;',
        'export const LIST = ["a", "b"] as const;',
        'export type Item = (typeof LIST)[number];',
        'export const x = onlyHere();',
      ].join('\n'),
      'src/b.ts':
        "import { used, type UsedType } from './a.js';\nexport { reExported } from './a.js';\nexport const y: UsedType = used;\n",
      'src/star.ts': 'export const viaNamespace = 1;\nexport const viaDynamic = 2;\n',
      'test/b.test.ts':
        "import * as star from '../src/star.js';\nimport { y } from '../src/b.js';\nvoid star; void y;\n",
      'src/c.ts': 'export const dynamicOnly = 3;\n',
      'scripts/d.ts': "void import('../src/c.js');\n",
    });
    // reExported is used by b's re-export; LIST by typeof in its own exported type;
    // star's names by the namespace import; c's by the literal dynamic import.
    expect(names(at)).toEqual(['Item', 'onlyHere', 'x']);
  });

  it('a clean repository reports nothing', () => {
    const at = repo({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': "import { a } from './a.js';\nvoid a;\n",
    });
    expect(names(at)).toEqual([]);
  });
});
