/**
 * Rollouts in motion over a generated state (sim/generated-states.ts), for the property
 * test's `--motion` family (DESIGN.md §4c): states where the rollout is moving but could
 * look stuck at the moment of the snapshot.
 * - slow stops: a preStop hook that sleeps and a long terminationGracePeriodSeconds, so
 *   old pods stay Terminating (holding their host port, GPU, cpu and quota) for a while;
 * - slow starts: a readiness probe's initialDelaySeconds and the workload's
 *   minReadySeconds, so each step waits;
 * - preemption in progress: the new template at a higher priority, the other tenants'
 *   pods slow to stop, so a new pod sits Pending with status.nominatedNodeName while
 *   its victims terminate;
 * - a quota with no slack (pods, the count the rollout runs at), so creates are refused
 *   until an old pod is gone and the ReplicaSet controller retries;
 * - an early snapshot: a few seconds after the change, often mid-step.
 * Nothing here waits on a person (a cordon lifted, a quota raised): what comes next is
 * the controllers' own doing. Drawn from a stream of its own, so the state's other draws
 * (and so every seed's cluster without `--motion`) are unchanged.
 */
import { random, type GeneratedState } from './generated-states.js';

type Container = Record<string, unknown> & { name: string };
type PodSpec = Record<string, unknown> & { containers: Container[]; priority?: number };
type Template = { metadata?: object; spec: PodSpec };
type Workload = {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec: Record<string, unknown> & { template: Template; replicas?: number };
};
type Pod = { kind: string; metadata: { namespace?: string }; spec: PodSpec };
type Quota = { kind: string; spec: { hard: Record<string, string> } };

/** Seconds the judge lets the rollout run after the snapshot: long enough for every slow step. */
const BASE_FORWARD = 900;

/** The state with motion drawn for `state.seed` (the same seed, the same motion). */
export function withMotion(state: GeneratedState): GeneratedState {
  const r = random(state.seed ^ 0x6d6f7469);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const chance = (p: number): boolean => r() < p;
  const slowStop = chance(0.6);
  const grace = pick([45, 90, 180] as const);
  const preStop = pick([15, 40, 120, 240] as const);
  const execHook = chance(0.5);
  const slowReady = chance(0.4);
  const initialDelay = pick([5, 20, 45] as const);
  const minReady = chance(0.35) ? pick([5, 15, 40] as const) : 0;
  const preempts = chance(0.3);
  const slowTenants = preempts || chance(0.3);
  const tightQuota = chance(0.25);
  const early = chance(0.6);
  const after = early ? pick([0, 1, 2, 3, 5, 8] as const) : state.after;
  if (!slowStop && !slowReady && minReady === 0 && !preempts && !tightQuota && !early) return state;

  const hook = (seconds: number): object =>
    execHook
      ? { preStop: { exec: { command: ['sleep', String(seconds)] } } }
      : { preStop: { sleep: { seconds } } };
  const stopsSlowly = (spec: PodSpec, seconds: number, gracePeriod: number): PodSpec => ({
    ...spec,
    terminationGracePeriodSeconds: gracePeriod,
    containers: spec.containers.map((c) => ({ ...c, lifecycle: hook(seconds) })),
  });
  const startsSlowly = (spec: PodSpec): PodSpec => ({
    ...spec,
    containers: spec.containers.map((c) => ({
      ...c,
      readinessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: initialDelay, periodSeconds: 5 },
    })),
  });
  const reshape = (w: Workload, changed: boolean): Workload => {
    let spec = w.spec.template.spec;
    if (slowStop) spec = stopsSlowly(spec, preStop, grace);
    if (slowReady) spec = startsSlowly(spec);
    if (preempts && changed) spec = { ...spec, priority: 1000 };
    return {
      ...w,
      spec: {
        ...w.spec,
        ...(minReady > 0 ? { minReadySeconds: minReady } : {}),
        template: { ...w.spec.template, spec },
      },
    };
  };
  const isWorkload = (o: object): o is Workload =>
    (o as Workload).kind === state.kind && (o as Workload).metadata?.name === state.name;
  const isTenant = (o: object): o is Pod =>
    (o as Pod).kind === 'Pod' && (o as Pod).metadata?.namespace === 'tenants';
  const workload = state.objects.find(isWorkload);
  const replicas = workload?.spec.replicas;
  const hasQuota = state.objects.some((o) => (o as Quota).kind === 'ResourceQuota');
  const quota =
    tightQuota && !hasQuota && replicas !== undefined
      ? [
          {
            apiVersion: 'v1',
            kind: 'ResourceQuota',
            metadata: { name: 'pods', namespace: state.namespace },
            spec: { hard: { pods: String(replicas + pick([0, 0, 1] as const)) } },
          },
        ]
      : [];
  const objects = [
    ...state.objects.map((o) => {
      if (isWorkload(o)) return reshape(o, false);
      if (slowTenants && isTenant(o)) return { ...o, spec: stopsSlowly(o.spec, preStop, grace) };
      return o;
    }),
    ...quota,
  ];
  const count = replicas ?? state.objects.filter((o) => (o as { kind?: string }).kind === 'Node').length;
  // Each step may wait for a stop (grace at most), a readiness delay and minReadySeconds.
  const perStep = (slowStop ? grace + 5 : 0) + (slowReady ? initialDelay + 2 : 0) + minReady + 5;
  const words = [
    ...(slowStop
      ? [
          `old pods stop in ${Math.min(preStop, grace)}s (preStop ${execHook ? 'exec ' : ''}sleep ${preStop}, grace ${grace})`,
        ]
      : []),
    ...(slowReady ? [`ready after ${initialDelay}s`] : []),
    ...(minReady > 0 ? [`minReadySeconds ${minReady}`] : []),
    ...(preempts ? ['new template at priority 1000'] : []),
    ...(slowTenants ? ['tenants stop slowly'] : []),
    ...(quota.length > 0 ? [`quota pods ${(quota[0] as Quota).spec.hard['pods'] ?? ''}`] : []),
    ...(after !== state.after ? [`snapshot after ${after}s`] : []),
  ];
  return {
    ...state,
    objects,
    changed: reshape(state.changed as Workload, true),
    after,
    forwardSeconds: BASE_FORWARD + 2 * count * perStep,
    description: `${state.description}, motion: ${words.join(', ') || 'none'}`,
  };
}
