/**
 * A neighbour Deployment scaling down gives room back (forward/scale-down-wait.ts): beta
 * runs 2 pods (gpu-2, gpu-3) where its spec asks for 1, so its ReplicaSet deletes one of
 * them, whichever it ranks first; alpha's new pod then takes that GPU and alpha finishes.
 * "cannot finish until deployment ml/beta scales down", never "can never finish", and each
 * plan says waiting may be enough. Where beta does not scale down, or its excess falls on
 * a pod that holds nothing, or some choice of pod leaves alpha blocked, the verdict stays.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/neighbour-scaling-down.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-neighbour-scale-down-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = {
  apiVersion?: string;
  kind: string;
  metadata: Record<string, unknown> & { name?: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
};
type Report = {
  findings: { severity: string; summary: string; waitsFor?: { holders: string; names: string[] } }[];
  remediations: { warnings: string[] }[];
};

async function alpha(edit?: (items: Item[]) => void, lang = 'en'): Promise<{ report: Report; text: string }> {
  const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] };
  edit?.(dump.items);
  const file = join(dir, `dump-${String(Math.random()).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(dump));
  const args = ['diagnose', 'deployment/alpha', '-n', 'ml', '--from-file', file];
  const json = fakeIo();
  await runCli([...args, '-o', 'json'], json.io);
  const text = fakeIo();
  await runCli([...args, '--lang', lang], text.io);
  return { report: JSON.parse(json.stdout()) as Report, text: text.stdout() };
}

const named = (items: Item[], name: string): Item => {
  const item = items.find((i) => i.metadata.name === name);
  if (!item) throw new Error(`fixture changed: ${name} is gone`);
  return item;
};

describe('a neighbour Deployment scaling down', () => {
  it('running 2 pods where its spec asks 1: alpha waits for it, and every plan says waiting may be enough', async () => {
    const { report, text } = await alpha();
    const stuck = report.findings.find((f) => f.severity === 'critical');
    expect(stuck?.summary).toContain('Rollout of alpha cannot finish until deployment ml/beta scales down');
    expect(stuck?.summary).not.toContain('can never finish');
    expect(stuck?.summary).toContain('unless an autoscaler raises them back first');
    expect(stuck?.waitsFor).toMatchObject({ holders: 'scale-downs', names: ['ml/beta'] });
    expect(report.remediations.length).toBeGreaterThan(0);
    for (const plan of report.remediations)
      expect(plan.warnings[0]).toMatch(/^Waiting may be enough: .*scales down/);
    expect(text).toContain('each choice of them was run');
    const ko = await alpha(undefined, 'ko');
    expect(ko.text).toContain('Deployment ml/beta가 레플리카 수까지 줄어들기 전에는 끝나지 않습니다');
  });

  it('being deleted (its controller only syncs status; --cascade=orphan keeps the pods): no wait is claimed', async () => {
    const { report } = await alpha((items) => {
      named(items, 'beta').metadata['deletionTimestamp'] = '2026-11-22T02:59:00Z';
      named(items, 'beta').metadata['finalizers'] = ['orphan'];
    });
    expect(report.findings.find((f) => f.severity === 'critical')?.summary).toContain('can never finish');
    expect(report.findings.some((f) => f.waitsFor?.holders === 'scale-downs')).toBe(false);
  });

  it('its autoscaler in the dump bounds what stays: a max of both pods promises nothing, a max of one lowers a spec of two', async () => {
    const hpa = (max: number): Item => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'beta', namespace: 'ml' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'beta' }, maxReplicas: max },
    });
    const { report: raised } = await alpha((items) => void items.push(hpa(2)));
    expect(raised.findings.find((f) => f.severity === 'critical')?.summary).toContain('can never finish');
    expect(raised.findings.some((f) => f.waitsFor?.holders === 'scale-downs')).toBe(false);
    const { report: lowered } = await alpha((items) => {
      named(items, 'beta').spec['replicas'] = 2;
      items.push(hpa(1));
    });
    expect(lowered.findings.find((f) => f.severity === 'critical')?.waitsFor).toMatchObject({
      holders: 'scale-downs',
      names: ['ml/beta'],
      autoscalerMax: 1,
    });
    // Its words name the autoscaler's bound, not a spec below its pods (the spec is 2).
    for (const plan of lowered.remediations)
      expect(plan.warnings[0]).toContain(
        'once deployment ml/beta scales down to what its autoscaler allows at most (maxReplicas 1)',
      );
    expect(JSON.stringify(lowered)).not.toContain('which runs more pods than its replicas');
    const headline = lowered.findings.find((f) => f.severity === 'critical')?.summary ?? '';
    expect(headline).toContain('removes the pods above what its autoscaler allows at most (maxReplicas)');
    expect(headline).not.toContain('unless an autoscaler raises them back first');
    const ko = await alpha((items) => {
      named(items, 'beta').spec['replicas'] = 2;
      items.push(hpa(1));
    }, 'ko');
    expect(ko.text).toContain(
      'Deployment ml/beta가 오토스케일러가 허용하는 최대 레플리카 수까지 줄어들기 전에는',
    );
    // An autoscaler whose target names no apps group fails to get its scale (the core
    // group serves no Deployment); two on beta fight; a spec of 0 with minReplicas 0 stays
    // autoscaled: none of them promises the scale-down.
    const lowers = (edit: (items: Item[]) => void) =>
      alpha((items) => {
        named(items, 'beta').spec['replicas'] = 2;
        edit(items);
      });
    const noGroup = hpa(1);
    noGroup.spec['scaleTargetRef'] = { apiVersion: 'v1', kind: 'Deployment', name: 'beta' };
    const twoOfThem = { ...hpa(5), metadata: { name: 'beta-2', namespace: 'ml' } };
    const cases: Record<string, (items: Item[]) => void> = {
      'no apps group': (items) => void items.push(noGroup),
      'two autoscalers': (items) => void items.push(twoOfThem, hpa(1)),
      'spec 0, minReplicas 0': (items) => {
        named(items, 'beta').spec['replicas'] = 0;
        items.push({ ...hpa(1), spec: { ...hpa(1).spec, minReplicas: 0, maxReplicas: 2 } });
      },
    };
    for (const [why, edit] of Object.entries(cases)) {
      const { report } = await lowers(edit);
      expect({ why, waits: report.findings.some((f) => f.waitsFor?.holders === 'scale-downs') }).toEqual({
        why,
        waits: false,
      });
    }
    const { text } = await lowers((items) => void items.push(hpa(1)));
    expect(text.replace(/\n\s*/g, ' ')).toContain(
      'Its autoscaler lowers a spec above maxReplicas at its next sync',
    );
    // Another Deployment's autoscaler says nothing of beta.
    const { report: other } = await alpha((items) => {
      const elsewhere = hpa(2);
      elsewhere.spec['scaleTargetRef'] = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gamma' };
      items.push(elsewhere);
    });
    expect(other.findings.find((f) => f.severity === 'critical')?.waitsFor?.holders).toBe('scale-downs');
  });

  it('its spec asks for both pods: nothing goes, alpha can never finish', async () => {
    const { report } = await alpha((items) => (named(items, 'beta').spec['replicas'] = 2));
    expect(report.findings.find((f) => f.severity === 'critical')?.summary).toContain('can never finish');
    expect(JSON.stringify(report)).not.toContain('scales down');
  });

  it('its excess is a pod bound to no node (deleted first): the GPUs stay held, alpha can never finish', async () => {
    const { report } = await alpha((items) => {
      // Three pods for 2 replicas: the third waits for a node no GPU node is, and goes first.
      const pod = structuredClone(named(items, 'beta-b1-x2'));
      pod.metadata = { ...pod.metadata, name: 'beta-b1-x3', uid: 'p-beta-b1-x3' };
      delete pod.spec['nodeName'];
      pod.spec['nodeSelector'] = { pool: 'nowhere' };
      pod.status = {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
          },
        ],
      };
      items.push(pod);
      named(items, 'beta').spec['replicas'] = 2;
    });
    expect(report.findings.find((f) => f.severity === 'critical')?.summary).toContain('can never finish');
    expect(report.findings.some((f) => f.waitsFor?.holders === 'scale-downs')).toBe(false);
  });

  it('a third pod on a node without GPUs: deleting it alone frees nothing, so one to go claims nothing; two to go free a GPU in every choice', async () => {
    const third = (replicas: number) => (items: Item[]) => {
      const gpuNode = named(items, 'gpu-1');
      const node = structuredClone(gpuNode);
      node.metadata = {
        ...node.metadata,
        name: 'cpu-1',
        uid: 'n-cpu-1',
        labels: { 'kubernetes.io/hostname': 'cpu-1' },
      };
      for (const field of ['allocatable', 'capacity'] as const) {
        const amounts = { ...((node.status?.[field] as Record<string, string> | undefined) ?? {}) };
        delete amounts['nvidia.com/gpu'];
        node.status = { ...node.status, [field]: amounts };
      }
      const pod = structuredClone(named(items, 'beta-b1-x2'));
      pod.metadata = { ...pod.metadata, name: 'beta-b1-x3', uid: 'p-beta-b1-x3' };
      pod.spec = { ...pod.spec, nodeName: 'cpu-1', nodeSelector: {} };
      const [container] = pod.spec['containers'] as { resources?: unknown }[];
      if (container) container.resources = { requests: { cpu: '100m' } };
      items.push(node, pod);
      named(items, 'beta').spec['replicas'] = replicas;
    };
    const one = await alpha(third(2));
    expect(one.report.findings.find((f) => f.severity === 'critical')?.summary).toContain('can never finish');
    expect(one.report.findings.some((f) => f.waitsFor?.holders === 'scale-downs')).toBe(false);
    const two = await alpha(third(1));
    expect(two.report.findings.find((f) => f.severity === 'critical')?.waitsFor).toMatchObject({
      holders: 'scale-downs',
    });
  });
});

