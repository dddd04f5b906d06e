/** `scan --from-file`: the live scan's report from a saved dump, agreeing with diagnose. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;

interface Report {
  scope: { namespace?: string; allNamespaces: boolean };
  scanned: number;
  entries: { namespace: string; name: string; state: string; findings: { code: string }[] }[];
}

describe('scan --from-file', () => {
  it('lists the stuck Deployment of the dump with the codes diagnose gives it (exit 1)', async () => {
    const scan = fakeIo();
    expect(await runCli(['scan', '-n', 'vision', '--from-file', FIXTURE, '-o', 'json'], scan.io)).toBe(1);
    const report = JSON.parse(scan.stdout()) as Report;
    expect(report.scope).toEqual({ namespace: 'vision', allNamespaces: false });
    expect(report.entries.map((e) => [e.state, `${e.namespace}/${e.name}`])).toEqual([
      ['stuck', 'vision/vision-object-tracker'],
    ]);
    const diagnose = fakeIo();
    await runCli(
      ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', FIXTURE, '-o', 'json'],
      diagnose.io,
    );
    const codes = (JSON.parse(diagnose.stdout()) as { findings: { code: string }[] }).findings.map(
      (f) => f.code,
    );
    expect(report.entries[0]?.findings.map((f) => f.code)).toEqual(codes.filter((c) => c !== 'AccessDenied'));
  });

  it('reads stdin, and says all clear for a namespace of the dump with nothing stuck (exit 0)', async () => {
    const list = parse(readFileSync(FIXTURE, 'utf8')) as { items: unknown[] };
    const settled = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ledger', namespace: 'payments', generation: 1 },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'ledger' } },
        template: {
          metadata: { labels: { app: 'ledger' } },
          spec: { containers: [{ name: 'l', image: 'l:1' }] },
        },
      },
      status: {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
      },
    };
    const run = fakeIo(JSON.stringify({ ...list, items: [...list.items, settled] }));
    expect(await runCli(['scan', '-n', 'payments', '--from-file', '-'], run.io)).toBe(0);
    expect(run.stdout()).toContain(
      'No stuck or at-risk workloads in namespace payments (1 scanned: Deployments, DaemonSets, StatefulSets and Rollouts)',
    );
  });

  it('a namespace the dump holds nothing of is not "all clear": exit 2 naming the namespaces it holds', async () => {
    const run = fakeIo(readFileSync(FIXTURE, 'utf8'));
    expect(await runCli(['scan', '-n', 'payments', '--from-file', '-'], run.io)).toBe(2);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toContain('holds nothing in namespace payments; its workloads are in vision');
    const none = fakeIo(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'a' } }],
      }),
    );
    expect(await runCli(['scan', '-A', '--from-file', '-'], none.io)).toBe(2);
    expect(none.stderr()).toContain('holds no Deployment, DaemonSet, StatefulSet or Rollout');
  });

  it('a dump without nodes: says nodes were not read, never that the list was capped', async () => {
    const list = parse(readFileSync(FIXTURE, 'utf8')) as { items: { kind: string }[] };
    expect(list.items.some((o) => o.kind === 'Node')).toBe(true);
    const withoutNodes = { ...list, items: list.items.filter((o) => o.kind !== 'Node') };
    const run = fakeIo(JSON.stringify(withoutNodes));
    await runCli(['scan', '-n', 'vision', '--from-file', '-'], run.io);
    expect(run.stdout()).toContain('Note: not every node was read');
    expect(run.stdout()).not.toContain('capped;');
  });

  it('refuses --from-file together with a cluster option (exit 2)', async () => {
    const run = fakeIo();
    expect(await runCli(['scan', '--from-file', FIXTURE, '--context', 'prod'], run.io)).toBe(2);
    expect(run.stderr()).toContain('--from-file reads a dump');
  });
});
