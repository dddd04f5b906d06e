/**
 * Pods held back before scheduling (DESIGN.md §4): while a scheduling gate is listed,
 * or while a claim from a ResourceClaimTemplate has not been created yet, the
 * scheduler does not try the pod at all, so there is no FailedScheduling event and no
 * message to parse. Such a pod is waiting, not fine.
 */
import type { Pod } from '../k8s.js';

export interface HeldBack {
  /** Scheduling gates still listed on the pod. */
  gates: string[];
  /** Template claims the resourceclaim controller has not created yet. */
  claims: { name: string; template: string }[];
}

/** Why the pod is held before scheduling, or undefined when it is not. */
export function heldBeforeScheduling(pod: Pod): HeldBack | undefined {
  const gates = (pod.spec.schedulingGates ?? []).map((g) => g.name);
  // An entry without a claim name means no claim was needed (resourceclaim.Name): not waiting.
  const created = new Set((pod.status?.resourceClaimStatuses ?? []).map((s) => s.name));
  const claims = (pod.spec.resourceClaims ?? [])
    .filter((c) => c.resourceClaimTemplateName && !created.has(c.name))
    .map((c) => ({ name: c.name, template: c.resourceClaimTemplateName ?? '' }));
  return gates.length > 0 || claims.length > 0 ? { gates, claims } : undefined;
}

/** "scheduling gate example.com/quota is still set", "its claim gpu (template a100) was not created yet". */
export function heldBackPhrase(held: HeldBack): string {
  const parts: string[] = [];
  if (held.gates.length > 0) {
    parts.push(
      `scheduling gate${held.gates.length === 1 ? '' : 's'} ${held.gates.join(', ')} ${held.gates.length === 1 ? 'is' : 'are'} still set`,
    );
  }
  for (const claim of held.claims) {
    parts.push(`its ResourceClaim ${claim.name} (from template ${claim.template}) has not been created yet`);
  }
  return parts.join('; ');
}
