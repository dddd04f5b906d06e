/**
 * A manifest whose rollout is blocked only while other teams' Jobs run (the same claim as
 * a diagnosis makes: src/diagnosis/forward/job-wait.ts). The verdict stays
 * never-finishes for the gate (the rollout stops when applied now, and a Job may run
 * for hours, or never end), and its words name the Jobs: "cannot finish while Job X
 * runs", with the Jobs' pods as evidence, where the manifest's run with their pods gone
 * finishes in either order of the scheduler's queue.
 */
import type { AnalysisContext } from '../diagnosis/analysis-context.js';
import { jobWaitFor, jobWaitWords } from '../diagnosis/forward/job-wait.js';
import { runForward } from '../diagnosis/forward/run.js';
import type { CheckFinding, Prediction } from './prediction.js';

export function withJobWait(ctx: AnalysisContext, ref: string, prediction: Prediction): Prediction {
  const [lead, ...rest] = prediction.findings;
  if (prediction.verdict !== 'never-finishes' || !lead) return prediction;
  const wait = jobWaitFor(ctx, (gone, order) => runForward(ctx, 'candidate', order, gone));
  if (!wait) return prediction;
  const { jobs, names, one, some } = jobWaitWords(wait);
  const pods = wait.pods.map((p) => `${p.metadata.name ?? ''} (${p.spec.nodeName ?? ''})`).join(', ');
  const fix = prediction.fix?.words;
  const whileRuns = some ? `while ${jobs} hold the room` : `while ${jobs} ${one ? 'runs' : 'run'}`;
  const once = one ? 'that Job ends' : some ? 'enough of them end' : 'those Jobs end';
  return {
    ...prediction,
    reason: `its new pods need room or quota that ${jobs} ${one ? 'holds' : 'hold'} until ${one ? 'it ends' : 'they end'}`,
    findings: [
      {
        code: lead.code,
        severity: lead.severity,
        summary: `The rollout of ${ref} cannot finish ${whileRuns}: its new pods need room or quota ${one ? "that Job's" : 'their'} pods hold. It goes on by itself once ${once}.${fix ? ` ${fix} would let it finish now.` : ''}`,
        explanation: `Run forward with the Jobs' pods gone, the controllers finish the rollout, whichever pending pod the scheduler takes first. A Job's pods go once it ends (it completes, or fails for good); a Job may run for hours, or never end. ${lead.explanation}`,
        evidence: [
          ...lead.evidence,
          {
            type: 'note',
            text: `Job pods holding room or quota the new pods need: ${pods} (${names}).`,
            says: { key: 'jobPods', params: { pods, jobs: names } },
          },
        ],
        says: {
          key: 'jobWait',
          why: 'jobWaitWhy',
          params: { ref, jobs: names, one, some, ...(fix ? { fix } : {}) },
        },
      },
      ...rest,
    ],
  };
}

/** A result blocked only while Jobs run (withJobWait said so): "cannot finish while Jobs run", not "never". */
export function waitsForJobs(result: { verdict: string; findings: readonly CheckFinding[] }): boolean {
  return result.verdict === 'never-finishes' && result.findings[0]?.says?.key === 'jobWait';
}
