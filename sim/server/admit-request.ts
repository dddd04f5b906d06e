/**
 * Validating admission of one write, after the simulator has worked out what the write
 * would store: ValidatingAdmissionPolicies (sim/admission/validating-policy.ts), then
 * ValidatingWebhookConfigurations (sim/webhooks/), as the API server orders its plugins.
 * With neither configured there is no guard and no dry run: the common path costs nothing.
 */
import { admitByPolicies, type Operation } from '../admission/validating-policy.js';
import type { SimObject, Store } from '../store.js';
import { dispatchValidatingWebhooks, hasValidatingWebhooks } from '../webhooks/dispatch.js';
import type { UserInfo } from './identity.js';
import type { ResourceRequest } from './request-info.js';
import type { WarningRecorder } from './warnings.js';

export type AdmissionGuard = (operation: Operation, object: unknown, oldObject: unknown) => Promise<void>;

export interface GuardContext {
  user: UserInfo;
  dryRun: boolean;
  warnings: WarningRecorder;
  fieldManager?: string;
  /** The name the request's body gives (a create's name: none for generateName). */
  bodyName?: string;
}

/** The guard for this request, or undefined when nothing validates writes. */
export function admissionGuard(
  store: Store,
  info: ResourceRequest,
  context: GuardContext,
): AdmissionGuard | undefined {
  const policies = store.list('ValidatingAdmissionPolicyBinding').length > 0;
  const webhooks = hasValidatingWebhooks(store);
  if (!policies && !webhooks) return undefined;
  return async (operation, object, oldObject) => {
    const named = (object ?? oldObject) as SimObject | null;
    // As the handlers name a request: the URL's name, else the body's (a generateName
    // create has none yet); a Namespace is its own namespace.
    const name = info.name ?? (operation === 'CREATE' ? context.bodyName : named?.metadata?.name) ?? '';
    const namespace = info.rt.kind === 'Namespace' && info.group === '' ? name : info.namespace;
    const request = {
      operation,
      group: info.group,
      version: info.version,
      resource: info.rt.plural,
      ...(info.subresource !== undefined ? { subresource: info.subresource } : {}),
      kind: info.subresource === 'scale' ? 'Scale' : info.rt.kind,
      name,
      ...(namespace !== undefined ? { namespace } : {}),
      user: context.user,
      dryRun: context.dryRun,
      object,
      oldObject,
    };
    if (policies) admitByPolicies(store, request);
    if (webhooks)
      await dispatchValidatingWebhooks(
        store,
        { ...request, ...(context.fieldManager ? { fieldManager: context.fieldManager } : {}) },
        context.warnings,
      );
  };
}

const MAX_ADMISSIONS = 5;

/**
 * Admits a write, then makes it. Webhooks answer later, and the object may change
 * meanwhile; as the API server's GuaranteedUpdate runs admission again on a conflict,
 * the write is admitted again on the object as it now stands (at most five times) before
 * it is made. `stored` reads the stored object's resourceVersion, `preview` works out
 * the write without making it.
 */
export async function admitThenWrite<T>(
  guard: AdmissionGuard | undefined,
  stored: () => string | undefined,
  preview: () => [Operation, unknown, unknown],
  write: () => T,
): Promise<T> {
  if (!guard) return write();
  for (let attempt = 1; ; attempt += 1) {
    const before = stored();
    const [operation, object, oldObject] = preview();
    await guard(operation, object, oldObject);
    if (stored() === before || attempt >= MAX_ADMISSIONS) return write();
  }
}
