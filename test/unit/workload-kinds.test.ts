/**
 * A workload kind is one unit (issue 28 item 1): every kind the vocabulary lists has a
 * module in the registry, everything a workload enters by (both parsers, the queue
 * schema, the alert map) takes the registry's kinds, and nothing in src/diagnosis or
 * src/engine outside a kind's own module reads a kind's fields.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/chat/use-cases/command-parse.js';
import { workloadRefArg } from '../../src/cli/args.js';
import { parseAlertMap } from '../../src/config/alert-map.js';
import {
  WORKLOAD_KINDS,
  WORKLOAD_NAMES,
  kindOfType,
  splitTypeName,
  typeOfKind,
} from '../../src/diagnosis/workload-ref.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { workloadRefSchema } from '../../src/queue/schemas.js';

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = join(ROOT, dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(relative(ROOT, path));
    return path.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

/** A read of a Deployment's own fields, or of the snapshot's Deployment objects. */
const KIND_FIELD_READ = [
  /\bsnapshot\.(deployment|replicaSets)\b/,
  /\{\s*deployment\s*\}\s*=\s*(ctx\.)?snapshot\b/,
  /\bdeployment\.(spec|status)\b/,
];

/** Lines of `text` (comments left out) that read a kind's fields. */
function kindFieldReads(file: string, text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
    .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .filter(({ line }) => KIND_FIELD_READ.some((re) => re.test(line)))
    .map(({ at }) => at);
}

describe('the workload kind registry', () => {
  it('has one module per kind, answering for that kind', () => {
    for (const kind of WORKLOAD_KINDS) expect(workloadKind(kind).kind).toBe(kind);
  });

  it('takes its name, revision objects and snapshot fields from its identity, not stated a second time', () => {
    for (const kind of WORKLOAD_KINDS) {
      const module = workloadKind(kind);
      const api = WORKLOAD_NAMES[kind];
      expect(module.revisionObjects).toBe(api.revisions);
      const object = { metadata: { name: 'o' } } as never;
      const revision = { metadata: { name: 'r' } } as never;
      expect(module.objects(object, [revision])).toEqual({
        [api.snapshot.object]: object,
        [api.snapshot.revisions]: [revision],
      });
    }
    const modules = readdirSync(join(ROOT, 'src/diagnosis/workloads'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => ({
        kind: WORKLOAD_KINDS.find((k) => k.toLowerCase() === e.name),
        text: readFileSync(join(ROOT, 'src/diagnosis/workloads', e.name, 'index.ts'), 'utf8'),
      }));
    expect(modules).toHaveLength(WORKLOAD_KINDS.length);
    for (const { kind, text } of modules) {
      expect(kind, 'a folder named as its kind, in lower case').toBeDefined();
      // Its name, revision objects and snapshot fields come from fromIdentity(api) (workload-api.ts).
      expect(text).not.toMatch(/revisionObjects:\s*\{/);
      expect(text).not.toMatch(/^\s*objects:/m);
      expect(text, `${kind}'s module names its own kind`).not.toContain(`'${kind}'`);
    }
  });

  it('names each kind the way kubectl and the parsers spell it', () => {
    for (const kind of WORKLOAD_KINDS) {
      for (const type of WORKLOAD_NAMES[kind].types) {
        expect(kindOfType(type.toUpperCase())).toBe(kind);
        expect(splitTypeName(`${type}/web`)).toEqual({ kind, name: 'web' });
        expect(workloadRefArg([`${type}/web`], 'shop', 'diagnosed')).toEqual({
          kind,
          namespace: 'shop',
          name: 'web',
        });
        expect(
          parseCommand(`${type}/web -n shop`, { clusters: ['default'], defaultCluster: 'default' }),
        ).toMatchObject({
          kind: 'diagnose',
          workload: kind,
          name: 'web',
        });
      }
      expect(workloadRefSchema.safeParse({ kind, namespace: 'shop', name: 'web' }).success).toBe(true);
      expect(parseAlertMap(`Stuck=${typeOfKind(kind)}`)).toEqual({
        Stuck: { kind: typeOfKind(kind), label: typeOfKind(kind) },
      });
    }
    expect(kindOfType('statefulsetz')).toBeUndefined();
    expect(workloadRefSchema.safeParse({ kind: 'Pod', namespace: 'shop', name: 'web' }).success).toBe(false);
  });
});

describe('analyzers and the engine ask the kind module', () => {
  it('nothing in src/diagnosis or src/engine outside a kind module reads a Deployment field', () => {
    const files = [...sourceFiles('src/diagnosis'), ...sourceFiles('src/engine')].filter(
      // An Argo Rollout's revisions are ReplicaSets too: its module reads them by the same name.
      (f) =>
        !f.startsWith('src/diagnosis/workloads/deployment/') &&
        !f.startsWith('src/diagnosis/workloads/rollout/'),
    );
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => kindFieldReads(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('sees such a read where there is one', () => {
    // Guards the check above against passing vacuously.
    expect(kindFieldReads('x.ts', 'const n = snapshot.deployment.metadata.name;')).toEqual(['x.ts:1']);
    expect(kindFieldReads('x.ts', '  const { deployment } = snapshot;')).toEqual(['x.ts:1']);
    expect(kindFieldReads('x.ts', 'a\n  return deployment.spec.replicas ?? 1;')).toEqual(['x.ts:2']);
    expect(kindFieldReads('x.ts', ' * deployment.spec.replicas in a comment')).toEqual([]);
  });
});

/** Lines of `text` (comments and imports left out) that cast a value to one kind's object type. */
function kindCasts(file: string, text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
    .filter(({ line }) => !/^\s*(\*|\/\/|\/\*|import\b)/.test(line))
    .filter(({ line }) => /\bas (Deployment|DaemonSet|StatefulSet|ArgoRollout)\b/.test(line))
    .map(({ at }) => at);
}

describe('each kind module is typed for its own objects (issue 43)', () => {
  it('no source file casts a workload object to one kind, the kind modules included', () => {
    const files = sourceFiles('src');
    expect(files.flatMap((f) => kindCasts(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('sees such a cast where there is one', () => {
    expect(kindCasts('x.ts', 'const r = workloadObject(snapshot) as ArgoRollout;')).toEqual(['x.ts:1']);
    expect(kindCasts('x.ts', '  return object as DaemonSet;')).toEqual(['x.ts:1']);
    expect(kindCasts('x.ts', "import type { WorkloadObject as Deployment } from './x.js';")).toEqual([]);
  });

  it('each module says where its strategy sits, and fixes write only there', () => {
    for (const kind of WORKLOAD_KINDS) {
      const { field, patchPaths } = workloadKind(kind).strategyAt;
      expect(patchPaths.length).toBeGreaterThan(0);
      for (const path of patchPaths) expect(path.startsWith(`/spec/${field}`)).toBe(true);
    }
    expect(workloadKind('DaemonSet').strategyAt.field).toBe('updateStrategy');
    expect(workloadKind('Deployment').strategyAt.field).toBe('strategy');
  });
});
