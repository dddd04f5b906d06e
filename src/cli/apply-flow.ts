/**
 * What `apply` and `undo` share once they hold a plan: show exactly what it writes and
 * the API server's dry run, ask (or --yes), apply it as the worker does
 * (src/apply/apply-plan.ts: the executor's preconditions and patch allowlist, the
 * re-proof between steps), keep its Undo and say how to run it, then follow what it
 * moves until that completes, fails or the timeout passes.
 */
import { createInterface } from 'node:readline';
import type { KubeClient } from '../kube/client.js';
import type { FieldChange } from '../kube/write/patch-effect.js';
import { kindOf } from '../remediation/kinds/index.js';
import { inversePlan } from '../remediation/inverse.js';
import { readablePath } from '../remediation/json-pointer.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { watchScopeOf, watchingWords } from '../remediation/watch-scope.js';
import { cleanText } from '../text/clean.js';
import { translate, wordsIn } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { planSummary } from '../message/words/finding.js';
import { planImpact, planWarnings } from '../remediation/plan-words.js';
import { APPLY_FLOW_WORDS } from './apply-flow-words.js';
import { EXIT, type CliIo } from './io.js';
import { saveUndo } from './undo-store.js';

interface ApplyFlowOptions {
  /** The subcommand, for its messages. */
  command: 'apply' | 'undo';
  yes: boolean;
  timeoutMs: number;
  /** The reader's language (--lang, else the shell's). */
  lang: Lang;
}

export async function applyAndFollow(
  client: KubeClient,
  plan: RemediationPlan,
  options: ApplyFlowOptions,
  io: CliIo,
): Promise<number> {
  const { dryRunPlan } = await import('../kube/write/executor.js');
  const { applyPlan } = await import('../apply/apply-plan.js');
  const { watchReplacements, watchRollout } = await import('../kube/watch/rollout-watcher.js');
  // Plans and dry-run answers carry cluster text: no terminal control reaches the screen.
  const out = (text: string): void => void io.stdout.write(cleanText(text));
  const note = (text: string): void => void io.stderr.write(`${cleanText(text)}\n`);
  const { target } = plan;
  const ref = { kind: target.kind, namespace: target.namespace, name: target.name };
  const w = wordsIn(APPLY_FLOW_WORDS, options.lang);

  out(describePlan(plan, options.lang));
  const dry = await dryRunPlan(client, plan);
  if (!dry.ok) {
    out(`${w.dryRunNotApplicable({ reason: dry.reason })}\n`);
    return EXIT.problems;
  }
  out(`${w.dryRunWould({})}\n${formatChanges(dry.changes, options.lang)}`);

  if (!options.yes) {
    if (!io.stdin.isTTY) {
      note(w.noConfirmation({ command: `rollout-doctor ${options.command}`, yes: '--yes' }));
      return EXIT.usage;
    }
    const workload = `${target.kind.toLowerCase()}/${target.name}`;
    if (!(await confirm(io, w.confirm({ workload, namespace: target.namespace })))) {
      out(`${w.declined({})}\n`);
      return EXIT.problems;
    }
  }
  const result = await applyPlan(client, plan, { onProgress: (step) => note(`… ${step}`) });
  if (result.status === 'refused') {
    out(`${w.refused({ reason: result.reason })}\n`);
    return EXIT.problems;
  }
  if (result.status === 'failed') {
    out(`${w.failed({ reason: result.reason })}\n`);
    return result.retryable ? EXIT.cluster : EXIT.problems;
  }
  if (result.status === 'already-applied') out(`${w.alreadyApplied({ reason: result.reason })}\n`);
  else {
    out(`${appliedLine(plan, result.generation)}\n${formatChanges(result.changes, options.lang)}`);
    const applied = { generation: result.generation, changes: result.changes };
    out(await undoLine(client, plan, applied, io, options.lang));
  }

  // What the plan moves (watch-scope.ts): the rollout, the replacements of deleted pods, or nothing.
  const scope = watchScopeOf(plan);
  if (scope.kind === 'nothing') {
    out(`${watchingWords(scope, options.lang)}\n`);
    return EXIT.ok;
  }
  if (scope.kind === 'replacements') {
    note(watchingWords(scope, options.lang));
    const outcome = await watchReplacements(client, ref, {
      timeoutMs: options.timeoutMs,
      replaced: scope.pods,
    });
    out(`${w.replacementsOutcome(outcomeWords(outcome))}\n`);
    return outcome.outcome === 'complete' ? EXIT.ok : EXIT.problems;
  }
  const outcome = await watchRollout(client, ref, {
    timeoutMs: options.timeoutMs,
    ...(result.status === 'applied' ? { sinceGeneration: result.generation } : {}),
    onProgress: (status) => note(status.message),
  });
  // The update went as far as its steps let it: a canary pause step waits for a person, as designed.
  if (outcome.outcome === 'paused' && outcome.pauseStep !== undefined) {
    const promote = `kubectl argo rollouts promote ${ref.name} -n ${ref.namespace}`;
    out(`${w.pausedAtStep({ step: outcome.pauseStep, promote })}\n`);
    return EXIT.ok;
  }
  out(`${w.rolloutOutcome(outcomeWords(outcome))}\n`);
  return outcome.outcome === 'complete' ? EXIT.ok : EXIT.problems;
}

