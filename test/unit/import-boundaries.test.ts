/**
 * The import boundaries of DESIGN.md §2, checked on the transitive graph of static
 * and dynamic imports: analyzers and plan builders stay pure, the Slack app never
 * loads a Kubernetes client, workers never load a Slack client, and production code
 * never reaches the simulator or test support.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PLATFORM_LIST } from '../../src/platforms/list.js';
import { ROOT, sourceFiles, sourceText, sourceTree } from '../support/source-tree.js';

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
/** The same, without `import type` / `export type` (erased at build time: no runtime edge). */
const RUNTIME_IMPORT =
  /(?:import|export)\s(?!type\s)[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** Specifiers a file imports: package names, or repo-relative paths of local files. */
const imported = new Map<string, string[]>();
function importsOf(file: string, pattern = IMPORT): string[] {
  const key = `${pattern === IMPORT ? 'all' : 'runtime'} ${file}`;
  const known = imported.get(key);
  if (known) return known;
  const text = sourceText(file);
  const out: string[] = [];
  imported.set(key, out);
  for (const match of text.matchAll(pattern)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec) continue;
    if (spec.startsWith('.')) {
      const target = relative(ROOT, resolve(dirname(join(ROOT, file)), spec)).replace(/\.js$/, '.ts');
      out.push(target);
    } else {
      out.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
    }
  }
  return out;
}

/** Every package and local file reachable from `file`, with one path that reaches each. */
function reachable(file: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (!current.endsWith('.ts')) continue;
    for (const next of importsOf(current)) {
      if (seen.has(next)) continue;
      seen.set(next, [...(seen.get(current) ?? []), next]);
      if (next.endsWith('.ts') && existsSync(join(ROOT, next))) queue.push(next);
    }
  }
  return seen;
}

function violations(files: string[], forbidden: (dep: string) => boolean): string[] {
  return files.flatMap((file) =>
    [...reachable(file).entries()].filter(([dep]) => forbidden(dep)).map(([, path]) => path.join(' → ')),
  );
}

const CLUSTER_CLIENT = (dep: string) => dep === '@kubernetes/client-node';
const SLACK_CLIENT = (dep: string) => dep.startsWith('@slack/');
const QUEUE_OR_REDIS = (dep: string) => dep === 'bullmq' || dep === 'ioredis';
const TOOLING = (dep: string) =>
  dep.startsWith('sim/') || dep.startsWith('test/') || dep.startsWith('scripts/');

/** Production code: the domain under src/ and the process entries under workers/. */
function productionFiles(): string[] {
  return [...sourceFiles('src'), ...sourceFiles('workers')];
}

/** Where a file lives, by process and layer (DESIGN.md §2). */
function area(file: string): string {
  if (file.startsWith('src/app/')) return 'app';
  if (file.startsWith('src/worker/') || file.startsWith('workers/')) return 'worker';
  const parts = file.split('/');
  // The files directly under src/ (logger, audit, metrics) are one area, below every other.
  return parts.length === 2 ? 'src-root' : (parts[1] ?? file);
}

/** Area edges: `from → to` with one file edge that makes each (run-time and type imports alike). */
function areaEdges(files: string[]): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const f of files) {
    for (const dep of importsOf(f)) {
      if (!dep.endsWith('.ts') || area(dep) === area(f)) continue;
      const out = edges.get(area(f)) ?? new Map<string, string>();
      if (!out.has(area(dep))) out.set(area(dep), `${f} → ${dep}`);
      edges.set(area(f), out);
    }
  }
  return edges;
}

/** Cycles of the area graph, each as the file edges that close it (empty when the areas are layered). */
function areaCycles(edges: Map<string, Map<string, string>>): string[][] {
  const cycles: string[][] = [];
  // A cycle through `from → to` exists when `from` is reachable again from `to`.
  for (const [from, out] of edges) {
    for (const [to, edge] of out) {
      const back = areaPath(edges, to, from);
      if (back) cycles.push([edge, ...back]);
    }
  }
  return cycles;
}

/** The file edges of one shortest area path from `start` to `goal`, or null. */
function areaPath(edges: Map<string, Map<string, string>>, start: string, goal: string): string[] | null {
  const via = new Map<string, string[]>([[start, []]]);
  const queue = [start];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (current === goal) return via.get(current) ?? [];
    for (const [next, edge] of edges.get(current) ?? []) {
      if (via.has(next)) continue;
      via.set(next, [...(via.get(current) ?? []), edge]);
      queue.push(next);
    }
  }
  return null;
}

