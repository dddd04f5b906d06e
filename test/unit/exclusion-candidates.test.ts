/** Which nodes' pods the collector reads for a crash loop that may be node-local. */
import { describe, expect, it } from 'vitest';
import { crashNodesOf } from '../../src/diagnosis/base/crash-nodes.js';
import { crashScenario } from '../support/crash-fixtures.js';

const HASH = 'pod-template-hash';

/** The pods with the ones at `indexes` moved to another revision (their label names another template). */
function atRevision<T extends { metadata: { labels?: Record<string, string> } }>(
  pods: T[],
  indexes: number[],
  hash: string,
): T[] {
  return pods.map((pod, i) =>
    indexes.includes(i)
      ? { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, [HASH]: hash } } }
      : pod,
  );
}

describe('crashNodesOf', () => {
  it('seed B: node-b crashes, node-a and node-c stay', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [1] });
    expect(crashNodesOf(pods, HASH)).toEqual({ crashing: ['node-b'], staying: ['node-a', 'node-c'] });
  });

  it('every pod crashes: no node is clean, no exclusion, nothing to read', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b'], crashing: [0, 1] });
    expect(crashNodesOf(pods, HASH)).toBeUndefined();
  });

  it('nothing crashes: nothing to read', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b'], crashing: [] });
    expect(crashNodesOf(pods, HASH)).toBeUndefined();
  });

  it('a node with both a crashing and a healthy pod stays (an exclusion would not exclude it)', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b', 'node-b', 'node-c'], crashing: [1, 3] });
    expect(crashNodesOf(pods, HASH)).toEqual({ crashing: ['node-c'], staying: ['node-a', 'node-b'] });
  });

  it('a revision that crashes wherever it runs rules its nodes out (no healthy pod of its own template elsewhere)', () => {
    // A StatefulSet at its forced rollback: the update revision's one pod crash-loops on
    // node-c, the current revision's pods are healthy on node-a and node-b. The crash
    // follows the revision, not the node (crash-distribution.ts): no exclusion, nothing to read.
    const { pods } = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [2] });
    expect(crashNodesOf(atRevision(pods, [2], 'update-rev'), HASH)).toBeUndefined();
  });

  it('the same revision healthy on another node keeps the crash a node-local candidate', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [2] });
    expect(crashNodesOf(atRevision(pods, [1, 2], 'update-rev'), HASH)).toEqual({
      crashing: ['node-c'],
      staying: ['node-a', 'node-b'],
    });
  });
});
