/**
 * What sets the bad nodes (where a template fails) apart from the good ones (where
 * the same template runs), ranked by how likely each difference explains a crash:
 *
 * 1. conditions in a bad state on the bad nodes: every condition the nodes carry,
 *    not a fixed list (node-problem-detector adds ReadonlyFilesystem, KernelDeadlock,
 *    FrequentKubeletRestart and custom ones). Ready is bad when not True, every
 *    other condition when True;
 * 2. architecture and CPU features (kubernetes.io/arch, feature.node.kubernetes.io/cpu-*);
 * 3. kernel version (and node-feature-discovery kernel-* labels);
 * 4. container runtime version;
 * 5. OS image (and system-os_release labels);
 * 6. kubelet version;
 * 7. taints and cordon;
 * 8. other labels, and conditions that differ without being bad on the bad nodes;
 * 9. coincidental labels last: instance type, zone and region, node pool names.
 *
 * Also finds the attribute (or pair of attributes) that separates the bad nodes
 * from the good ones, which crash-distribution.ts uses to decide node dependence.
 */
import type { Node } from '../k8s.js';

type DifferenceCategory =
  'condition' | 'cpu' | 'kernel' | 'runtime' | 'os' | 'kubelet' | 'taints' | 'label' | 'coincidental';

export interface NodeDifference {
  field: string;
  /** Values seen on the bad nodes, comma-separated; "(none)" when absent. */
  bad: string;
  good: string;
  category: DifferenceCategory;
}

/**
 * Attribute(s) whose values on the crashing nodes never occur on the healthy ones.
 * `label` names a node label that separates them too and is present on every bad
 * node (the chosen attribute when it is a label), so a node affinity can exclude by it.
 */
export interface NodeSeparator {
  fields: string[];
  /** Per field, the distinct values on the bad nodes (same order as fields). */
  bad: string[][];
  good: string[][];
  category: DifferenceCategory;
  label?: { key: string; values: string[] };
  /**
   * Other single attributes that separate the nodes just as well (possible causes, not
   * coincidental labels), best ranked first: a node that differs in kernel, runtime and
   * OS image is named with all three, not by field order with the first.
   */
  also?: { field: string; bad: string[]; good: string[] }[];
}

interface Attribute {
  field: string;
  category: DifferenceCategory;
  /** Rank: lower explains a crash better (see the module comment). */
  rank: number;
  read: (node: Node) => string | undefined;
  /** The label key when the attribute is a label. */
  label?: string;
}

const NONE = '(none)';
const RANK: Record<DifferenceCategory, number> = {
  condition: 0,
  cpu: 1,
  kernel: 2,
  runtime: 3,
  os: 4,
  kubelet: 5,
  taints: 6,
  label: 7,
  coincidental: 8,
};

/** Labels that duplicate a nodeInfo field, or name the node itself. */
const SKIPPED_LABELS = new Set([
  'kubernetes.io/hostname',
  'kubernetes.io/arch',
  'beta.kubernetes.io/arch',
  'kubernetes.io/os',
  'beta.kubernetes.io/os',
]);

/** Labels that describe where or on what kind of machine a node runs, not what it runs. */
const COINCIDENTAL_LABEL =
  /^(node\.kubernetes\.io\/instance-type|beta\.kubernetes\.io\/instance-type|topology\.kubernetes\.io\/|failure-domain\.beta\.kubernetes\.io\/|topology\.[a-z0-9.-]+\/|cloud\.google\.com\/gke-(nodepool|spot|preemptible|provisioning|machine-family)$|eks\.amazonaws\.com\/(nodegroup|capacityType)$|alpha\.eksctl\.io\/(nodegroup-name|cluster-name)$|kubernetes\.azure\.com\/(agentpool|scalesetpriority|cluster)$|agentpool$|karpenter\.sh\/(nodepool|provisioner-name|capacity-type)$|karpenter\.k8s\.aws\/instance-|node\.kubernetes\.io\/lifecycle$)|(node-?pool|nodegroup|agentpool)$/i;

/** Labels that name the machine image a node was built from (an OS upgrade changes them). */
const IMAGE_LABEL = /(nodegroup-image|os-distribution|os-image|image-version|node-image|machine-image)$/i;