/**
 * How to put back what was just written: the Undo the Slack button would offer (the
 * kind's inverse, with preconditions on what this apply left), kept in the state
 * directory and named by its plan id; or why there is none, or where it could not be kept.
 */
async function undoLine(
  client: KubeClient,
  plan: RemediationPlan,
  applied: { generation: number; changes: readonly FieldChange[] },
  io: CliIo,
  lang: Lang,
): Promise<string> {
  const w = wordsIn(APPLY_FLOW_WORDS, lang);
  const undo = inversePlan(plan, applied);
  if (!undo) return `${w.noUndo({ kind: plan.kind })}\n`;
  const saved = await saveUndo(undo, { server: client.server, context: client.context }, io.env);
  if (!saved.ok) return `${w.undoNotKept({ reason: saved.reason })}\n`;
  return `${w.toUndo({ command: `rollout-doctor undo ${undo.id}`, path: saved.path })}\n`;
}

/**
 * The plan as the approver reads it: its kind, id and summary, its impact and warnings
 * in `lang` (the plan's words where it has them), then exactly what its kind writes.
 */
export function describePlan(plan: RemediationPlan, lang: Lang = 'en'): string {
  const w = wordsIn(APPLY_FLOW_WORDS, lang);
  const lines = [
    w.remediation({ kind: plan.kind, id: plan.id, summary: planSummary(plan, lang) }),
    w.impact({ impact: planImpact(plan, lang) }),
    ...planWarnings(plan, lang).map((warning) => w.warning({ warning })),
    ...kindOf(plan).words.write(plan),
  ];
  return `${lines.join('\n')}\n`;
}

/** A watch's outcome as the words take it: the reason only where there is one. */
function outcomeWords(outcome: { outcome: string; summary: string; reason?: string | undefined }) {
  return {
    outcome: outcome.outcome,
    summary: outcome.summary,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  };
}

/**
 * The first line after a successful write, as the plan's kind says it. Only a patch of
 * the Deployment makes a new generation worth naming (the rollout it starts is followed
 * from it); scaling a ReplicaSet, deleting pods or writing a DeviceTaintRule leaves the
 * Deployment's generation as it was.
 */
export function appliedLine(plan: RemediationPlan, generation: number): string {
  return kindOf(plan).words.applied(plan, generation);
}

function formatChanges(changes: readonly FieldChange[], lang: Lang): string {
  if (changes.length === 0) return `  ${translate(APPLY_FLOW_WORDS, lang, 'nothingChanged')}\n`;
  const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));
  return changes.map((c) => `  ${readablePath(c.path)}: ${show(c.before)} -> ${show(c.after)}\n`).join('');
}

async function confirm(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(question);
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
