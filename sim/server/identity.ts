/**
 * Who is asking: the user the API server's authenticators and impersonation would name, for
 * admission policies (request.userInfo). The simulator authorises everything; it only needs
 * the name.
 * - A bearer token equal to the `token` of a Secret of type
 *   kubernetes.io/service-account-token is that service account
 *   (`system:serviceaccount:<namespace>:<name>`, groups system:serviceaccounts and
 *   system:serviceaccounts:<namespace>), as the legacy service-account token authenticator
 *   reads such Secrets. Tests give the worker a kubeconfig holding that token.
 * - `Impersonate-User` (kubectl --as) and `Impersonate-Group` (--as-group) replace it.
 * - Anything else is the cluster admin of the written kubeconfig (kubernetes-admin,
 *   system:masters).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Store } from '../store.js';

export interface UserInfo {
  readonly username: string;
  readonly groups: readonly string[];
}

export const ADMIN_USER: UserInfo = {
  username: 'kubernetes-admin',
  groups: ['system:masters', 'system:authenticated'],
};
const ADMIN_TOKEN = 'sim-token';
const SA_TOKEN_TYPE = 'kubernetes.io/service-account-token';
const SA_NAME = 'kubernetes.io/service-account.name';

function serviceAccountFor(store: Store, token: string): UserInfo | undefined {
  for (const secret of store.list('Secret')) {
    if (secret['type'] !== SA_TOKEN_TYPE) continue;
    const data = secret['data'] as Record<string, unknown> | undefined;
    const stored =
      typeof data?.['token'] === 'string' ? Buffer.from(data['token'], 'base64').toString('utf8') : '';
    const account = secret.metadata.annotations?.[SA_NAME];
    if (stored === '' || stored !== token || !account) continue;
    const ns = secret.metadata.namespace ?? '';
    return {
      username: `system:serviceaccount:${ns}:${account}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
    };
  }
  return undefined;
}

const header = (headers: IncomingHttpHeaders, name: string): string[] => {
  const v = headers[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** The user a request acts as. */
export function requestUser(store: Store, headers: IncomingHttpHeaders): UserInfo {
  const impersonated = header(headers, 'impersonate-user')[0];
  if (impersonated) {
    return {
      username: impersonated,
      groups: [...header(headers, 'impersonate-group'), 'system:authenticated'],
    };
  }
  const auth = header(headers, 'authorization')[0] ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  // The written kubeconfig's token (sim/index.ts kubeconfigFor) is the admin: no Secret scan.
  if (!token || token === ADMIN_TOKEN) return ADMIN_USER;
  return serviceAccountFor(store, token) ?? ADMIN_USER;
}
