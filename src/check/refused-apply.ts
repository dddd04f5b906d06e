/**
 * Whether kube-apiserver refuses the apply itself, in its validation (after mutating
 * admission, before any validating webhook, which therefore never sees such an object): a changed
 * selector, a StatefulSet field an update may not change, a selector that does not
 * select the template (workloads/api-validation.ts). Judged on the object as the apply
 * stores it: a spec field (or a selector label) the manifest leaves out keeps its live
 * value unless its owner set it and dropped it (stored-fields.ts), so only a change the
 * apply really makes is called refused. Pure.
 */
import type { ApiRefusal } from '../diagnosis/workloads/api-validation.js';
import type { LabelSelector, PodTemplateSpec } from '../diagnosis/k8s.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { storedOf } from './stored-fields.js';
import type { CheckFinding } from './prediction.js';
import { translate } from '../i18n/catalogue.js';
import { CHECK_WORDS } from './words.js';

/** The API server's refusal of applying `manifest` over `live` (none: a create), if it refuses. */
export function refusedApply(
  kind: WorkloadKind,
  manifest: WorkloadObject,
  live: WorkloadObject | undefined,
): ApiRefusal | undefined {
  const module = workloadKind(kind);
  if (!module.apiRefusal) return undefined;
  return module.apiRefusal(live ? asStored(kind, manifest, live) : manifest, live);
}

type Spec = Record<string, unknown> & { selector?: LabelSelector; template?: unknown };

/** The manifest's spec with what the apply keeps of the live one where the manifest is silent. */
function asStored(kind: WorkloadKind, manifest: WorkloadObject, live: WorkloadObject): WorkloadObject {
  const written = manifest.spec as unknown as Spec;
  const held = live.spec as unknown as Spec;
  const spec: Spec = { ...written };
  for (const [field, value] of Object.entries(held))
    if (spec[field] === undefined && storedOf(kind, live, [field]) !== 'default') spec[field] = value;
  const selector = keptLabels(
    kind,
    live,
    ['selector', 'matchLabels'],
    written.selector?.matchLabels,
    held.selector?.matchLabels,
  );
  if (selector) spec.selector = { ...written.selector, matchLabels: selector };
  // The template's labels merge the same way (a map): the selector is matched against them as stored.
  const template = written.template as PodTemplateSpec | undefined;
  const labels = keptLabels(
    kind,
    live,
    ['template', 'metadata', 'labels'],
    template?.metadata?.labels,
    (held.template as PodTemplateSpec | undefined)?.metadata?.labels,
  );
  if (template && labels) spec.template = { ...template, metadata: { ...template.metadata, labels } };
  return { ...manifest, spec } as unknown as WorkloadObject;
}

/**
 * The labels a map field holds once applied, where the apply keeps any of the live ones
 * the manifest leaves out (kept where their owner never set them); undefined: as written.
 */
function keptLabels(
  kind: WorkloadKind,
  live: WorkloadObject,
  path: readonly string[],
  written: Record<string, string> | undefined,
  held: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!written || !held) return undefined;
  const kept = Object.entries(held).filter(
    ([key]) => !(key in written) && storedOf(kind, live, [...path, key]) !== 'default',
  );
  return kept.length > 0 ? { ...Object.fromEntries(kept), ...written } : undefined;
}

/** check's finding for a refused apply: the API server's message, what it means and how to make the change. */
export function refusedFinding(ref: string, refusal: ApiRefusal): CheckFinding {
  const params = {
    ref,
    message: refusal.message,
    fields: refusal.rule === 'forbidden' ? refusal.fields.join(', ') : refusal.path,
  };
  const why = WHY[refusal.rule];
  return {
    code: 'AdmissionDenied',
    severity: 'critical',
    summary: translate(CHECK_WORDS, 'en', 'applyRefused', params),
    explanation: translate(CHECK_WORDS, 'en', why, params),
    evidence: [{ type: 'note', text: refusal.message }],
    says: { key: 'applyRefused', why, params },
  };
}

/** A finding refusedFinding made: the label says the apply is refused, not that a rollout never ends. */
export function refusesApply(result: { verdict: string; findings: readonly CheckFinding[] }): boolean {
  return result.verdict === 'never-finishes' && result.findings[0]?.says?.key === 'applyRefused';
}

const WHY = {
  selectorEmpty: 'applySelectorEmptyWhy',
  selectorMismatch: 'applySelectorMismatchWhy',
  immutable: 'applyImmutableWhy',
  forbidden: 'applyForbiddenWhy',
  invalidStrategy: 'applyStrategyWhy',
  invalidResources: 'applyResourcesWhy',
} as const;
