/**
 * Where a new pod of the workload's current template would crash-loop, read from the
 * crash picture of that template (crash/crash-distribution.ts), so the forward model
 * never lets a pod of a template known to crash become Ready:
 * - crashing on every node it ran on (no healthy pod of it anywhere): it crashes
 *   wherever it starts;
 * - crashing on some nodes only (the crash depends on the node): it crashes on those
 *   nodes, and on every other node that shares what separates them from the healthy
 *   ones (a pool label, a kernel, an OS image: the rollout reaches them too);
 * - otherwise (no crash, or a node with both crashing and healthy pods of it) nothing
 *   is assumed.
 */
import type { AnalysisContext } from '../analysis-context.js';
import { crashPictures } from '../crash/crash-distribution.js';

interface CrashModel {
  /** The template crashes wherever it runs. */
  everywhere: boolean;
  /** Nodes where it crashes (all of them when `everywhere`). */
  crashesOn: (node: string) => boolean;
  /** Nodes seen crashing, for words. */
  seen: string[];
}

export function currentTemplateCrash(ctx: AnalysisContext): CrashModel | undefined {
  return ctx.once('forward-crash-model', () => {
    const picture = crashPictures(ctx).find((p) => p.current);
    if (!picture || picture.badNodes.length === 0) return undefined;
    if (picture.goodNodes.length === 0 && picture.mixedNodes.length === 0)
      return { everywhere: true, crashesOn: () => true, seen: [...picture.badNodes] };
    if (!picture.nodeLocal) return undefined;
    // The nodes the rollout has not reached yet that share the separating attribute
    // (a kernel or an OS image from nodeInfo as well as a label).
    const bad = new Set([...picture.badNodes, ...picture.sharingNodes]);
    const label = picture.separator?.label;
    if (label) {
      // A label value counts for the nodes the rollout has not reached only where two
      // crashing nodes hold it (crash-distribution.ts groupOf): one node proves no group.
      const held = (v: string): number =>
        ctx.snapshot.nodes.filter(
          (n) => picture.badNodes.includes(n.metadata.name ?? '') && n.metadata.labels?.[label.key] === v,
        ).length;
      const values = new Set(label.values.filter((v) => held(v) >= 2));
      for (const node of ctx.snapshot.nodes) {
        const value = node.metadata.labels?.[label.key];
        if (value !== undefined && values.has(value)) bad.add(node.metadata.name ?? '');
      }
    }
    return { everywhere: false, crashesOn: (node) => bad.has(node), seen: [...picture.badNodes] };
  });
}
