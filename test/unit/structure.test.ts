/**
 * The shape of the code that issue 28 set as its measure, kept: functions a reader
 * holds in one sitting (at most 120 lines, in src/ and in the simulator, sim/; the
 * longer ones listed here may only shrink), and the remediation kinds as units (no source file outside
 * src/remediation/kinds/ compares a plan's kind with a kind's name; they look the kind
 * up in the registry instead), and the workload kinds as units too (issue 43: no
 * source file outside src/diagnosis/workloads/ compares a value with a workload kind's
 * name; they ask the kind's module). No source file cites the issue tracker ("issue 67.4"):
 * its reader has none. Import cycles and layers: import-boundaries.test.ts.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REMEDIATION_KINDS } from '../../src/remediation/plan.js';
import { WORKLOAD_KINDS } from '../../src/diagnosis/workload-ref.js';
import { ROOT, sourceFiles, sourceText, sourceTree } from '../support/source-tree.js';

const MAX_LINES = 120;
/**
 * Functions still over MAX_LINES, each with the length it may not exceed: a list that
 * only shrinks (split one into named steps, then take it off).
 */
const STILL_LONG: Record<string, number> = {};
/**
 * The simulator (sim/) is held to the same limit (issue 43); its functions over it when
 * that began, each with the length it may not exceed: a list that only shrinks.
 */
const SIM_STILL_LONG: Record<string, number> = {
  'sim/controllers/kubelet.ts:kubeletController': 343,
  'sim/controllers/scheduler.ts:schedulerController': 350,
  'sim/controllers/deployment.ts:deploymentController': 305,
  'sim/controllers/deployment.ts:syncOne': 222,
  'sim/controllers/dra.ts:resourceClaimController': 179,
  'sim/server/table.ts:rowsFor': 176,
  'sim/scale.ts:background': 157,
  'sim/controllers/replicaset.ts:replicaSetController': 140,
  'sim/server/http.ts:createApiServer': 126,
  'sim/controllers/manager.ts:createControllerManager': 145,
};

/** The parse tree of a repository file (read and parsed once: test/support/source-tree.ts), or of `text`. */
const parse = (file: string, text?: string): ts.SourceFile => sourceTree(file, text);

/** Every function of `file` with its name (or line) and length in lines. */
function functionLengths(file: string, text?: string): { name: string; lines: number }[] {
  const source = parse(file, text);
  const out: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const parent = node.parent;
      const name =
        (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ? node.name?.getText() : undefined) ??
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)
          ? parent.name.getText()
          : undefined) ??
        `(anonymous)@${start + 1}`;
      out.push({ name, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Files that compare something with one of `names` (=== / !== / case): a remediation kind's by default. */
function branchesOnKindNames(
  file: string,
  text?: string,
  names: readonly string[] = REMEDIATION_KINDS,
): boolean {
  const kinds = new Set<string>(names);
  const isKind = (n: ts.Node): boolean => ts.isStringLiteral(n) && kinds.has(n.text);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isBinaryExpression(node) &&
        [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
          node.operatorToken.kind,
        ) &&
        (isKind(node.left) || isKind(node.right))) ||
      (ts.isCaseClause(node) && isKind(node.expression))
    )
      found = true;
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return found;
}

/** Files with a string or template literal that starts a Redis key name (`rd:…`). */
function namesRedisKeys(file: string, text?: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) &&
      node.text.startsWith('rd:')
    )
      found = true;
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return found;
}

/**
 * Where `text` cites the issue tracker ("issue 67", "(issues 27.8, 41.1)", a line break
 * between the word and its number included): a reader of the code has no tracker, so a
 * comment or message says the behaviour or the reason instead, or names docs/ or
 * DESIGN.md. Each as `line: the citation`.
 */
function trackerCitations(text: string): string[] {
  const citation = /\bissues?(?:\s|\*|\/\/|--)+\d+(?:\.\d+)?\b/gi;
  return [...text.matchAll(citation)].map(
    (m) => `${text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ')}`,
  );
}

