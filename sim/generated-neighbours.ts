/**
 * The opt-in `neighbours` guard family ("several rollouts at once"): a second
 * Deployment, `checkout`, beside the target in its namespace, sharing its capacity. Its
 * pods ask for what the target's ask for (the same cpu, the GPU, the host port), and it
 * is sized from the room the nodes have left once the target's pods run (pods of one
 * size pack alike whatever the order, so the sum over schedulable nodes of the pods each
 * holds is exact). Drawn from sub-variants:
 * - shared-rollout: both Deployments start a rollout at once on the same nodes (sometimes
 *   both given host port 8080, one pod a node);
 * - hpa-pending: the neighbour's HorizontalPodAutoscaler raises its replicas as the target's
 *   rollout starts (the utilization annotation goes to 200%), so its new pods are Pending
 *   and older than any pod a plan of ours makes room for: at equal priority the scheduler's
 *   queue (sim/controllers/scheduler.ts sync) gives them the room first; their priority is
 *   ours, higher (1000: they preempt ours) or lower (-10);
 * - shared-quota: a ResourceQuota on pods or requests.cpu held by both, both rolling;
 * - shared-budget: a PodDisruptionBudget selecting `tier: front`, on both workloads' pods;
 *   the neighbour rolling, or raised past the room it has (short of replicas);
 * - freeing: the neighbour fills the room the target would surge into, and frees it: its
 *   scaled-down pods terminate slowly (a preStop sleep), or its own rollout moves to a
 *   smaller pod (maxSurge 0), so the target's rollout finishes once it has.
 */
import type { GeneratedState } from './generated-states.js';
import { startStepped } from './stepped.js';

export const NEIGHBOUR = 'checkout';
export const NEIGHBOUR_VARIANTS = [
  'shared-rollout',
  'hpa-pending',
  'shared-quota',
  'shared-budget',
  'freeing',
] as const;
export type NeighbourVariant = (typeof NEIGHBOUR_VARIANTS)[number];

type Json = Record<string, unknown>;
type Container = Json & {
  name: string;
  image: string;
  ports?: object[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
};
type Template = { metadata?: { labels?: Record<string, string> }; spec: Json & { containers: Container[] } };
type Workload = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: Json & { replicas?: number; strategy?: object; template: Template };
};
type Pick = <T>(list: readonly T[]) => T;
type Chance = (p: number) => boolean;

interface Ask {
  cpu: number;
  gpu: boolean;
  port: boolean;
}

const milli = (q: string | undefined): number => {
  if (!q) return 0;
  return q.endsWith('m') ? Number.parseInt(q, 10) : Math.round(Number(q) * 1000);
};

function askOf(t: Template): Ask {
  const c = t.spec.containers[0];
  return {
    cpu: milli(c?.resources?.requests?.['cpu']),
    gpu: c?.resources?.requests?.['nvidia.com/gpu'] !== undefined,
    port: (c?.ports ?? []).some((p) => (p as { hostPort?: number }).hostPort !== undefined),
  };
}

/**
 * Pods of `ask` the schedulable, untainted nodes still hold once `objects` have settled
 * (run on the stepped simulator until the target is available: a tenant bound past its
 * node's room is refused there, which arithmetic over the objects would miss). Pods of
 * one size pack alike whatever the order, so the sum over the nodes is exact.
 */
