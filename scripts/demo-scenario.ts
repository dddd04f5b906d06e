/**
 * The demo cluster: both seed incidents (sim/scenarios/gpu-deadlock.yaml and
 * crashloop-node.yaml) in one simulated cluster, so one worker serves both stories.
 * With `dra`, the tracker's incident is its DRA twin (gpu-deadlock-dra.yaml: the GPU
 * published in a ResourceSlice and held through a per-pod ResourceClaim).
 */
import { fileURLToPath } from 'node:url';
import { readScenarioFile } from '../sim/scenario.js';

interface Named {
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
}

function keyOf(object: unknown): string {
  const o = object as Named;
  return `${String(o.kind)}/${String(o.metadata?.namespace ?? '')}/${String(o.metadata?.name)}`;
}

/**
 * Objects of both seed scenarios, first occurrence kept when both declare the same
 * object (a shared Namespace, say).
 */
export async function demoScenarioObjects(options: { dra?: boolean } = {}): Promise<object[]> {
  const seen = new Set<string>();
  const out: object[] = [];
  for (const file of [options.dra ? 'gpu-deadlock-dra.yaml' : 'gpu-deadlock.yaml', 'crashloop-node.yaml']) {
    const path = fileURLToPath(new URL(`../sim/scenarios/${file}`, import.meta.url));
    for (const object of await readScenarioFile(path)) {
      const key = keyOf(object);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(object as object);
    }
  }
  return out;
}

/** The two workloads of the story. */
export const TRACKER = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' } as const;
export const CHECKOUT = { kind: 'Deployment', namespace: 'shop', name: 'checkout' } as const;
/** The node the checkout image crashes on (the kube-sim crash rule of crashloop-node.yaml). */
export const BAD_NODE = 'node-b';
