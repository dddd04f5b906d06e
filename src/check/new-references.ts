/**
 * Objects the new pods need that nothing read says exist: a ConfigMap, Secret or
 * ServiceAccount the new template names (not marked optional) that no live pod of the
 * workload uses and the same change does not create. None of them is read (a Secret's
 * content is none of our business), so a rollout that needs one is not known to finish:
 * a missing ServiceAccount refuses every new pod (ServiceAccount admission, FailedCreate),
 * a missing ConfigMap or Secret keeps each in ContainerCreating (a volume) or
 * CreateContainerConfigError (an env reference), and no old pod goes. A live pod that
 * uses one is the evidence it exists; `default` is every namespace's own ServiceAccount.
 * Pure.
 */
import type { PodSpec } from '../diagnosis/k8s.js';
import type { NamedObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { workloadKind } from '../diagnosis/workloads/index.js';

type Reference = NamedObject;

type Ref = { name?: string; optional?: boolean } | undefined;

/** The objects a pod spec needs to start, by kind and name (optional ones left out). */
function references(spec: PodSpec): Reference[] {
  const out: Reference[] = [];
  const add = (kind: Reference['kind'], ref: Ref, name = ref?.name): void => {
    if (name && ref?.optional !== true) out.push({ kind, name });
  };
  for (const v of spec.volumes ?? []) {
    add('ConfigMap', v.configMap);
    add('Secret', v.secret, v.secret?.secretName);
    for (const s of v.projected?.sources ?? []) {
      add('ConfigMap', s.configMap);
      add('Secret', s.secret);
    }
  }
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    for (const e of c.env ?? []) {
      add('ConfigMap', e.valueFrom?.configMapKeyRef);
      add('Secret', e.valueFrom?.secretKeyRef);
    }
    for (const e of c.envFrom ?? []) {
      add('ConfigMap', e.configMapRef);
      add('Secret', e.secretRef);
    }
  }
  const account = spec.serviceAccountName ?? spec.serviceAccount;
  if (account && account !== 'default') out.push({ kind: 'ServiceAccount', name: account });
  return out;
}

const key = (r: Reference): string => `${r.kind}/${r.name}`;

/**
 * What the new template needs that neither a live pod of the workload uses nor the change
 * creates. Empty where no live pod was read (a new workload: nothing to compare with).
 */
export function unprovenReferences(snapshot: WorkloadSnapshot): Reference[] {
  if (snapshot.pods.length === 0) return [];
  const known = new Set([
    ...snapshot.pods.flatMap((p) => references(p.spec)).map(key),
    ...(snapshot.createdNames ?? []).map(key),
  ]);
  const kind = workloadKind(snapshot);
  const needed = references(kind.podTemplate(kind.object(snapshot)).spec);
  const seen = new Set<string>();
  return needed.filter((r) => !known.has(key(r)) && !seen.has(key(r)) && seen.add(key(r)));
}

/**
 * What holds the new pods back that nothing read says will let them go: scheduling
 * gates (the scheduler leaves a gated pod Pending until a controller removes every gate;
 * a placed pod no longer shows its gates, so nothing read proves one will); a scheduler
 * (spec.schedulerName) that placed no live pod of the workload; a readiness gate whose
 * condition no live pod of it reports (the pod is never Ready until a controller sets
 * it). Each as a clause. Empty where no live pod was read, as unprovenReferences.
 */
export function unprovenHolds(snapshot: WorkloadSnapshot): string[] {
  if (snapshot.pods.length === 0) return [];
  const kind = workloadKind(snapshot);
  const spec = kind.podTemplate(kind.object(snapshot)).spec;
  const out: string[] = [];
  const gates = (spec.schedulingGates ?? []).map((g) => g.name);
  if (gates.length > 0)
    out.push(
      `its pods carry schedulingGates (${gates.join(', ')}): the scheduler leaves them Pending until a controller removes each gate, and nothing read says one will`,
    );
  const scheduler = spec.schedulerName;
  if (
    scheduler &&
    scheduler !== 'default-scheduler' &&
    !snapshot.pods.some((p) => p.spec.schedulerName === scheduler && p.spec.nodeName)
  )
    out.push(
      `its pods name scheduler ${scheduler}, which placed no live pod of it: whether that scheduler runs is not read`,
    );
  const reported = new Set(snapshot.pods.flatMap((p) => (p.status?.conditions ?? []).map((c) => c.type)));
  const unset = (spec.readinessGates ?? []).map((g) => g.conditionType).filter((t) => !reported.has(t));
  if (unset.length > 0)
    out.push(
      `its pods wait for readiness gate ${unset.join(', ')}, which no live pod of it reports: whether a controller sets it is not read`,
    );
  return out;
}
