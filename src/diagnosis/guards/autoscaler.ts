/**
 * The HorizontalPodAutoscaler that sets a workload's replicas (DESIGN.md §4e):
 * it writes spec.replicas through the scale subresource at each sync (every 15 s by
 * default, --horizontal-pod-autoscaler-sync-period), to its recommendation clamped to
 * minReplicas..maxReplicas (a scale-down only once the recommendation stayed lower for
 * the stabilization window, 5 minutes by default; a scale-up at once). Its
 * status.desiredReplicas is that count after the window (reconcileAutoscaler: normalized,
 * then the scale written, then setStatus), so one that differs from spec.replicas is
 * written already, or at the next sync, whichever way it goes. While a rollout is
 * under way the Deployment controller spreads such a change over the ReplicaSets that
 * still have replicas (`scale`, getReplicaSetFraction), and maxSurge/maxUnavailable
 * percentages resolve against the new count. Its status and conditions say what it does
 * next: `desiredReplicas`, AbleToScale (False: it cannot write the scale), ScalingActive
 * (False: no metrics, it changes nothing) and ScalingLimited (True: held at min or max).
 * Read from `snapshot.guards` (guards/select-guards.ts picks the HPAs that target the
 * workload); pure.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Condition } from '../k8s.js';
import type { HorizontalPodAutoscaler } from '../k8s-policy.js';
import { workloadKind } from '../workloads/index.js';
import { DIAGNOSIS_SENTENCES as S } from '../sentences.js';
import type { WorkloadObject } from '../snapshot/types.js';

interface AutoscalerView {
  name: string;
  min: number;
  max: number;
  /** spec.replicas of the workload now. */
  replicas: number;
  /** What it sets next, where that differs from `replicas` and it can. */
  next?: number;
  /** Why it changes nothing now, in a few words (it cannot write the scale, or has no metrics). */
  idle?: string;
  /** It is held at its min or max (ScalingLimited), in its own words. */
  limited?: string;
}

function condition(hpa: HorizontalPodAutoscaler, type: string): Condition | undefined {
  return hpa.status?.conditions?.find((c) => c.type === type);
}

function reasonWords(c: Condition): string {
  return [c.reason, c.message].filter((x) => x !== undefined && x !== '').join(': ');
}

/** The autoscaler that sets the workload's replicas, or undefined (none, or not read). */
export function workloadAutoscaler(ctx: AnalysisContext): AutoscalerView | undefined {
  return ctx.once('guards-autoscaler', () => {
    const hpa = ctx.snapshot.guards?.horizontalPodAutoscalers?.[0];
    if (!hpa) return undefined;
    const kind = workloadKind(ctx.snapshot);
    const replicas = kind.desiredReplicas(kind.object(ctx.snapshot));
    const max = hpa.spec?.maxReplicas ?? replicas;
    const min = Math.min(hpa.spec?.minReplicas ?? 1, max);
    const able = condition(hpa, 'AbleToScale');
    const active = condition(hpa, 'ScalingActive');
    const limitedBy = condition(hpa, 'ScalingLimited');
    const idle =
      able?.status === 'False'
        ? `it cannot change the scale (${reasonWords(able)})`
        : active?.status === 'False'
          ? `it is not scaling (${reasonWords(active)})`
          : undefined;
    // An HPA the controller has not reconciled yet (no conditions, currentReplicas still
    // 0: setStatus always writes the scale's count) asks for nothing: the count stays.
    const synced = (hpa.status?.conditions ?? []).length > 0 || (hpa.status?.currentReplicas ?? 0) > 0;
    const asked = synced ? (hpa.status?.desiredReplicas ?? replicas) : replicas;
    const wanted = Math.min(max, Math.max(min, asked));
    return {
      name: hpa.metadata.name ?? '',
      min,
      max,
      replicas,
      ...(!idle && wanted !== replicas ? { next: wanted } : {}),
      ...(idle ? { idle } : {}),
      ...(limitedBy?.status === 'True' ? { limited: reasonWords(limitedBy) } : {}),
    };
  });
}

