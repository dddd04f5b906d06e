/**
 * The Deployment controller's arithmetic, written from the upstream rules
 * (pkg/controller/deployment/util): maxSurge rounds up, maxUnavailable rounds
 * down, both zero makes maxUnavailable 1; the pod-template-hash is FNV-32a of the
 * template, safe-encoded.
 */
import type { PodTemplateSpec } from '../../src/diagnosis/k8s.js';
import type { RollingUpdateDeployment } from '../../src/diagnosis/k8s-workloads.js';

function scaled(
  value: number | string | undefined,
  total: number,
  roundUp: boolean,
  fallback: string,
): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number(v) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** [maxSurge, maxUnavailable] resolved against replicas. */
export function resolveFenceposts(
  ru: RollingUpdateDeployment | undefined,
  replicas: number,
): [number, number] {
  const surge = scaled(ru?.maxSurge, replicas, true, '25%');
  let unavailable = scaled(ru?.maxUnavailable, replicas, false, '25%');
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, Math.min(unavailable, replicas)];
}

/** JSON with object keys sorted, so equal templates serialise equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The template without the pod-template-hash label, for EqualIgnoreHash comparisons. */
export function templateWithoutHash(t: PodTemplateSpec | undefined): unknown {
  if (!t) return undefined;
  const copy = structuredClone(t);
  if (copy.metadata?.labels) {
    delete copy.metadata.labels['pod-template-hash'];
    if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  }
  if (copy.metadata && Object.keys(copy.metadata).length === 0) delete copy.metadata;
  return copy;
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** ComputeHash: fnv32a over the template (and collision count), safe-encoded. */
export function podTemplateHash(template: PodTemplateSpec, collisionCount = 0): string {
  let hash = 0x811c9dc5;
  const text = canonicalJson(templateWithoutHash(template)) + (collisionCount ? String(collisionCount) : '');
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return [...String(hash)]
    .map((ch) => SAFE_ALPHABET[ch.charCodeAt(0) % SAFE_ALPHABET.length] ?? 'b')
    .join('');
}
