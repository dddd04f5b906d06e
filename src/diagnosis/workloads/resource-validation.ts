/**
 * What kube-apiserver's validation refuses in a pod template's container resources
 * (pkg/apis/core/validation ValidateResourceRequirements, ValidateResourceQuantityValue):
 * the whole apply then fails, nothing is stored and no rollout starts. Checked after
 * defaulting, as the API server does: a limit with no request gets the limit as its
 * request (SetDefaults_ResourceRequirements), so only a request that is written is
 * compared. Pure.
 *
 * - every quantity is 0 or more ("must be greater than or equal to 0");
 * - an extended resource (a name outside kubernetes.io with a domain, "nvidia.com/gpu")
 *   is a whole number ("must be an integer");
 * - a request is at most its limit; a resource that cannot be overcommitted (extended
 *   resources, hugepages) has a request equal to its limit, and a limit wherever it has
 *   a request ("Limit must be set for non overcommitable resources").
 *
 * Values are shown as written (the API server prints its canonical form: "1000m" as "1").
 */
import { isQuantity, quantityMilli } from '../base/quantity.js';
import type { Container, PodTemplateSpec, Quantity } from '../k8s.js';
import type { ApiRefusal } from './api-validation.js';

/** IsNativeResource: no domain, or one in kubernetes.io. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
/** IsOvercommitAllowed: native and not hugepages. */
const overcommits = (name: string): boolean => isNative(name) && !isHugePages(name);
/** IsExtendedResourceName (the integer rule): not native, not a quota's "requests." name. */
const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.');

const milli = (q: Quantity | undefined): number | undefined =>
  q !== undefined && isQuantity(q) ? quantityMilli(q) : undefined;

/** ValidateResourceQuantityValue: non-negative; whole for an extended resource. */
function quantityErrors(name: string, value: Quantity, path: string): string[] {
  const amount = milli(value);
  if (amount === undefined) return [];
  const shown = JSON.stringify(String(value));
  if (amount < 0) return [`${path}: Invalid value: ${shown}: must be greater than or equal to 0`];
  return isExtended(name) && amount % 1000 !== 0
    ? [`${path}: Invalid value: ${shown}: must be an integer`]
    : [];
}

/** ValidateResourceRequirements for one container, its errors in the API server's order. */
function containerErrors(container: Container, path: string): string[] {
  const limits = container.resources?.limits ?? {};
  const requests = container.resources?.requests ?? {};
  const errors: string[] = [];
  for (const [name, value] of Object.entries(limits))
    errors.push(...quantityErrors(name, value, `${path}.limits[${name}]`));
  for (const [name, value] of Object.entries(requests)) {
    errors.push(...quantityErrors(name, value, `${path}.requests[${name}]`));
    const [request, limit] = [milli(value), milli(limits[name])];
    const shown = JSON.stringify(String(value));
    if (name in limits) {
      if (request === undefined || limit === undefined) continue;
      if (request !== limit && !overcommits(name))
        errors.push(
          `${path}.requests: Invalid value: ${shown}: must be equal to ${name} limit of ${String(limits[name])}`,
        );
      else if (request > limit)
        errors.push(
          `${path}.requests: Invalid value: ${shown}: must be less than or equal to ${name} limit of ${String(limits[name])}`,
        );
    } else if (!overcommits(name)) {
      errors.push(`${path}.limits: Required value: Limit must be set for non overcommitable resources`);
    }
  }
  return errors;
}

/** The template's containers and init containers checked; undefined where the API server takes them. */
export function resourcesRefusal(template: PodTemplateSpec | undefined): ApiRefusal | undefined {
  const spec = template?.spec;
  if (!spec) return undefined;
  const at = (list: string, i: number): string => `spec.template.spec.${list}[${i}].resources`;
  const errors = [
    ...(spec.containers ?? []).flatMap((c, i) => containerErrors(c, at('containers', i))),
    ...(spec.initContainers ?? []).flatMap((c, i) => containerErrors(c, at('initContainers', i))),
  ];
  const [first] = errors;
  if (!first) return undefined;
  return {
    rule: 'invalidResources',
    path: first.slice(0, first.indexOf(': ')),
    message: errors.length === 1 ? first : `[${errors.join(', ')}]`,
  };
}
