/**
 * scripts/transpiled-tree.ts: the JavaScript the tests' and the demo's child processes
 * run. It must run as the source would, be made again when a source changes (a stale
 * tree would test old code), and be shared, not remade, while the sources stay as they are.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transpiledEntry, transpiledTree } from '../../scripts/transpiled-tree.js';
import { packageRoot } from '../../src/cli/version.js';

let root: string;

/** A checkout of two modules: an entry that imports a helper (type-only imports and all). */
function checkout(): string {
  root = mkdtempSync(join(tmpdir(), 'transpiled-tree-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'tsconfig.json'), readFileSync('tsconfig.json'));
  writeFileSync(
    join(root, 'src', 'words.ts'),
    'export interface Greeting { text: string }\nexport const greet = (who: string): string => `hello ${who}`;\n',
  );
  writeFileSync(
    join(root, 'src', 'main.ts'),
    "import type { Greeting } from './words.js';\nimport { greet } from './words.js';\nconst g: Greeting = { text: greet('tree') };\nconsole.log(g.text);\n",
  );
  return root;
}

const run = (tree: string): string =>
  execFileSync(process.execPath, [join(tree, 'src', 'main.js')], { encoding: 'utf8' }).trim();

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('transpiledTree', () => {
  it('makes JavaScript that runs with plain node as the source would', () => {
    const tree = transpiledTree(checkout());
    expect(tree.startsWith(join(root, 'node_modules', '.cache', 'rollout-doctor-js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    expect(run(tree)).toBe('hello tree');
  });

  it('keeps one tree while the sources stay as they are, and makes a new one when one changes', () => {
    const first = transpiledTree(checkout());
    const madeAt = statSync(join(first, 'src', 'main.js')).mtimeMs;
    expect(transpiledTree(root)).toBe(first);
    expect(statSync(join(first, 'src', 'main.js')).mtimeMs).toBe(madeAt);

    // The same size (an edit that changes one word for another as long): the mtime tells.
    const words = join(root, 'src', 'words.ts');
    const before = readFileSync(words, 'utf8');
    writeFileSync(words, before.replace('hello', 'howdy'));
    expect(statSync(words).size).toBe(Buffer.byteLength(before));
    // A later mtime, as an editor's save gives, whatever the file system's resolution.
    utimesSync(words, new Date(), new Date(Date.now() + 5_000));
    const second = transpiledTree(root);
    expect(second).not.toBe(first);
    expect(run(second)).toBe('howdy tree');
    // No staging directory is left behind.
    expect(readdirSync(join(root, 'node_modules', '.cache', 'rollout-doctor-js')).sort()).toEqual(
      [first, second].map((tree) => tree.split('/').pop()).sort(),
    );
  });
  it('removes the trees of other sources unused for an hour, and keeps one still in use', () => {
    const edit = (word: string): void => {
      const words = join(root, 'src', 'words.ts');
      writeFileSync(words, readFileSync(words, 'utf8').replace(/hello|howdy|hiyah/, word));
      utimesSync(words, new Date(), new Date(Date.now() + Math.random() * 60_000 + 1_000));
    };
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const a = transpiledTree(checkout());
    edit('howdy');
    const b = transpiledTree(root);
    utimesSync(a, longAgo, longAgo);
    utimesSync(b, longAgo, longAgo);
    // b is used again (its sources are the current ones): that marks it.
    expect(transpiledTree(root)).toBe(b);
    edit('hiyah');
    const c = transpiledTree(root);
    const left = readdirSync(join(root, 'node_modules', '.cache', 'rollout-doctor-js')).sort();
    expect(left).toEqual([b, c].map((tree) => tree.split('/').pop()).sort());
    expect(run(c)).toBe('hiyah tree');
  });
});

describe('transpiledEntry', () => {
  it("names the checkout's entry in its tree: the app's start file is there", () => {
    const entry = transpiledEntry('src/app/main.ts');
    expect(entry.endsWith('/src/app/main.js')).toBe(true);
    expect(statSync(entry).isFile()).toBe(true);
    // From inside the tree, the checkout is still found (the demo runs from the tree).
    expect(packageRoot(new URL(`file://${entry}`).href)).toBe(packageRoot());
  });
});
