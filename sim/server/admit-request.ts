/**
 * Runs a write as a dry run first when admission policies are bound, so the
 * ValidatingAdmissionPolicies (sim/admission/validating-policy.ts) judge the object the
 * write would store against the one stored now, before anything changes. No binding, no
 * dry run: the common path costs nothing.
 */
import { admitByPolicies, type Operation } from '../admission/validating-policy.js';
import type { SimObject, Store } from '../store.js';
import type { UserInfo } from './identity.js';
import type { ResourceRequest } from './request-info.js';

export type PolicyGuard = (operation: Operation, object: unknown, oldObject: unknown) => void;

/** The guard for this request, or undefined when no policy is bound. */
export function policyGuard(
  store: Store,
  info: ResourceRequest,
  user: UserInfo,
  dryRun: boolean,
): PolicyGuard | undefined {
  if (store.list('ValidatingAdmissionPolicyBinding').length === 0) return undefined;
  return (operation, object, oldObject) => {
    const named = (object ?? oldObject) as SimObject | null;
    admitByPolicies(store, {
      operation,
      group: info.group,
      version: info.version,
      resource: info.rt.plural,
      ...(info.subresource !== undefined ? { subresource: info.subresource } : {}),
      kind: info.subresource === 'scale' ? 'Scale' : info.rt.kind,
      name: info.name ?? named?.metadata?.name ?? '',
      ...(info.namespace !== undefined ? { namespace: info.namespace } : {}),
      user,
      dryRun,
      object,
      oldObject,
    });
  };
}