export function roomFor(
  objects: readonly object[],
  ask: Ask,
  target: { namespace: string; name: string; replicas: number },
): number {
  type NodeView = {
    metadata: { name: string };
    spec?: { unschedulable?: boolean; taints?: object[] };
    status?: { allocatable?: Record<string, string> };
  };
  type PodView = {
    spec?: { nodeName?: string; containers?: Container[] };
    status?: { phase?: string };
  };
  const sim = startStepped(objects);
  try {
    sim.advance(600, () => {
      const d = sim.get('Deployment', target.namespace, target.name) as
        { status?: { availableReplicas?: number } } | undefined;
      return (d?.status?.availableReplicas ?? 0) >= target.replicas;
    });
    const used = new Map<string, { cpu: number; gpu: number; port: boolean }>();
    for (const p of sim.list('Pod') as unknown as PodView[]) {
      const node = p.spec?.nodeName;
      if (!node || p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded') continue;
      const u = used.get(node) ?? { cpu: 0, gpu: 0, port: false };
      for (const c of p.spec?.containers ?? []) {
        u.cpu += milli(c.resources?.requests?.['cpu']);
        u.gpu += Number(c.resources?.requests?.['nvidia.com/gpu'] ?? 0);
        u.port ||= (c.ports ?? []).some((q) => (q as { hostPort?: number }).hostPort === 8080);
      }
      used.set(node, u);
    }
    let room = 0;
    for (const n of sim.list('Node') as unknown as NodeView[]) {
      if (n.spec?.unschedulable || (n.spec?.taints ?? []).length > 0) continue;
      const u = used.get(n.metadata.name) ?? { cpu: 0, gpu: 0, port: false };
      const free = Math.max(0, milli(n.status?.allocatable?.['cpu']) - u.cpu);
      let fits = ask.cpu > 0 ? Math.floor(free / ask.cpu) : 110;
      if (ask.gpu)
        fits = Math.min(fits, Math.max(0, Number(n.status?.allocatable?.['nvidia.com/gpu'] ?? 0) - u.gpu));
      if (ask.port) fits = Math.min(fits, u.port ? 0 : 1);
      room += fits;
    }
    return room;
  } finally {
    sim.stop();
  }
}

function template(
  o: Ask & { image: string; priority?: number; labels?: Record<string, string>; stop?: number },
): Template {
  return {
    metadata: { labels: { app: NEIGHBOUR, ...o.labels } },
    spec: {
      ...(o.priority !== undefined && o.priority !== 0 ? { priority: o.priority } : {}),
      ...(o.stop !== undefined ? { terminationGracePeriodSeconds: o.stop + 30 } : {}),
      containers: [
        {
          name: NEIGHBOUR,
          image: o.image,
          ...(o.port ? { ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }] } : {}),
          ...(o.stop !== undefined ? { lifecycle: { preStop: { sleep: { seconds: o.stop } } } } : {}),
          resources: {
            requests: { cpu: `${o.cpu}m`, memory: '128Mi', ...(o.gpu ? { 'nvidia.com/gpu': '1' } : {}) },
            ...(o.gpu ? { limits: { 'nvidia.com/gpu': '1' } } : {}),
          },
        },
      ],
    },
  };
}

function deployment(namespace: string, replicas: number, strategy: object, t: Template): Workload {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: NEIGHBOUR, namespace },
    spec: { replicas, selector: { matchLabels: { app: NEIGHBOUR } }, strategy, template: t },
  };
}

function rolling(pick: Pick): object {
  for (;;) {
    const maxSurge = pick([0, 1, '25%', '50%'] as const);
    const maxUnavailable = pick([0, 1, '25%'] as const);
    if (maxSurge !== 0 || maxUnavailable !== 0)
      return { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } };
  }
}

const clamp = (n: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, n));

/** The target reshaped by `f` in the objects and in its change. */
function reshapeTarget(state: GeneratedState, f: (t: Template) => Template): GeneratedState {
  const is = (o: object): o is Workload =>
    (o as Workload).kind === state.kind && (o as Workload).metadata?.name === state.name;
  const re = (w: Workload): Workload => ({ ...w, spec: { ...w.spec, template: f(w.spec.template) } });
  return {
    ...state,
    objects: state.objects.map((o) => (is(o) ? re(o) : o)),
    changed: re(state.changed as Workload),
  };
}

const withPort = (t: Template): Template => ({
  ...t,
  spec: {
    ...t.spec,
    containers: t.spec.containers.map((c) => ({
      ...c,
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
    })),
  },
});

const withLabels =
  (labels: Record<string, string>) =>
  (t: Template): Template => ({
    ...t,
    metadata: { ...t.metadata, labels: { ...t.metadata?.labels, ...labels } },
  });

function targetOf(state: GeneratedState): Workload {
  return state.objects.find(
    (o) => (o as Workload).kind === state.kind && (o as Workload).metadata?.name === state.name,
  ) as Workload;
}

