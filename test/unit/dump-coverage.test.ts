/**
 * A dump is read for what it holds, and what it does not hold is said, never taken
 * for empty: a dump of the Deployment alone is not "no problem", a dump without
 * Node objects still proves the GPU deadlock from the scheduler's counts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const dump = parse(readFileSync(FIXTURE, 'utf8')) as { items: { kind: string }[] };
const dir = mkdtempSync(join(tmpdir(), 'dump-coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dumpOf(name: string, keep: (kind: string) => boolean): string {
  const file = join(dir, name);
  writeFileSync(file, stringify({ ...dump, items: dump.items.filter((o) => keep(o.kind)) }));
  return file;
}

async function diagnoseFile(file: string, output: 'json' | 'text'): Promise<{ status: number; out: string }> {
  const run = fakeIo();
  const status = await runCli(
    ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', file, '-o', output],
    run.io,
  );
  return { status, out: run.stdout() };
}

interface Json {
  findings: { code: string; summary: string; evidence: { type: string; text?: string }[] }[];
  remediations: { kind: string }[];
  coverage: { pods: string; nodes: string; gaps: { what: string; settle: string }[] };
}

describe('a dump holding only the Deployment of a stuck rollout', () => {
  const file = dumpOf('deployment-only.yaml', (kind) => kind === 'Deployment');

  it('is IncompleteEvidence naming the pods to read, exit 1, and the JSON keeps the partial picture', async () => {
    const { status, out } = await diagnoseFile(file, 'json');
    expect(status).toBe(1);
    const json = JSON.parse(out) as Json;
    expect(json.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(json.findings[0]?.summary).toContain('pods in vision');
    expect(json.findings[0]?.summary).toContain('1 unavailable, 2 pods in all (the rollout is not complete)');
    expect(json.coverage.pods).toBe('unread');
    expect(json.coverage.gaps.map((g) => g.settle)).toContain('kubectl get pods -n vision -o yaml');
  });

  it('never prints "No problem found"', async () => {
    const { status, out } = await diagnoseFile(file, 'text');
    expect(status).toBe(1);
    expect(out).not.toContain('No problem found');
    expect(out).toContain('IncompleteEvidence');
  });
});

describe('a dump without Node objects (namespace-scoped kubectl)', () => {
  it("proves the surge deadlock from the scheduler's counts, with the strategy plans", async () => {
    const { status, out } = await diagnoseFile(
      dumpOf('no-nodes.yaml', (kind) => kind !== 'Node'),
      'json',
    );
    expect(status).toBe(1);
    const json = JSON.parse(out) as Json;
    expect(json.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    expect(json.findings[0]?.summary).not.toContain('probably');
    expect(json.coverage.nodes).toBe('unread');
    expect(json.remediations.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['set-rolling-update', 'set-recreate']),
    );
  });

  it('look-alike: the whole dump gives the same verdict from the nodes themselves', async () => {
    const { status, out } = await diagnoseFile(FIXTURE, 'json');
    expect(status).toBe(1);
    const json = JSON.parse(out) as Json;
    expect(json.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    expect(json.coverage.nodes).toBe('complete');
  });
});

describe('a dump missing the old ReplicaSet whose pod it holds (saved in two commands, filtered)', () => {
  // The old pod holding the GPU names vision-object-tracker-5c6b7d8f9 as its controller.
  const file = join(dir, 'no-old-rs.yaml');
  writeFileSync(
    file,
    stringify({
      ...dump,
      items: dump.items.filter(
        (o) =>
          !(
            o.kind === 'ReplicaSet' &&
            (o as { metadata?: { name?: string } }).metadata?.name === 'vision-object-tracker-5c6b7d8f9'
          ),
      ),
    }),
  );

  it('never takes the old pod for another workload’s: IncompleteEvidence naming the ReplicaSet, no Unschedulable', async () => {
    const { status, out } = await diagnoseFile(file, 'json');
    expect(status).toBe(1);
    const json = JSON.parse(out) as Json;
    expect(json.findings.map((f) => f.code)).toEqual(['IncompleteEvidence', 'IncompleteEvidence']);
    expect(json.findings.map((f) => f.summary).join('\n')).toContain(
      'ReplicaSet vision-object-tracker-5c6b7d8f9 (controller of pod vision-object-tracker-5c6b7d8f9-x7k2p)',
    );
    expect(json.findings[1]?.summary).toContain('the ReplicaSets of vision');
    expect(json.remediations).toEqual([]);
  });
});

describe('check against a dump of another namespace', () => {
  // A new Deployment of 2 pods of 7.5 cpu in payments; the dump holds the pods of vision
  // alone. They counted as "pods of other namespaces", so the dump passed for a read of
  // every pod on every node: "will finish", exit 0, with nothing of payments read.
  const manifest = (namespace: string): string => {
    const file = join(dir, `web-${namespace}.yaml`);
    writeFileSync(
      file,
      stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [{ name: 'c', image: 'nginx:2', resources: { requests: { cpu: '7500m' } } }],
            },
          },
        },
      }),
    );
    return file;
  };

  it('is not known: the dump lists no Deployment of payments, and no pod of another namespace', async () => {
    const run = fakeIo();
    const status = await runCli(['check', '-f', manifest('payments'), '--from-file', FIXTURE], run.io);
    expect(run.stdout()).toContain('payments/deployment/web');
    expect(run.stdout()).toContain(
      'Not judged: the dump holds no Deployment of namespace payments, so whether web exists is not known',
    );
    expect(status).toBe(1);
    // In the dump's own namespace the Deployments were listed: web is new, and judged.
    const own = fakeIo();
    expect(await runCli(['check', '-f', manifest('vision'), '--from-file', FIXTURE], own.io)).toBe(1);
    expect(own.stdout()).toContain('not known (new object)');
    expect(own.stdout()).toContain('pods were not read on every node');
  });

  it('names the pods of a namespace as not read where the dump holds those of another alone', async () => {
    // The Deployments of payments listed (another one there), its pods not.
    const file = join(dir, 'payments-listed.yaml');
    const other = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'payments' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'api' } },
        template: {
          metadata: { labels: { app: 'api' } },
          spec: { containers: [{ name: 'c', image: 'api:1' }] },
        },
      },
    };
    writeFileSync(file, stringify({ ...dump, items: [...dump.items, other] }));
    const run = fakeIo();
    expect(await runCli(['check', '-f', manifest('payments'), '--from-file', file], run.io)).toBe(1);
    expect(run.stdout()).toContain('not known (new object)');
    expect(run.stdout()).toContain('pods in payments (the dump holds those of vision alone)');
    // Its ReplicaSets and events were not read either: diagnose says so, never "none".
    const diagnosed = fakeIo();
    await runCli(
      ['diagnose', 'deployment/api', '-n', 'payments', '--from-file', file, '-o', 'json'],
      diagnosed.io,
    );
    const json = JSON.parse(diagnosed.stdout()) as Json;
    expect(json.coverage).toMatchObject({ replicaSets: 'unread', pods: 'unread', events: 'unread' });
    const gaps = json.coverage.gaps.map((g) => g.what);
    for (const what of ['ReplicaSets in payments', 'pods in payments', 'events in payments'])
      expect(
        gaps.some((g) => g.startsWith(what)),
        what,
      ).toBe(true);
  });
});
