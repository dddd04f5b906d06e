/**
 * The priority a template's pods are admitted with, as the Priority admission plugin
 * sets it (plugin/pkg/admission/priority/admission.go, admitPod): a template names a
 * class (priorityClassName) and carries no priority; each pod gets the class's `value`
 * and its `preemptionPolicy` (PreemptLowerPriority when unset). A template that names
 * no class gets the global default class (globalDefault; the highest such value), else
 * priority 0. A class the cluster does not have refuses the pod ("no PriorityClass with
 * name X was found"). Where the classes were not read, a pod admitted under the same
 * class says what it resolves to, and the system classes are known by name; otherwise
 * the priority is not known, never 0. Pure.
 */
import type { Pod, PodSpec } from '../k8s.js';
import type { PriorityClass } from '../k8s-policy.js';

type PriorityAdmission =
  | { result: 'admitted'; spec: PodSpec }
  | { result: 'refused'; className: string; message: string }
  | { result: 'unknown'; className: string; why: string };

const PREEMPT_LOWER = 'PreemptLowerPriority';

/** The classes kube-apiserver creates in every cluster (pkg/apis/scheduling: SystemCriticalPriority). */
const SYSTEM_CLASSES: readonly PriorityClass[] = [
  { metadata: { name: 'system-cluster-critical' }, value: 2_000_000_000 },
  { metadata: { name: 'system-node-critical' }, value: 2_000_001_000 },
];

/** A class kube-apiserver creates in every cluster, whose value is known by its name. */
export function isSystemClass(name: string): boolean {
  return SYSTEM_CLASSES.some((c) => c.metadata.name === name);
}

/**
 * `spec` with the priority its pods are admitted with. `classes`: the cluster's
 * PriorityClasses (undefined: not read); `pods`: pods already admitted (any workload's)
 * whose class settles an unread one.
 */
export function admitPriority(
  spec: PodSpec,
  classes: readonly PriorityClass[] | undefined,
  pods: readonly Pod[],
): PriorityAdmission {
  if (spec.priority !== undefined) return { result: 'admitted', spec };
  const name = spec.priorityClassName;
  if (classes) {
    const chosen = name ? classes.find((c) => c.metadata.name === name) : globalDefault(classes);
    if (name && !chosen)
      return { result: 'refused', className: name, message: `no PriorityClass with name ${name} was found` };
    return { result: 'admitted', spec: withClass(spec, chosen) };
  }
  const admitted = pods.find(
    (p) => p.spec.priority !== undefined && (p.spec.priorityClassName ?? '') === (name ?? ''),
  );
  if (admitted)
    return {
      result: 'admitted',
      spec: {
        ...spec,
        priority: admitted.spec.priority,
        preemptionPolicy: spec.preemptionPolicy ?? admitted.spec.preemptionPolicy ?? PREEMPT_LOWER,
      },
    };
  if (!name) return { result: 'admitted', spec };
  const system = SYSTEM_CLASSES.find((c) => c.metadata.name === name);
  if (system) return { result: 'admitted', spec: withClass(spec, system) };
  return {
    result: 'unknown',
    className: name,
    why: `the new pods' priority is not known: PriorityClass ${name} was not read and no pod runs under it (kubectl get priorityclass ${name}; grant list on priorityclasses)`,
  };
}

/** The global default class: the highest value among those marked globalDefault. */
function globalDefault(classes: readonly PriorityClass[]): PriorityClass | undefined {
  return classes
    .filter((c) => c.globalDefault === true)
    .reduce<PriorityClass | undefined>((best, c) => (best && best.value >= c.value ? best : c), undefined);
}

/** The class's value and preemption policy on the spec; no class: priority 0. */
function withClass(spec: PodSpec, chosen: PriorityClass | undefined): PodSpec {
  return {
    ...spec,
    ...(chosen ? { priorityClassName: chosen.metadata.name ?? '' } : {}),
    priority: chosen?.value ?? 0,
    preemptionPolicy: spec.preemptionPolicy ?? chosen?.preemptionPolicy ?? PREEMPT_LOWER,
  };
}
