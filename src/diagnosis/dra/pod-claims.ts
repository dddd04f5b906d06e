/**
 * The ResourceClaims a pod names, whichever way it names them: a shared claim
 * (`spec.resourceClaims[].resourceClaimName`), a claim the resourceclaim controller
 * created from a template (`status.resourceClaimStatuses[].resourceClaimName`), and the
 * claim the scheduler created for extended resources backed by DRA
 * (`status.extendedResourceClaimStatus.resourceClaimName`). All three live in the
 * pod's namespace; upstream's resourceclaim.PodClaims walks the same three.
 */
import type { Pod } from '../k8s.js';

export function claimsNamedBy(pod: Pod): string[] {
  const names = [
    ...(pod.status?.resourceClaimStatuses ?? []).map((s) => s.resourceClaimName),
    ...(pod.spec.resourceClaims ?? []).map((c) => c.resourceClaimName),
    pod.status?.extendedResourceClaimStatus?.resourceClaimName,
  ].filter((n): n is string => Boolean(n));
  return [...new Set(names)];
}
