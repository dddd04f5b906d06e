/**
 * A rollout that must replace a pod whose volume ties it to nodes that take no pods (a
 * local PersistentVolume, or any volume with node affinity, on a cordoned, drained or
 * tainted node) can never finish: the controller deletes the pod, and its replacement
 * keeps the same claims (a StatefulSet's per-pod claims, or the template's), so the
 * scheduler finds no node for it ("volume node affinity conflict", DESIGN.md §4d). Said
 * while the rollout still moves, before the controller gets there; a pod already waiting
 * is the ordered block's (rollout-stuck.ts) or Unschedulable's to name.
 *
 * Claimed only from what was read: the volume (guards.persistentVolumes) and every node.
 * A volume not read, or nodes not all read, make no claim.
 */
import type { Analyzer } from '../analyzer.js';
import { pinnedFinding, pinnedReplacement } from '../rollout/volume-pin.js';

export const volumePinned: Analyzer = {
  name: 'volume-pinned',
  analyze(ctx) {
    const pinned = pinnedReplacement(ctx);
    return pinned ? [pinnedFinding(ctx, pinned)] : [];
  },
};
