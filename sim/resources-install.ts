/**
 * The kinds an install brings that the simulator stores and serves without a controller:
 * what `helm install` of charts/rollout-doctor creates besides workloads (RBAC, network
 * and disruption policies), the admission policies the simulator enforces
 * (sim/admission/validating-policy.ts) and the validating webhooks it calls
 * (sim/webhooks/). Scope, names and short names as the API server
 * lists them in discovery.
 */
import type { ResourceType } from './resources.js';

const kind = (
  plural: string,
  singular: string,
  k: string,
  group: string,
  namespaced: boolean,
  shortNames?: string[],
): ResourceType => ({
  plural,
  singular,
  kind: k,
  group,
  version: 'v1',
  namespaced,
  ...(shortNames ? { shortNames } : {}),
});

export const INSTALL_RESOURCES: readonly ResourceType[] = [
  kind('clusterroles', 'clusterrole', 'ClusterRole', 'rbac.authorization.k8s.io', false),
  kind('clusterrolebindings', 'clusterrolebinding', 'ClusterRoleBinding', 'rbac.authorization.k8s.io', false),
  kind('roles', 'role', 'Role', 'rbac.authorization.k8s.io', true),
  kind('rolebindings', 'rolebinding', 'RoleBinding', 'rbac.authorization.k8s.io', true),
  kind('networkpolicies', 'networkpolicy', 'NetworkPolicy', 'networking.k8s.io', true, ['netpol']),
  {
    ...kind('poddisruptionbudgets', 'poddisruptionbudget', 'PodDisruptionBudget', 'policy', true, ['pdb']),
    subresources: ['status'],
  },
  {
    ...kind(
      'validatingadmissionpolicies',
      'validatingadmissionpolicy',
      'ValidatingAdmissionPolicy',
      'admissionregistration.k8s.io',
      false,
    ),
    subresources: ['status'],
  },
  kind(
    'validatingadmissionpolicybindings',
    'validatingadmissionpolicybinding',
    'ValidatingAdmissionPolicyBinding',
    'admissionregistration.k8s.io',
    false,
  ),
  kind(
    'validatingwebhookconfigurations',
    'validatingwebhookconfiguration',
    'ValidatingWebhookConfiguration',
    'admissionregistration.k8s.io',
    false,
  ),
];
