/**
 * exclude-node where what sets the crashing node apart (a pool label, a kernel, an OS
 * image: crash-distribution.ts `sharingNodes`) is on nodes the rollout has not reached
 * yet: the crash follows the pods there, so the exclusion covers them too.
 * - By a node label where one selects exactly the crashing and the sharing nodes among
 *   the nodes read (a pool label too: it then keeps no healthy node out), never a
 *   zone or region (they say where a node is, not what it runs), at most
 *   MAX_EXCLUDED_NODES values, and only where the policy admits a label (not a
 *   DaemonSet, not Recreate: exclusion-bound.ts);
 * - otherwise by name, every one of them, and the plan says a node added later with
 *   the attribute is not kept off (a nodeInfo field is no label).
 * Pure.
 */
import type { TemplateCrashPicture } from '../../diagnosis/crash/crash-distribution.js';
import { attributeWords, describeValues, type NodeSeparator } from '../../diagnosis/crash/node-diff.js';
import { impactInWords, type PlanSaid } from '../plan-words.js';
import type { Node } from '../../diagnosis/k8s.js';
import { HOSTNAME_LABEL } from '../affinity-merge.js';
import { MAX_EXCLUDED_NODES } from '../exclusion-bound.js';

export interface Exclusion {
  key: string;
  values: string[];
}

/** Labels that say where a node is, not what it runs: excluding by them keeps healthy kinds out later. */
const WHERE = /^(topology\.kubernetes\.io\/|failure-domain\.beta\.kubernetes\.io\/|topology\.[a-z0-9.-]+\/)/;

/**
 * A label whose values on `all` (the crashing and sharing nodes) select exactly them
 * among `known`; the separator's own label first, then the fewest values.
 */
export function exactLabel(
  all: readonly Node[],
  known: readonly Node[],
  prefer: string | undefined,
): Exclusion | undefined {
  const names = new Set(all.map((n) => n.metadata.name ?? ''));
  const keys = [...new Set(all.flatMap((n) => Object.keys(n.metadata.labels ?? {})))].filter(
    (key) => key !== HOSTNAME_LABEL && !WHERE.test(key),
  );
  const found: Exclusion[] = [];
  for (const key of keys) {
    const values = all.map((n) => n.metadata.labels?.[key]);
    if (values.some((v) => v === undefined)) continue;
    const set = new Set(values as string[]);
    // One value per node is a name by another label (an instance id): no better than names.
    if (all.length > 1 && set.size === all.length) continue;
    if (set.size > MAX_EXCLUDED_NODES) continue;
    const selected = known.filter((n) => set.has(n.metadata.labels?.[key] ?? '\u0000'));
    const exact = selected.length === names.size && selected.every((n) => names.has(n.metadata.name ?? ''));
    if (exact) found.push({ key, values: [...set].sort() });
  }
  found.sort(
    (a, b) => Number(b.key === prefer) - Number(a.key === prefer) || a.values.length - b.values.length,
  );
  return found[0];
}

function list(names: readonly string[]): string {
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/**
 * The attributes of a separator as words a reader of any language can take as written
 * (`label=value`, `field value`): only where each field has one value the crashing
 * nodes share (more values, or a value's absence, are said in English only).
 */
function attributesAsWritten(separator: NodeSeparator): string[] | undefined {
  const out: string[] = [];
  for (const [i, field] of separator.fields.entries()) {
    const values = separator.bad[i] ?? [];
    if (values.length !== 1) return undefined;
    const words = describeValues(field, values);
    if (!words.startsWith('with ') || words.endsWith(' or without it')) return undefined;
    out.push(words.slice('with '.length));
  }
  return out;
}

/**
 * The warnings of an exclusion that covers sharing nodes: which nodes share what, and
 * where the exclusion names them, that a node added later with it is not kept off;
 * worded (exclusion-plan-words.ts) where the attributes can be written as they are.
 */
export function sharedWarnings(picture: TemplateCrashPicture, exclusion: Exclusion): (string | PlanSaid)[] {
  const separator = picture.separator;
  if (!separator) return [];
  const attributes = attributesAsWritten(separator);
  const said = (s: PlanSaid): string | PlanSaid => (attributes ? s : impactInWords(s, 'en'));
  const words = attributes ?? [attributeWords(separator)];
  const { badNodes, sharingNodes: sharing, suspectNodes: suspects } = picture;
  const suspected =
    suspects.length === 0
      ? []
      : [
          said({
            key: 'sharedSuspects',
            params: {
              bad: list(badNodes),
              badOne: badNodes.length === 1,
              suspects: list(suspects),
              suspectsOne: suspects.length === 1,
              attributes: words,
            },
          }),
        ];
  if (sharing.length === 0) return suspected;
  const out = [
    said({
      key: 'sharedAlso',
      params: { sharing: list(sharing), one: sharing.length === 1, attributes: words, bad: list(badNodes) },
    }),
  ];
  if (exclusion.key === HOSTNAME_LABEL) {
    const fields = separator.fields.map((f) => (f.startsWith('label ') ? f.slice('label '.length) : f));
    const labelled = separator.fields.every((f) => f.startsWith('label '));
    out.push(
      said(
        labelled
          ? { key: 'sharedNamedLabel', params: { attributes: words } }
          : { key: 'sharedNamedField', params: { fields, attributes: words } },
      ),
    );
  }
  return [...out, ...suspected];
}
