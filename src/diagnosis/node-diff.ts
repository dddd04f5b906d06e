/**
 * What sets the bad nodes (where a template fails) apart from the good ones (where
 * the same template runs): architecture, OS image, kernel, runtime, kubelet,
 * conditions, taints, cordon and labels. Ranked so the usual culprits come first.
 */
import type { Node } from './k8s.js';

export interface NodeDifference {
  field: string;
  /** Values seen on the bad nodes, comma-separated; "(none)" when absent. */
  bad: string;
  good: string;
}

interface FieldReader {
  field: string;
  read: (node: Node) => string | undefined;
}

const NONE = '(none)';
const CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'];

/** Labels that are already covered by a nodeInfo field, or name the node itself. */
const SKIPPED_LABELS = new Set([
  'kubernetes.io/hostname',
  'kubernetes.io/arch',
  'beta.kubernetes.io/arch',
  'kubernetes.io/os',
  'beta.kubernetes.io/os',
]);

const RANKED_FIELDS: FieldReader[] = [
  {
    field: 'architecture',
    read: (n) => n.metadata.labels?.['kubernetes.io/arch'] ?? n.status?.nodeInfo?.architecture,
  },
  { field: 'osImage', read: (n) => n.status?.nodeInfo?.osImage },
  { field: 'kernelVersion', read: (n) => n.status?.nodeInfo?.kernelVersion },
  { field: 'containerRuntimeVersion', read: (n) => n.status?.nodeInfo?.containerRuntimeVersion },
  { field: 'kubeletVersion', read: (n) => n.status?.nodeInfo?.kubeletVersion },
  {
    field: 'operatingSystem',
    read: (n) => n.metadata.labels?.['kubernetes.io/os'] ?? n.status?.nodeInfo?.operatingSystem,
  },
  ...CONDITIONS.map((type) => ({
    field: `condition ${type}`,
    read: (n: Node) => n.status?.conditions?.find((c) => c.type === type)?.status,
  })),
  {
    field: 'taints',
    read: (n) => {
      const taints = (n.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
      return taints.length > 0 ? taints.sort().join(' ') : undefined;
    },
  },
  { field: 'unschedulable', read: (n) => (n.spec?.unschedulable ? 'true' : undefined) },
];

/** Label differences are the least specific, so only this many are kept. */
const MAX_LABELS = 5;

/**
 * Reports a field when no bad node's value appears on any good node (every bad node
 * differs from every good node in that field). Node-identity labels (hostname, and
 * labels whose value is different on every node, such as instance ids) are
 * skipped: they always "differ" and explain nothing.
 */
export function diffNodes(bad: readonly Node[], good: readonly Node[]): NodeDifference[] {
  if (bad.length === 0 || good.length === 0) return [];
  const differences: NodeDifference[] = [];
  for (const reader of RANKED_FIELDS) {
    const difference = compare(reader, bad, good);
    if (difference) differences.push(difference);
  }
  const labelKeys = new Set([...bad, ...good].flatMap((n) => Object.keys(n.metadata.labels ?? {})));
  const labelDiffs: NodeDifference[] = [];
  for (const key of [...labelKeys].sort()) {
    if (SKIPPED_LABELS.has(key) || isIdentityLabel(key, bad, good)) continue;
    const difference = compare({ field: `label ${key}`, read: (n) => n.metadata.labels?.[key] }, bad, good);
    if (difference) labelDiffs.push(difference);
  }
  return [...differences, ...labelDiffs.slice(0, MAX_LABELS)];
}

function compare(
  reader: FieldReader,
  bad: readonly Node[],
  good: readonly Node[],
): NodeDifference | undefined {
  const badValues = distinct(bad.map((n) => reader.read(n) ?? NONE));
  const goodValues = distinct(good.map((n) => reader.read(n) ?? NONE));
  if (badValues.some((v) => goodValues.includes(v))) return undefined;
  return { field: reader.field, bad: badValues.join(', '), good: goodValues.join(', ') };
}

function isIdentityLabel(key: string, bad: readonly Node[], good: readonly Node[]): boolean {
  const all = [...bad, ...good];
  if (all.some((n) => n.metadata.labels?.[key] !== undefined && n.metadata.labels[key] === n.metadata.name)) {
    return true;
  }
  const values = all.map((n) => n.metadata.labels?.[key]).filter((v) => v !== undefined);
  return all.length > 2 && values.length === all.length && distinct(values).length === all.length;
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort();
}
