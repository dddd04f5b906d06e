/**
 * The simulator allocates DRA devices with its own matching (sim/controllers/dra-devices.ts
 * and dra-cel.ts), not the product's (issue 28 item 5): a DeviceClass selector decides
 * which device a claim gets, between two device models of one driver and between two
 * drivers on one node, so a product that ignored a class's selectors would disagree with
 * the simulator. And the simulator imports nothing from src/ at run time.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { selectorMatches } from '../../sim/controllers/dra-cel.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const NS = 'ml';

const slice = (driver: string, devices: object[]): object => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name: `n1-${driver}` },
  spec: { driver, nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices },
});

const deviceClass = (name: string, expression: string): object => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name },
  spec: { selectors: [{ cel: { expression } }] },
});

const base = (...extra: object[]): object[] => [
  {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } },
    status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } },
  },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  ...extra,
];

const template = (className: string): object => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name: className, namespace: NS },
  spec: { spec: { devices: { requests: [{ name: 'dev', exactly: { deviceClassName: className } }] } } },
});

const podWith = (name: string, templateName: string): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: NS },
  spec: {
    resourceClaims: [{ name: 'dev', resourceClaimTemplateName: templateName }],
    containers: [{ name: 'c', image: 'trainer:1', resources: { claims: [{ name: 'dev' }] } }],
  },
});

const allocated = (s: Simulator, pod: string): string | undefined => {
  const p = s.get('Pod', NS, pod) as Pod | undefined;
  const name = p?.status?.resourceClaimStatuses?.[0]?.resourceClaimName;
  const claim = name ? (s.get('ResourceClaim', NS, name) as ResourceClaim | undefined) : undefined;
  const r = claim?.status?.allocation?.devices?.results?.[0];
  return r ? `${r.driver}/${r.pool}/${r.device}` : undefined;
};

const MODELS = slice('gpu.example.com', [
  // Listed first, so an allocator that took the first device of the driver would take it.
  { name: 'gpu-0', attributes: { model: { string: 'a10' } }, capacity: { memory: { value: '24Gi' } } },
  { name: 'gpu-1', attributes: { model: { string: 'h100' } }, capacity: { memory: { value: '80Gi' } } },
]);

describe('DRA allocation by the simulator’s own selector evaluation', () => {
  it('gives the claim the device its DeviceClass selects (two models of one driver), and then none', async () => {
    const s = await startSimulator({
      scenario: base(
        MODELS,
        deviceClass('h100', 'device.attributes["gpu.example.com"].model == "h100"'),
        template('h100'),
        podWith('first', 'h100'),
        podWith('second', 'h100'),
      ),
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => allocated(s, 'first') !== undefined || allocated(s, 'second') !== undefined);
    await s.settle();
    const holders = ['first', 'second'].filter((p) => allocated(s, p) !== undefined);
    expect(holders).toHaveLength(1);
    expect(allocated(s, holders[0] ?? '')).toBe('gpu.example.com/n1/gpu-1');
    // The a10 is free, but the class does not select it: the other pod waits.
    const waiting = ['first', 'second'].find((p) => p !== holders[0]) ?? '';
    expect((s.get('Pod', NS, waiting) as Pod).spec.nodeName).toBeUndefined();
    const failed = (s.list('Event', NS) as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling' && e.involvedObject.name === waiting,
    );
    expect(failed?.message).toContain('cannot allocate all claims');
  });

  it('picks the driver the class names among two on one node', async () => {
    const s = await startSimulator({
      scenario: base(
        slice('gpu.example.com', [{ name: 'dev-0' }]),
        slice('nic.example.com', [{ name: 'dev-0' }]),
        deviceClass('nic', 'device.driver == "nic.example.com"'),
        template('nic'),
        podWith('p', 'nic'),
      ),
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => allocated(s, 'p') !== undefined);
    expect(allocated(s, 'p')).toBe('nic.example.com/n1/dev-0');
  });

  it('evaluates attributes, capacities and versions as the allocator’s CEL environment does', () => {
    const device = {
      name: 'gpu-1',
      attributes: {
        model: { string: 'h100' },
        'gpu.example.com/cores': { int: 132 },
        driverVersion: { version: '550.54.15' },
      },
      capacity: { memory: { value: '80Gi' } },
    };
    const yes = [
      'device.attributes["gpu.example.com"].model == "h100"',
      'device.attributes["gpu.example.com"].cores > 100',
      'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0',
      'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0"))',
      '!has(device.attributes["other.example.com"].model)',
    ];
    const no = [
      'device.attributes["gpu.example.com"].model == "a10"',
      // A name the device lacks is a runtime error upstream: never a match.
      'device.attributes["gpu.example.com"].missing == "x"',
      // Not a bool.
      'device.driver',
    ];
    for (const e of yes) expect([e, selectorMatches(e, 'gpu.example.com', device)]).toEqual([e, true]);
    for (const e of no) expect([e, selectorMatches(e, 'gpu.example.com', device)]).toEqual([e, false]);
  });
});

describe('the simulator stands apart from the product', () => {
  it('imports nothing from src/ at run time (types only), so it cannot share the product’s mistakes', () => {
    const root = join(import.meta.dirname, '../..');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((e) => {
        const path = join(dir, e);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const runtime = /(?:import|export)\s(?!type\s)[^'"]*?from\s*['"]((?:\.\.\/)+src\/[^'"]+)['"]/g;
    const offenders = files(join(root, 'sim')).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(runtime)].map((m) => `${relative(root, f)} → ${m[1] ?? ''}`),
    );
    expect(offenders).toEqual([]);
  });
});
