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
import { EXIT, type CliIo } from './io.js';
import { saveUndo } from './undo-store.js';

interface ApplyFlowOptions {
  /** The subcommand, for its messages. */
  command: 'apply' | 'undo';
  yes: boolean;
  timeoutMs: number;
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

  out(describePlan(plan));
  const dry = await dryRunPlan(client, plan);
  if (!dry.ok) {
    out(`Server dry run: not applicable: ${dry.reason}\n`);
    return EXIT.problems;
  }
  out(`Server dry run (dryRun=All) would change:\n${formatChanges(dry.changes)}`);

  if (!options.yes) {
    if (!io.stdin.isTTY) {
      note(
        `rollout-doctor ${options.command}: refusing to change the cluster without confirmation: pass --yes or run on a terminal`,
      );
      return EXIT.usage;
    }
    const where = `${target.kind.toLowerCase()}/${target.name} in namespace ${target.namespace}`;
    if (!(await confirm(io, `Apply this to ${where}? [y/N] `))) {
      out('Not applied.\n');
      return EXIT.problems;
    }
  }
  const result = await applyPlan(client, plan, { onProgress: (step) => note(`… ${step}`) });
  if (result.status === 'refused' || result.status === 'failed') {
    out(`Not applied (${result.status}): ${result.reason}\n`);
    return result.status === 'failed' && result.retryable ? EXIT.cluster : EXIT.problems;
  }
  if (result.status === 'already-applied') out(`Already applied: ${result.reason}\n`);
  else {
    out(`${appliedLine(plan, result.generation)}\n${formatChanges(result.changes)}`);
    out(await undoLine(client, plan, { generation: result.generation, changes: result.changes }, io));
  }

  // What the plan moves (watch-scope.ts): the rollout, the replacements of deleted pods, or nothing.
  const scope = watchScopeOf(plan);
  if (scope.kind === 'nothing') {
    out(`${watchingWords(scope)}\n`);
    return EXIT.ok;
  }
  if (scope.kind === 'replacements') {
    note(watchingWords(scope));
    const outcome = await watchReplacements(client, ref, {
      timeoutMs: options.timeoutMs,
      replaced: scope.pods,
    });
    out(
      `Replacements ${outcome.outcome}: ${outcome.summary}${outcome.reason ? ` (${outcome.reason})` : ''}\n`,
    );
    return outcome.outcome === 'complete' ? EXIT.ok : EXIT.problems;
  }
  const outcome = await watchRollout(client, ref, {
    timeoutMs: options.timeoutMs,
    ...(result.status === 'applied' ? { sinceGeneration: result.generation } : {}),
    onProgress: (status) => note(status.message),
  });
  // The update went as far as its steps let it: a canary pause step waits for a person, as designed.
  if (outcome.outcome === 'paused' && outcome.pauseStep !== undefined) {
    out(
      `Rollout paused at step ${outcome.pauseStep}; promote to go on (kubectl argo rollouts promote ${ref.name} -n ${ref.namespace})\n`,
    );
    return EXIT.ok;
  }
  out(`Rollout ${outcome.outcome}: ${outcome.summary}${outcome.reason ? ` (${outcome.reason})` : ''}\n`);
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
): Promise<string> {
  const undo = inversePlan(plan, applied);
  if (!undo) return `No undo: nothing of ${plan.kind} can be put back by a write (see the plan's impact).\n`;
  const saved = await saveUndo(undo, { server: client.server, context: client.context }, io.env);
  if (!saved.ok)
    return `Undo not kept (${saved.reason}); to revert by hand, write back the "before" values above.\n`;
  return `To undo: rollout-doctor undo ${undo.id}   (kept in ${saved.path}; it checks nothing moved on since)\n`;
}

export function describePlan(plan: RemediationPlan): string {
  const lines = [`Remediation ${plan.kind} (${plan.id}): ${plan.summary}`, `Impact: ${plan.impact}`];
  for (const warning of plan.warnings) lines.push(`Warning: ${warning}`);
  lines.push(...kindOf(plan).words.write(plan));
  return `${lines.join('\n')}\n`;
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

function formatChanges(changes: readonly FieldChange[]): string {
  if (changes.length === 0) return '  (nothing)\n';
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