/** The neighbours state over `base` (a Deployment's state), drawn with `pick` and `chance`. */
export function neighbours(base: GeneratedState, pick: Pick, chance: Chance): GeneratedState {
  const variant = pick(NEIGHBOUR_VARIANTS);
  const ns = base.namespace;
  let state = base;
  if (variant === 'shared-rollout' && !askOf(targetOf(state).spec.template).port && chance(0.25))
    state = reshapeTarget(state, withPort);
  if (variant === 'shared-budget') state = reshapeTarget(state, withLabels({ tier: 'front' }));
  if (variant === 'freeing' && chance(0.7))
    state = {
      ...state,
      objects: state.objects.map((o) =>
        o === targetOf(state)
          ? { ...(o as Workload), spec: { ...(o as Workload).spec, strategy: surgeOnly } }
          : o,
      ),
      changed: {
        ...(state.changed as Workload),
        spec: { ...(state.changed as Workload).spec, strategy: surgeOnly },
      },
    };
  const target = targetOf(state);
  const ask = askOf(target.spec.template);
  const replicas = target.spec.replicas ?? 1;
  const room = roomFor(state.objects, ask, { namespace: state.namespace, name: state.name, replicas });
  const slack = pick([0, 0, 1] as const);
  const nothingLeft = room < 1 ? ' (no room left: it starts short)' : '';
  // The base's quota was drawn for the target alone: in one namespace it would hold the
  // neighbour too, so only shared-quota keeps one (its own, drawn for both).
  const quota = state.objects.some((o) => (o as { kind?: string }).kind === 'ResourceQuota');
  let objects = state.objects.filter((o) => (o as { kind?: string }).kind !== 'ResourceQuota');
  const also: object[] = [];
  let after = state.after;
  let what: string;
  if (variant === 'shared-rollout') {
    const n = clamp(room - slack, 1, 12);
    const strategy = rolling(pick);
    const bigger = chance(0.2);
    const w = deployment(ns, n, strategy, template({ ...ask, image: image(1) }));
    const next = deployment(
      ns,
      n,
      strategy,
      template({ ...ask, cpu: bigger ? ask.cpu * 2 : ask.cpu, image: image(2) }),
    );
    objects = [...objects, w];
    also.push(next);
    what = `${NEIGHBOUR} ${n} replicas ${JSON.stringify(strategy)} rolling at once${bigger ? ' to a doubled cpu' : ''}`;
  } else if (variant === 'hpa-pending') {
    const n = clamp(room - slack, 1, 12);
    const priority = pick([0, 0, 1000, -10] as const);
    const raise = pick([1, 2, 3] as const);
    const strategy = rolling(pick);
    const w = deployment(ns, n, strategy, template({ ...ask, image: image(1), priority }));
    const hpa = (utilization: number): object => autoscaler(ns, n + raise, utilization);
    objects = [...objects, w, hpa(80)];
    also.push(hpa(200));
    // Its next sync (every 15 s) raises the scale: the snapshot comes after it.
    after = Math.max(after, 16);
    what = `${NEIGHBOUR} ${n} replicas (priority ${priority}), its HPA raises it to ${n + raise}`;
  } else if (variant === 'shared-quota') {
    const n = clamp(room - slack, 1, 8);
    const strategy = rolling(pick);
    const w = deployment(ns, n, strategy, template({ ...ask, image: image(1) }));
    const next = deployment(ns, n, strategy, template({ ...ask, image: image(2) }));
    const extra = pick([0, 0, 1, 2] as const);
    const hard = chance(0.5)
      ? { pods: String(replicas + n + extra) }
      : { 'requests.cpu': `${ask.cpu * (replicas + n + extra)}m` };
    const shared = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'shared', namespace: ns },
      spec: { hard },
    };
    objects = [...objects, w, shared];
    also.push(next);
    what = `${NEIGHBOUR} ${n} replicas ${JSON.stringify(strategy)} rolling at once, shared quota ${JSON.stringify(hard)}`;
  } else if (variant === 'shared-budget') {
    const d = sharedBudget({ ns, ask, replicas, room, slack, pick, chance });
    objects = [...objects, ...d.add];
    also.push(...d.also);
    what = d.what;
  } else {
    const d = freeing({ ns, ask, replicas, room, slack, pick, chance });
    objects = [...objects, ...d.add];
    also.push(...d.also);
    after = d.after ?? after;
    what = d.what;
  }
  return {
    ...state,
    objects,
    also: [...(state.also ?? []), ...also],
    // The forward run outlasts the neighbour's slow stops and steps.
    forwardSeconds: 1200,
    after,
    neighbour: { name: NEIGHBOUR, variant },
    description: `${(quota ? state.description.replace(/quota \{[^}]*\}\}?/, 'its quota dropped') : state.description).replace(/snapshot after \d+s/, `snapshot after ${after}s`)}${variant === 'freeing' && (state.changed as Workload).spec.strategy === surgeOnly ? ', target maxSurge 1 maxUnavailable 0' : ''}, ${variant}: ${what}${nothingLeft}`,
  };
}

