/**
 * What the kinds that patch the workload itself share (set-rolling-update,
 * set-recreate, rollout-restart, exclude-node): the payload they carry, the Undo that
 * patches back, the rollout they start, the per-field drift verdict, and their words.
 * Each of those kinds is `workloadPatchKind({...})` with its own builders, paths and
 * confirm words. Pure.
 */
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { codeSpan } from '../../text/code-span.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { UNDO_WORDS } from './undo-words.js';
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import {
  PATCH_CONTENT_TYPES,
  type Patch,
  type RemediationPlan,
  type UncheckedPlan,
  type WorkloadPatchPlan,
} from '../plan.js';
import { APPLY_TIME, RESTARTED_AT_POINTER, restartsPods } from '../restart-time.js';
import type { ResolvedStrategy } from '../../diagnosis/resolved-strategy.js';
import type {
  AllowlistVerdict,
  Applied,
  PlanBuilder,
  ProofRule,
  RemediationKindModule,
  WorkloadKind,
} from './kind.js';

/**
 * Where a workload kind keeps what these kinds write, as JSON pointers (a DaemonSet's
 * strategy is spec.updateStrategy).
 */
interface WorkloadPaths {
  /** Where a strategy change may write: the whole strategy object, or (an Argo Rollout) only the canary's bounds. */
  strategy: readonly string[];
  /** The pod-template annotation `kubectl rollout restart` sets (restart-time.ts). */
  restartedAt: string;
  /** The pod template's required node affinity. */
  requiredNodeAffinity: string;
}

const REQUIRED_NODE_AFFINITY =
  '/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution';

/** Where a fix may write on a workload of this kind: its strategy as its kind module places it (an Argo Rollout: the canary's bounds only, builders/strategy-rollout.ts). */
export function workloadPaths(workload: WorkloadKind): WorkloadPaths {
  return {
    strategy: workloadKind(workload).strategyAt.patchPaths,
    restartedAt: RESTARTED_AT_POINTER,
    requiredNodeAffinity: REQUIRED_NODE_AFFINITY,
  };
}

/**
 * A workload patch names no ReplicaSet, DeviceTaintRule or pods, and has a patch
 * (whose paths the allowlist checks next).
 */
function checkWorkloadPatchPayload(plan: UncheckedPlan): AllowlistVerdict {
  if (plan.deviceTaint) return { ok: false, reason: `${plan.kind} writes no DeviceTaintRule` };
  if (!plan.patch) return { ok: false, reason: `${plan.kind} needs a patch` };
  if (plan.replicaSet) return { ok: false, reason: `${plan.kind} scales no ReplicaSet` };
  if (plan.pods?.length) return { ok: false, reason: `${plan.kind} deletes no pods` };
  return { ok: true };
}

const inTemplate = (path: string): boolean => path === '/spec/template' || path.startsWith('/spec/template/');

/**
 * The Undo: the inverse patch, with preconditions on what the apply left (same uid, each
 * changed field at its new value). It compares only the fields it restores: a later
 * change elsewhere in the spec (a promote's spec.paused) does not refuse it.
 */
function patchBack(plan: WorkloadPatchPlan, applied: Applied): WorkloadPatchPlan | null {
  if (!plan.inverse) return null;
  return {
    ...plan,
    id: `undo-${plan.id}`,
    summary: `Undo: ${plan.summary}`,
    // Only a change to the pod template starts a rollout (the strategy is not in it).
    impact: applied.changes.some((c) => inTemplate(c.path))
      ? 'restores the fields the remediation changed; the pod template changes, so this starts a new rollout'
      : 'restores the fields the remediation changed; starts no rollout (the pod template is unchanged)',
    warnings: [],
    patch: plan.inverse,
    inverse: plan.patch,
    preconditions: {
      uid: plan.preconditions.uid,
      generation: applied.generation,
      fields: applied.changes.map((c) => ({ path: c.path, value: c.after })),
      ...(applied.changes.length > 0 ? { fieldsOnly: true as const } : {}),
    },
  };
}

