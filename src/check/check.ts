/**
 * `check`'s engine, shared with the admission webhook: for each workload a manifest
 * (or an AdmissionReview) holds, does applying it start a rollout, and will that
 * rollout finish in the cluster as it is now? The answer per object is data (the
 * verdict, the findings with diagnose's codes, the proved fix); renderers are apart.
 */
import type { WorkloadObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import type { LimitRange, PriorityClass, ResourceQuota } from '../diagnosis/k8s-policy.js';
import { withCreated } from './created-objects.js';
import { changePodsOf, type ChangePod } from './change-pods.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { candidateObject, withAdmissionTolerations } from './candidate.js';
import type { Locate, ManifestSet, SourcePosition } from './manifests.js';
import { predictRollout } from './predict.js';
import type { CheckFinding, Prediction, Verdict } from './prediction.js';
import type { CheckSource } from './source.js';
import type { StrategyFix } from './strategy-fix.js';
import { templateChanges } from './template-change.js';
import { withScaleUp } from './scale-up.js';
import { refusedApply, refusedFinding } from './refused-apply.js';
import { typeOfKind } from '../diagnosis/workload-ref.js';
import {
  omittedFields,
  plainPath,
  withKeptTemplateFields,
  withStoredFields,
  type OmittedField,
} from './stored-fields.js';
import type { Fate } from './words.js';

export interface CheckItem {
  kind: WorkloadKind;
  /** The object as it will be applied (a manifest as written, or an admission request's object). */
  object: WorkloadObject;
  at?: SourcePosition;
  /** Where the manifest writes a field (manifests.ts), for the line a finding belongs on. */
  locate?: Locate;
  /** The stored object it replaces, when the caller has it (an admission UPDATE's oldObject). */
  old?: WorkloadObject;
  /** The caller knows it creates the object (an admission CREATE): nothing live to read. */
  isNew?: boolean;
  /** The pods the other objects of the same change create (change-pods.ts). */
  changePods?: readonly ChangePod[];
  /** PriorityClasses the same change creates (manifests.ts): a template may name them. */
  createdClasses?: readonly PriorityClass[];
  /** ResourceQuotas and LimitRanges the same change applies (manifests.ts): admission judges the new pods with them. */
  createdQuotas?: readonly ResourceQuota[];
  createdLimitRanges?: readonly LimitRange[];
  /** ConfigMaps, Secrets and ServiceAccounts the same change creates (manifests.ts). */
  createdNames?: ManifestSet['created'];
}

export interface CheckResult {
  target: { kind: WorkloadKind; namespace: string; name: string };
  at?: SourcePosition;
  /** new: the object does not exist yet; template: its pod template changes; none: no rollout starts. */
  rollout: 'new' | 'template' | 'none' | 'unknown';
  /** Where the template changes (at most 10 paths). */
  changes: string[];
  /**
   * The line a reviewer should look at, where the manifest writes it: the first template
   * change (the field the pull request changed), else the strategy; SARIF puts its
   * results there. Absent where the manifest writes neither (the document's line, `at`).
   */
  focus?: SourcePosition & { path: string };
  /** no-rollout when none starts. */
  verdict: Verdict | 'no-rollout';
  findings: CheckFinding[];
  /** What keeps it from finishing, in a few words ("its new pod needs 1 nvidia.com/gpu, held by its old pods"). */
  reason?: string;
  fix?: StrategyFix;
  /** Fields the manifest leaves out that the live object sets, and what the apply stores (stored-fields.ts). */
  omitted?: OmittedField[];
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
          says: { key: 'notJudged', why: 'notJudgedWhy', params: { why: live.unknown } },
        },
      ],
    };
  }
  const module = workloadKind(item.kind);
  // The template as the apply stores it: live fields the manifest leaves out and its owner
  // never set stay (stored-fields.ts). An admission request's object is that already.
  const stored =
    live.object && !item.old
      ? withKeptTemplateFields(item.kind, item.object, live.object)
      : { object: item.object, unknown: [] };
  const object = stored.object;
  const changes = live.object
    ? templateChanges(module.podTemplate(object), module.podTemplate(live.object))
    : [];
  // The API server's own validation: a refused apply stores nothing. An admission review
  // (old object or create) comes after it, so what it holds has passed.
  const refusal = item.old || item.isNew ? undefined : refusedApply(item.kind, object, live.object);
  if (refusal) {
    const ref = `${typeOfKind(item.kind)}/${name}`;
    return {
      ...base,
      rollout: !live.object ? 'new' : changes.length > 0 ? 'template' : 'none',
      changes,
      verdict: 'never-finishes',
      reason: `the API server refuses the apply (${refusal.rule === 'forbidden' ? refusal.fields.join(', ') : refusal.path})`,
      findings: [refusedFinding(ref, refusal)],
    };
  }
  if (live.object && changes.length === 0)
    return { ...base, rollout: 'none', changes, verdict: 'no-rollout', findings: [] };
  // What the apply stores where the manifest leaves out a field the live object sets
  // (stored-fields.ts). An admission request's object is already what will be stored.
  // A template field whose keeping is not known, where dropping it is a change of the template.
  // Every change, not the first ten shown: a field past them decides as much.
  const everyChange =
    stored.unknown.length > 0 && live.object
      ? templateChanges(module.podTemplate(object), module.podTemplate(live.object), Number.POSITIVE_INFINITY)
      : [];
  const openTemplate = stored.unknown.filter((f) => {
    const path = plainPath(f.field).replace(/^template\./, '');
    const under = (a: string, b: string): boolean =>
      a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);
    return everyChange.some((c) => under(c, path) || under(path, c));
  });
  const omitted = item.old ? [] : [...omittedFields(item.kind, object, live.object), ...openTemplate];
  const liveTemplate = live.object ? module.podTemplate(live.object).spec : undefined;
  const judge = async (manifest: WorkloadObject): Promise<Prediction> => {
    const candidate = candidateObject(item.kind, manifest, live.object, namespace);
    const once = async (
      sample: boolean,
    ): Promise<{ prediction: Prediction; sampled: boolean; snapshot: WorkloadSnapshot }> => {
      const read = await source.snapshot(item.kind, candidate, { sample });
      const snapshot = withCreated(
        withAdmissionTolerations(read.snapshot, liveTemplate),
        item,
        defaultNamespace,
      );
      return { prediction: predictRollout(snapshot), sampled: read.sampled, snapshot };
    };
    const first = await once(true);
    // Finishing on a sample of the nodes proves it for them all; anything else is asked whole.
    const whole = first.sampled && first.prediction.verdict !== 'finishes' ? await once(false) : first;
    return withGrowth(source, whole.snapshot, whole.prediction);
  };
  const kept = (keepUnknown: boolean) =>
    withStoredFields(object, omitted, (f) => f.stored === 'live' || (f.stored === 'unknown' && keepUnknown));
  const prediction = await judge(kept(true));
  const open = omitted.filter((f) => f.stored === 'unknown');
  const focus = focusOf(item, changes);
  const result = {
    ...base,
    rollout: live.object ? ('template' as const) : ('new' as const),
    changes,
    ...(focus ? { focus } : {}),
    ...(omitted.length > 0 ? { omitted } : {}),
  };
  if (open.length > 0) {
    const otherwise = await judge(kept(false));
    if (otherwise.verdict !== prediction.verdict)
      return { ...result, verdict: 'unknown', findings: [storedNotKnown(open, prediction, otherwise)] };
  }
  return {
    ...result,
    verdict: prediction.verdict,
    findings: prediction.findings,
    ...(prediction.reason ? { reason: prediction.reason } : {}),
    ...(prediction.fix ? { fix: prediction.fix } : {}),
  };
}

