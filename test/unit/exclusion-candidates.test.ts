/** Which nodes' pods the collector reads for a crash loop that may be node-local. */
import { describe, expect, it } from 'vitest';
import { crashNodesOf } from '../../src/diagnosis/base/crash-nodes.js';
import { crashScenario } from '../support/crash-fixtures.js';

describe('crashNodesOf', () => {
  it('seed B: node-b crashes, node-a and node-c stay', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [1] });
    expect(crashNodesOf(pods)).toEqual({ crashing: ['node-b'], staying: ['node-a', 'node-c'] });
  });

  it('every pod crashes: no node is clean, no exclusion, nothing to read', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b'], crashing: [0, 1] });
    expect(crashNodesOf(pods)).toBeUndefined();
  });

  it('nothing crashes: nothing to read', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b'], crashing: [] });
    expect(crashNodesOf(pods)).toBeUndefined();
  });

  it('a node with both a crashing and a healthy pod stays (an exclusion would not exclude it)', () => {
    const { pods } = crashScenario({ placement: ['node-a', 'node-b', 'node-b', 'node-c'], crashing: [1, 3] });
    expect(crashNodesOf(pods)).toEqual({ crashing: ['node-c'], staying: ['node-a', 'node-b'] });
  });
});
