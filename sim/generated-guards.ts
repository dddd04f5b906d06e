/**
 * The `--guards` families of the generated states: states where the cluster
 * holds more than the rollout, and a fix must be judged against it.
 * - budget: a PodDisruptionBudget over the workload's pods (minAvailable as an int or a
 *   percent, or maxUnavailable), the floor the judge holds every plan to;
 * - paused: a Deployment paused with its template change, or paused a few seconds in;
 * - crash-stopped: the new image crash-loops on one node for a minute or two, then runs
 *   (the crash rule is lifted): restarts and lastState stay, Ready for minutes since;
 * - crash-everywhere: the new image crashes on every node, sometimes beside a surge pod
 *   that waits for the host port its old pod holds;
 * - quota-near: a ResourceQuota exactly at what the running pods use (pods or cpu);
 * - blue-green: an Argo Rollout with the blue-green strategy;
 * - traffic-routed: an Argo canary with trafficRouting (the stable keeps every replica,
 *   the canary gets the step's weight: sim/controllers/argo/traffic-routed.ts);
 * - storage: a StatefulSet whose pods' claims bind local volumes (WaitForFirstConsumer,
 *   no provisioner), and the node of pod 0 cordoned, or cordoned and drained, as the
 *   rollout starts;
 * - daemonset-pending: a DaemonSet, and a node that joins without room for its pod as
 *   the rollout starts (the Pending pod there spends maxUnavailable);
 * - min-ready: minReadySeconds of 30 to 120 s, the snapshot taken early;
 * - crash-shared (opt-in, OPT_IN_FAMILIES): the new image crashes on the nodes of one
 *   kind (a newer kernel in status.nodeInfo, and half the time a pool label that says
 *   so), one or two of them; a node of that kind the rollout has not reached yet
 *   crashes too once it does;
 * - neighbours (opt-in): a second Deployment beside the target sharing its capacity, both
 *   rolling, its HPA raising it, a shared quota or budget, or its progress freeing the
 *   room the target needs (sim/generated-neighbours.ts).
 * Each family draws from a stream of its own over the base state of its seed.
 */
import { blueGreenStrategy, canarySteps, rollout, rolloutServices } from './generated-rollouts.js';
import { neighbours as withNeighbour } from './generated-neighbours.js';
import { generateState, random, type GeneratedKind, type GeneratedState } from './generated-states.js';

export const GUARD_FAMILIES = [
  'budget',
  'paused',
  'crash-stopped',
  'crash-everywhere',
  'quota-near',
  'blue-green',
  'traffic-routed',
  'storage',
  'daemonset-pending',
  'min-ready',
] as const;
/**
 * Families drawn only when named (`--family NAME`), from every seed: not in the rotation
 * of familyOfSeed, whose seeds the other families' pinned tests rely on.
 */
export const OPT_IN_FAMILIES = ['crash-shared', 'neighbours'] as const;
export type GuardFamily = (typeof GUARD_FAMILIES)[number] | (typeof OPT_IN_FAMILIES)[number];

type Json = Record<string, unknown>;
type Workload = {
  kind: string;
  metadata: { name: string; namespace: string };
  spec: Json & { replicas?: number; template: Template };
};
type Template = { metadata?: Json; spec: Json & { containers: (Json & { name: string; image: string })[] } };

const isWorkload =
  (state: GeneratedState) =>
  (o: object): o is Workload =>
    (o as Workload).kind === state.kind && (o as Workload).metadata?.name === state.name;

/** The state of `seed` in `family` (by default the family the seed falls in). */
export function guardState(seed: number, family: GuardFamily = familyOfSeed(seed)): GeneratedState {
  const r = random(seed ^ 0x67756172);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const chance = (p: number): boolean => r() < p;
  const build = FAMILIES[family];
  const state = build(seed, pick, chance);
  return { ...state, family, description: `[${family}] ${state.description}` };
}

export function familyOfSeed(seed: number): GuardFamily {
  return GUARD_FAMILIES[seed % GUARD_FAMILIES.length] ?? 'budget';
}

