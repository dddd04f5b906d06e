/** The DRA twin of incident A with its GPU asked for as an extended resource a DeviceClass backs. */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { DeviceClass } from '../../src/diagnosis/k8s-dra.js';

/** The DRA twin's scenario, with the GPU asked for as `nvidia.com/gpu: 1` instead of a claim. */
export function extendedScenario(): object[] {
  const docs = parseAllDocuments(readFileSync('sim/scenarios/gpu-deadlock-dra.yaml', 'utf8'))
    .map((d) => d.toJS() as { kind?: string } | null)
    .filter((o): o is { kind?: string } => o !== null && o.kind !== 'ResourceClaimTemplate');
  for (const o of docs) {
    if (o.kind === 'DeviceClass') (o as DeviceClass).spec.extendedResourceName = 'nvidia.com/gpu';
    if (o.kind !== 'Deployment') continue;
    const spec = (o as Deployment).spec.template.spec;
    delete spec.resourceClaims;
    for (const c of spec.containers) {
      delete c.resources?.claims;
      c.resources = { ...c.resources, limits: { ...c.resources?.limits, 'nvidia.com/gpu': '1' } };
    }
  }
  return docs;
}
