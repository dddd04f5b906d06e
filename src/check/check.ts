/**
 * `check`'s engine, shared with the admission webhook: for each workload a manifest
 * (or an AdmissionReview) holds, does applying it start a rollout, and will that
 * rollout finish in the cluster as it is now? The answer per object is data (the
 * verdict, the findings with diagnose's codes, the proved fix); renderers are apart.
 */
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { candidateObject, withAdmissionTolerations } from './candidate.js';
import type { SourcePosition } from './manifests.js';
import { predictRollout, type CheckFinding, type Prediction, type Verdict } from './predict.js';
import type { CheckSource } from './source.js';
import type { StrategyFix } from './strategy-fix.js';
import { templateChanges } from './template-change.js';

export interface CheckItem {
  kind: WorkloadKind;
  /** The object as it will be applied (a manifest as written, or an admission request's object). */
  object: WorkloadObject;
  at?: SourcePosition;
  /** The stored object it replaces, when the caller has it (an admission UPDATE's oldObject). */
  old?: WorkloadObject;
  /** The caller knows it creates the object (an admission CREATE): nothing live to read. */
  isNew?: boolean;
}

export interface CheckResult {
  target: { kind: WorkloadKind; namespace: string; name: string };
  at?: SourcePosition;
  /** new: the object does not exist yet; template: its pod template changes; none: no rollout starts. */
  rollout: 'new' | 'template' | 'none' | 'unknown';
  /** Where the template changes (at most 10 paths). */
  changes: string[];
  /** no-rollout when none starts. */
  verdict: Verdict | 'no-rollout';
  findings: CheckFinding[];
  /** What keeps it from finishing, in a few words ("its new pod needs 1 nvidia.com/gpu, held by its old pods"). */
  reason?: string;
  fix?: StrategyFix;
}

/** One object, judged against `source`. */
export async function checkOne(
  item: CheckItem,
  source: CheckSource,
  defaultNamespace: string,
): Promise<CheckResult> {
  const namespace = item.object.metadata.namespace ?? defaultNamespace;
  const name = item.object.metadata.name ?? '';
  const base = { target: { kind: item.kind, namespace, name }, ...(item.at ? { at: item.at } : {}) };
  const live = item.old
    ? { object: item.old }
    : item.isNew
      ? {}
      : await source.live(item.kind, namespace, name);
  if (live.unknown) {
    return {
      ...base,
      rollout: 'unknown',
      changes: [],
      verdict: 'unknown',
      findings: [
        {
          code: 'IncompleteEvidence',
          severity: 'warning',
          summary: `Not judged: ${live.unknown}.`,
          explanation: 'Without the live object check cannot tell whether the manifest starts a rollout.',
          evidence: [],
        },
      ],
    };
  }
  const module = workloadKind(item.kind);
  const changes = live.object
    ? templateChanges(module.podTemplate(item.object), module.podTemplate(live.object))
    : [];
  if (live.object && changes.length === 0)
    return { ...base, rollout: 'none', changes, verdict: 'no-rollout', findings: [] };
  const candidate = candidateObject(item.kind, item.object, live.object, namespace);
  const liveTemplate = live.object ? module.podTemplate(live.object).spec : undefined;
  const judge = async (sample: boolean): Promise<{ prediction: Prediction; sampled: boolean }> => {
    const read = await source.snapshot(item.kind, candidate, { sample });
    return {
      prediction: predictRollout(withAdmissionTolerations(read.snapshot, liveTemplate)),
      sampled: read.sampled,
    };
  };
  const first = await judge(true);
  // Finishing on a sample of the nodes proves it for them all; anything else is asked whole.
  const { prediction } =
    first.sampled && first.prediction.verdict !== 'finishes' ? await judge(false) : first;
  return {
    ...base,
    rollout: live.object ? 'template' : 'new',
    changes,
    verdict: prediction.verdict,
    findings: prediction.findings,
    ...(prediction.reason ? { reason: prediction.reason } : {}),
    ...(prediction.fix ? { fix: prediction.fix } : {}),
  };
}

/** Every object, in order; objects of one namespace share its reads (the source caches them). */
export async function checkAll(
  items: readonly CheckItem[],
  source: CheckSource,
  defaultNamespace: string,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const item of items) results.push(await checkOne(item, source, defaultNamespace));
  return results;
}
