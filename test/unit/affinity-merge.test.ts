import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  Affinity,
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodSpec,
} from '../../src/diagnosis/k8s.js';
import { matchesRequiredNodeAffinity } from '../../src/diagnosis/base/node-match.js';
import { excludeNodeFromAffinity } from '../../src/remediation/affinity-merge.js';
import { makeNode } from '../support/k8s-builders.js';

const HOST = 'kubernetes.io/hostname';
const HOSTS = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'];
const KEYS = [HOST, 'zone', 'pool', 'disktype'];
const VALUES = ['a', 'b', 'c'];

const allowed = (node: Node, affinity: Affinity | undefined): boolean =>
  matchesRequiredNodeAffinity(node, { containers: [], ...(affinity ? { affinity } : {}) } satisfies PodSpec);

const labelSet = fc.record(
  {
    zone: fc.constantFrom(...VALUES),
    pool: fc.constantFrom(...VALUES),
    disktype: fc.constantFrom(...VALUES),
  },
  { requiredKeys: [] },
);

/** Nodes n0..n5 with random extra labels; names and hostname labels are unique. */
const nodesArb = fc
  .array(labelSet, { minLength: HOSTS.length, maxLength: HOSTS.length })
  .map((labelSets) => HOSTS.map((name, i) => makeNode(name, { labels: labelSets[i] ?? {} })));

const requirementArb: fc.Arbitrary<NodeSelectorRequirement> = fc
  .record({
    key: fc.constantFrom(...KEYS),
    operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: fc.uniqueArray(fc.constantFrom(...VALUES, ...HOSTS), { minLength: 1, maxLength: 3 }),
  })
  .map((r) =>
    r.operator === 'Exists' || r.operator === 'DoesNotExist' ? { key: r.key, operator: r.operator } : r,
  );

const fieldArb: fc.Arbitrary<NodeSelectorRequirement> = fc.record({
  key: fc.constant('metadata.name'),
  operator: fc.constantFrom('In', 'NotIn'),
  values: fc.uniqueArray(fc.constantFrom(...HOSTS), { minLength: 1, maxLength: 2 }),
});

const termArb: fc.Arbitrary<NodeSelectorTerm> = fc.record(
  {
    matchExpressions: fc.array(requirementArb, { maxLength: 4 }),
    matchFields: fc.array(fieldArb, { maxLength: 1 }),
  },
  { requiredKeys: [] },
);

const affinityArb: fc.Arbitrary<Affinity | undefined> = fc.option(
  fc.record(
    {
      nodeAffinity: fc.record(
        {
          requiredDuringSchedulingIgnoredDuringExecution: fc.record({
            nodeSelectorTerms: fc.array(termArb, { maxLength: 3 }),
          }),
          preferredDuringSchedulingIgnoredDuringExecution: fc.constant([
            {
              weight: 10,
              preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] },
            },
          ]),
        },
        { requiredKeys: [] },
      ),
      podAntiAffinity: fc.constant({
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'detector' } }, topologyKey: HOST },
        ],
      }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

const caseArb = fc.record({ nodes: nodesArb, affinity: affinityArb, excluded: fc.constantFrom(...HOSTS) });

describe('excludeNodeFromAffinity properties', () => {
  it('the excluded node matches no term afterwards', () => {
    fc.assert(
      fc.property(caseArb, ({ nodes, affinity, excluded }) => {
        const node = nodes.find((n) => n.metadata.name === excluded);
        if (!node) throw new Error('generator');
        expect(allowed(node, excludeNodeFromAffinity(affinity, excluded))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('every node excluded before stays excluded, and every other node allowed before stays allowed', () => {
    fc.assert(
      fc.property(caseArb, ({ nodes, affinity, excluded }) => {
        const after = excludeNodeFromAffinity(affinity, excluded);
        for (const node of nodes) {
          const was = allowed(node, affinity);
          const now = allowed(node, after);
          if (!was) expect(now).toBe(false);
          if (node.metadata.name !== excluded && was) expect(now).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps everything outside the required node terms, does not mutate its input, and is idempotent', () => {
    fc.assert(
      fc.property(caseArb, ({ affinity, excluded }) => {
        const copy = structuredClone(affinity);
        const after = excludeNodeFromAffinity(affinity, excluded);
        expect(affinity).toEqual(copy);
        expect(after.podAntiAffinity).toEqual(affinity?.podAntiAffinity);
        expect(after.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual(
          affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
        );
        expect(excludeNodeFromAffinity(after, excluded)).toEqual(after);
        // Every original expression and field is still there, term by term.
        const before =
          affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
        const terms =
          after.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
        expect(terms.length).toBe(Math.max(before.length, 1));
        before.forEach((term, i) => {
          expect(terms[i]?.matchFields).toEqual(term.matchFields);
          const kept = (terms[i]?.matchExpressions ?? []).filter(
            (e) => !(e.key === HOST && e.operator === 'NotIn'),
          );
          expect(kept).toEqual(
            (term.matchExpressions ?? []).filter((e) => !(e.key === HOST && e.operator === 'NotIn')),
          );
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('excludeNodeFromAffinity examples', () => {
  it('creates one term when there is no affinity', () => {
    expect(excludeNodeFromAffinity(undefined, 'node-b')).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: HOST, operator: 'NotIn', values: ['node-b'] }] }],
        },
      },
    });
  });

  it('adds the NotIn to every term (terms are ORed) and merges into an existing hostname NotIn', () => {
    const affinity: Affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'pool', operator: 'In', values: ['gpu'] },
                { key: HOST, operator: 'NotIn', values: ['node-x'] },
              ],
            },
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-b', 'node-c'] }] },
          ],
        },
      },
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'topology.kubernetes.io/zone' },
        ],
      },
    };
    const after = excludeNodeFromAffinity(affinity, 'node-b');
    expect(after.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [
          { key: 'pool', operator: 'In', values: ['gpu'] },
          { key: HOST, operator: 'NotIn', values: ['node-x', 'node-b'] },
        ],
      },
      {
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-b', 'node-c'] }],
        matchExpressions: [{ key: HOST, operator: 'NotIn', values: ['node-b'] }],
      },
    ]);
    expect(after.podAffinity).toEqual(affinity.podAffinity);
  });

  it('leaves an empty term (which matches nothing) empty', () => {
    const affinity: Affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{}, { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }],
        },
      },
    };
    const terms = excludeNodeFromAffinity(affinity, 'n1').nodeAffinity
      ?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    expect(terms?.[0]).toEqual({});
    expect(terms?.[1]?.matchExpressions).toHaveLength(2);
  });
});
