import type { LabelSelector } from '../diagnosis/k8s.js';

/**
 * A Deployment's `spec.selector` as the `labelSelector=` query string the API
 * accepts: `app=web,tier in (a,b),!legacy`.
 */
export function labelSelectorString(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const req of selector.matchExpressions ?? []) {
    const values = (req.values ?? []).join(',');
    switch (req.operator) {
      case 'In':
        parts.push(`${req.key} in (${values})`);
        break;
      case 'NotIn':
        parts.push(`${req.key} notin (${values})`);
        break;
      case 'Exists':
        parts.push(req.key);
        break;
      case 'DoesNotExist':
        parts.push(`!${req.key}`);
        break;
      default:
        throw new Error(`unsupported label selector operator "${req.operator}"`);
    }
  }
  return parts.join(',');
}
