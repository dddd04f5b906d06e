/**
 * Random clusters for the generated-state property test (test/support/state-judge.ts,
 * `npm run verify:states`): a few nodes (zones, GPUs, cordons, taints), other tenants'
 * pods at several priorities, one workload (a Deployment with any strategy, as ints
 * and percents, or a DaemonSet with surge or unavailability; a StatefulSet, ordered or
 * parallel, with a partition or maxUnavailable, or an Argo Rollout, a basic canary with
 * setWeight and pause steps or blue-green (sim/generated-rollouts.ts), when asked for), sometimes a quota on
 * pods, CPU or GPUs, and the template change that starts its next rollout (a new
 * image, sometimes a bigger request, a host port, a higher priority). Seeded: the same
 * seed gives the same cluster.
 */

import { rollout, rolloutServices, rolloutStrategy } from './generated-rollouts.js';

/** mulberry32: a small seeded generator, enough for test data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedState {
  seed: number;
  kind: GeneratedKind;
  namespace: string;
  name: string;
  /** The cluster in its steady state, before the change. */
  objects: object[];
  /** The workload with its next template (apply it to start the rollout). */
  changed: object;
  /** Seconds to let the rollout run before the snapshot is taken. */
  after: number;
  /** Seconds the judge runs the rollout on after the snapshot (default 900; slow families need more). */
  forwardSeconds?: number;
  /** One line: what was generated. */
  description: string;
  /** The `--guards` family it was drawn for (sim/generated-guards.ts). */
  family?: string;
  /** Objects applied together with the change (a crash rule, a cordon). */
  also?: object[];
  /** What happens after the change, before the snapshot (`at` seconds in): no person's doing but the scenario's. */
  later?: LaterAction[];
  /** Images known to crash wherever they run: a plan must not swap serving pods for them. */
  crashImages?: string[];
  /**
   * A second Deployment of the namespace moving at once, sharing the target's capacity
   * (the `neighbours` family, sim/generated-neighbours.ts): a plan's replay is judged
   * again with it losing the race for the room the plan frees (plan-judge.ts).
   */
  neighbour?: { name: string; variant: string };
}

/**
 * A scripted step of a generated state: an object applied (a crash rule lifted, a node
 * joining), a merge patch (a Deployment paused), or the node of a pod cordoned and,
 * with `evict`, drained of the workload's pods there (as `kubectl drain` evicts them).
 */
export type LaterAction =
  | { at: number; apply: object }
  | { at: number; patch: { kind: string; name: string; body: object } }
  | { at: number; drain: { pod: string; evict: boolean } };

export type GeneratedKind = 'Deployment' | 'DaemonSet' | 'StatefulSet' | 'Rollout';

const NS = 'shop';
const NAME = 'web';

/**
 * The state of `seed`. `only` draws that kind's family (the same seed gives the same
 * cluster around it); without it a Deployment or a DaemonSet, as the seeds always have.
 */
