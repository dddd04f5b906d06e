/**
 * The cluster autoscaler's own account of its node groups: the ConfigMap
 * kube-system/cluster-autoscaler-status it writes every loop (--write-status-configmap,
 * on by default), key `status`. Since 1.30 the value is YAML of its api
 * ClusterAutoscalerStatus (clusterstate/api: nodeGroups[].name, health.status,
 * health.cloudProviderTarget, health.minSize/maxSize, scaleUp.status); before, a text
 * ("Name: …", "Health: Healthy (ready=2 … cloudProviderTarget=2 (minSize=0, maxSize=5))",
 * "ScaleUp: Backoff (…)"). Both are read; anything else is not understood, never taken
 * for "no node group can grow". Pure.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

interface AutoscalerGroup {
  /** The autoscaler's name for it (an ASG name, a MIG URL, a VMSS name, a MachineDeployment). */
  name: string;
  /** Healthy, or why not (Unhealthy: it does not scale up). */
  healthy: boolean;
  /** The size the autoscaler has asked the cloud provider for. */
  target: number;
  max: number;
  /** ScaleUp status: NoActivity, InProgress, Backoff (a failed scale-up: not retried for a while). */
  scaleUp: string;
}

export type AutoscalerStatus = { groups: AutoscalerGroup[] } | { unreadable: string };

const count = z.coerce.number().int().nonnegative();

const YamlStatus = z.object({
  nodeGroups: z
    .array(
      z.object({
        name: z.string().min(1).max(1000),
        health: z.object({
          status: z.string().default('Healthy'),
          cloudProviderTarget: count,
          maxSize: count,
        }),
        scaleUp: z
          .object({ status: z.string().default('NoActivity') })
          .partial()
          .optional(),
      }),
    )
    .default([]),
});

/** The node groups of a status value, or why it could not be read. */
export function parseAutoscalerStatus(value: string | undefined): AutoscalerStatus {
  if (typeof value !== 'string' || value.trim() === '') return { unreadable: 'the status is empty' };
  if (/^\s*Cluster-autoscaler status at /m.test(value) || /^\s*NodeGroups:\s*$/m.test(value))
    return parseLegacy(value);
  let doc: unknown;
  try {
    doc = parseYaml(value, { maxAliasCount: 0 });
  } catch {
    return { unreadable: 'the status is neither YAML nor the autoscaler’s text' };
  }
  const parsed = YamlStatus.safeParse(doc);
  if (!parsed.success) return { unreadable: 'the status does not have the shape the autoscaler writes' };
  return {
    groups: parsed.data.nodeGroups.map((g) => ({
      name: g.name,
      healthy: g.health.status === 'Healthy',
      target: g.health.cloudProviderTarget,
      max: g.health.maxSize,
      scaleUp: g.scaleUp?.status ?? 'NoActivity',
    })),
  };
}

const HEALTH = /cloudProviderTarget=(\d+)\s*\(minSize=(\d+),\s*maxSize=(\d+)\)/;

/** The text the autoscaler wrote before 1.30: a block per group after "NodeGroups:". */
function parseLegacy(value: string): AutoscalerStatus {
  const at = value.search(/^\s*NodeGroups:\s*$/m);
  if (at < 0) return { groups: [] };
  const groups: AutoscalerGroup[] = [];
  let current: Partial<AutoscalerGroup> | undefined;
  const finish = (): boolean => {
    if (!current) return true;
    const { name, healthy, target, max } = current;
    if (name === undefined || healthy === undefined || target === undefined || max === undefined)
      return false;
    groups.push({ name, healthy, target, max, scaleUp: current.scaleUp ?? 'NoActivity' });
    return true;
  };
  for (const line of value.slice(at).split('\n').slice(1)) {
    const field = /^\s*(Name|Health|ScaleUp):\s*(.*)$/.exec(line);
    if (!field) continue;
    const [, key, rest = ''] = field;
    if (key === 'Name') {
      if (!finish()) return { unreadable: 'a node group of the status has no size' };
      current = { name: rest.trim() };
    } else if (current && key === 'Health') {
      const sizes = HEALTH.exec(rest);
      if (!sizes) return { unreadable: `node group ${current.name ?? ''} has no size in the status` };
      current.healthy = rest.trim().startsWith('Healthy');
      current.target = Number(sizes[1]);
      current.max = Number(sizes[3]);
    } else if (current && key === 'ScaleUp') current.scaleUp = rest.trim().split(/\s/)[0] ?? 'NoActivity';
  }
  return finish() ? { groups } : { unreadable: 'a node group of the status has no size' };
}
