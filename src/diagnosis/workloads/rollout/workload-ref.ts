/**
 * A Rollout with `spec.workloadRef` keeps no template of its own: the controller takes
 * the referenced Deployment's template, and its selector when the Rollout names none
 * (argoproj/argo-rollouts rollout/templateref.go Resolve, SetResolvedSelector). The
 * live path (kube/read/rollout-crd.ts) and a dump both resolve it here. Pure.
 */
import type { ArgoRollout } from '../../k8s-argo.js';
import type { Deployment } from '../../k8s-workloads.js';

/** The Deployment a Rollout takes its template from, or undefined when it keeps its own. */
export function referencedDeployment(
  rollout: ArgoRollout,
): { name: string } | { unfollowable: string } | undefined {
  const ref = rollout.spec.workloadRef;
  if (!ref || (rollout.spec.template && Object.keys(rollout.spec.template).length > 0)) return undefined;
  const group = (ref.apiVersion ?? '').split('/')[0];
  if (ref.kind !== 'Deployment' || group !== 'apps' || !ref.name) {
    return {
      unfollowable: `Rollout ${nameOf(rollout)} takes its pod template from ${ref.kind ?? '?'} ${ref.name ?? '?'} (workloadRef); only a workloadRef to an apps/v1 Deployment is followed, so this Rollout cannot be diagnosed`,
    };
  }
  return { name: ref.name };
}

/** The Rollout as the controller sees it: the Deployment's template (and selector) filled in; the workloadRef stays. */
export function withReferencedTemplate(rollout: ArgoRollout, deployment: Deployment): ArgoRollout {
  return {
    ...rollout,
    spec: {
      ...rollout.spec,
      template: deployment.spec.template,
      ...(rollout.spec.selector ? {} : { selector: deployment.spec.selector }),
    },
  };
}

function nameOf(rollout: ArgoRollout): string {
  return `${rollout.metadata.namespace ?? ''}/${rollout.metadata.name ?? ''}`;
}
