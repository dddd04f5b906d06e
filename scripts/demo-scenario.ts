/**
 * The demo cluster: both seed incidents (sim/scenarios/gpu-deadlock.yaml and
 * crashloop-node.yaml) in one simulated cluster, so one worker serves both stories.
 * With `dra`, the tracker's incident is its DRA twin (gpu-deadlock-dra.yaml: the GPU
 * published in a ResourceSlice and held through a per-pod ResourceClaim). The same
 * cluster is `npm run sim -- --scenario sim/scenarios/gpu-deadlock.yaml --scenario
 * sim/scenarios/crashloop-node.yaml` (both merge through readScenarioFiles).
 */
import { join } from 'node:path';
import { packageRoot } from '../src/cli/version.js';
import { readScenarioFiles } from '../sim/scenario.js';

/** Which incidents the demo plays: the two seeds (Deployments), the node agent's (a DaemonSet), the ledger's (a StatefulSet) or the tracker's as an Argo Rollout. */
export type DemoKind = 'deployment' | 'daemonset' | 'statefulset' | 'rollout';

/** The seed scenario files of the demo cluster, in the order they are merged. */
export function demoScenarioFiles(options: { dra?: boolean; kind?: DemoKind } = {}): string[] {
  const files =
    options.kind === 'daemonset'
      ? ['node-agent-surge.yaml']
      : options.kind === 'statefulset'
        ? ['statefulset-bad-release.yaml']
        : options.kind === 'rollout'
          ? ['gpu-deadlock-rollout.yaml']
          : [options.dra ? 'gpu-deadlock-dra.yaml' : 'gpu-deadlock.yaml', 'crashloop-node.yaml'];
  // From the checkout, also when this runs from scripts/transpiled-tree.ts' tree.
  const scenarios = join(packageRoot(import.meta.url), 'sim', 'scenarios');
  return files.map((file) => join(scenarios, file));
}

/**
 * Objects of both seed scenarios, first occurrence kept when both declare the same
 * object (a shared Namespace, say).
 */
export async function demoScenarioObjects(
  options: { dra?: boolean; kind?: DemoKind } = {},
): Promise<object[]> {
  return (await readScenarioFiles(demoScenarioFiles(options))) as object[];
}

/** The two workloads of the story. */
export const TRACKER = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' } as const;
export const CHECKOUT = { kind: 'Deployment', namespace: 'shop', name: 'checkout' } as const;
/** The node agent of `--kind daemonset` (sim/scenarios/node-agent-surge.yaml). */
export const NODE_AGENT = { kind: 'DaemonSet', namespace: 'telemetry', name: 'node-agent' } as const;
/** The ledger of `--kind statefulset` (sim/scenarios/statefulset-bad-release.yaml). */
export const LEDGER = { kind: 'StatefulSet', namespace: 'payments', name: 'ledger' } as const;
/** The tracker as an Argo Rollout, of `--kind rollout` (sim/scenarios/gpu-deadlock-rollout.yaml). */
export const ARGO_TRACKER = { kind: 'Rollout', namespace: 'vision', name: 'vision-object-tracker' } as const;
/** The node the checkout image crashes on (the kube-sim crash rule of crashloop-node.yaml). */
export const BAD_NODE = 'node-b';
