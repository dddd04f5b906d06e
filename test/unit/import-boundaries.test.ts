/**
 * The import boundaries of DESIGN.md §2, checked on the transitive graph of static
 * and dynamic imports: analyzers and plan builders stay pure, the Slack app never
 * loads a Kubernetes client, workers never load a Slack client, and production code
 * never reaches the simulator or test support.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((entry) => {
    const path = join(abs, entry);
    if (statSync(path).isDirectory()) return sourceFiles(relative(ROOT, path));
    return path.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

/** Specifiers a file imports: package names, or repo-relative paths of local files. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
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
    const app = sourceFiles('src/app');
    expect(app.length).toBeGreaterThan(5);
    expect(violations(app, CLUSTER_CLIENT)).toEqual([]);
  });

  it('workers import no Slack client', () => {
    const workers = [...sourceFiles('workers'), ...sourceFiles('src/worker')];
    expect(workers.length).toBeGreaterThan(0);
    expect(violations(workers, SLACK_CLIENT)).toEqual([]);
  });

  it('nothing under src/ or workers/ imports the simulator, the Slack stand-in or other test tooling', () => {
    expect(violations([...sourceFiles('src'), ...sourceFiles('workers')], TOOLING)).toEqual([]);
  });

  it('finds imports the way the checks above rely on', () => {
    // Guards the regex: a known edge must be seen, or every check above passes vacuously.
    expect(importsOf('src/diagnosis/run.ts')).toContain('src/diagnosis/analyzers/index.ts');
    expect([...reachable('src/kube/client.ts').keys()]).toContain('@kubernetes/client-node');
  });
});
