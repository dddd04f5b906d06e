/**
 * API requests of one DRA diagnosis (the DRA twin of incident A, deadlocked) and how
 * they grow with the number of other tenants' ResourceClaims and of ResourceSlices in
 * the cluster: claims are listed cluster-wide (any namespace's claim can hold a
 * device), 500 a page up to 4 pages, slices 500 a page up to 2 pages; past that the
 * read is capped and the diagnosis says which objects it did not see.
 *
 * Run alone: `npx tsx bench/dra-requests.ts`; part of `npm run bench`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSimulator, type RecordedRequest } from '../sim/index.js';
import type { KubeEvent } from '../src/diagnosis/k8s.js';
import { createKubeClient } from '../src/kube/client.js';
import { collectSnapshot } from '../src/kube/read/collector.js';
import { diagnose } from '../src/engine/diagnose.js';
import type { Section } from './report.js';

const TRACKER = { kind: 'Deployment' as const, namespace: 'vision', name: 'vision-object-tracker' };

export interface DraRequestsRun {
  otherClaims: number;
  extraSlices: number;
  requests: number;
  draRequests: number;
  verdict: string;
  gaps: string[];
}

/** Claims of another team, allocated on their own (fake) nodes' devices. */
function otherTenantObjects(claims: number, slices: number): object[] {
  const objects: object[] = [];
  for (let i = 0; i < slices; i++) {
    objects.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: `other-node-${i}-gpu.nvidia.com` },
      spec: {
        driver: 'gpu.nvidia.com',
        nodeName: `other-node-${i}`,
        pool: { name: `other-node-${i}`, generation: 1, resourceSliceCount: 1 },
        devices: [{ name: 'gpu-0' }],
      },
    });
  }
  for (let i = 0; i < claims; i++) {
    objects.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `training-${i}`, namespace: 'ml-team' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com' } }] } },
    });
  }
  return objects;
}

async function once(otherClaims: number, extraSlices: number): Promise<DraRequestsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dra-'));
  const sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock-dra.yaml', timeScale: 50 });
  try {
    sim.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml-team' } });
    for (const obj of otherTenantObjects(otherClaims, extraSlices)) sim.apply(obj);
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const res = await fetch(
      `${sim.url}/apis/apps/v1/namespaces/${TRACKER.namespace}/deployments/${TRACKER.name}`,
      {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
        body: JSON.stringify({
          spec: {
            template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } },
          },
        }),
      },
    );
    if (res.status !== 200) throw new Error(`image patch answered ${res.status}`);
    await sim.waitFor(
      () =>
        (sim.list('Event', TRACKER.namespace) as KubeEvent[]).some((e) => e.reason === 'FailedScheduling'),
      15_000,
    );
    const client = createKubeClient({ kubeconfig: file });
    sim.clearRequests();
    const diagnosis = diagnose(await collectSnapshot(client, TRACKER));
    const requests: RecordedRequest[] = [...sim.requests];
    return {
      otherClaims,
      extraSlices,
      requests: requests.length,
      draRequests: requests.filter((r) => r.path.startsWith('/apis/resource.k8s.io/')).length,
      verdict: diagnosis.findings[0]?.code ?? 'none',
      gaps: (diagnosis.coverage?.gaps ?? []).filter((g) => g.about === 'dra').map((g) => g.what),
    };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const DRA_REQUEST_SIZES: readonly [number, number][] = [
  [0, 0],
  [1_000, 100],
  [5_000, 1_500],
];

export async function runDraRequestsBench(sizes = DRA_REQUEST_SIZES): Promise<DraRequestsRun[]> {
  const runs: DraRequestsRun[] = [];
  for (const [claims, slices] of sizes) runs.push(await once(claims, slices));
  return runs;
}

export function draRequestsSection(runs: readonly DraRequestsRun[]): Section {
  const base = runs[0];
  return {
    title: 'API requests of a DRA diagnosis',
    rows: runs.map((r) => ({
      figure: `DRA twin of incident A, ${r.otherClaims} other claims, ${r.extraSlices + 1} ResourceSlices`,
      median: `${r.requests} requests (${r.draRequests} resource.k8s.io)`,
      comparison: `${r.verdict}${r.gaps.length ? `; not seen: ${r.gaps.join('; ')}` : ''}${base && r !== base ? `; +${r.requests - base.requests} over the smallest` : ''}`,
      target:
        'claims 1 + 1 per 500 (at most 4), slices 1 + 1 per 500 (at most 2), classes and templates 1 each',
      // Over the smallest: 3 more claim pages, the namespace's own claims when capped, 1 more slice page.
      met: base !== undefined && r.draRequests <= base.draRequests + 5,
    })),
    notes: [
      'Claims are listed in every namespace (another tenant can hold the device) 500 a page, at most 4 pages; slices 500 a page, at most 2 pages. Past that the read is capped: the diagnosis names what it did not see and never takes unseen devices as free.',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = await runDraRequestsBench();
  for (const r of runs)
    console.log(
      `claims ${r.otherClaims}, slices ${r.extraSlices + 1}: ${r.requests} requests (${r.draRequests} resource.k8s.io), ${r.verdict}${r.gaps.length ? `, not seen: ${r.gaps.join('; ')}` : ''}`,
    );
}
