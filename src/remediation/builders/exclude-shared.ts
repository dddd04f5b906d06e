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
import { attributeWords } from '../../diagnosis/crash/node-diff.js';
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
 * The warnings of an exclusion that covers sharing nodes: which nodes share what, and
 * where the exclusion names them, that a node added later with it is not kept off.
 */
export function sharedWarnings(picture: TemplateCrashPicture, exclusion: Exclusion): string[] {
  const sharing = picture.sharingNodes;
  const separator = picture.separator;
  if (!separator) return [];
  const suspects = picture.suspectNodes;
  const suspected =
    suspects.length === 0
      ? []
      : [
          `Only the crashing node${picture.badNodes.length === 1 ? '' : 's'} ${list(picture.badNodes)} ${picture.badNodes.length === 1 ? 'is' : 'are'} excluded. ${list(suspects)} ${suspects.length === 1 ? 'has' : 'have'} ${attributeWords(separator)} too and run${suspects.length === 1 ? 's' : ''} no pod of this template yet: a suspicion one crashing node cannot prove, so ${suspects.length === 1 ? 'it stays' : 'they stay'} eligible; if pods crash there as well, exclude ${suspects.length === 1 ? 'it' : 'them'} too.`,
        ];
  if (sharing.length === 0) return suspected;
  const one = sharing.length === 1;
  const words = attributeWords(separator);
  const out = [
    `${list(sharing)} share${one ? 's' : ''} ${words} with ${list(picture.badNodes)}, where the pods crash, and run${one ? 's' : ''} no pod of this template yet: once the rollout reaches ${one ? 'it' : 'them'} the pods crash there too, so ${one ? 'it is' : 'they are'} excluded as well.`,
  ];
  if (exclusion.key === HOSTNAME_LABEL) {
    const fields = separator.fields.map((f) => (f.startsWith('label ') ? f.slice('label '.length) : f));
    const labelled = separator.fields.every((f) => f.startsWith('label '));
    const why = labelled
      ? 'the exclusion names the nodes (a label exclusion is not admitted here, or the label holds other nodes too)'
      : `${fields.join(' and ')} ${fields.length === 1 ? 'is' : 'are'} not a node label (the node's status.nodeInfo or conditions), so the exclusion names the nodes`;
    out.push(`${why}: a node added later with ${words} is not kept off, and its pods will crash there.`);
  }
  return [...out, ...suspected];
}
