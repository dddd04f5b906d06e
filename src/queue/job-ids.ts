import { DEFAULT_WORKLOAD_KIND, typeOfKind, type WorkloadKind } from '../diagnosis/workload-ref.js';

/**
 * Deterministic job ids. BullMQ ignores an add whose id already exists, so a second
 * request for the same target while a diagnosis is queued or running joins it. Ids
 * never contain ':' (BullMQ refuses them) and are never plain integers.
 * Namespaces are DNS-1123 labels (no dots), so the first '.' after the prefix is
 * an unambiguous separator even when the name itself contains dots. A kind other than
 * the default one follows the name after '~' (no Kubernetes name holds one), so a
 * DaemonSet and a Deployment of the same name never join each other's job, and the
 * Deployment ids stay what they were.
 */
export function diagnoseJobId(
  namespace: string,
  name: string,
  kind: WorkloadKind = DEFAULT_WORKLOAD_KIND,
): string {
  const suffix = kind === DEFAULT_WORKLOAD_KIND ? '' : `~${typeOfKind(kind)}`;
  return assertJobId(`diagnose.${namespace}.${name}${suffix}`);
}

/** One scan per namespace (or the whole cluster) at a time. */
export function scanJobId(namespace: string | undefined): string {
  return assertJobId(namespace === undefined ? 'scan.all-namespaces' : `scan.ns.${namespace}`);
}

/** The id of a diagnosis job: its target's, or its scan's. */
export function jobIdOfDiagnosis(
  job:
    | { mode: 'workload'; target: { namespace: string; name: string; kind?: WorkloadKind | undefined } }
    | { mode: 'scan'; namespace?: string | undefined },
): string {
  return job.mode === 'workload'
    ? diagnoseJobId(job.target.namespace, job.target.name, job.target.kind)
    : scanJobId(job.namespace);
}

/** One remediation job per plan, ever: retries and double clicks share it. */
export function remediateJobId(planId: string): string {
  return assertJobId(`remediate.${planId}`);
}

/**
 * A "Propose in Git" press's job: one per press (`at`, its time), so a second press
 * runs again and updates the pull request the first opened (the engine finds it by its branch).
 */
export function proposeJobId(planId: string, at: number): string {
  return assertJobId(`propose.${planId}.${String(at)}`);
}

function assertJobId(id: string): string {
  if (id.includes(':')) throw new Error(`job id must not contain ':' (${id})`);
  return id;
}
