/**
 * Placement rules over a generated state (sim/generated-states.ts), for the property
 * test's `--rules` family: required pod anti-affinity against the workload's own pods
 * (one a node, or one a zone), in both templates or only in the new one, and a new
 * template pinned to one zone. These are the "node an old pod holds" deadlocks: a new
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
  if (antiAffinity === 'none' && !zonePin) return state;
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
    return { ...w, spec: { ...w.spec, template } };
  };
  const words = [
    ...(antiAffinity === 'none'
      ? []
      : [
          `anti-affinity ${topologyKey === 'kubernetes.io/hostname' ? 'one a node' : 'one a zone'}${antiAffinity === 'new' ? ' (new template only)' : ''}`,
        ]),
    ...(zonePin ? ['new template pinned to zone-a'] : []),
  ];
  return {
    ...state,
    objects: state.objects.map((o) => (isWorkload(o) ? reshape(o, false) : o)),
    changed: reshape(state.changed as Workload, true),
    description: `${state.description}, ${words.join(', ')}`,
  };
}
