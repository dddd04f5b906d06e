/** Facts about a pod template that plan builders need for their warnings. */
import type { Deployment, LabelSelector, PodSpec } from '../../diagnosis/k8s.js';

/** True when a required pod anti-affinity on kubernetes.io/hostname selects the template's own pods. */
export function antiAffinityOnePerNode(spec: PodSpec, templateLabels: Record<string, string>): boolean {
  const terms = spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.some(
    (t) =>
      t.topologyKey === 'kubernetes.io/hostname' &&
      t.labelSelector !== undefined &&
      selects(t.labelSelector, templateLabels),
  );
}

/** Label selector semantics (matchLabels and matchExpressions ANDed); an empty selector selects everything. */
export function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabel &&
    (selector.matchExpressions ?? []).every((e) => {
      const has = Object.hasOwn(labels, e.key);
      const values = e.values ?? [];
      switch (e.operator) {
        case 'In':
          return has && values.includes(labels[e.key] ?? '');
        case 'NotIn':
          return !has || !values.includes(labels[e.key] ?? '');
        case 'Exists':
          return has;
        case 'DoesNotExist':
          return !has;
        default:
          return false;
      }
    })
  );
}

/**
 * Whether a RollingUpdate creates a new pod before removing an old one. A positive
 * maxSurge, absolute or percentage, resolves to at least 1 because percentages round
 * up against spec.replicas (>= 1 here); the default is 25%.
 */
export function rollingUpdateSurges(deployment: Deployment): boolean {
  const strategy = deployment.spec.strategy;
  if (strategy?.type === 'Recreate') return false;
  const raw = strategy?.rollingUpdate?.maxSurge ?? '25%';
  const value = typeof raw === 'number' ? raw : Number.parseInt(raw, 10);
  return Number.isFinite(value) && value > 0 && (deployment.spec.replicas ?? 1) > 0;
}
