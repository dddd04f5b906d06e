/**
 * Do the DeviceClasses decide anything for this workload? The collector lists them
 * for any template asking for an extended resource, to learn whether a class backs
 * it (extended resources backed by DRA). When that list is refused, the refusal
 * matters unless the workload's own facts show a device plugin serving each such
 * resource wherever its pods run or may run:
 *
 * - claims (`spec.resourceClaims`): always needed (the requests name classes);
 * - nodes read: every node the template may use advertises the resource in
 *   allocatable above zero (DRA serves an extended resource only on nodes without a
 *   device plugin for it; a 0, as a plugin with no device leaves, is taken as none);
 * - nodes not read: every pod asking for it is bound without
 *   `status.extendedResourceClaimStatus` (the scheduler records the DRA claim there
 *   before binding), or Pending with a scheduler message that counts the resource
 *   under "Insufficient" and no claim reason (NodeResourcesFit judged it, so a device
 *   plugin's resource).
 *
 * Anything else, nothing read to show it, is unknown: the refusal stays reported.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { admittedSpec } from '../workloads/admitted-spec.js';
import { isQuantity, quantityValue } from '../base/quantity.js';
import { extendedResources } from '../base/scarce.js';
import { latestSchedulingFailure } from '../base/pod-events.js';
import { isUnscheduled, isTerminating } from '../base/pods.js';
import { safeParse } from '../scheduling/scheduling-message.js';
import { podTemplateOf } from '../workloads/index.js';

export function deviceClassesMatter(ctx: AnalysisContext): boolean {
  const { snapshot } = ctx;
  const template = podTemplateOf(snapshot).spec;
  const pods = snapshot.pods.filter((p) => !isTerminating(p));
  if ([template, ...pods.map((p) => p.spec)].some((s) => (s.resourceClaims ?? []).length > 0)) return true;
  const resources = new Set([template, ...pods.map((p) => p.spec)].flatMap(extendedResources));
  if (resources.size === 0) return false;
  if (snapshot.coverage.nodes === 'complete') {
    // As admitted: webhooks add tolerations and affinity to pods, not to templates.
    const { spec } = admittedSpec(snapshot);
    const eligible = snapshot.nodes.filter((n) => isEligible(n, spec));
    if (eligible.length === 0) return true;
    return [...resources].some((r) => eligible.some((n) => !pluginAdvertises(n.status?.allocatable?.[r])));
  }
  return [...resources].some((resource) => {
    const asking = pods.filter((p) => extendedResources(p.spec).includes(resource));
    return asking.length === 0 || !asking.every((p) => devicePluginServed(ctx, p, resource));
  });
}

/** A device plugin's resource in allocatable: present and above zero (0 or absent: DRA may serve it). */
function pluginAdvertises(allocatable: string | number | undefined): boolean {
  return allocatable !== undefined && isQuantity(allocatable) && quantityValue(allocatable) > 0;
}

function devicePluginServed(ctx: AnalysisContext, pod: Pod, resource: string): boolean {
  if (!isUnscheduled(pod)) return pod.spec.nodeName !== undefined && !pod.status?.extendedResourceClaimStatus;
  const failure = latestSchedulingFailure(ctx.snapshot, pod);
  const parsed = failure ? safeParse(failure.message) : null;
  if (!parsed || parsed.reasons.some((r) => r.category === 'devices')) return false;
  return parsed.reasons.some((r) => r.category === 'resources' && r.resource === resource);
}
