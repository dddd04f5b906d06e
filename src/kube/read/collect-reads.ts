/**
 * What every read of one collection shares (collector.ts): the client, the namespace,
 * the refusals (access problems) and coverage gaps in the order the reads find them,
 * and the two reads each round may make: a secondary read, whose refusal is recorded
 * rather than thrown, and the node list by label selector, capped.
 */
import type { Node } from '../../diagnosis/k8s.js';
import type { AccessProblem, CoverageGap } from '../../diagnosis/snapshot/types.js';
import type { KubeClient } from '../client.js';
import { listObjects, type ListResult } from '../list.js';
import { secondaryRead } from './secondary-read.js';

export interface CollectOptions {
  onProgress?: (step: string) => void;
  /** Bytes of previous-container log kept per crashing container (default 4096). */
  logBytes?: number;
  /** Where Argo CD Applications live when the tracking id names no namespace (default argocd). */
  argocdNamespace?: string;
}

/** More eligible nodes than this and the snapshot's node list is marked incomplete. */
const MAX_ELIGIBLE_NODES = 500;

/** The client and what every read of one collection records: refusals and gaps, in order. */
export interface Reads {
  client: KubeClient;
  namespace: string;
  problems: AccessProblem[];
  gaps: CoverageGap[];
  /** A secondary read: a refusal becomes an access problem, not a failed diagnosis. */
  optional<T>(read: () => Promise<T>): Promise<T | undefined>;
  /** Nodes by label selector, capped at MAX_ELIGIBLE_NODES. */
  listNodes(labelSelector: string | undefined): Promise<ListResult<Node> | undefined>;
}

export function readsFor(client: KubeClient, namespace: string): Reads {
  const problems: AccessProblem[] = [];
  const optional = <T>(read: () => Promise<T>): Promise<T | undefined> =>
    secondaryRead(problems, undefined as T | undefined, read);
  return {
    client,
    namespace,
    problems,
    gaps: [],
    optional,
    listNodes: (labelSelector) =>
      optional(() =>
        listObjects<Node>(
          client,
          { resource: 'nodes', query: { labelSelector } },
          { limit: MAX_ELIGIBLE_NODES, maxPages: 1 },
        ),
      ),
  };
}
