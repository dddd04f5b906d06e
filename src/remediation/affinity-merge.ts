/**
 * Adds a node exclusion to a pod affinity without changing anything else it allows
 * or forbids. Required node selector terms are ORed and each term's expressions are
 * ANDed, so the exclusion goes into EVERY term; in a strategic merge patch both
 * lists are replaced whole, so callers must send the complete result.
 */
import type { Affinity, NodeSelectorRequirement, NodeSelectorTerm } from '../diagnosis/k8s.js';

export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/**
 * Returns a new affinity in which no required node selector term matches a node
 * whose `kubernetes.io/hostname` label is `hostname`, every other node keeps its
 * verdict, and preferred terms, podAffinity, podAntiAffinity, matchFields and the
 * other expressions are kept as they were. The input is not modified.
 *
 * A term with neither expressions nor fields matches no node; it is left empty,
 * because adding the NotIn to it would make it match every other node.
 *
 * @example
 * excludeNodeFromAffinity(undefined, 'node-b')
 * // { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms:
 * //   [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] }] } } }
 */
export function excludeNodeFromAffinity(affinity: Affinity | undefined, hostname: string): Affinity {
  return excludeLabelValues(affinity, HOSTNAME_LABEL, [hostname]);
}

/**
 * The same for any node label: no required term matches a node whose `key` label
 * has one of `values` (a `key NotIn values` expression in every term, merged into
 * an existing NotIn on that key).
 */
export function excludeLabelValues(
  affinity: Affinity | undefined,
  key: string,
  values: readonly string[],
): Affinity {
  const result: Affinity = affinity ? structuredClone(affinity) : {};
  const nodeAffinity = (result.nodeAffinity ??= {});
  const terms = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const nextTerms: NodeSelectorTerm[] =
    terms.length === 0
      ? [{ matchExpressions: [notIn(key, [...values])] }]
      : terms.map((term) => (isEmptyTerm(term) ? term : excludeInTerm(term, key, values)));
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    ...nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution,
    nodeSelectorTerms: nextTerms,
  };
  return result;
}

function excludeInTerm(term: NodeSelectorTerm, key: string, values: readonly string[]): NodeSelectorTerm {
  const expressions = term.matchExpressions ?? [];
  const existing = expressions.findIndex((e) => e.key === key && e.operator === 'NotIn');
  const merged =
    existing === -1
      ? [...expressions, notIn(key, [...values])]
      : expressions.map((e, i) => {
          const missing = values.filter((v) => !(e.values ?? []).includes(v));
          return i === existing && missing.length > 0
            ? { ...e, values: [...(e.values ?? []), ...missing] }
            : e;
        });
  return { ...term, matchExpressions: merged };
}

function isEmptyTerm(term: NodeSelectorTerm): boolean {
  return (term.matchExpressions ?? []).length === 0 && (term.matchFields ?? []).length === 0;
}

function notIn(key: string, values: string[]): NodeSelectorRequirement {
  return { key, operator: 'NotIn', values };
}