/**
 * The replicas the autoscaler sets the workload to (its status's desiredReplicas, the
 * stabilization window already behind it), up or down, or undefined: the count the
 * controllers then roll out at (their run forward starts from it).
 */
export function autoscaledTo(ctx: AnalysisContext): number | undefined {
  return workloadAutoscaler(ctx)?.next;
}

/**
 * The workload as its autoscaler leaves it at the next sync: raised to its minimum or
 * recommendation there, the controllers roll out at that count, its percentages resolved
 * against it (forward/run.ts, check/predict.ts).
 */
export function autoscaled<O extends WorkloadObject>(ctx: AnalysisContext, object: O): O {
  const replicas = autoscaledTo(ctx);
  return replicas === undefined ? object : { ...object, spec: { ...object.spec, replicas } };
}

/** " at the 6 replicas HorizontalPodAutoscaler web sets at its next sync (spec.replicas 4)", or "" (it sets none other). */
export function atAutoscaledCount(ctx: AnalysisContext): string {
  const view = workloadAutoscaler(ctx);
  const to = autoscaledTo(ctx);
  return view && to !== undefined
    ? ` at the ${to} replicas HorizontalPodAutoscaler ${view.name} sets at its next sync (spec.replicas ${view.replicas})`
    : '';
}

/** "HorizontalPodAutoscaler web sets its replicas (min 2, max 10): it sets 6 next, 4 now." */
function autoscalerSentence(view: AutoscalerView, ref: string): string {
  const [next, replicas] = [String(view.next), String(view.replicas)];
  const what =
    view.next !== undefined
      ? view.next < view.replicas
        ? S.hpaNextDown.en({ next, replicas })
        : S.hpaNext.en({ next, replicas })
      : view.idle
        ? S.hpaHoldsIdle.en({ replicas, idle: view.idle })
        : S.hpaHolds.en({ replicas });
  return S.hpaSets.en({
    name: view.name,
    ref,
    min: String(view.min),
    max: String(view.max),
    what: view.limited ? S.hpaLimited.en({ what, limited: view.limited }) : what,
  });
}

/**
 * What the autoscaler means for a plan whose arithmetic turns on spec.replicas (a
 * strategy's surge and unavailability, an old ReplicaSet's scale): the count it was run
 * forward at, and what the autoscaler does to it.
 */
export function autoscalerPlanWarning(view: AutoscalerView, ref: string): string {
  const base = autoscalerSentence(view, ref);
  const after =
    view.next === undefined
      ? S.hpaShouldItScale.en({ min: String(view.min), max: String(view.max) })
      : view.next > view.replicas
        ? S.hpaRunAtOnce.en({ next: String(view.next) })
        : S.hpaRunAtNextSync.en({ next: String(view.next) });
  return `${base} ${after}`;
}

/** The findings that speak of how the rollout goes, whose verdict an autoscaler's next write may change. */
const ROLLOUT_VERDICTS = new Set<string>([
  'RolloutSurgeDeadlock',
  'Unschedulable',
  'QuotaExceeded',
  'RolloutStuck',
  'RolloutAtRisk',
  'ProgressDeadlineExceeded',
  'Unavailable',
  'PreemptionUnderWay',
  'RolloutProgressing',
  'RolloutPaused',
]);

/**
 * The first verdict on the rollout names the autoscaler that sets its replicas, and what
 * it does next: an autoscaler read is never left unnamed.
 */
export function withAutoscalerSaid<F extends { code: string; evidence: readonly unknown[] }>(
  ctx: AnalysisContext,
  findings: readonly F[],
): F[] {
  const view = workloadAutoscaler(ctx);
  if (!view) return [...findings];
  const lead =
    findings.find((f) => ROLLOUT_VERDICTS.has(f.code) && (f as { severity?: string }).severity !== 'info') ??
    findings.find((f) => ROLLOUT_VERDICTS.has(f.code));
  if (!lead) return [...findings];
  const { kind, name } = ctx.snapshot.target;
  const note = { type: 'note' as const, text: autoscalerSentence(view, `${kind.toLowerCase()}/${name}`) };
  return findings.map((f) => (f === lead ? { ...f, evidence: [...f.evidence, note] } : f));
}
