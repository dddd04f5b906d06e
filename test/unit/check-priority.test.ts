/**
 * check admits a manifest's pods as the Priority admission plugin does
 * (scheduling/priority-class.ts): the class's value where the PriorityClasses were read,
 * a refusal for a class the cluster lacks, the system classes by name, and "not known"
 * where the class was not read and no pod runs under it. A raised priority finishes by
 * preempting the old pod, and says so: the only replica down first is an outage.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { admitPriority } from '../../src/diagnosis/scheduling/priority-class.js';
import type { PriorityClass } from '../../src/diagnosis/k8s-policy.js';

/** One GPU node; deployment ml/trk, one replica at priority 0 on it; PriorityClass high (1000000) and the system classes. */
const DUMP = join(import.meta.dirname, '../fixtures/dumps/priority-steady-gpu.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-check-priority-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = { kind: string; metadata: { name?: string } };
const items = (JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] }).items;

function dumpWith(keep: (item: Item) => boolean, name: string): string {
  const file = join(dir, `dump-${name}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: items.filter(keep) }));
  return file;
}
const dumpWithout = (kind: string): string => dumpWith((i) => i.kind !== kind, `without-${kind}`);

/** The live Deployment with a new image, naming `className`. */
function manifest(className: string, before = ''): string {
  const file = join(dir, `trk-${className}${before ? '-with-class' : ''}.yaml`);
  writeFileSync(
    file,
    `${before}apiVersion: apps/v1
kind: Deployment
metadata: {name: trk, namespace: ml, labels: {app: trk}}
spec:
  replicas: 1
  selector: {matchLabels: {app: trk}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}
  template:
    metadata: {labels: {app: trk}}
    spec:
      priorityClassName: ${className}
      nodeSelector: {gpu: 'true'}
      containers:
        - name: app
          image: reg/app:2
          resources:
            requests: {cpu: '1', memory: 1Gi, nvidia.com/gpu: '1'}
            limits: {cpu: '1', memory: 1Gi, nvidia.com/gpu: '1'}
`,
  );
  return file;
}

type Report = {
  results: { verdict: string; findings: { code: string; severity: string; summary: string }[] }[];
};

async function check(file: string, dump = DUMP): Promise<{ status: number; report: Report }> {
  const f = fakeIo();
  const status = await runCli(['check', '-f', file, '--from-file', dump, '-o', 'json'], f.io);
  return { status, report: JSON.parse(f.stdout()) as Report };
}

describe('check and the priority a template names', () => {
  it('a raised priority finishes by preempting the only old pod, and says it is an outage', async () => {
    const { status, report } = await check(manifest('high'));
    expect(report.results[0]?.verdict).toBe('finishes');
    expect(report.results[0]?.findings).toEqual([
      expect.objectContaining({
        code: 'PreemptionUnderWay',
        severity: 'warning',
        summary:
          'The rollout of deployment/trk finishes, but its new pods preempt 1 pod(s) of lower priority first (trk-aaa111-x1): 1 of its 1 old pod(s) stop serving before their replacements are Ready, an outage.',
      }),
    ]);
    expect(status).toBe(0);
  });

  it('a class the cluster does not have refuses every new pod', async () => {
    const { status, report } = await check(manifest('urgent'));
    expect(report.results[0]?.verdict).toBe('never-finishes');
    expect(report.results[0]?.findings[0]?.summary).toContain(
      'PriorityClass urgent refuses every new pod (no PriorityClass with name urgent was found)',
    );
    expect(status).toBe(1);
  });

  it('a class the same change creates is no refusal: it is applied with the manifests', async () => {
    const created =
      'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: urgent}\nvalue: 5000\n---\n';
    const { report } = await check(manifest('urgent', created));
    expect(report.results[0]?.verdict).toBe('finishes');
    expect(report.results[0]?.findings[0]?.code).toBe('PreemptionUnderWay');
  });

  it('a dump that holds some classes but not the system ones is no whole list: a class missing there is not known', async () => {
    const { report } = await check(
      manifest('urgent'),
      dumpWith((i) => !i.metadata.name?.startsWith('system-'), 'partial'),
    );
    expect(report.results[0]?.verdict).toBe('unknown');
  });

  it('a class not read, under which no pod runs: not known, never the old priority', async () => {
    const { status, report } = await check(manifest('high'), dumpWithout('PriorityClass'));
    expect(report.results[0]?.verdict).toBe('unknown');
    expect(report.results[0]?.findings[0]?.summary).toContain('PriorityClass high was not read');
    expect(status).toBe(1);
  });

  it('a system class is known by name where the classes were not read: it outranks the old pod', async () => {
    const { report } = await check(manifest('system-cluster-critical'), dumpWithout('PriorityClass'));
    expect(report.results[0]?.verdict).toBe('finishes');
    expect(report.results[0]?.findings[0]?.code).toBe('PreemptionUnderWay');
  });
});

describe('admitPriority, as the Priority plugin', () => {
  const cls = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
    metadata: { name },
    value,
    ...extra,
  });
  const SYSTEM = [cls('system-cluster-critical', 2_000_000_000), cls('system-node-critical', 2_000_001_000)];

  it('no class named: the lowest of the global defaults (getDefaultPriorityClass)', () => {
    const read = [
      ...SYSTEM,
      cls('low', 100, { globalDefault: true }),
      cls('mid', 500, { globalDefault: true }),
    ];
    expect(admitPriority({ containers: [] }, { read }, [])).toMatchObject({
      result: 'admitted',
      spec: { priority: 100, priorityClassName: 'low', preemptionPolicy: 'PreemptLowerPriority' },
    });
    expect(admitPriority({ containers: [] }, { read: SYSTEM }, [])).toMatchObject({
      result: 'admitted',
      spec: { priority: 0 },
    });
  });

  it("the class's preemptionPolicy, and a template that sets another is refused", () => {
    const read = [...SYSTEM, cls('batch', 10, { preemptionPolicy: 'Never' })];
    expect(admitPriority({ containers: [], priorityClassName: 'batch' }, { read }, [])).toMatchObject({
      result: 'admitted',
      spec: { priority: 10, preemptionPolicy: 'Never' },
    });
    expect(
      admitPriority(
        { containers: [], priorityClassName: 'batch', preemptionPolicy: 'PreemptLowerPriority' },
        { read },
        [],
      ),
    ).toMatchObject({ result: 'refused', className: 'batch' });
    expect(
      admitPriority({ containers: [], priorityClassName: 'batch', priority: 7 }, { read }, []),
    ).toMatchObject({
      result: 'refused',
    });
  });
});
