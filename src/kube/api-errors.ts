/**
 * Turning a failed API call into a KubeApiError whose message a person can act on:
 * 403 names the verb and resource to grant, connection failures name the server.
 */
import { z } from 'zod';
import { rbacResource, type ApiCall } from './api-paths.js';
import { KubeApiError } from './errors.js';
import { TransportError, type RawResponse } from './transport.js';

const statusBody = z.object({ reason: z.string().optional(), message: z.string().optional() }).loose();

export function callDescription(call: ApiCall): {
  verb: string;
  resource: string;
  namespace?: string;
  name?: string;
} {
  return { verb: call.verb, resource: rbacResource(call), namespace: call.namespace, name: call.name };
}

/** "list events in namespace vision" */
export function describe(call: ApiCall): string {
  const target = call.name ? `${rbacResource(call)} ${call.name}` : rbacResource(call);
  return call.namespace !== undefined
    ? `${call.verb} ${target} in namespace ${call.namespace}`
    : `${call.verb} ${target}`;
}

export function toApiError(
  call: ApiCall,
  response: RawResponse | undefined,
  failure: unknown,
  server: string,
): KubeApiError {
  if (!response) {
    const code = failure instanceof TransportError ? failure.code : 'ECONNERROR';
    return new KubeApiError(
      `cannot reach the API server at ${server} (${code}) to ${describe(call)}`,
      0,
      callDescription(call),
      code,
      { cause: failure },
    );
  }
  const parsed = statusBody.safeParse(safeJson(response.body));
  const reason = parsed.success ? parsed.data.reason : undefined;
  const serverMessage = parsed.success ? parsed.data.message : undefined;
  const status = response.status;
  let message: string;
  if (status === 401) {
    message = `the API server did not accept our credentials (401) to ${describe(call)}`;
  } else if (status === 403) {
    const scope = call.namespace !== undefined ? ` in namespace ${call.namespace}` : ' (cluster-wide)';
    message = `cannot ${call.verb} ${rbacResource(call)}${scope}: grant ${call.verb} on ${rbacResource(call)}`;
  } else {
    message = `${describe(call)} failed with HTTP ${status}${serverMessage ? `: ${serverMessage}` : ''}`;
  }
  return new KubeApiError(message, status, callDescription(call), reason);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