/**
 * The chat adapters: one folder under src/chat/ per platform of the list
 * (src/platforms/list.ts), named for it (docs/architecture.md, "The chat port"), so a
 * new platform's folder is checked without editing this test. The other folders are the
 * port's own.
 */
const PORT_FOLDERS = ['use-cases', 'approvals', 'notify', 'words'];
function chatAdapters(): string[] {
  return PLATFORM_LIST.map((p) => p.name);
}

/** The adapter a file belongs to ('slack', …), or null for the port and everything else. */
function adapterOf(file: string): string | null {
  const match = /^src\/chat\/([^/]+)\//.exec(file);
  return match?.[1] !== undefined && chatAdapters().includes(match[1]) ? match[1] : null;
}

/** The port: src/chat/*.ts and its use-cases. */
function portFiles(): string[] {
  return sourceFiles('src/chat').filter((f) => adapterOf(f) === null);
}

/** Chat platforms' SDKs and clients: only their adapter may load one. */
const PLATFORM_SDK = (dep: string) =>
  SLACK_CLIENT(dep) ||
  dep.startsWith('@microsoft/') ||
  dep === 'botbuilder' ||
  dep.startsWith('botframework-');

/** Direct imports of local files that cross from `from` areas into `to` areas. */
function crossings(fromAreas: string[], toAreas: string[]): string[] {
  const files = productionFiles().filter((f) => fromAreas.includes(area(f)));
  return files.flatMap((f) =>
    importsOf(f)
      .filter((dep) => dep.endsWith('.ts') && toAreas.includes(area(dep)))
      .map((dep) => `${f} → ${dep}`),
  );
}

/** Groups of files that import each other at run time (Tarjan's strongly connected components). */
function importCycles(files: string[], pattern = RUNTIME_IMPORT): string[][] {
  const edges = new Map(files.map((f) => [f, importsOf(f, pattern).filter((d) => d.endsWith('.ts'))]));
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
        onStack.delete(w);
        group.push(w);
      }
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

