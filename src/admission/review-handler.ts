/**
 * One AdmissionReview answered: always allowed (failurePolicy Ignore is the chart's
 * too), with a warning when a CREATE or UPDATE of a Deployment, DaemonSet,
 * StatefulSet or Argo Rollout starts a rollout that can never finish, and refused only
 * where the namespace carries the label REFUSE_LABEL=refuse. Whatever cannot be
 * answered within the budget, or fails, is no warning (counted), never a refusal and
 * never a wait past the API server's timeoutSeconds.
 */
import type { Logger } from '../logger.js';
import type { CheckResult } from '../check/check.js';
import { admissionResponse, admissionReviewSchema, type AdmissionRequest } from './review.js';
import { refusalFor, warningsFor } from './warning.js';
import { unknownReason } from './unknown-reason.js';
import type { AdmissionMetrics } from './metrics.js';
import { ViewBusy } from './view-busy.js';
import { judge, reviewItem, type JudgeItem, type Judged, type JudgeView } from './judge.js';
import type { Lang } from '../i18n/lang.js';

/** The namespace label that turns warnings into refusals there: `kubectl label ns NS rollout-doctor.io/admission=refuse`. */
export const REFUSE_LABEL = 'rollout-doctor.io/admission';
/** The namespace annotation naming its warnings' language: `kubectl annotate ns NS rollout-doctor.io/lang=ko`. */
export const LANG_ANNOTATION = 'rollout-doctor.io/lang';

interface AnswerDeps {
  /**
   * Whether the first read is done (serve.ts): before it, a review that would be judged
   * is answered at once with no warning (outcome `cold`), so none waits for a cold cluster.
   */
  ready?: () => boolean;
  budgetMs: number;
  metrics: AdmissionMetrics;
  logger: Logger;
  /** Told of every warned apply (announce.ts: the app opens its incident thread); never awaited. */
  onWarned?: (result: CheckResult, request: AdmissionRequest) => void;
}

/**
 * Who judges: the judging thread (serve.ts, judge-thread-host.ts), so that no judgment
 * holds the loop that answers; or, given a view instead, this thread (tests, check-kinds).
 */
export type ReviewDeps = AnswerDeps & ({ judge: (item: JudgeItem) => Promise<Judged> } | JudgeView);

type Outcome =
  'warned' | 'refused' | 'clear' | 'skipped' | 'unknown' | 'cold' | 'absent' | 'busy' | 'budget' | 'error';

/** The HTTP answer to a POST /validate body: 400 for what is not an AdmissionReview, else 200. */
export async function answerReview(
  body: unknown,
  deps: ReviewDeps,
): Promise<{ status: number; body: object; outcome?: Outcome }> {
  const parsed = admissionReviewSchema.safeParse(body);
  if (!parsed.success)
    return { status: 400, body: { message: 'not an admission.k8s.io/v1 AdmissionReview' } };
  const { request } = parsed.data;
  const started = performance.now();
  const decided = await withinBudget(decide(request, deps), deps.budgetMs).catch((error: unknown) => {
    if (error instanceof ViewBusy) return { outcome: 'busy' as const };
    deps.logger.warn({ err: error, uid: request.uid }, 'admission review failed: no warning');
    return { outcome: 'error' as const };
  });
  const outcome = decided === 'budget' ? 'budget' : decided.outcome;
  deps.metrics.reviews.inc({ outcome });
  deps.metrics.seconds.observe((performance.now() - started) / 1000);
  if (decided === 'budget' || !('result' in decided) || !decided.result)
    return { status: 200, body: admissionResponse(request.uid, { allowed: true }), outcome };
  const { result, lang } = decided;
  if (outcome === 'refused')
    return {
      status: 200,
      body: admissionResponse(request.uid, { allowed: false, message: refusalFor(result, lang) }),
      outcome,
    };
  return {
    status: 200,
    body: admissionResponse(request.uid, {
      allowed: true,
      warnings: warningsFor(result, { dryRun: request.dryRun === true, ...(lang ? { lang } : {}) }),
    }),
    outcome,
  };
}

async function withinBudget<T>(work: Promise<T>, ms: number): Promise<T | 'budget'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'budget'>((resolve) => {
    timer = setTimeout(() => resolve('budget'), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function decide(
  request: AdmissionRequest,
  deps: ReviewDeps,
): Promise<{ outcome: Outcome; result?: CheckResult; lang?: Lang }> {
  const item = reviewItem(request);
  if (item === 'skipped') return { outcome: 'skipped' };
  if (deps.ready && !deps.ready()) return { outcome: 'cold' };
  const judged = await ('judge' in deps ? deps.judge(item) : judge(item, deps));
  if (judged.outcome === 'unknown' && judged.result) {
    // Counted and logged by why: a webhook silent on a class of workloads says which.
    const { result } = judged;
    const reason = unknownReason(result);
    deps.metrics.unknown.inc({ reason });
    deps.logger.info(
      { reason, target: result.target, summary: result.findings[0]?.summary },
      'admission review not known: no warning',
    );
  }
  if (judged.outcome === 'warned' && judged.result) deps.onWarned?.(judged.result, request);
  return judged;
}
