/**
 * An admission refusal as the API server words it (k8s.io/apiserver admission.NewForbidden:
 * the object's name, or its generateName when it has none yet): 403 Forbidden,
 * `pods "web-7d4b9c8f6-x2x9k" is forbidden: <reason>`.
 */
import { ApiError } from '../errors.js';
import { qualifiedName, type ResourceType } from '../resources.js';
import type { SimObject } from '../store.js';

export function forbiddenBy(rt: ResourceType, o: SimObject, reason: string): ApiError {
  const name = o.metadata.name || o.metadata.generateName || 'Unknown';
  return new ApiError(403, 'Forbidden', `${qualifiedName(rt)} "${name}" is forbidden: ${reason}`, {
    name,
    ...(rt.group ? { group: rt.group } : {}),
    kind: rt.plural,
  });
}
