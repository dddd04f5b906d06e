/**
 * Reads the settings object of the Deployment's GitOps owner (owner-target.ts): the
 * Argo CD Application, the Flux Kustomization or HelmRelease. Optional, and never in
 * the way of the diagnosis:
 * - whether the cluster serves the CRD is asked through discovery of its group-version
 *   (readable by every authenticated user, system:discovery), once per API server and
 *   group-version, and the answer kept for DISCOVERY_TTL_MS: a cluster without Argo CD
 *   or Flux costs one request per process and TTL, then none;
 * - then one GET of the object, with a short deadline and no retries beyond the
 *   client's. 403/401 is 'forbidden', 404 'not-found' (the owner may run in another
 *   cluster, as Argo CD often does), anything else 'failed': each leaves the settings
 *   unknown and says which read settles it (coverage), never as a failed diagnosis.
 */
import { fluxSourceRef, ownerRead, ownerTarget, type OwnerTarget } from '../../diagnosis/owner-target.js';
import type { ManagedBy } from '../../diagnosis/ownership.js';
import type { OwnerSettingsRead } from '../../diagnosis/snapshot/types.js';
import type { ResourceName } from '../api-paths.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';

/** How long a discovery answer (served or not) is trusted before it is asked again. */
const DISCOVERY_TTL_MS = 5 * 60_000;
/** The object read's deadline: an optional read must not hold the diagnosis up. */
const READ_TIMEOUT_MS = 5_000;

const API: Record<OwnerTarget['kind'], { object: ResourceName; discovery: ResourceName }> = {
  Application: { object: 'applications', discovery: 'argocdapis' },
  Kustomization: { object: 'kustomizations', discovery: 'kustomizeapis' },
  HelmRelease: { object: 'helmreleases', discovery: 'helmapis' },
};

interface Served {
  served: boolean;
  at: number;
}

/** Per API server and group-version; only definite answers (200 or 404) are kept. */
const discovered = new Map<string, Served>();

async function isServed(client: KubeClient, target: OwnerTarget, now: number): Promise<boolean | undefined> {
  const key = `${client.server} ${target.group}/${target.version}`;
  const cached = discovered.get(key);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.served;
  try {
    const list = await client.call<{ resources?: { name?: string }[] }>({
      verb: 'get',
      resource: API[target.kind].discovery,
      timeoutMs: READ_TIMEOUT_MS,
    });
    const served = (list.resources ?? []).some((r) => r.name === target.plural);
    discovered.set(key, { served, at: now });
    return served;
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      discovered.set(key, { served: false, at: now });
      return false;
    }
    return undefined;
  }
}

/**
 * The owner's settings object, or why it was not read; undefined when the owner keeps
 * no such object (Helm, kubectl) or none is recognised.
 */
export async function readOwnerSettings(
  client: KubeClient,
  owner: ManagedBy | undefined,
  options: { argocdNamespace?: string | undefined; now?: () => number } = {},
): Promise<OwnerSettingsRead | undefined> {
  const target = ownerTarget(owner, options.argocdNamespace);
  if (!target) return undefined;
  const served = await isServed(client, target, (options.now ?? Date.now)());
  if (served === undefined) return ownerRead(target, 'failed');
  if (!served) return ownerRead(target, 'not-served');
  try {
    const object = await client.call<unknown>({
      verb: 'get',
      resource: API[target.kind].object,
      namespace: target.namespace,
      name: target.name,
      timeoutMs: READ_TIMEOUT_MS,
    });
    const source =
      target.kind === 'Application'
        ? undefined
        : await readFluxSource(client, object, target.kind, target.namespace);
    return { ...ownerRead(target, 'read', object), ...(source ? { source } : {}) };
  } catch (error) {
    if (!(error instanceof KubeApiError)) return ownerRead(target, 'failed');
    if (error.status === 403 || error.status === 401) return ownerRead(target, 'forbidden');
    if (error.status === 404) return ownerRead(target, 'not-found');
    return ownerRead(target, 'failed');
  }
}

/**
 * The GitRepository a Flux Kustomization (spec.sourceRef) or HelmRelease (its chart's
 * sourceRef) names, read with one GET; undefined where it names none, or the read fails
 * (not granted, not served, not there): src/propose/owner-source.ts then says which read
 * would settle it, as for a dump without it.
 */
async function readFluxSource(
  client: KubeClient,
  owner: unknown,
  kind: 'Kustomization' | 'HelmRelease',
  namespace: string,
): Promise<unknown> {
  const ref = fluxSourceRef(owner, kind, namespace);
  if (ref?.kind !== 'GitRepository' || ref.name === undefined) return undefined;
  try {
    return await client.call<unknown>({
      verb: 'get',
      resource: 'gitrepositories',
      namespace: ref.namespace,
      name: ref.name,
      timeoutMs: READ_TIMEOUT_MS,
    });
  } catch {
    return undefined;
  }
}
