/**
 * Fields of a Deployment that server-side apply tracks as one value, from the markers
 * of the Kubernetes API types (`+structType=atomic`, `+listType=atomic`, published in
 * the OpenAPI schema as `x-kubernetes-map-type: atomic` / `x-kubernetes-list-type:
 * atomic`; strategic merge replaces the same fields whole, DESIGN.md §4). In
 * managedFields such a field is a leaf (`{}`), and the manager that holds it holds
 * everything under it.
 *
 * Every other object is granular: a map (labels, annotations, nodeSelector,
 * resources.limits) or a struct whose fieldsV1 entry is `{}` (or only `.`) holds the
 * field's presence, not its keys. So the shape of a leaf never decides atomicity;
 * this list does. Lists keyed by element (containers, env, ports, volumes) are
 * walked by their `k:`/`v:`/`i:` entries and need no entry here.
 */

/** JSON-pointer tokens (unescaped) from the Deployment's root. */
const ATOMIC_FIELDS: readonly (readonly string[])[] = [
  // LabelSelector: +structType=atomic.
  ['spec', 'selector'],
  // NodeSelector: +structType=atomic (nodeSelectorTerms and each term's matchExpressions
  // and matchFields are atomic lists under it).
  ['spec', 'template', 'spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'],
  ['spec', 'template', 'spec', 'affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'],
  ['spec', 'template', 'spec', 'affinity', 'podAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'],
  ['spec', 'template', 'spec', 'affinity', 'podAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'],
  [
    'spec',
    'template',
    'spec',
    'affinity',
    'podAntiAffinity',
    'requiredDuringSchedulingIgnoredDuringExecution',
  ],
  [
    'spec',
    'template',
    'spec',
    'affinity',
    'podAntiAffinity',
    'preferredDuringSchedulingIgnoredDuringExecution',
  ],
  ['spec', 'template', 'spec', 'tolerations'],
  ['spec', 'template', 'spec', 'readinessGates'],
  ['spec', 'template', 'spec', 'dnsConfig', 'nameservers'],
  ['spec', 'template', 'spec', 'dnsConfig', 'searches'],
  ['spec', 'template', 'spec', 'dnsConfig', 'options'],
  ['spec', 'template', 'spec', 'securityContext', 'supplementalGroups'],
  ['spec', 'template', 'spec', 'securityContext', 'sysctls'],
];

/** Whether the field at `tokens` is set as one value (a leaf above a path then holds the path). */
export function isAtomicField(tokens: readonly string[]): boolean {
  return ATOMIC_FIELDS.some((path) => path.length === tokens.length && path.every((t, i) => t === tokens[i]));
}