describe('import graph over src/', () => {
  it('diagnosis, remediation and report import nothing of kube, app, worker or queue', () => {
    expect(crossings(['diagnosis', 'remediation', 'report'], ['kube', 'app', 'worker', 'queue'])).toEqual([]);
  });

  it('the message model sits below both surfaces: report and message import nothing of chat', () => {
    // The content both render (src/message: rich text, evidence, finding words) is not the
    // chat port's; the command line shows it without loading chat.
    expect(crossings(['report', 'message'], ['chat'])).toEqual([]);
    // and the check sees the arrow the other way, which is the one allowed
    expect(crossings(['chat'], ['message']).length).toBeGreaterThan(0);
  });

  it('the engine flows one way: findings (diagnosis) never import plans (remediation) at run time', () => {
    const edges = sourceFiles('src/diagnosis').flatMap((f) =>
      importsOf(f, RUNTIME_IMPORT)
        .filter((dep) => dep.endsWith('.ts') && area(dep) === 'remediation')
        .map((dep) => `${f} → ${dep}`),
    );
    expect(edges).toEqual([]);
    // and the check sees such an edge where one exists
    expect(importsOf('src/engine/diagnose.ts', RUNTIME_IMPORT)).toContain(
      'src/diagnosis/analyzers/analyze.ts',
    );
  });

  it('the app side never imports kube or the worker side', () => {
    expect(crossings(['app'], ['kube', 'worker'])).toEqual([]);
  });

  it('src/i18n sits at the bottom: it imports no other area (each area keeps its own catalogue)', () => {
    const others = [...new Set(productionFiles().map(area))].filter((a) => a !== 'i18n');
    expect(others).toEqual(expect.arrayContaining(['chat', 'report', 'diagnosis']));
    expect(crossings(['i18n'], others)).toEqual([]);
  });

  it('the worker side never imports the app side', () => {
    expect(crossings(['worker'], ['app'])).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(importCycles(productionFiles())).toEqual([]);
  });

  it('has no cycle between areas either: the areas of src/ and workers/ are layered, src-root included', () => {
    expect(areaCycles(areaEdges(productionFiles()))).toEqual([]);
  });

  it('the chat port and its adapters import nothing of the app (src/chat sits below src/app)', () => {
    expect(crossings(['chat'], ['app'])).toEqual([]);
    // and the check sees the arrow the other way, which is the one allowed
    expect(crossings(['app'], ['chat'])).toContain(
      'src/app/teams-route.ts → src/chat/use-cases/approve-press.ts',
    );
  });

  it('nothing below the processes imports the app or the worker (kube, queue, plans, cli and the engine)', () => {
    // src/chat is the app process's chat side (the port, its use-cases, the adapters).
    const below = [...new Set(productionFiles().map(area))].filter(
      (a) => a !== 'app' && a !== 'worker' && a !== 'chat',
    );
    expect(below).toEqual(expect.arrayContaining(['kube', 'queue', 'trust', 'policy', 'cli', 'diagnosis']));
    expect(crossings(below, ['app', 'worker'])).toEqual([]);
  });

  it('the app never reaches the worker side, nor the worker the app, by any path', () => {
    const local =
      (...areas: string[]) =>
      (dep: string) =>
        dep.endsWith('.ts') && areas.includes(area(dep));
    const app = [...sourceFiles('src/app'), ...sourceFiles('src/chat')];
    expect(violations(app, local('worker', 'kube'))).toEqual([]);
    expect(
      violations([...sourceFiles('src/worker'), ...sourceFiles('workers')], local('app', 'chat')),
    ).toEqual([]);
  });

  it('has no cycles of type-only imports either (each says a type sits in the wrong file)', () => {
    expect(importCycles(productionFiles(), IMPORT)).toEqual([]);
  });

  it('sees crossings and cycles where they exist', () => {
    // Guards the checks above against passing vacuously.
    expect(crossings(['worker'], ['queue'])).toContain('src/worker/runtime.ts → src/queue/producers.ts');
    expect(crossings(['worker'], ['kube'])).toContain('workers/main.ts → src/kube/client.ts');
    expect(area('workers/main.ts')).toBe('worker');
    expect(importCycles(['src/queue/producers.ts', 'src/queue/schemas.ts'])).toEqual([]);
    expect(area('src/logger.ts')).toBe('src-root');
    const edges = areaEdges(['src/app/runtime.ts', 'src/queue/producers.ts']);
    expect(edges.get('app')?.get('queue')).toMatch(/^src\/app\/runtime.ts → src\/queue\//);
    expect(areaCycles(edges)).toEqual([]);
    // an area cycle is found, with the file edges that close it
    const cyclic = new Map([
      ['chat', new Map([['app', 'src/chat/x.ts → src/app/y.ts']])],
      ['app', new Map([['queue', 'src/app/y.ts → src/queue/z.ts']])],
      ['queue', new Map([['chat', 'src/queue/z.ts → src/chat/x.ts']])],
    ]);
    expect(areaCycles(cyclic)).toContainEqual([
      'src/chat/x.ts → src/app/y.ts',
      'src/app/y.ts → src/queue/z.ts',
      'src/queue/z.ts → src/chat/x.ts',
    ]);
  });
});

describe('import boundaries', () => {
  it('analyzers and plan builders import no Kubernetes client, Bolt, BullMQ or Redis', () => {
    const pure = [
      ...sourceFiles('src/diagnosis'),
      ...sourceFiles('src/remediation'),
      ...sourceFiles('src/report'),
    ];
    expect(pure.length).toBeGreaterThan(10);
    expect(
      violations(
        pure,
        (d) => CLUSTER_CLIENT(d) || SLACK_CLIENT(d) || QUEUE_OR_REDIS(d) || d.startsWith('src/kube/client'),
      ),
    ).toEqual([]);
  });

  it('the Slack app imports no Kubernetes client', () => {
    const app = [...sourceFiles('src/app'), ...sourceFiles('src/chat')];
    expect(app.length).toBeGreaterThan(5);
    expect(violations(app, CLUSTER_CLIENT)).toEqual([]);
  });

  it('workers import no Slack client', () => {
    const workers = [...sourceFiles('src/worker'), ...sourceFiles('workers')];
    expect(workers).toContain('workers/main.ts');
    expect(violations(workers, SLACK_CLIENT)).toEqual([]);
  });

  it('nothing under src/ or workers/ imports the simulator, the Slack stand-in or other test tooling', () => {
    expect(violations(productionFiles(), TOOLING)).toEqual([]);
  });

  it('finds imports the way the checks above rely on', () => {
    // Guards the regex: a known edge must be seen, or every check above passes vacuously.
    expect(importsOf('src/diagnosis/analyzers/analyze.ts')).toContain('src/diagnosis/analyzers/index.ts');
    expect([...reachable('src/kube/client.ts').keys()]).toContain('@kubernetes/client-node');
  });
});

/**
 * `new WeakMap(` outside any function or class body of a file: a cache that outlives
 * the diagnosis. Derived values live in the AnalysisContext (analysis-context.ts).
 */
function moduleLevelWeakMaps(file: string, text?: string): string[] {
  const source = sourceTree(file, text);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'WeakMap') {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the chat port and its adapters', () => {
  it('has one adapter folder per platform of the list, and no folder that is neither an adapter nor the port', () => {
    const folders = readdirSync(join(ROOT, 'src/chat'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...chatAdapters(), ...PORT_FOLDERS].sort());
  });

  it('finds the adapters from the list of platforms', () => {
    expect(chatAdapters()).toContain('slack');
    expect(adapterOf('src/chat/slack/render.ts')).toBe('slack');
    expect(adapterOf('src/chat/model.ts')).toBeNull();
    expect(adapterOf('src/chat/use-cases/command.ts')).toBeNull();
    expect(portFiles()).toContain('src/chat/model.ts');
    expect(portFiles().some((f) => adapterOf(f) !== null)).toBe(false);
  });

  it('the port reaches no adapter and no platform SDK, by any path', () => {
    const ports = portFiles();
    expect(ports.length).toBeGreaterThan(3);
    expect(violations(ports, (dep) => adapterOf(dep) !== null || PLATFORM_SDK(dep))).toEqual([]);
  });

  it('no adapter imports another adapter', () => {
    const edges = chatAdapters().flatMap((adapter) =>
      sourceFiles(`src/chat/${adapter}`).flatMap((f) =>
        importsOf(f)
          .filter((dep) => dep.endsWith('.ts'))
          .filter((dep) => adapterOf(dep) !== null && adapterOf(dep) !== adapter)
          .map((dep) => `${f} → ${dep}`),
      ),
    );
    expect(edges).toEqual([]);
  });

  it("no adapter loads another platform's SDK", () => {
    const sdkOf: Record<string, (dep: string) => boolean> = { slack: SLACK_CLIENT };
    const foreign = chatAdapters().flatMap((adapter) =>
      violations(
        sourceFiles(`src/chat/${adapter}`),
        (dep) => PLATFORM_SDK(dep) && !(sdkOf[adapter]?.(dep) ?? false) && !dep.endsWith('.ts'),
      ),
    );
    expect(foreign).toEqual([]);
  });

  it('the app side speaks to chat platforms only through the port: no adapter file or platform SDK but where adapters are built', () => {
    // The composition roots: they build each platform's adapter and routes, and hand the
    // rest of the app the port (services.chats).
    const roots = ['src/app/runtime.ts', 'src/app/slack-app.ts', 'src/app/teams-route.ts'];
    const app = productionFiles().filter((f) => f.startsWith('src/app/') && !roots.includes(f));
    expect(app.length).toBeGreaterThan(20);
    const edges = app.flatMap((f) =>
      importsOf(f)
        .filter((dep) => (dep.endsWith('.ts') ? adapterOf(dep) !== null : PLATFORM_SDK(dep)))
        .map((dep) => `${f} → ${dep}`),
    );
    expect(edges).toEqual([]);
    // Guards the check against passing vacuously: the roots do build adapters.
    expect(importsOf('src/app/runtime.ts').some((dep) => adapterOf(dep) === 'slack')).toBe(true);
  });

  it('sees an adapter edge where one exists', () => {
    // Guards the checks above against passing vacuously.
    expect(importsOf('src/chat/slack/listeners/index.ts')).toContain('@slack/bolt');
    expect(adapterOf(importsOf('src/app/slack-app.ts').find((d) => d.includes('listeners')) ?? '')).toBe(
      'slack',
    );
  });
});

describe('per-diagnosis state', () => {
  it('src/diagnosis keeps no module-level WeakMap cache', () => {
    const files = sourceFiles('src/diagnosis');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => moduleLevelWeakMaps(f))).toEqual([]);
  });

  it('tells a module-level WeakMap from one inside a function or class', () => {
    // Guards the check above against passing vacuously.
    const text = [
      'const cache = new WeakMap<object, number>();',
      'export const holder = { index: new WeakMap() };',
      'function f() { return new WeakMap(); }',
      'const g = () => new WeakMap();',
      'class C { readonly m = new WeakMap(); }',
    ].join('\n');
    expect(moduleLevelWeakMaps('x.ts', text)).toEqual(['x.ts:1', 'x.ts:2']);
  });
});
