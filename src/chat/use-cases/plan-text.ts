/**
 * Plain text about a diagnosis and its plans, the same on every chat platform: the
 * one-line verdict, the plan offered first, the exact change and the server's dry run
 * in words. No markup: each adapter escapes it for its own (src/chat/slack/,
 * src/chat/teams/), and the result messages of the port (./result.ts) are built on it.
 */
import type { Diagnosis } from '../../engine/diagnosis.js';
import { readablePath } from '../../remediation/json-pointer.js';
import { deviceTaintRuleBody } from '../../remediation/device-taint.js';
import { findKind } from '../../remediation/kinds/index.js';
import type { RemediationPlan } from '../../remediation/plan.js';
import type { DryRunSummary, FieldChange } from '../../queue/plan-store.js';
import { clip, firstSentence } from '../../text/sentences.js';

export { clip, firstSentence };

/**
 * The verdict in one line: the summary's first sentence; when that runs long and opens
 * with a clause ("Rollout of x can never finish: new pod …"), the clause, because the
 * evidence lines below say the rest (and the thread has the summary whole).
 */
export function headline(summary: string): string {
  const sentence = firstSentence(summary);
  if (sentence.length <= 180) return sentence;
  const colon = sentence.indexOf(': ');
  if (colon >= 20 && colon <= 150) return sentence.slice(0, colon);
  return clip(sentence, 220);
}

/** The plan to offer first: the top finding's best plan, else the first plan. */
export function recommendedPlan(diagnosis: Diagnosis): RemediationPlan | undefined {
  const top = diagnosis.findings[0];
  const byId = new Map(diagnosis.remediations.map((p) => [p.id, p]));
  for (const id of top?.remediations ?? []) {
    const plan = byId.get(id);
    if (plan) return plan;
  }
  return diagnosis.remediations[0];
}

/** The plan's kind deletes its DeviceTaintRule (the Undo of taint-device) rather than creating it. */
const deletesRule = (plan: RemediationPlan): boolean =>
  findKind(plan.kind)?.writes === 'device-taint-rule-deletion';

/** The exact change, as the thread report shows it once per plan. */
export function patchText(plan: RemediationPlan): string {
  // A JSON patch reads best one operation per line, unless an operation is too long
  // for a line (a section holds about 2,800 characters); else an indented tree.
  if (plan.patch?.type === 'json' && Array.isArray(plan.patch.body)) {
    const ops = plan.patch.body.map((op) => `  ${JSON.stringify(op)}`);
    if (ops.every((op) => op.length <= 1000)) return `[\n${ops.join(',\n')}\n]`;
  }
  if (plan.patch) return JSON.stringify(plan.patch.body, null, 2);
  if (plan.deviceTaint) {
    const rule = deviceTaintRuleBody({ ...plan, deviceTaint: plan.deviceTaint });
    return deletesRule(plan)
      ? `delete DeviceTaintRule ${rule.metadata.name} (only if it still has this spec):\n${JSON.stringify(rule.spec, null, 2)}`
      : `create DeviceTaintRule (cluster-scoped):\n${JSON.stringify(rule, null, 2)}\nthen delete pods:\n${(plan.pods ?? []).map((p) => p.name).join('\n')}`;
  }
  return plan.pods ? `delete pods:\n${plan.pods.map((p) => p.name).join('\n')}` : '(no patch)';
}

/** The exact change on one line (tests compare it with what a dialog or section shows). */
export function compactPatch(plan: RemediationPlan): string {
  if (plan.patch) return JSON.stringify(plan.patch.body);
  if (plan.deviceTaint) {
    const rule = deviceTaintRuleBody({ ...plan, deviceTaint: plan.deviceTaint });
    return deletesRule(plan)
      ? `delete DeviceTaintRule ${rule.metadata.name}`
      : `create DeviceTaintRule ${JSON.stringify(rule.spec)}; delete pods ${(plan.pods ?? []).map((p) => p.name).join(', ')}`;
  }
  return plan.pods ? `delete pods ${plan.pods.map((p) => p.name).join(', ')}` : '(no patch)';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 6901: '~' and '/' in a key. */
function pointerKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A dry-run change narrowed to the fields that really differ. The server reports a
 * whole subtree (spec.template.spec.affinity) when the plan replaced it; shown as is,
 * before and after begin with the same text (the pod anti-affinity that stayed) and
 * the difference (the added node affinity) is out of sight. Objects are walked key by
 * key, arrays of equal length index by index, down to the values that changed.
 */
export function leafChanges(change: FieldChange): FieldChange[] {
  const { path, before, after } = change;
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const walk = (keys: string[], get: (v: unknown, k: string) => unknown): FieldChange[] =>
    keys.flatMap((k) =>
      leafChanges({
        path: `${path}/${pointerKey(k)}`,
        ...(get(before, k) === undefined ? {} : { before: get(before, k) }),
        ...(get(after, k) === undefined ? {} : { after: get(after, k) }),
      }),
    );
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return walk(keys, (v, k) => (v as Record<string, unknown>)[k]);
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return walk(
      before.map((_, i) => String(i)),
      (v, k) => (v as unknown[])[Number(k)],
    );
  }
  return [change];
}

function formatChange(change: FieldChange): string {
  const show = (v: unknown): string => (v === undefined ? '(unset)' : JSON.stringify(v));
  return `${readablePath(change.path)}: ${show(change.before)} → ${show(change.after)}`;
}

/** What the server-side dry run says will change, field by field, values whole. */
export function dryRunText(dryRun: DryRunSummary | undefined): string {
  if (!dryRun) return 'server dry run: not available';
  if (!dryRun.ok) return `server dry run refused: ${dryRun.reason}`;
  const changes = dryRun.changes.flatMap(leafChanges);
  return changes.length === 0
    ? 'server dry run: no field changes'
    : `server dry run:\n${changes.map(formatChange).join('\n')}`;
}
