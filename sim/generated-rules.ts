/**
 * Placement rules over a generated state (sim/generated-states.ts), for the property
 * test's `--rules` family: required pod anti-affinity against the workload's own pods
 * (one a node, or one a zone), in both templates or only in the new one, a new
 * template pinned to one zone, and topology spread (maxSkew 1 by zone or node,
 * DoNotSchedule, sometimes per revision with matchLabelKeys pod-template-hash). These are the "node an old pod holds" deadlocks: a new
 * pod that may not sit beside an old one, on fewer nodes than there are pods.
 *
 * Drawn from a stream of its own, so the state's other draws (and so every seed's
 * cluster without `--rules`) are unchanged. DaemonSets get none: one pod a node is what
 * they are already, and their pods are pinned to their node.
 */
import { random, type GeneratedState } from './generated-states.js';

type Template = { metadata?: object; spec: Record<string, unknown> };
type Workload = { kind: string; metadata: { name: string }; spec: { template: Template } };

/** The state with placement rules drawn for `state.seed` (the same seed, the same rules). */
export function withPlacementRules(state: GeneratedState): GeneratedState {
  if (state.kind === 'DaemonSet') return state;
  const r = random(state.seed ^ 0x5bd1e995);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const antiAffinity = pick(['none', 'both', 'both', 'new'] as const);
  const topologyKey = pick([
    'kubernetes.io/hostname',
    'kubernetes.io/hostname',
    'topology.kubernetes.io/zone',
  ]);
  const zonePin = r() < 0.25;
  const spread = pick(['none', 'none', 'both', 'new'] as const);
  const spreadKey = pick(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
  const perRevision = r() < 0.4;
  if (antiAffinity === 'none' && !zonePin && spread === 'none') return state;
  const constraint = {
    maxSkew: 1,
    topologyKey: spreadKey,
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels: { app: state.name } },
    ...(perRevision ? { matchLabelKeys: ['pod-template-hash'] } : {}),
  };
  const withSpread = (template: Template): Template => ({
    ...template,
    spec: { ...template.spec, topologySpreadConstraints: [constraint] },
  });
  const term = {
    labelSelector: { matchLabels: { app: state.name } },
    topologyKey,
  };
  const withAnti = (template: Template): Template => ({
    ...template,
    spec: {
      ...template.spec,
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
    },
  });
  const pinned = (template: Template): Template => ({
    ...template,
    spec: { ...template.spec, nodeSelector: { 'topology.kubernetes.io/zone': 'zone-a' } },
  });
  const isWorkload = (o: object): o is Workload =>
    (o as Workload).kind === state.kind && (o as Workload).metadata?.name === state.name;
  const reshape = (w: Workload, changed: boolean): Workload => {
    let template = w.spec.template;
    if (antiAffinity === 'both' || (antiAffinity === 'new' && changed)) template = withAnti(template);
    if (zonePin && changed) template = pinned(template);
    if (spread === 'both' || (spread === 'new' && changed)) template = withSpread(template);
    return { ...w, spec: { ...w.spec, template } };
  };
  const words = [
    ...(antiAffinity === 'none'
      ? []
      : [
          `anti-affinity ${topologyKey === 'kubernetes.io/hostname' ? 'one a node' : 'one a zone'}${antiAffinity === 'new' ? ' (new template only)' : ''}`,
        ]),
    ...(zonePin ? ['new template pinned to zone-a'] : []),
    ...(spread === 'none'
      ? []
      : [
          `spread maxSkew 1 by ${spreadKey === 'kubernetes.io/hostname' ? 'node' : 'zone'}${perRevision ? ' per revision' : ''}${spread === 'new' ? ' (new template only)' : ''}`,
        ]),
  ];
  return {
    ...state,
    objects: state.objects.map((o) => (isWorkload(o) ? reshape(o, false) : o)),
    changed: reshape(state.changed as Workload, true),
    description: `${state.description}, ${words.join(', ')}`,
  };
}