type Pick = <T>(list: readonly T[]) => T;
type Chance = (p: number) => boolean;
type Build = (seed: number, pick: Pick, chance: Chance) => GeneratedState;

/** The base state with its workload (and the change) reshaped by `f`. */
function reshape(state: GeneratedState, f: (w: Workload, changed: boolean) => Workload): GeneratedState {
  const is = isWorkload(state);
  return {
    ...state,
    objects: state.objects.map((o) => (is(o) ? f(o, false) : o)),
    changed: f(state.changed as Workload, true),
  };
}

function crashRules(rules: object[]): object {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kube-sim', namespace: 'kube-system' },
    data: { 'rules.yaml': JSON.stringify(rules) },
  };
}

const nodeNames = (state: GeneratedState): string[] =>
  state.objects.flatMap((o) =>
    (o as { kind?: string }).kind === 'Node' ? [(o as { metadata: { name: string } }).metadata.name] : [],
  );

const budget: Build = (seed, pick, chance) => {
  const kind: GeneratedKind = chance(0.7) ? 'Deployment' : 'StatefulSet';
  const base = generateState(seed, kind);
  const w = base.objects.find(isWorkload(base));
  const replicas = w?.spec.replicas ?? 1;
  const spec = pick([
    { minAvailable: Math.max(1, replicas - 1) },
    { minAvailable: replicas },
    { minAvailable: '50%' },
    { maxUnavailable: 1 },
    { maxUnavailable: 0 },
  ] as const);
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: base.name, namespace: base.namespace },
    spec: { ...spec, selector: { matchLabels: { app: base.name } } },
  };
  return {
    ...base,
    objects: [...base.objects, pdb],
    description: `${base.description}, pdb ${JSON.stringify(spec)}`,
  };
};

const paused: Build = (seed, pick, chance) => {
  const base = generateState(seed, 'Deployment');
  const atOnce = chance(0.5);
  const at = pick([1, 3, 5] as const);
  const state = atOnce
    ? reshape(base, (w, changed) => (changed ? { ...w, spec: { ...w.spec, paused: true } } : w))
    : {
        ...base,
        after: Math.max(base.after, at + 5),
        later: [{ at, patch: { kind: 'Deployment', name: base.name, body: { spec: { paused: true } } } }],
      };
  return { ...state, description: `${base.description}, paused ${atOnce ? 'with the change' : `${at}s in`}` };
};

const crashStopped: Build = (seed, pick) => {
  const base = generateState(seed, 'Deployment');
  const node = pick(nodeNames(base));
  const stops = pick([45, 90, 150] as const);
  const ready = pick([120, 300, 600] as const);
  return {
    ...base,
    also: [
      crashRules([{ node, image: 'shop/web:2', exitCode: 1, reason: 'Error', message: 'panic: config' }]),
    ],
    later: [{ at: stops, apply: crashRules([]) }],
    after: stops + ready,
    crashImages: [],
    description: `${base.description}, shop/web:2 crashed on ${node} for ${stops}s, then ran ${ready}s`,
  };
};

const crashEverywhere: Build = (seed, _pick, chance) => {
  const base = generateState(seed, 'Deployment');
  const port = chance(0.5);
  const withPort = (w: Workload): Workload =>
    port
      ? {
          ...w,
          spec: {
            ...w.spec,
            template: {
              ...w.spec.template,
              spec: {
                ...w.spec.template.spec,
                containers: w.spec.template.spec.containers.map((c) => ({
                  ...c,
                  ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
                })),
              },
            },
          },
        }
      : w;
  const state = reshape(base, withPort);
  const after = Math.max(base.after, 30 + (base.seed % 4) * 30);
  return {
    ...state,
    after,
    also: [
      crashRules(
        nodeNames(base).map((node) => ({ node, image: 'shop/web:2', exitCode: 1, reason: 'Error' })),
      ),
    ],
    crashImages: ['shop/web:2'],
    description: `${base.description}, shop/web:2 crashes on every node${port ? ', host port 8080' : ''}, snapshot after ${after}s`,
  };
};

