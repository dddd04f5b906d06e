/**
 * The priority a template's pods are admitted with, as the Priority admission plugin
 * sets it (plugin/pkg/admission/priority/admission.go, admitPod): a template names a
 * class (priorityClassName) and carries no priority; each pod gets the class's `value`
 * and its `preemptionPolicy` (PreemptLowerPriority when unset). A template that names
 * no class gets the global default class (globalDefault; the lowest such value), else
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

/** What the Priority plugin knows of the cluster's classes. */
interface KnownClasses {
  /** The PriorityClasses read (undefined: not read). */
  read: readonly PriorityClass[] | undefined;
  /** Classes the same change creates (a PriorityClass among the manifests checked). */
  created?: readonly PriorityClass[];
}

/**
 * `spec` with the priority its pods are admitted with. `pods`: pods already admitted
 * (any workload's) whose class settles one not read. A list read counts as the
 * cluster's whole only where it holds the system classes (a real list always does; a
 * dump may hold a few classes only), so only then is a missing class a refusal.
 */
export function admitPriority(spec: PodSpec, classes: KnownClasses, pods: readonly Pod[]): PriorityAdmission {
  const name = spec.priorityClassName;
  const listed = [...(classes.created ?? []), ...(classes.read ?? []), ...SYSTEM_CLASSES];
  const whole =
    classes.read !== undefined &&
    SYSTEM_CLASSES.every((c) => classes.read?.some((r) => r.metadata.name === c.metadata.name));
  const chosen = name
    ? listed.find((c) => c.metadata.name === name)
    : classes.read
      ? globalDefault([...(classes.created ?? []), ...classes.read])
      : undefined;
  if (chosen || (!name && classes.read)) return checked(spec, chosen);
  if (name && whole)
    return { result: 'refused', className: name, message: `no PriorityClass with name ${name} was found` };
  const admitted = name
    ? pods.find((p) => p.spec.priority !== undefined && p.spec.priorityClassName === name)
    : undefined;
  if (admitted)
    return checked(spec, {
      metadata: { name },
      value: admitted.spec.priority ?? 0,
      ...(admitted.spec.preemptionPolicy ? { preemptionPolicy: admitted.spec.preemptionPolicy } : {}),
    });
  // No class named, none read: the global default is not known; the template stays as written.
  if (!name) return { result: 'admitted', spec };
  return {
    result: 'unknown',
    className: name,
    why: `the new pods' priority is not known: PriorityClass ${name} was not read and no pod runs under it (kubectl get priorityclass ${name}; grant list on priorityclasses)`,
  };
}

/**
 * The class's value and preemption policy on the spec (no class: priority 0,
 * PreemptLowerPriority). A template that sets either itself is refused where it differs
 * from what the plugin computes, as admitPod does.
 */
function checked(spec: PodSpec, chosen: PriorityClass | undefined): PriorityAdmission {
  const priority = chosen?.value ?? 0;
  const policy = chosen?.preemptionPolicy ?? PREEMPT_LOWER;
  const className = chosen?.metadata.name ?? '';
  if (spec.priority !== undefined && spec.priority !== priority)
    return {
      result: 'refused',
      className,
      message: `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    };
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy)
    return {
      result: 'refused',
      className,
      message: `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
    };
  return {
    result: 'admitted',
    spec: {
      ...spec,
      ...(chosen ? { priorityClassName: className } : {}),
      priority,
      preemptionPolicy: policy,
    },
  };
}

/** The global default class: the lowest value among those marked globalDefault (getDefaultPriorityClass). */
function globalDefault(classes: readonly PriorityClass[]): PriorityClass | undefined {
  return classes
    .filter((c) => c.globalDefault === true)
    .reduce<PriorityClass | undefined>((best, c) => (best && best.value <= c.value ? best : c), undefined);
}
