/**
 * The Deployments of neighbour pods (those mid-rollout first) and the Argo Rollouts of
 * those mid-rollout (pods of two or more of their ReplicaSets were read:
 * diagnosis/base/neighbour-deployments.ts), one GET each, in parallel, at most MAX_READ of
 * each kind: whether a Deployment is paused, and its replicas (below its pods: it is
 * scaling down, forward/scale-down-wait.ts), and whether a Rollout's steps go on by
 * themselves, decide whether it gives back the room its pods hold (forward/job-wait.ts).
 * Read after the neighbours, only where neighbour pods were read (on the nodes a scarce
 * template or a crash makes matter), so most diagnoses make no extra request. One refused
 * (an access problem), gone, or whose kind is not served is left out: not read, and the
 * verdict says it does not know (a Rollout not read frees nothing, nor does a Deployment
 * with pods of one ReplicaSet).
 */
import type { Deployment } from '../../diagnosis/k8s-workloads.js';
import type { ArgoRollout } from '../../diagnosis/k8s-argo.js';
import {
  neighbourDeploymentsRead,
  neighboursMidRollout,
} from '../../diagnosis/base/neighbour-deployments.js';
import { neighbourEntry } from '../../diagnosis/workloads/deployment/neighbours.js';
import { neighbourRolloutEntry } from '../../diagnosis/workloads/rollout/neighbours.js';
import { rolloutApi } from '../../diagnosis/workloads/rollout/api.js';
import type { WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { getObjectIfExists } from '../list.js';
import type { Reads } from './collect-reads.js';

/** Neighbours of each kind read at most; the rest stay not read. */
const MAX_READ = 8;

type Neighbours = Pick<WorkloadSnapshot, 'neighbourDeployments' | 'neighbourRollouts'>;
/**
 * The reads made, by kind and "namespace/name", for a caller that reads for many
 * workloads (a scan): each object is asked for once.
 */
export type NeighbourReads = Map<string, Promise<unknown>>;
type Snapshot = Pick<WorkloadSnapshot, 'otherPods' | 'namespacePods' | 'pendingPods'>;

/** Empty where no neighbour is mid-rollout (nothing read, nothing to say). */
export async function readNeighbourDeployments(
  reads: Pick<Reads, 'client' | 'optional'>,
  snapshot: Snapshot,
  made: NeighbourReads = new Map(),
): Promise<Neighbours> {
  // The first ask for an object is the read; later asks share its answer.
  const once =
    <T>(kind: string, get: (namespace: string, name: string) => Promise<T | undefined>) =>
    (namespace: string, name: string): Promise<T | undefined> => {
      const key = `${kind}:${namespace}/${name}`;
      const read =
        (made.get(key) as Promise<T | undefined> | undefined) ?? reads.optional(() => get(namespace, name));
      made.set(key, read);
      return read;
    };
  const [deployments, rollouts] = await Promise.all([
    readEach(
      neighbourDeploymentsRead(snapshot),
      once('Deployment', (namespace, name) =>
        getObjectIfExists<Deployment>(reads.client, { resource: 'deployments', namespace, name }),
      ),
    ),
    readEach(
      neighboursMidRollout(snapshot, 'Rollout'),
      once('Rollout', (namespace, name) =>
        getObjectIfExists<ArgoRollout>(reads.client, { resource: rolloutApi.resource, namespace, name }),
      ),
    ),
  ]);
  return {
    ...(deployments ? { neighbourDeployments: deployments.map(([d, ns]) => neighbourEntry(d, ns)) } : {}),
    ...(rollouts ? { neighbourRollouts: rollouts.map(([r, ns]) => neighbourRolloutEntry(r, ns)) } : {}),
  };
}

/**
 * The objects `keys` ("namespace/name") name, the first MAX_READ, each with its namespace
 * (`get` answers undefined for one not read); undefined where none is named.
 */
async function readEach<T>(
  keys: readonly string[],
  get: (namespace: string, name: string) => Promise<T | undefined>,
): Promise<[T, string][] | undefined> {
  const names = keys.slice(0, MAX_READ);
  if (names.length === 0) return undefined;
  const read = await Promise.all(
    names.map(async (key): Promise<[T, string] | undefined> => {
      const [namespace = '', name = ''] = key.split('/');
      const object = await get(namespace, name);
      return object ? [object, namespace] : undefined;
    }),
  );
  return read.filter((r): r is [T, string] => r !== undefined);
}