const quotaNear: Build = (seed, pick) => {
  const base = generateState(seed, 'Deployment');
  const w = base.objects.find(isWorkload(base));
  const replicas = w?.spec.replicas ?? 1;
  const cpu = String(
    (w?.spec.template.spec.containers[0]?.['resources'] as { requests?: { cpu?: string } })?.requests?.cpu ??
      '250m',
  );
  const milli = Number.parseInt(cpu, 10);
  const hard = pick([{ pods: String(replicas) }, { 'requests.cpu': `${milli * replicas}m` }] as const);
  const quota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'at-limit', namespace: base.namespace },
    spec: { hard },
  };
  const objects = base.objects.filter((o) => (o as { kind?: string }).kind !== 'ResourceQuota');
  return {
    ...base,
    objects: [...objects, quota],
    description: `${base.description.replace(/quota \{[^}]*\}\}?/, '')}, quota at its limit ${JSON.stringify(hard)}`,
  };
};

const blueGreen: Build = (seed, pick, chance) => {
  const base = generateState(seed, 'Rollout');
  const strategy = blueGreenStrategy(pick, chance, base.name);
  const state = asRollout(base, strategy, rolloutServices(base.namespace, base.name, strategy));
  return {
    ...state,
    description: `${base.description.replace(/\{"canary".*?\}\}, /, '')}, blue-green ${JSON.stringify(strategy)}`,
  };
};

/** The Rollout of the base state with `strategy`, and the Services it names. */
function asRollout(base: GeneratedState, strategy: object, services: object[]): GeneratedState {
  const is = isWorkload(base);
  const w = base.objects.find(is);
  if (!w) return base;
  const next = rollout(base.namespace, base.name, w.spec.replicas ?? 1, strategy, w.spec.template);
  const objects = base.objects
    .filter((o) => !is(o) && (o as { kind?: string }).kind !== 'Service')
    .concat(services, [next]);
  const changed = {
    ...next,
    spec: { ...(next.spec as Json), template: (base.changed as Workload).spec.template },
  };
  return { ...base, objects, changed };
}

const trafficRouted: Build = (seed, pick, chance) => {
  const base = generateState(seed, 'Rollout');
  const strategy = {
    canary: {
      canaryService: `${base.name}-canary`,
      stableService: base.name,
      trafficRouting: { nginx: { stableIngress: base.name } },
      steps: canarySteps(pick, chance),
      ...(chance(0.3) ? { abortScaleDownDelaySeconds: pick([0, 10, 30] as const) } : {}),
    },
  };
  const service = (name: string): object => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: base.namespace },
    spec: { selector: { app: base.name }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
  });
  const state = asRollout(base, strategy, [service(base.name), service(`${base.name}-canary`)]);
  return {
    ...state,
    description: `${base.description.replace(/\{"canary".*?\}\}, |\{"blueGreen".*?\}\}, /, '')}, traffic-routed ${JSON.stringify(strategy.canary.steps)}`,
  };
};

const storage: Build = (seed, pick, chance) => {
  const base = generateState(seed, 'StatefulSet');
  const nodes = nodeNames(base);
  const volumes = nodes.flatMap((node) =>
    [0, 1].map((i) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `local-${node}-${i}` },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local',
        local: { path: `/mnt/disks/${i}` },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] },
            ],
          },
        },
      },
      status: { phase: 'Available' },
    })),
  );
  const cls = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'local' },
    provisioner: 'kubernetes.io/no-provisioner',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
  const claims = (w: Workload): Workload => ({
    ...w,
    spec: {
      ...w.spec,
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            storageClassName: 'local',
            resources: { requests: { storage: '5Gi' } },
          },
        },
      ],
    },
  });
  const state = reshape(base, claims);
  const drain = chance(0.6);
  return {
    ...state,
    objects: [...state.objects, cls, ...volumes],
    later: [{ at: 0, drain: { pod: `${base.name}-0`, evict: drain } }],
    description: `${base.description}, local volumes, ${base.name}-0's node ${drain ? 'cordoned and drained' : 'cordoned'}`,
  };
};