describe('a quota another controller is refused by too', () => {
  // ResourceQuota compute is full (pods 3 of 3); beta runs 2 pods for 1 replica; gamma's
  // ReplicaSet is refused by the same quota (FailedCreate, exceeded quota) and has no pod.
  const RIVAL = join(import.meta.dirname, '../fixtures/dumps/quota-rival-refused.json');
  const run = async (edit?: (items: Item[]) => Item[]): Promise<Report> => {
    const dump = JSON.parse(readFileSync(RIVAL, 'utf8')) as { items: Item[] };
    const file = join(dir, `rival-${String(Math.random()).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ ...dump, items: edit ? edit(dump.items) : dump.items }));
    const io = fakeIo();
    await runCli(['diagnose', 'deployment/alpha', '-n', 'ml', '--from-file', file, '-o', 'json'], io.io);
    return JSON.parse(io.stdout()) as Report;
  };
  const waits = (report: Report): boolean => report.findings.some((f) => f.waitsFor !== undefined);

  it('the quota beta frees is raced for: no wait is claimed', async () => {
    expect(waits(await run())).toBe(false);
  });

  it('without gamma refused, or with a pod made since its refusal, the wait is claimed', async () => {
    expect(waits(await run((items) => items.filter((i) => i.metadata.name !== 'e2')))).toBe(true);
    const madeSince = (items: Item[]): Item[] => {
      const refused = named(items, 'e2') as Item & Record<string, unknown>;
      const created = {
        ...structuredClone(refused),
        metadata: { ...refused.metadata, name: 'e3' },
        reason: 'SuccessfulCreate',
        message: 'Created pod: gamma-g1-ab',
        firstTimestamp: '2026-11-22T02:59:59Z',
        lastTimestamp: '2026-11-22T02:59:59Z',
      };
      return [...items, created as Item];
    };
    expect(waits(await run(madeSince))).toBe(true);
  });
});
