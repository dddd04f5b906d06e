/**
 * The Deployments of neighbour pods that are mid-rollout (pods of two or more of their
 * ReplicaSets were read: diagnosis/base/neighbour-deployments.ts), one GET each, in
 * parallel, at most MAX_READ: whether each is paused and its replicas decide whether its
 * rollout gives back the room its old pods hold (forward/job-wait.ts). Read after the
 * neighbours, only where one is mid-rollout, so most diagnoses make no extra request.
 * A Deployment refused (an access problem) or gone is left out: not read, and the
 * verdict says it does not know whether it is paused.
 */
import type { Deployment } from '../../diagnosis/k8s-workloads.js';
import {
  neighboursMidRollout,
  type NeighbourDeployment,
} from '../../diagnosis/base/neighbour-deployments.js';
import { neighbourEntry } from '../../diagnosis/workloads/deployment/neighbours.js';
import type { WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { getObjectIfExists } from '../list.js';
import type { Reads } from './collect-reads.js';

/** Neighbour Deployments read at most; the rest stay not read. */
const MAX_READ = 8;

/** Undefined where no neighbour is mid-rollout (nothing read, nothing to say). */
export async function readNeighbourDeployments(
  reads: Pick<Reads, 'client' | 'optional'>,
  snapshot: Pick<WorkloadSnapshot, 'otherPods' | 'namespacePods' | 'pendingPods'>,
): Promise<NeighbourDeployment[] | undefined> {
  const names = neighboursMidRollout(snapshot).slice(0, MAX_READ);
  if (names.length === 0) return undefined;
  const read = await Promise.all(
    names.map(async (key) => {
      const [namespace = '', name = ''] = key.split('/');
      const deployment = await reads.optional(() =>
        getObjectIfExists<Deployment>(reads.client, { resource: 'deployments', namespace, name }),
      );
      return deployment ? neighbourEntry(deployment, namespace) : undefined;
    }),
  );
  return read.filter((d): d is NeighbourDeployment => d !== undefined);
}
