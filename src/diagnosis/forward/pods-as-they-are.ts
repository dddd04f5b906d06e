/** The workload's pods as `kubectl get pods` shows them, with where the model sees them going (evidence). */
import type { AnalysisContext } from '../analysis-context.js';
import type { Evidence } from '../finding.js';
import type { Pod } from '../k8s.js';
import { isReady, shownPhase } from '../base/pods.js';
import { podPhases } from './pod-phase.js';

export function podsAsTheyAre(ctx: AnalysisContext): Evidence {
  const phases = podPhases(ctx);
  const shown = (pod: Pod): { name: string; node?: string; phase?: string; detail?: string } => {
    const phase = shownPhase(pod);
    const state = phases.get(pod);
    return {
      name: pod.metadata.name ?? '',
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      ...(phase ? { phase } : {}),
      // 'starting' is also a Ready pod still within minReadySeconds: available once they pass.
      ...(state === 'starting'
        ? { detail: isReady(pod) ? 'Ready, not available yet (minReadySeconds)' : 'starting, not Ready yet' }
        : {}),
      ...(state === 'terminating' ? { detail: 'terminating: gone within its grace period' } : {}),
      ...(state === 'stuck' ? { detail: 'terminating past its deadline' } : {}),
    };
  };
  return { type: 'pods', title: 'Pods of the workload', pods: ctx.snapshot.pods.slice(0, 20).map(shown) };
}