describe('structure (issue 28)', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('workers')];

  it.each([
    ['src', STILL_LONG],
    ['sim', SIM_STILL_LONG],
  ] as const)(
    `${'%s'}: no function is longer than ${MAX_LINES} lines, but the listed ones, which may only shrink`,
    (dir, listed) => {
      const long = sourceFiles(dir).flatMap((file) =>
        functionLengths(file)
          .filter((f) => f.lines > MAX_LINES)
          .map((f) => ({ id: `${relative(ROOT, join(ROOT, file))}:${f.name}`, lines: f.lines })),
      );
      const over = long.filter((f) => f.lines > (listed[f.id] ?? MAX_LINES));
      expect(over, 'split these into named steps').toEqual([]);
      // A listed function that got short enough comes off the list.
      const cured = Object.keys(listed).filter((id) => !long.some((f) => f.id === id));
      expect(cured, 'take these off the list').toEqual([]);
    },
  );

  it('no source file is over 600 lines but a message catalogue (sentences, not steps)', () => {
    const long = files.filter((f) => {
      const text = sourceText(f);
      return text.split('\n').length > 600 && !/\bregisterCatalogue\(/.test(text);
    });
    expect(long, 'split these into modules named for what they do').toEqual([]);
  });

  it('no source file outside src/remediation/kinds/ branches on a remediation kind by name (issue 55.5)', () => {
    // Every decision about a kind is a property of its module: the plan gate and the
    // forward proof ask it (alreadySet, spendsAvailability, proof) too.
    const branching = files.filter((f) => !f.startsWith('src/remediation/kinds/') && branchesOnKindNames(f));
    expect(branching).toEqual([]);
    expect(branchesOnKindNames('x.ts', "if (plan.kind === 'delete-pods') return;")).toBe(true);
  });

  it('no source file outside src/diagnosis/workloads/ branches on a workload kind by name (issue 43)', () => {
    // They ask the kind's module (workloadKind(...)) what its kind means instead.
    const branching = files.filter(
      (f) => !f.startsWith('src/diagnosis/workloads/') && branchesOnKindNames(f, undefined, WORKLOAD_KINDS),
    );
    expect(branching).toEqual([]);
  });

  it('every Redis key name is defined in src/queue/redis-keys.ts', () => {
    const outside = files.filter((f) => f !== 'src/queue/redis-keys.ts' && namesRedisKeys(f));
    expect(outside).toEqual([]);
    expect(namesRedisKeys('x.ts', 'const k = `rd:plan:${id}`;')).toBe(true);
    expect(namesRedisKeys('x.ts', '// rd:plan:<id> in a comment\nconst k = keys.plan(id);')).toBe(false);
  });

  it('no source file cites the issue tracker ("issue 67.4"): it says what the number stood for', () => {
    const citing = files.flatMap((f) => trackerCitations(sourceText(f)).map((c) => `${f}:${c}`));
    expect(citing, 'say the behaviour or the reason, or name docs/ or DESIGN.md').toEqual([]);
  });

  it('the simulator, the docs and the README cite no issue either: their reader has no tracker', () => {
    const read = (dir: string, ends: RegExp): string[] =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => ends.test(f))
        .map((f) => join(dir, f));
    const texts = [...read('sim', /\.(ts|ya?ml)$/), ...read('docs', /\.md$/), 'README.md'];
    expect(texts.length).toBeGreaterThan(20);
    const citing = texts.flatMap((f) => trackerCitations(sourceText(f)).map((c) => `${f}:${c}`));
    expect(citing, 'say the behaviour or the reason, or name docs/ or DESIGN.md').toEqual([]);
  });

  it('the checks see what they look for', () => {
    const long = `export function long() {\n${'  step();\n'.repeat(130)}}\nconst short = () => 1;\n`;
    expect(functionLengths('x.ts', long)).toEqual([
      { name: 'long', lines: 132 },
      { name: 'short', lines: 1 },
    ]);
    expect(branchesOnKindNames('x.ts', "if (plan.kind === 'set-recreate') go();")).toBe(true);
    expect(branchesOnKindNames('x.ts', "switch (k) { case 'exclude-node': break; }")).toBe(true);
    expect(branchesOnKindNames('x.ts', "const plan = { kind: 'set-recreate' };")).toBe(false);
    const workloads = (text: string) => branchesOnKindNames('x.ts', text, WORKLOAD_KINDS);
    expect(workloads("if (snapshot.target.kind === 'DaemonSet') return [];")).toBe(true);
    expect(workloads("const ref = 'Rollout' !== kind ? a : b;")).toBe(true);
    expect(workloads("switch (ref.kind) { case 'StatefulSet': break; }")).toBe(true);
    expect(workloads('if (workloadKind(snapshot).pinnedToNodes) return [];')).toBe(false);
    expect(workloads("const kind: WorkloadKind = 'Deployment';")).toBe(false);
    expect(trackerCitations('/** A budget of its own (issue 67.1). */')).toEqual(['1: issue 67.1']);
    expect(trackerCitations('// as asked (issues 27.8, 41.1)')).toEqual(['1: issues 27.8']);
    expect(trackerCitations('x();\n/**\n * the same key (issue\n * 53.4): here\n */')).toEqual([
      '3: issue * 53.4',
    ]);
    expect(trackerCitations("throw new Error('Issue 56: not ready');")).toEqual(['1: Issue 56']);
    expect(trackerCitations('// an issue of clocks: 3 processes; parsed.error.issues.map(...)')).toEqual([]);
  });
});