/** Where the new pods fit no node there is, whether a node group the cluster can grow would take them (scale-up.ts). */
async function withGrowth(
  source: CheckSource,
  snapshot: WorkloadSnapshot,
  prediction: Prediction,
): Promise<Prediction> {
  if (prediction.verdict !== 'never-finishes' || !source.growth) return prediction;
  return withScaleUp(snapshot, prediction, await source.growth(), predictRollout);
}

/** The first template change the manifest writes (or the nearest parent it writes), else its strategy. */
function focusOf(item: CheckItem, changes: readonly string[]): CheckResult['focus'] {
  if (!item.locate) return undefined;
  for (const change of changes) {
    const path = `spec.template.${change}`;
    const at = item.locate(path);
    if (at && at.line > 0) return { ...withoutExact(at), path };
  }
  const path = `spec.${workloadKind(item.kind).strategyAt.field}`;
  const strategy = item.locate(path);
  return strategy?.exact ? { ...withoutExact(strategy), path } : undefined;
}

function withoutExact({ exact: _exact, ...at }: SourcePosition & { exact: boolean }): SourcePosition {
  return at;
}

/**
 * The apply may keep live fields the manifest leaves out, or drop them, and the rollout's
 * fate turns on which: not known (exit 1), with both outcomes said.
 */
function storedNotKnown(open: readonly OmittedField[], kept: Prediction, dropped: Prediction): CheckFinding {
  const fields = open.map((f) => `spec.${f.field}`).join(', ');
  const words = (p: Prediction): string =>
    p.verdict === 'finishes'
      ? 'it finishes'
      : p.verdict === 'never-finishes'
        ? `it can never finish${p.reason ? ` (${p.reason})` : ''}`
        : 'whether it finishes is not known';
  return {
    code: 'IncompleteEvidence',
    severity: 'warning',
    summary: `Whether the rollout finishes turns on what the apply stores for ${fields}, which the manifest leaves out: with the live value ${words(kept)}; with the default ${words(dropped)}.`,
    explanation: `${open.map((f) => `spec.${f.field}: ${f.why}`).join('; ')}. kubectl apply keeps a field its last-applied configuration never listed, server-side apply and Helm keep one their manifest never set, and each removes one its manifest set and dropped. Set the field in the manifest to say what you mean.`,
    says: {
      key: 'storedNotKnown',
      why: 'storedNotKnownWhy',
      params: { fields, kept: fateOf(kept), dropped: fateOf(dropped) },
    },
    evidence: [
      ...open.map((f) => ({
        type: 'note' as const,
        text: `Live spec.${f.field}: ${JSON.stringify(f.live)}`,
        says: {
          key: 'liveField',
          params: { path: `spec.${f.field}`, value: JSON.stringify(f.live) },
        } as const,
      })),
      ...kept.findings.flatMap((f) => f.evidence).slice(0, 3),
    ],
  };
}

function fateOf(p: Prediction): Fate {
  return { verdict: p.verdict, ...(p.reason ? { reason: p.reason } : {}) };
}

/** Every object, in order; objects of one namespace share its reads (the source caches them). */
export async function checkAll(
  items: readonly CheckItem[],
  source: CheckSource,
  defaultNamespace: string,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  // Objects the change creates compete for the same room (change-pods.ts).
  const rivals = await changePodsOf(items, source, defaultNamespace);
  for (const item of items) {
    const changePods = rivals.get(item) ?? [];
    results.push(
      await checkOne(changePods.length > 0 ? { ...item, changePods } : item, source, defaultNamespace),
    );
  }
  return results;
}
