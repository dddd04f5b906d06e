/**
 * Exports of src/ that no other file imports: a name exported but used only
 * in its own file reads as part of the module's surface when it is not, and one used
 * nowhere is dead code eslint cannot see. Part of `npm run lint`: it lists each such
 * name and exits 1. `--fix` drops the `export` keyword from them (then `tsc` and eslint's
 * no-unused-vars show the dead ones, to delete by hand).
 *
 * Every TypeScript file of the repository counts as a user (src, workers, test, bench,
 * sim, scripts): `import { x }`, `import type`, `export { x } from`, `export * from` and
 * `import * as` (every name of the target used), and `import('…')` with a literal path
 * (every name used). Relative specifiers only; a package's own files are not ours.
 * Chosen over knip and ts-prune: ts-prune is archived, and knip's wider checks (files,
 * dependencies) need a configuration of their own for the simulator, the image and the
 * scripts for what this single rule needs; the TypeScript parser is already here.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const USERS = ['src', 'workers', 'test', 'bench', 'sim', 'scripts'];

function tsFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return /\.m?tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names ('./x.js' is './x.ts'), or undefined for a package. */
function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return resolve(dirname(from), specifier)
    .replace(/\.js$/, '.ts')
    .replace(/\.mjs$/, '.mts');
}

const ALL = '*';

/** Which names of which files the repository imports. */
function importedNames(files: readonly string[]): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const mark = (file: string | undefined, name: string): void => {
    if (!file) return;
    let names = used.get(file);
    if (!names) used.set(file, (names = new Set()));
    names.add(name);
  };
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const to = target(file, node.moduleSpecifier.text);
        const clause = node.importClause;
        if (clause?.name) mark(to, 'default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) mark(to, ALL);
        else for (const el of bindings?.elements ?? []) mark(to, (el.propertyName ?? el.name).text);
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const to = target(file, node.moduleSpecifier.text);
        const clause = node.exportClause;
        if (!clause || !ts.isNamedExports(clause)) mark(to, ALL);
        else for (const el of clause.elements) mark(to, (el.propertyName ?? el.name).text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        mark(target(file, node.arguments[0].text), ALL);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return used;
}

export interface Unused {
  file: string;
  name: string;
  /** Where the `export` keyword starts and ends (with the space after it). */
  keyword: { start: number; end: number };
}

function unusedExports(file: string, used: ReadonlySet<string> | undefined): Unused[] {
  if (used?.has(ALL)) return [];
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Unused[] = [];
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const keyword = modifiers?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!keyword || modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) continue;
    const names = ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []))
      : 'name' in statement && statement.name && ts.isIdentifier(statement.name as ts.Node)
        ? [(statement.name as ts.Identifier).text]
        : [];
    // A statement exporting several names stays exported while any of them is used. A
    // value read as `typeof NAME` (the list behind an exported union type, a schema behind
    // z.infer) is that type's source: eslint would call it unused as a value once private.
    if (names.length === 0 || names.some((n) => used?.has(n) || text.includes(`typeof ${n}`))) continue;
    const start = keyword.getStart(source);
    let end = keyword.getEnd();
    while (text[end] === ' ') end += 1;
    for (const name of names) out.push({ file, name, keyword: { start, end } });
  }
  return out;
}

/** The exports of `root`/src that no file of the repository at `root` imports. */
export function findUnusedExports(root: string): Unused[] {
  const files = USERS.flatMap((d) => tsFiles(join(root, d)));
  const used = importedNames(files);
  const checked = join(root, 'src') + '/';
  return files.filter((f) => f.startsWith(checked)).flatMap((f) => unusedExports(f, used.get(f)));
}

function main(): number {
  const fix = process.argv.includes('--fix');
  const unused = findUnusedExports(ROOT);
  if (unused.length === 0) return 0;
  if (fix) {
    const byFile = new Map<string, Unused[]>();
    for (const u of unused) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
    for (const [file, list] of byFile) {
      let text = readFileSync(file, 'utf8');
      const starts = [...new Map(list.map((u) => [u.keyword.start, u.keyword])).values()].sort(
        (a, b) => b.start - a.start,
      );
      for (const { start, end } of starts) text = text.slice(0, start) + text.slice(end);
      writeFileSync(file, text);
    }
    console.log(`unused-exports: dropped export from ${unused.length} names in ${byFile.size} files`);
    return 0;
  }
  for (const u of unused)
    console.log(`${relative(ROOT, u.file)}: ${u.name} is exported but no other file imports it`);
  console.log(
    `unused-exports: ${unused.length} exports of src/ no other file imports (npx tsx scripts/unused-exports.ts --fix drops the keyword)`,
  );
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname)
  process.exitCode = main();