export function generateState(seed: number, only?: GeneratedKind): GeneratedState {
  const r = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const chance = (p: number): boolean => r() < p;
  const nodeCount = 2 + Math.floor(r() * 4);
  const gpuNodes = chance(0.3);
  const nodes = Array.from({ length: nodeCount }, (_, i) => {
    const gpus = gpuNodes && i < 2 ? 1 + Math.floor(r() * 2) : 0;
    return node(`node-${i}`, {
      cpu: pick([2000, 4000, 4000, 8000]),
      gpus,
      zone: i % 2 === 0 ? 'zone-a' : 'zone-b',
      cordoned: nodeCount > 2 && chance(0.12),
      taint: nodeCount > 2 && chance(0.12),
    });
  });
  const drawn: GeneratedKind = chance(0.3) ? 'DaemonSet' : 'Deployment';
  const kind = only ?? drawn;
  const replicas = kind === 'DaemonSet' ? nodeCount : 1 + Math.floor(r() * 6);
  const cpu = pick([250, 500, 1000, 1500]);
  const gpu = gpuNodes && kind !== 'DaemonSet' && chance(0.5);
  const port = chance(0.25);
  const template = podTemplate({ image: 'shop/web:1', cpu, gpu, port, priority: 0 });
  const strategy =
    kind === 'Deployment'
      ? deploymentStrategy(pick, chance)
      : kind === 'DaemonSet'
        ? daemonStrategy(pick, chance)
        : kind === 'Rollout'
          ? rolloutStrategy(pick, chance, NAME)
          : statefulStrategy(pick, chance, replicas);
  const workload =
    kind === 'Deployment'
      ? deployment(replicas, strategy, template)
      : kind === 'DaemonSet'
        ? daemonSet(strategy, template)
        : kind === 'Rollout'
          ? rollout(NS, NAME, replicas, strategy, template)
          : statefulSet(replicas, strategy, pick(['OrderedReady', 'Parallel'] as const), template);
  // A node agent on every node, as clusters have: the dump then holds other namespaces' pods.
  const agents = nodes.map((_, i) => tenantPod(`agent-${i}`, `node-${i}`, 50, 2000, 'kube-system'));
  const tenants = nodes.flatMap((n, i) =>
    Array.from({ length: Math.floor(r() * 3) }, (_, j) =>
      tenantPod(`tenant-${i}-${j}`, `node-${i}`, pick([250, 500, 1000, 2000]), pick([0, 0, 100, 2000])),
    ),
  );
  const quota = chance(0.3) ? quotaObject(pick, replicas, cpu, gpu) : undefined;
  const bigger = chance(0.2);
  const addsPort = !port && chance(0.1);
  const raisesPriority = chance(0.1);
  const next = podTemplate({
    image: 'shop/web:2',
    cpu: bigger ? cpu * 2 : cpu,
    gpu,
    port: port || addsPort,
    priority: raisesPriority ? 1000 : 0,
  });
  const changed = { ...workload, spec: { ...workload.spec, template: next } };
  const after = Math.floor(r() * 40);
  const description = [
    `${kind} ${kind === 'DaemonSet' ? `on ${nodeCount} nodes` : `${replicas} replicas`}${kind === 'StatefulSet' ? ` ${(workload.spec as { podManagementPolicy: string }).podManagementPolicy}` : ''}`,
    JSON.stringify(strategy),
    `${nodeCount} nodes${gpuNodes ? ' (GPUs)' : ''}`,
    `cpu ${cpu}m${bigger ? `→${cpu * 2}m` : ''}${gpu ? ' +gpu' : ''}${port ? ' +hostPort' : ''}${addsPort ? ' →hostPort' : ''}${raisesPriority ? ' →priority 1000' : ''}`,
    quota ? `quota ${JSON.stringify((quota as { spec: unknown }).spec)}` : 'no quota',
    `${tenants.length} tenant pods`,
    `snapshot after ${after}s`,
  ].join(', ');
  return {
    seed,
    kind,
    namespace: NS,
    name: NAME,
    objects: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenants' } },
      ...nodes,
      ...agents,
      ...tenants,
      ...(quota ? [quota] : []),
      ...(kind === 'Rollout' ? rolloutServices(NS, NAME, strategy) : []),
      workload,
    ],
    changed,
    after,
    description,
  };
}

export type Pick = <T>(list: readonly T[]) => T;

function deploymentStrategy(pick: Pick, chance: (p: number) => boolean): object {
  if (chance(0.1)) return { type: 'Recreate' };
  for (;;) {
    const maxSurge = pick([0, 1, 2, '25%', '50%', '100%'] as const);
    const maxUnavailable = pick([0, 1, 2, '25%', '50%'] as const);
    if (maxSurge !== 0 || maxUnavailable !== 0)
      return { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } };
  }
}

