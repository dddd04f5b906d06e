import type { AccessProblem } from '../../diagnosis/snapshot/types.js';
import { KubeApiError } from '../errors.js';

/**
 * Runs a read the diagnosis can live without. A refusal (401/403) or a failure that
 * survived the retries becomes an AccessProblem, so the report says what could not
 * be seen instead of failing or pretending the objects do not exist.
 */
export async function secondaryRead<T>(
  problems: AccessProblem[],
  fallback: T,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    const verb = error.call.verb;
    problems.push({
      verb: verb === 'get' || verb === 'list' || verb === 'watch' ? verb : 'get',
      resource: error.call.resource,
      ...(error.call.namespace !== undefined ? { namespace: error.call.namespace } : {}),
      status: error.status,
      message: error.message,
    });
    return fallback;
  }
}
