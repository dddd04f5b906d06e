/**
 * A DaemonSet whose new pod waits, Pending, on a node that joined full (issue 52.3): its
 * controller counts that node against maxUnavailable (update.go rollingUpdate,
 * numUnavailable), so without surge no old pod is replaced on any other node while it
 * waits. The Unschedulable finding says so, names the nodes held on the old template,
 * and what maxUnavailable would let them update meanwhile; the simulator, run forward,
 * agrees that nothing else moves. With maxUnavailable above the pods waiting, nothing
 * is said: the other nodes update. Beside a surge deadlock on another node (a host
 * port), the deadlock stays named, and the strategy fix is weighed and refused with why:
 * it finishes nothing while the pod waits, and needs maxUnavailable 2, not 1, meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { guardState } from '../../sim/generated-guards.js';
import { startStepped, type SteppedSim } from '../../sim/stepped.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { GeneratedState } from '../../sim/generated-states.js';
import { rolledOut } from '../support/state-judge.js';

/** The state at its snapshot, as the judge takes it (a controller pass before each scripted step). */
function atSnapshot(state: GeneratedState, f: (sim: SteppedSim) => void): void {
  const sim = startStepped(state.objects);
  try {
    sim.advance(600, () => rolledOut(sim, state));
    sim.apply(state.changed);
    for (const step of state.later ?? []) {
      sim.advance(0);
      if ('apply' in step) sim.apply(step.apply);
    }
    sim.advance(state.after);
    f(sim);
  } finally {
    sim.stop();
  }
}

function diagnosis(sim: SteppedSim, state: GeneratedState) {
  const snapshot = assembleSnapshot(
    { kind: state.kind, namespace: state.namespace, name: state.name },
    sim.objects() as unknown as KubeObject[],
    { capturedAt: sim.now() },
  );
  return diagnose(snapshot);
}

type PodView = { metadata: { name: string; labels?: Record<string, string> }; spec: { nodeName?: string } };

describe("a DaemonSet's Pending pod on a node that joined full spends maxUnavailable", () => {
  // Seed 18: 3 nodes, maxSurge 0 / maxUnavailable 1; node-0 updated, node-late joins full.
  const state = guardState(18, 'daemonset-pending');

  it('says the rollout is stopped on every node, names the nodes held, and what maxUnavailable would move them', () => {
    atSnapshot(state, (sim) => {
      const result = diagnosis(sim, state);
      const finding = result.findings.find((f) => f.code === 'Unschedulable');
      expect(finding?.summary).toMatch(
        /While web-\w+ \(node-late\) is Pending, it spends the DaemonSet's maxUnavailable of 1, so its controller replaces no old pod on node-1, node-2 either/,
      );
      const note = finding?.evidence.find((e) => e.type === 'note' && e.text.startsWith('While'));
      expect(note).toMatchObject({
        text: expect.stringContaining('maxUnavailable 2 would let the other nodes update'),
      });
      // No plan that takes a node's pod down is offered: none finishes while node-late is full.
      expect(result.remediations.filter((p) => p.kind === 'set-rolling-update')).toEqual([]);
      // The simulator agrees: 15 minutes on, node-1 and node-2 still run their old pods.
      const old = (): string[] =>
        (sim.list('Pod', 'shop') as unknown as PodView[])
          .filter((p) => p.spec.nodeName && p.metadata.labels?.['controller-revision-hash'] !== undefined)
          .filter((p) => ['node-1', 'node-2'].includes(p.spec.nodeName ?? ''))
          .map((p) => p.metadata.labels?.['controller-revision-hash'] ?? '');
      const before = old();
      expect(sim.advance(900, () => rolledOut(sim, state))).toBe(false);
      expect(old()).toEqual(before);
    });
  });

  it('says nothing of it where maxUnavailable leaves room beside the waiting pod', () => {
    const wide = {
      ...state,
      changed: {
        ...(state.changed as object),
        spec: {
          ...(state.changed as { spec: object }).spec,
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } },
        },
      },
    };
    atSnapshot(wide, (sim) => {
      const finding = diagnosis(sim, wide).findings.find((f) => f.code === 'Unschedulable');
      expect(finding?.summary).toContain('node-late');
      expect(finding?.summary).not.toContain('spends the DaemonSet');
    });
  });

  it('beside a surge deadlock: both named, the strategy refused with the pod that waits and the maxUnavailable it takes', () => {
    // Seed 68: maxSurge 1 / maxUnavailable 0 and a host port on 3 nodes; node-late joins full.
    const surging = guardState(68, 'daemonset-pending');
    atSnapshot(surging, (sim) => {
      const result = diagnosis(sim, surging);
      expect(result.findings.map((f) => f.code).sort()).toEqual(['RolloutSurgeDeadlock', 'Unschedulable']);
      expect(result.remediations.filter((p) => p.kind === 'set-rolling-update')).toEqual([]);
      const refused = result.notOffered?.find((n) => n.kind === 'set-rolling-update');
      expect(refused?.reason).toMatch(
        /cannot finish while web-\w+ on node-late waits for room .*make room there.*needs maxUnavailable 2, not 1/,
      );
      expect(sim.advance(900, () => rolledOut(sim, surging))).toBe(false);
    });
  });
});