/** The strategy a patch body sets (a merge patch's spec.strategy, a DaemonSet's spec.updateStrategy). */
export function strategyOf(plan: Pick<RemediationPlan, 'patch'>): {
  type?: unknown;
  maxSurge?: unknown;
  maxUnavailable?: unknown;
} {
  const spec = (
    plan.patch?.body as {
      spec?: {
        strategy?: Record<string, unknown>;
        updateStrategy?: Record<string, unknown>;
        template?: unknown;
      };
    }
  )?.spec;
  const s = spec?.strategy ?? spec?.updateStrategy ?? {};
  // An Argo Rollout's canary keeps its bounds on spec.strategy.canary itself.
  const canary = s.canary as Record<string, unknown> | undefined;
  if (canary) return { type: 'canary', maxSurge: canary.maxSurge, maxUnavailable: canary.maxUnavailable };
  const ru = (s.rollingUpdate ?? {}) as Record<string, unknown>;
  return { type: s.type, maxSurge: ru.maxSurge, maxUnavailable: ru.maxUnavailable };
}

/** The patch carries the restart marker (anywhere in its body). */
export function restarts(plan: Pick<RemediationPlan, 'patch'>): boolean {
  return JSON.stringify(plan.patch?.body ?? null).includes('kubectl.kubernetes.io/restartedAt');
}

/** JSON patch operations that write (a `test` only guards). */
function writtenPaths(patch: Patch): string[] | null {
  if (patch.type !== 'json' || !Array.isArray(patch.body)) return null;
  return (patch.body as { op?: unknown; path?: unknown }[])
    .filter((op) => op.op !== 'test' && typeof op.path === 'string')
    .map((op) => String(op.path));
}

/**
 * True when the patch changes the pod template, which is what starts a rollout.
 * The strategy, replicas and the workload's own metadata are not in the template:
 * changing only those replaces no pod.
 */
function startsRollout(patch: Patch | null): boolean {
  if (!patch) return false;
  const paths = writtenPaths(patch);
  if (paths) return paths.some(inTemplate);
  const spec = (patch.body as { spec?: Record<string, unknown> } | null)?.spec;
  return spec?.template !== undefined;
}

