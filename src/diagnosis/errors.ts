/** Errors the diagnosis engine raises; the command line and workers map them to exit statuses. */

/**
 * The workload does not exist; the message names the namespaces searched. Exit 2.
 * `suggestions`: names of that kind in the namespace close to the one asked for (a
 * typo), closest first; empty when none is close or they could not be listed.
 */
export class WorkloadNotFoundError extends Error {
  override name = 'WorkloadNotFoundError';
  constructor(
    message: string,
    readonly namespacesSearched: string[],
    readonly suggestions: string[] = [],
    /** The TYPE the suggestions are of, as in TYPE/NAME ("deployment", "rollout"). */
    readonly type = 'deployment',
  ) {
    super(message);
  }
}
