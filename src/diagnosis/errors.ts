/** Errors the diagnosis engine raises; the command line and workers map them to exit statuses. */

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
