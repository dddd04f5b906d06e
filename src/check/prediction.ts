/**
 * What check predicts of one manifest's rollout (predict.ts makes it; job-wait.ts and
 * scale-up.ts reword it): the verdict, the findings as check writes them, the reason in a
 * few words and the fix the same run proved.
 */
import type { FindingCode, Severity } from '../diagnosis/finding.js';
import type { StrategyFix } from './strategy-fix.js';
import type { CheckSays } from './words.js';
import type { CheckEvidence } from './check-evidence.js';

export type Verdict = 'finishes' | 'never-finishes' | 'unknown';

export interface CheckFinding {
  code: FindingCode;
  severity: Severity;
  summary: string;
  explanation: string;
  /** Evidence as diagnose's, a note of check's own with its catalogue words (evidence-words.ts). */
  evidence: CheckEvidence[];
  /**
   * The same headline and explanation as catalogue words (words.ts), for a reader of
   * another language; never in the JSON output (render.ts renderJson leaves it out).
   */
  says?: CheckSays;
}

export interface Prediction {
  verdict: Verdict;
  findings: CheckFinding[];
  /** What keeps it from finishing, in a few words, for a one-line warning. */
  reason?: string;
  /** The manifest change that lets the rollout finish, proved by the same run. */
  fix?: StrategyFix;
}