const FIXED: Attribute[] = [
  {
    field: 'architecture',
    category: 'cpu',
    rank: RANK.cpu,
    read: (n) => n.metadata.labels?.['kubernetes.io/arch'] ?? n.status?.nodeInfo?.architecture,
  },
  {
    field: 'kernelVersion',
    category: 'kernel',
    rank: RANK.kernel,
    read: (n) => n.status?.nodeInfo?.kernelVersion,
  },
  {
    field: 'containerRuntimeVersion',
    category: 'runtime',
    rank: RANK.runtime,
    read: (n) => n.status?.nodeInfo?.containerRuntimeVersion,
  },
  { field: 'osImage', category: 'os', rank: RANK.os, read: (n) => n.status?.nodeInfo?.osImage },
  {
    field: 'operatingSystem',
    category: 'os',
    rank: RANK.os,
    read: (n) => n.metadata.labels?.['kubernetes.io/os'] ?? n.status?.nodeInfo?.operatingSystem,
  },
  {
    field: 'kubeletVersion',
    category: 'kubelet',
    rank: RANK.kubelet,
    read: (n) => n.status?.nodeInfo?.kubeletVersion,
  },
  {
    field: 'taints',
    category: 'taints',
    rank: RANK.taints,
    read: (n) => {
      const taints = (n.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
      return taints.length > 0 ? taints.sort().join(' ') : undefined;
    },
  },
  {
    field: 'unschedulable',
    category: 'taints',
    rank: RANK.taints,
    read: (n) => (n.spec?.unschedulable ? 'true' : undefined),
  },
];

/** Label differences are the least specific, so only this many of each kind are shown. */
const MAX_LABELS = 5;

/**
 * Categories that can cause a crash by themselves: what the node runs and how it
 * is, as opposed to a team label, a zone or a pool name that merely sets it apart.
 */
export function isCauseCategory(category: DifferenceCategory): boolean {
  return category !== 'label' && category !== 'coincidental';
}

/** A condition's status is bad: Ready when not True, any other condition when True. */
function isBadConditionStatus(type: string, status: string | undefined): boolean {
  if (type === 'Ready') return status !== 'True';
  return status === 'True';
}

function labelCategory(key: string): DifferenceCategory {
  if (key.startsWith('feature.node.kubernetes.io/cpu-')) return 'cpu';
  if (key.startsWith('feature.node.kubernetes.io/kernel-')) return 'kernel';
  if (key.startsWith('feature.node.kubernetes.io/system-os_release') || IMAGE_LABEL.test(key)) return 'os';
  if (COINCIDENTAL_LABEL.test(key)) return 'coincidental';
  return 'label';
}

/** Every attribute the nodes carry: the fixed fields, every condition type and every label key. */
function attributesOf(nodes: readonly Node[]): Attribute[] {
  const conditionTypes = [
    ...new Set(nodes.flatMap((n) => (n.status?.conditions ?? []).map((c) => c.type))),
  ].sort((a, b) => (a === 'Ready' ? -1 : b === 'Ready' ? 1 : a.localeCompare(b)));
  const conditions: Attribute[] = conditionTypes.map((type) => ({
    field: `condition ${type}`,
    category: 'condition',
    rank: RANK.condition,
    read: (n) => n.status?.conditions?.find((c) => c.type === type)?.status,
  }));
  const labelKeys = [...new Set(nodes.flatMap((n) => Object.keys(n.metadata.labels ?? {})))].sort();
  const labels: Attribute[] = labelKeys
    .filter((key) => !SKIPPED_LABELS.has(key) && !isIdentityLabel(key, nodes))
    .map((key) => {
      const category = labelCategory(key);
      return {
        field: `label ${key}`,
        category,
        rank: RANK[category],
        label: key,
        read: (n) => n.metadata.labels?.[key],
      };
    });
  return [...conditions, ...FIXED, ...labels];
}

interface Split {
  attribute: Attribute;
  bad: string[];
  good: string[];
  /** No bad value occurs on a good node. */
  separates: boolean;
  rank: number;
}

function split(attribute: Attribute, bad: readonly Node[], good: readonly Node[]): Split {
  const badValues = distinct(bad.map((n) => attribute.read(n) ?? NONE));
  const goodValues = distinct(good.map((n) => attribute.read(n) ?? NONE));
  const separates = !badValues.some((v) => goodValues.includes(v));
  let rank = attribute.rank;
  // A condition ranks first only when it is in its bad state on every bad node.
  if (attribute.category === 'condition') {
    const type = attribute.field.slice('condition '.length);
    const bad = badValues.every((v) => isBadConditionStatus(type, v === NONE ? undefined : v));
    if (!bad) rank = RANK.label;
  }
  return { attribute, bad: badValues, good: goodValues, separates, rank };
}

function splits(bad: readonly Node[], good: readonly Node[]): Split[] {
  return attributesOf([...bad, ...good])
    .map((a) => split(a, bad, good))
    .sort((a, b) => a.rank - b.rank);
}

/**
 * Every attribute whose values on the bad nodes never occur on the good nodes,
 * ranked (module comment). Node-identity labels (hostname, and labels whose value
 * is different on every node, such as instance ids) are skipped: they always
 * "differ" and explain nothing.
 */
export function diffNodes(bad: readonly Node[], good: readonly Node[]): NodeDifference[] {
  if (bad.length === 0 || good.length === 0) return [];
  const shown = new Map<DifferenceCategory, number>();
  const differences: NodeDifference[] = [];
  for (const s of splits(bad, good)) {
    if (!s.separates) continue;
    const { category } = s.attribute;
    if (category === 'label' || category === 'coincidental') {
      const count = shown.get(category) ?? 0;
      if (count >= MAX_LABELS) continue;
      shown.set(category, count + 1);
    }
    differences.push({ field: s.attribute.field, bad: s.bad.join(', '), good: s.good.join(', '), category });
  }
  return differences;
}

/**
 * The attribute that separates the bad nodes from the good ones, best ranked first;
 * failing one, a pair of attributes whose combined value is shared by every bad
 * node and by no good node (at least two bad nodes, coincidental labels left out,
 * so two unrelated labels cannot pass for a cause). Undefined when nothing but
 * the node's identity separates them.
 */
export function findSeparator(
  bad: readonly Node[],
  good: readonly Node[],
  prefer?: (field: string) => boolean,
  allowed: (category: DifferenceCategory) => boolean = () => true,
): NodeSeparator | undefined {
  if (bad.length === 0 || good.length === 0) return undefined;
  const all = splits(bad, good).filter((s) => allowed(s.attribute.category));
  const single = all.filter((s) => s.separates);
  const chosen = (prefer ? single.find((s) => prefer(s.attribute.field)) : undefined) ?? single[0];
  if (chosen) {
    // A label to exclude by: the chosen attribute when it is one, else the best
    // ranked separating label; present on every bad node, and not a coincidental one
    // (a zone or pool would keep the pods off healthy nodes of other kinds too).
    const byLabel = (s: Split): boolean =>
      s.attribute.label !== undefined && s.attribute.category !== 'coincidental' && !s.bad.includes(NONE);
    const labelled = byLabel(chosen) ? chosen : single.find(byLabel);
    const key = labelled?.attribute.label;
    const also = single
      .filter((s) => s !== chosen && s.attribute.category !== 'coincidental')
      .slice(0, 3)
      .map((s) => ({ field: s.attribute.field, bad: s.bad, good: s.good }));
    return {
      fields: [chosen.attribute.field],
      bad: [chosen.bad],
      good: [chosen.good],
      category: chosen.attribute.category,
      ...(labelled && key ? { label: { key, values: labelled.bad } } : {}),
      ...(also.length > 0 ? { also } : {}),
    };
  }
  if (bad.length < 2) return undefined;
  // Pairs: both attributes take one value on every bad node.
  const uniform = all.filter((s) => s.bad.length === 1 && s.attribute.category !== 'coincidental');
  for (let i = 0; i < uniform.length; i += 1) {
    for (let j = i + 1; j < uniform.length; j += 1) {
      const a = uniform[i];
      const b = uniform[j];
      if (!a || !b) continue;
      const [va] = a.bad;
      const [vb] = b.bad;
      const clash = good.some(
        (n) => (a.attribute.read(n) ?? NONE) === va && (b.attribute.read(n) ?? NONE) === vb,
      );
      if (clash) continue;
      return {
        fields: [a.attribute.field, b.attribute.field],
        bad: [a.bad, b.bad],
        good: [a.good, b.good],
        category: a.attribute.category,
      };
    }
  }
  return undefined;
}

/** "with osImage Ubuntu 24.04.1 LTS", "without label example.com/gpu", "with kernelVersion 6.8 or 6.9". */
export function describeValues(field: string, values: readonly string[]): string {
  const present = values.filter((v) => v !== NONE);
  const absent = values.includes(NONE);
  const name = field.startsWith('label ') ? field.slice('label '.length) : field;
  const isLabel = field.startsWith('label ');
  const withText =
    present.length > 0
      ? isLabel
        ? `${name}=${present.join(' or ')}`
        : `${name} ${present.join(' or ')}`
      : '';
  if (present.length === 0) return `without ${field}`;
  return absent ? `with ${withText} or without it` : `with ${withText}`;
}

function isIdentityLabel(key: string, all: readonly Node[]): boolean {
  if (all.some((n) => n.metadata.labels?.[key] !== undefined && n.metadata.labels[key] === n.metadata.name)) {
    return true;
  }
  const values = all.map((n) => n.metadata.labels?.[key]).filter((v) => v !== undefined);
  return all.length > 2 && values.length === all.length && distinct(values).length === all.length;
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * A node's value of an attribute as the differences name it ("kernelVersion", "label
 * example.com/pool", "condition DiskPressure"); NONE where the node has none.
 */
export function fieldValue(field: string, node: Node): string {
  const fixed = FIXED.find((a) => a.field === field);
  if (fixed) return fixed.read(node) ?? NONE;
  if (field.startsWith('label ')) return node.metadata.labels?.[field.slice('label '.length)] ?? NONE;
  if (field.startsWith('condition ')) {
    const type = field.slice('condition '.length);
    return node.status?.conditions?.find((c) => c.type === type)?.status ?? NONE;
  }
  return NONE;
}

/**
 * The node takes, in every field of the separator, a value the crashing nodes have (a
 * pair: both at once): what sets the crashing nodes apart is on this node too.
 */
export function sharesSeparator(separator: NodeSeparator, node: Node): boolean {
  return separator.fields.every((field, i) => (separator.bad[i] ?? []).includes(fieldValue(field, node)));
}

/** "kernelVersion 6.8.0-1009-aws", "example.com/pool=gpu-b", "without label x" (and pairs joined). */
export function attributeWords(separator: NodeSeparator): string {
  return separator.fields
    .map((field, i) => describeValues(field, separator.bad[i] ?? []).replace(/^with /, ''))
    .join(' and ');
}
