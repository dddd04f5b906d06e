/**
 * The PriorityClasses of a checked change that the API server stores, and why it refuses
 * the others (pkg/apis/scheduling/validation/validation.go): a name with the reserved
 * `system-` prefix is refused unless it is a system class with its own value and no
 * global default (IsKnownSystemPriorityClass); a user class above 1,000,000,000
 * (HighestUserDefinablePriority) is refused; an update of a class read may change
 * neither its value nor its preemptionPolicy (ValidatePriorityClassUpdate). kubectl
 * reports such a document's error and applies the others, so the cluster keeps the live
 * class of that name, or none. Pure.
 */
import type { PriorityClass } from '../diagnosis/k8s-policy.js';

const SYSTEM_PREFIX = 'system-';
const HIGHEST_USER_DEFINABLE = 1_000_000_000;
const SYSTEM_VALUES: Readonly<Record<string, number>> = {
  'system-cluster-critical': 2_000_000_000,
  'system-node-critical': 2_000_001_000,
};

interface RefusedClass {
  name: string;
  /** The API server's words, as `kubectl apply` prints them after the object's name. */
  why: string;
}

function refusal(created: PriorityClass, live: PriorityClass | undefined): string | undefined {
  const name = created.metadata.name ?? '';
  if (name.startsWith(SYSTEM_PREFIX)) {
    const known = SYSTEM_VALUES[name];
    if (known === undefined || created.value !== known || created.globalDefault === true)
      return `metadata.name: Forbidden: priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only`;
  } else if (created.value > HIGHEST_USER_DEFINABLE) {
    return `value: Forbidden: maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE}`;
  }
  if (!live) return undefined;
  if (live.value !== created.value) return 'value: Forbidden: may not be changed in an update.';
  const policy = (c: PriorityClass) => c.preemptionPolicy ?? 'PreemptLowerPriority';
  if (policy(live) !== policy(created)) return 'preemptionPolicy: Invalid value: field is immutable';
  return undefined;
}

/** `read`: the cluster's classes (undefined: not read, and an update is taken as written). */
export function storedClasses(
  created: readonly PriorityClass[],
  read: readonly PriorityClass[] | undefined,
): { stored: PriorityClass[]; refused: RefusedClass[] } {
  const stored: PriorityClass[] = [];
  const refused: RefusedClass[] = [];
  for (const c of created) {
    const live = read?.find((r) => r.metadata.name === c.metadata.name);
    const why = refusal(c, live);
    if (why) refused.push({ name: c.metadata.name ?? '', why });
    else stored.push(c);
  }
  return { stored, refused };
}