/** What a patch puts back, in words: "the rollout strategy (RollingUpdate maxSurge 25%, maxUnavailable 25%)". */
export function restoredByPatch(plan: Pick<RemediationPlan, 'patch'>, lang: Lang = 'en'): string {
  const w = wordsIn(UNDO_WORDS, lang);
  const patch = plan.patch;
  if (!patch) return w.previous({});
  const parts: string[] = [];
  const paths = writtenPaths(patch);
  const at = (pointer: string): unknown =>
    pointer
      .split('/')
      .filter((k) => k !== '')
      .reduce<unknown>(
        (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
        patch.body,
      );
  const touched = (prefix: string): boolean =>
    paths ? paths.some((p) => p === prefix || p.startsWith(`${prefix}/`)) : at(prefix) !== undefined;
  if (touched('/spec/strategy') || touched('/spec/updateStrategy')) {
    const s = strategyOf(plan);
    const bounds = {
      surge: String(s.maxSurge ?? 'default'),
      unavailable: String(s.maxUnavailable ?? 'default'),
    };
    parts.push(
      s.type === 'Recreate'
        ? w.recreate({})
        : s.type === 'canary'
          ? w.canaryBounds(bounds)
          : s.maxSurge !== undefined
            ? w.rollingBounds({ ...bounds, unavailable: String(s.maxUnavailable) })
            : w.strategy({}),
    );
  }
  if (touched('/spec/template/spec/affinity')) parts.push(w.affinity({}));
  if (touched('/spec/replicas')) parts.push(w.replicas({}));
  if (parts.length === 0 && paths) parts.push(...paths);
  if (parts.length === 0) parts.push(w.fields({}));
  return parts.join(w.and({}));
}

/** Whether a patch starts a rollout, in one sentence. */
export function rolloutByPatch(plan: Pick<RemediationPlan, 'patch'>, lang: Lang = 'en'): string {
  return translate(UNDO_WORDS, lang, startsRollout(plan.patch) ? 'startsRollout' : 'noRollout');
}

/** `cli apply`: a patch of the workload, exactly. */
function patchLines(plan: WorkloadPatchPlan): string[] {
  const lines = [
    `Patch (${PATCH_CONTENT_TYPES[plan.patch.type]}) to ${WORKLOAD_NAMES[plan.target.kind].resource}/${plan.target.name} in namespace ${plan.target.namespace}:`,
    JSON.stringify(plan.patch.body, null, 2),
    '(sent with the resourceVersion read just before it, so it fails rather than overwrite a concurrent change)',
  ];
  if (restartsPods(plan.patch)) {
    lines.push(
      `(${APPLY_TIME} stands for the time of the apply: written as RFC 3339, as ${codeSpan('kubectl rollout restart')} does)`,
    );
  }
  return lines;
}

/** A kind that patches the workload: what is its own, the rest shared. */
interface WorkloadPatchKindSpec<K extends WorkloadPatchPlan['kind']> {
  kind: K;
  answers: Readonly<Partial<Record<string, PlanBuilder>>>;
  /** The workload kinds it may target (absent: Deployments only). */
  workloads?: readonly WorkloadKind[];
  paths(workload: WorkloadKind): readonly string[];
  /** Whether its patch takes serving pods down (kind.ts). */
  spendsAvailability: boolean;
  /** Its arithmetic turns on spec.replicas (kind.ts). */
  turnsOnReplicas?: true;
  /** Whether the workload already has what the patch sets (kind.ts); absent: never. */
  alreadySet?(plan: WorkloadPatchPlan, current: ResolvedStrategy): boolean;
  /**
   * What the forward proof holds the patched workload's run to (kind.ts ProofRule): the
   * rollout completes, or (a node exclusion) the crash off the nodes it excludes.
   */
  goal: ProofRule<WorkloadPatchPlan>['goal'];
  change(plan: WorkloadPatchPlan, target: string, room: number): string;
}

/**
 * @example
 * export const rolloutRestart = workloadPatchKind({ kind: 'rollout-restart', answers, paths, spendsAvailability: true, goal: 'rollout-completes', change });
 */
export function workloadPatchKind<K extends WorkloadPatchPlan['kind']>(
  spec: WorkloadPatchKindSpec<K>,
): RemediationKindModule<WorkloadPatchPlan> & { kind: K } {
  return {
    kind: spec.kind,
    answers: spec.answers,
    writes: 'workload-patch',
    clusterScoped: false,
    ...(spec.workloads ? { workloads: spec.workloads } : {}),
    paths: spec.paths,
    spendsAvailability: spec.spendsAvailability,
    ...(spec.turnsOnReplicas ? { turnsOnReplicas: true as const } : {}),
    ...(spec.alreadySet ? { alreadySet: spec.alreadySet } : {}),
    // The proof applies the patch to the workload and runs the strategy and template it
    // leaves; the pods it replaces come from that template.
    proof: { replacesWithTemplate: true, bypassesPause: false, goal: spec.goal },
    // A workload patch moves the rollout: its pods are replaced.
    changesPods: true,
    checkPayload: checkWorkloadPatchPayload,
    staleWhen: 'spec-changed',
    inverse: patchBack,
    // A change to the workload (its template, its strategy while a rollout is under way) moves the rollout.
    watch: () => ({ kind: 'rollout' }),
    drift: { looksAt: 'patched-fields' },
    words: {
      change: spec.change,
      restores: restoredByPatch,
      rollout: rolloutByPatch,
      write: patchLines,
      applied: (plan, generation) =>
        `Applied to ${WORKLOAD_NAMES[plan.target.kind].resource}/${plan.target.name} in namespace ${plan.target.namespace} (now generation ${generation}):`,
    },
  };
}
