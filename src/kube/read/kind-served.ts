/**
 * Whether the cluster serves a workload kind that a CRD provides (its identity's `crd`:
 * an Argo Rollout): a cluster without the CRD answers 404 to every path of the kind,
 * which is not "this object does not exist". Discovery of the kind's group-version
 * (every authenticated client may read it: system:discovery) says which. Built-in
 * kinds are always served and never asked.
 */
import type { WorkloadApiFields } from '../../diagnosis/workload-api.js';
import { discoveryName, type ResourceName } from '../api-paths.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';

/**
 * The sentence every surface uses when the cluster does not serve the kind: "this
 * cluster serves no rollouts.argoproj.io (Argo Rollouts is not installed): there are
 * no Rollouts to diagnose".
 */
export function notServedSentence(api: WorkloadApiFields): string {
  const installed = api.crd ? ` (${api.crd.installedBy} is not installed)` : '';
  return `this cluster serves no ${api.resource}.${api.group}${installed}: there are no ${api.kind}s to diagnose`;
}

/**
 * Whether the API serves the kind: true (a built-in kind, or discovery lists its
 * resource), false (discovery says no, or 404s), undefined (could not tell).
 */
export async function kindServed(
  client: KubeClient,
  api: WorkloadApiFields & { group: string; version: string },
): Promise<boolean | undefined> {
  if (!api.crd) return true;
  try {
    const list = await client.call<{ resources?: { name?: string }[] }>({
      verb: 'get',
      // The registry's kinds each name their group-version's discovery (api-paths.ts, resourceTable).
      resource: discoveryName(api) as ResourceName,
    });
    return (list.resources ?? []).some((r) => r.name === api.resource);
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return false;
    return undefined;
  }
}