function daemonStrategy(pick: Pick, chance: (p: number) => boolean): object {
  if (chance(0.5))
    return {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: pick([1, '50%'] as const), maxUnavailable: 0 },
    };
  return {
    type: 'RollingUpdate',
    rollingUpdate: { maxSurge: 0, maxUnavailable: pick([1, 2, '50%'] as const) },
  };
}

/** RollingUpdate, sometimes with a partition (pods below it keep the old revision) or maxUnavailable. */
function statefulStrategy(pick: Pick, chance: (p: number) => boolean, replicas: number): object {
  const rollingUpdate = {
    ...(chance(0.2) ? { partition: Math.floor(replicas / 2) } : {}),
    ...(chance(0.4) ? { maxUnavailable: pick([1, 2, '50%'] as const) } : {}),
  };
  return Object.keys(rollingUpdate).length > 0
    ? { type: 'RollingUpdate', rollingUpdate }
    : { type: 'RollingUpdate' };
}

function node(
  name: string,
  o: { cpu: number; gpus: number; zone: string; cordoned: boolean; taint: boolean },
): object {
  const resources = {
    cpu: `${o.cpu}m`,
    memory: '16Gi',
    pods: '110',
    ...(o.gpus > 0 ? { 'nvidia.com/gpu': String(o.gpus) } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': o.zone },
    },
    spec: {
      ...(o.cordoned
        ? { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }
        : {}),
      ...(o.taint && !o.cordoned
        ? { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] }
        : {}),
    },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  };
}

function podTemplate(o: {
  image: string;
  cpu: number;
  gpu: boolean;
  port: boolean;
  priority: number;
}): object {
  return {
    metadata: { labels: { app: NAME } },
    spec: {
      ...(o.priority > 0 ? { priority: o.priority } : {}),
      containers: [
        {
          name: NAME,
          image: o.image,
          ...(o.port ? { ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }] } : {}),
          resources: {
            requests: { cpu: `${o.cpu}m`, memory: '128Mi', ...(o.gpu ? { 'nvidia.com/gpu': '1' } : {}) },
            ...(o.gpu ? { limits: { 'nvidia.com/gpu': '1' } } : {}),
          },
        },
      ],
    },
  };
}

function deployment(
  replicas: number,
  strategy: object,
  template: object,
): { spec: object; [key: string]: unknown } {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: NAME, namespace: NS },
    spec: { replicas, selector: { matchLabels: { app: NAME } }, strategy, template },
  };
}

function daemonSet(strategy: object, template: object): { spec: object; [key: string]: unknown } {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: NAME, namespace: NS },
    spec: { selector: { matchLabels: { app: NAME } }, updateStrategy: strategy, template },
  };
}

function statefulSet(
  replicas: number,
  updateStrategy: object,
  podManagementPolicy: 'OrderedReady' | 'Parallel',
  template: object,
): { spec: object; [key: string]: unknown } {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: NAME, namespace: NS },
    spec: {
      replicas,
      serviceName: NAME,
      podManagementPolicy,
      selector: { matchLabels: { app: NAME } },
      updateStrategy,
      template,
    },
  };
}

function tenantPod(
  name: string,
  nodeName: string,
  cpu: number,
  priority: number,
  namespace = 'tenants',
): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: 'tenant' } },
    spec: {
      nodeName,
      priority,
      containers: [
        { name: 'main', image: 'tenant:1', resources: { requests: { cpu: `${cpu}m`, memory: '64Mi' } } },
      ],
    },
  };
}

function quotaObject(pick: Pick, replicas: number, cpu: number, gpu: boolean): object {
  const slack = pick([0, 0, 1, 2]);
  const hard =
    gpu && pick([true, false])
      ? { 'requests.nvidia.com/gpu': String(replicas + slack) }
      : pick([true, false])
        ? { pods: String(replicas + slack) }
        : { 'requests.cpu': `${cpu * (replicas + slack)}m` };
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'compute', namespace: NS },
    spec: { hard },
  };
}