const daemonSetPending: Build = (seed, pick) => {
  const base = generateState(seed, 'DaemonSet');
  const cpu = pick([1000, 2000] as const);
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-late',
      labels: { 'kubernetes.io/hostname': 'node-late', 'topology.kubernetes.io/zone': 'zone-a' },
    },
    spec: {},
    status: {
      capacity: { cpu: `${cpu}m`, memory: '16Gi', pods: '110' },
      allocatable: { cpu: `${cpu}m`, memory: '16Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  };
  const filler = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'filler-late', namespace: 'tenants', labels: { app: 'tenant' } },
    spec: {
      nodeName: 'node-late',
      containers: [
        { name: 'main', image: 'tenant:1', resources: { requests: { cpu: `${cpu}m`, memory: '64Mi' } } },
      ],
    },
  };
  return {
    ...base,
    // The filler first: applied after the node, the DaemonSet's pod took node-late in the
    // pass between the two steps and ran there (the family held no Pending pod at all).
    later: [
      { at: 0, apply: filler },
      { at: 0, apply: node },
    ],
    description: `${base.description}, node-late joins full (${cpu}m taken)`,
  };
};

const minReady: Build = (seed, pick) => {
  const base = generateState(seed, 'Deployment');
  const seconds = pick([30, 60, 120] as const);
  const state = reshape(base, (w) => ({ ...w, spec: { ...w.spec, minReadySeconds: seconds } }));
  const after = pick([2, 8, 20, 45] as const);
  return {
    ...state,
    after,
    forwardSeconds: 900 + 4 * seconds * ((state.objects.find(isWorkload(state))?.spec.replicas ?? 1) + 1),
    description: `${base.description}, minReadySeconds ${seconds}, snapshot after ${after}s`,
  };
};

const crashShared: Build = (seed, pick, chance) => {
  const base = generateState(seed, 'Deployment');
  const nodes = nodeNames(base);
  const odd = new Set(nodes.slice(nodes.length >= 4 ? -2 : -1));
  const pool = chance(0.5);
  const kinded = (o: object): object => {
    const node = o as {
      kind?: string;
      metadata: { name: string; labels?: Record<string, string> };
      status?: Json;
    };
    if (node.kind !== 'Node') return o;
    const newer = odd.has(node.metadata.name);
    return {
      ...node,
      metadata: {
        ...node.metadata,
        labels: {
          ...node.metadata.labels,
          ...(pool ? { 'example.com/pool': newer ? 'kernel-68' : 'kernel-61' } : {}),
        },
      },
      status: {
        ...node.status,
        nodeInfo: {
          kernelVersion: newer ? '6.8.0-1009-aws' : '6.1.0-27-cloud-amd64',
          osImage: 'Ubuntu 24.04.1 LTS',
          containerRuntimeVersion: 'containerd://1.7.22',
          kubeletVersion: 'v1.35.0',
          architecture: 'amd64',
          operatingSystem: 'linux',
        },
      },
    };
  };
  const after = Math.max(base.after, pick([60, 120, 240] as const));
  return {
    ...base,
    objects: base.objects.map(kinded),
    also: [
      crashRules(
        [...odd].map((node) => ({
          node,
          image: 'shop/web:2',
          exitCode: 1,
          reason: 'Error',
          message: 'io_uring_setup: operation not permitted',
        })),
      ),
    ],
    // The image crashes on some nodes only: a pod of it is no crash in itself.
    crashImages: [],
    after,
    description: `${base.description}, shop/web:2 crashes on kernel 6.8 (${[...odd].join(', ')}${pool ? ', pool label' : ''}), snapshot after ${after}s`,
  };
};

const neighbours: Build = (seed, pick, chance) =>
  withNeighbour(generateState(seed, 'Deployment'), pick, chance);

const FAMILIES: Record<GuardFamily, Build> = {
  budget,
  paused,
  'crash-stopped': crashStopped,
  'crash-everywhere': crashEverywhere,
  'quota-near': quotaNear,
  'blue-green': blueGreen,
  'traffic-routed': trafficRouted,
  storage,
  'daemonset-pending': daemonSetPending,
  'min-ready': minReady,
  'crash-shared': crashShared,
  neighbours,
};
