/**
 * Crash verdicts weighed by their evidence (issue 29.5): a node is blamed only when an
 * attribute separates crashing from healthy pods or the failure's own words point at
 * the node; one crashing pod with a cause of its own is that cause first; every
 * attribute that separates the nodes is named, not the first by field order.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { crashScenario } from '../support/crash-fixtures.js';

const SEED = ['node-a', 'node-b', 'node-c'];

describe('crash verdicts weighed by their evidence', () => {
  it('one pod of three OOMKilled on identical nodes: OOMKilled first, no node blamed, no exclusion', () => {
    const { snapshot } = crashScenario({
      placement: SEED,
      crashing: [1],
      oddNode: {},
      crash: { exitCode: 137, reason: 'OOMKilled', log: 'allocating cache\n' },
    });
    const diagnosis = diagnose(snapshot);
    const codes = diagnosis.findings.map((f) => f.code);
    expect(codes[0]).toBe('OOMKilled');
    expect(codes).not.toContain('CrashLoopOnNode');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('exclude-node');
  });

  it('one OOMKilled pod on a node that happens to run another kernel: still its own cause', () => {
    const { snapshot } = crashScenario({
      placement: SEED,
      crashing: [1],
      crash: { exitCode: 137, reason: 'OOMKilled', log: 'allocating cache\n' },
    });
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings[0]?.code).toBe('OOMKilled');
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('CrashLoopOnNode');
  });

  it('a minority crash on identical nodes with no clue blames no node', () => {
    const { snapshot } = crashScenario({
      placement: SEED,
      crashing: [1],
      oddNode: {},
      crash: { log: 'panic: assignment to entry in nil map\n' },
    });
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('CrashLoopOnNode');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('exclude-node');
  });

  it('a node that differs in kernel, runtime and OS image is named with all three', () => {
    const { snapshot } = crashScenario({
      placement: SEED,
      crashing: [1],
      oddNode: {
        kernelVersion: '6.8.0-1009-aws',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://2.0.0',
      },
      crash: { log: 'panic: assignment to entry in nil map\n' },
    });
    const [first] = diagnose(snapshot).findings;
    expect(first?.code).toBe('CrashLoopOnNode');
    expect(first?.summary).toContain('only on node node-b, with ');
    for (const part of [
      'kernelVersion 6.8.0-1009-aws',
      'containerRuntimeVersion containerd://2.0.0',
      'osImage Ubuntu 24.04.1 LTS',
    ])
      expect(first?.summary.split(': ')[0]).toContain(part);
  });
});

describe('the failure pointing at the node', () => {
  it("a GPU's hardware fault in the log blames the node even when nothing in the Node objects differs", () => {
    const { snapshot } = crashScenario({
      placement: SEED,
      crashing: [1],
      oddNode: {},
      crash: { log: 'level=fatal msg="cudaMalloc failed" error="uncorrectable ECC error encountered"\n' },
    });
    const [first] = diagnose(snapshot).findings;
    expect(first?.code).toBe('CrashLoopOnNode');
    expect(first?.summary).toContain('failing on a hardware fault of its device');
  });
});
