/**
 * Errors the live-cluster code raises and the command line / workers turn into exit
 * statuses and user messages. Messages are complete sentences meant for a person.
 */

/** The cluster could not be reached, or refused us (401/403) where no partial answer makes sense. Exit 3. */
export class ClusterError extends Error {
  override name = 'ClusterError';
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The workload does not exist; the message names the namespaces searched. Exit 2. */
export class WorkloadNotFoundError extends Error {
  override name = 'WorkloadNotFoundError';
  constructor(
    message: string,
    readonly namespacesSearched: string[],
  ) {
    super(message);
  }
}