interface Ctx {
  ns: string;
  ask: Ask;
  replicas: number;
  room: number;
  slack: number;
  pick: Pick;
  chance: Chance;
}
/** What a sub-variant adds: objects beside the target, objects applied with the change, a snapshot time. */
interface Drawn {
  add: object[];
  also: object[];
  what: string;
  after?: number;
}

const image = (v: number): string => `shop/${NEIGHBOUR}:${v}`;

function autoscaler(ns: string, maxReplicas: number, utilization: number): object {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: {
      name: NEIGHBOUR,
      namespace: ns,
      annotations: { 'sim.rollout-doctor.io/utilization': String(utilization) },
    },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: NEIGHBOUR },
      minReplicas: 1,
      maxReplicas,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
        },
      ],
    },
  };
}

/** shared-budget: a budget over tier=front, the neighbour rolling or raised past its room. */
function sharedBudget({ ns, ask, replicas, room, slack, pick, chance }: Ctx): Drawn {
  const add: object[] = [];
  const also: object[] = [];
  const n = clamp(room - slack, 1, 8);
  const strategy = rolling(pick);
  const labels = { tier: 'front' };
  const w = deployment(ns, n, strategy, template({ ...ask, image: image(1), labels }));
  const total = replicas + n;
  const spec = pick([
    { minAvailable: total - 1 },
    { minAvailable: total },
    { minAvailable: '50%' },
    { maxUnavailable: 1 },
  ] as const);
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'front', namespace: ns },
    spec: { ...spec, selector: { matchLabels: labels } },
  };
  const short = chance(0.4);
  const raised = Math.max(n, room) + pick([1, 2] as const);
  add.push(w, pdb);
  if (short) also.push(deployment(ns, raised, strategy, template({ ...ask, image: image(1), labels })));
  else also.push(deployment(ns, n, strategy, template({ ...ask, image: image(2), labels })));
  const what = `${NEIGHBOUR} ${n} replicas ${short ? `raised to ${raised}, past its room` : `${JSON.stringify(strategy)} rolling at once`}, pdb over tier=front ${JSON.stringify(spec)}`;
  return { add, also, what };
}

/** freeing: the neighbour fills the room and frees it (slow stops, or its own rollout to smaller pods). */
function freeing({ ns, ask, room, pick, chance }: Ctx): Drawn {
  const add: object[] = [];
  const also: object[] = [];
  let what: string;
  // Pods k times the target's so that at most 12 fill the room (a remainder below k
  // of the target's pods a node may stay free); each old one stops slowly (preStop).
  const k = Math.max(1, Math.ceil(room / 12));
  const n = Math.max(1, Math.floor(room / k));
  const big = { ...ask, cpu: ask.cpu * k };
  const stop = pick([20, 45, 90] as const);
  const terminating = chance(0.5);
  const after = pick([1, 4, 8] as const);
  if (terminating) {
    const down = Math.min(n - 1, pick([1, 2] as const));
    const t = template({ ...big, image: image(1), stop });
    const strategy = rolling(pick);
    add.push(deployment(ns, n, strategy, t));
    if (down > 0) also.push(deployment(ns, n - down, strategy, t));
    what = `${NEIGHBOUR} ${n} replicas of ${big.cpu}m filling the room, scaled to ${n - down} as the rollout starts (preStop ${stop}s)`;
  } else {
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    add.push(deployment(ns, n, strategy, template({ ...big, image: image(1), stop })));
    const smaller = { cpu: Math.max(50, Math.floor(ask.cpu / 4)), gpu: false, port: false };
    const next = deployment(ns, n, strategy, template({ ...smaller, image: image(2) }));
    also.push({ ...next, spec: { ...next.spec, minReadySeconds: 20 } });
    what = `${NEIGHBOUR} ${n} replicas of ${big.cpu}m filling the room (preStop ${stop}s), rolling to ${smaller.cpu}m pods without GPU or host port (maxSurge 0, minReadySeconds 20)`;
  }
  return { add, also, what, after };
}

const surgeOnly = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
