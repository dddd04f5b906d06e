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

/**
 * The kubeconfig named or found cannot be used: missing or unreadable, no such context,
 * no cluster in it. The input is wrong, not the cluster (exit 2, DESIGN.md §3): a typo
 * in `--context` must not read as an outage to a script that pages on exit 3.
 */
export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

// Raised by the engine too (a dump without the Deployment), so it lives with it.
export { WorkloadNotFoundError } from '../diagnosis/errors.js';

/** What a failed API call was trying to do, for messages that name the missing permission. */
export interface ApiCallDescription {
  verb: string;
  resource: string;
  namespace?: string;
  name?: string;
}

/**
 * A Kubernetes API call failed: an HTTP status from the server, or status 0 for a
 * connection error or timeout. `reason` is the Status object's reason when the server
 * sent one ("Forbidden", "Conflict", "NotFound", ...).
 */
export class KubeApiError extends ClusterError {
  override name = 'KubeApiError';
  constructor(
    message: string,
    override readonly status: number,
    readonly call: ApiCallDescription,
    readonly reason?: string,
    options?: { cause?: unknown },
  ) {
    super(message, status, options);
  }

  /** 401 or 403: the credentials are missing a permission (or are not accepted). */
  get isAccessDenied(): boolean {
    return this.status === 401 || this.status === 403;
  }
}
