/**
 * A paused workload (a Deployment's spec.paused) whose rollout waits for the resume:
 * nothing moves now, by the person's choice, so it is never "stuck"; but where the
 * rollout can never finish once resumed, that is said now, before anyone resumes it
 * (DESIGN.md §4d: a paused Deployment still scales, but rolls no template out). The
 * forward model runs it as resumed (forward/run.ts runWithChange, `resumed`): blocked
 * there is RolloutAtRisk, naming the pause and what the rollout would wait for. Silent
 * where an earlier analyzer already says the rollout cannot finish.
 */
import type { Analyzer } from '../analyzer.js';
import type { Finding } from '../finding.js';
import { codeSpan } from '../../text/code-span.js';
import { forwardVerdict } from '../forward/verdict.js';
import { workloadKind } from '../workloads/index.js';
import { stepsInPlainWords } from '../forward/step-words.js';

type Draft = Omit<Finding, 'remediations'>;

export const pausedRollout: Analyzer = {
  name: 'paused-rollout',
  analyze(ctx, earlier = []) {
    const { snapshot } = ctx;
    const kind = workloadKind(snapshot);
    const object = kind.object(snapshot);
    if (!kind.paused(object) || !kind.pauseHoldsTemplate) return [];
    const waiting = kind.underWay(snapshot);
    if (waiting === undefined) return [];
    if (earlier.some((f) => f.severity === 'critical' || f.code === 'RolloutAtRisk')) return [];
    // Run as resumed (forward/verdict.ts), and with every old pod gone: if that still
    // stops too, no order of replacement helps.
    const { asIs: outcome, withoutOld } = forwardVerdict(ctx);
    if (outcome.result !== 'blocked') return [];
    const noOrderHelps = withoutOld?.result === 'blocked';
    const { name, namespace } = snapshot.target;
    const ref = `${snapshot.target.kind.toLowerCase()}/${name}`;
    const what = outcome.refused
      ? `quota ${outcome.quota?.name ?? ''} refuses its next new pod`.replace('quota  ', 'the quota ')
      : `${outcome.pending.length === 1 ? 'a new pod finds' : `${outcome.pending.length} new pods find`} no room`;
    const draft: Draft = {
      code: 'RolloutAtRisk',
      severity: 'warning',
      summary: `${ref} is paused with its rollout waiting (${waiting}); once resumed, the rollout can never finish: ${what}${noOrderHelps ? ', even with every old pod gone' : ', while the old pods hold the room'}.`,
      explanation: `A paused ${kind.words.kind} rolls no new template out, so nothing is stuck yet and nothing moves until someone runs ${codeSpan(`kubectl rollout resume ${ref} -n ${namespace}`)}. Run forward as resumed, the controllers stop short: ${stepsInPlainWords(outcome).join('; ') || 'nothing moves'}. ${noOrderHelps ? (outcome.refused ? 'Raise the quota or free it before resuming: no strategy helps.' : 'Make room or change the template before resuming: no strategy helps.') : 'Let old pods go first (maxSurge 0) or make room before resuming.'} A fix that scales the old ReplicaSet by hand would roll the new template out while it is paused.`,
      evidence: [{ type: 'note', text: `Paused: spec.paused is true; ${waiting}.` }],
    };
    return [draft];
  },
};
