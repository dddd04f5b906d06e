/**
 * One AdmissionReview answered: always allowed (failurePolicy Ignore is the chart's
 * too), with a warning when a CREATE or UPDATE of a Deployment, DaemonSet,
 * StatefulSet or Argo Rollout starts a rollout that can never finish, and refused only
 * where the namespace carries the label REFUSE_LABEL=refuse. Whatever cannot be
 * answered within the budget, or fails, is no warning (counted), never a refusal and
 * never a wait past the API server's timeoutSeconds.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../logger.js';
import { checkOne, type CheckResult } from '../check/check.js';
import { asWorkload } from '../check/manifests.js';
import type { CheckSource } from '../check/source.js';
import { admissionResponse, admissionReviewSchema, type AdmissionRequest } from './review.js';
import { refusalFor, warningsFor } from './warning.js';
import { unknownReason } from './unknown-reason.js';
import type { AdmissionMetrics } from './metrics.js';
import { ViewBusy } from './view-busy.js';
import type { Lang } from '../i18n/lang.js';

/** The namespace label that turns warnings into refusals there: `kubectl label ns NS rollout-doctor.io/admission=refuse`. */
export const REFUSE_LABEL = 'rollout-doctor.io/admission';
/** The namespace annotation naming its warnings' language: `kubectl annotate ns NS rollout-doctor.io/lang=ko`. */
export const LANG_ANNOTATION = 'rollout-doctor.io/lang';

export interface ReviewDeps {
  /** The cluster as read for this moment (a short-lived cache: cached-source.ts). */
  source: () => CheckSource;
  /** Whether the namespace asks for refusals (its REFUSE_LABEL is "refuse"). */
  refuses: (namespace: string) => Promise<boolean>;
  /**
   * The language of the namespace's warnings (its LANG_ANNOTATION, else the webhook's
   * default: serve.ts); absent: English. Asked only once a review warns or refuses.
   */
  langOf?: (namespace: string) => Promise<Lang>;
  /** One answer per key in the current window (cached-source.ts); absent: every review computed. */
  memo?: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
  /**
   * Whether the first read is done (serve.ts): before it, a review that would be judged
   * is answered at once with no warning (outcome `cold`), so none waits for a cold cluster.
   */
  ready?: () => boolean;
  /**
   * Whether the namespace exists (cached-source.ts); absent: taken to. A review of one
   * that does not is answered with no warning and reads nothing more (outcome `absent`);
   * a lookup that cannot start now rejects with ViewBusy (outcome `busy`, no warning).
   */
  exists?: (namespace: string) => Promise<boolean>;
  /** A review of the namespace (one that exists) came (cached-source.ts renews its reads). */
  touch?: (namespace: string) => void;
  budgetMs: number;
  metrics: AdmissionMetrics;
  logger: Logger;
  /** Told of every warned apply (announce.ts: the app opens its incident thread); never awaited. */
  onWarned?: (result: CheckResult, request: AdmissionRequest) => void;
}

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
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return { outcome: 'skipped' };
  if (request.subResource) return { outcome: 'skipped' };
  const workload = asWorkload(request.object);
  if ('problem' in workload) return { outcome: 'skipped' };
  const old = request.operation === 'UPDATE' ? asWorkload(request.oldObject) : undefined;
  const namespace = request.namespace ?? workload.object.metadata.namespace ?? 'default';
  if (deps.ready && !deps.ready()) return { outcome: 'cold' };
  // Nothing more is read for a namespace that does not exist (only a caller other than
  // the API server names one), and it is not renewed.
  if (deps.exists && !(await deps.exists(namespace))) return { outcome: 'absent' };
  deps.touch?.(namespace);
  const object = { ...workload.object, metadata: { ...workload.object.metadata, namespace } };
  const oldObject = old && 'object' in old ? old.object : undefined;
  const judge = (): Promise<CheckResult> =>
    checkOne(
      {
        kind: workload.kind,
        object,
        ...(oldObject ? { old: oldObject } : {}),
        ...(request.operation === 'CREATE' ? { isNew: true } : {}),
      },
      deps.source(),
      namespace,
    );
  // A new object's verdict does not depend on its name (it has no pods yet); an update's does.
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        workload.kind,
        namespace,
        request.operation === 'CREATE' ? '' : object.metadata.name,
        object.spec,
        oldObject?.spec ?? null,
      ]),
    )
    .digest('hex');
  const found = deps.memo ? await deps.memo(key, judge) : await judge();
  const result =
    found.target.name === object.metadata.name
      ? found
      : { ...found, target: { ...found.target, name: object.metadata.name ?? '' } };
  if (result.verdict === 'unknown') {
    // Counted and logged by why: a webhook silent on a class of workloads says which.
    const reason = unknownReason(result);
    deps.metrics.unknown.inc({ reason });
    deps.logger.info(
      { reason, target: result.target, summary: result.findings[0]?.summary },
      'admission review not known: no warning',
    );
    return { outcome: 'unknown', result };
  }
  if (result.verdict !== 'never-finishes') return { outcome: 'clear', result };
  const [refuse, lang] = await Promise.all([
    deps.refuses(namespace).catch(() => false),
    deps.langOf?.(namespace).catch(() => undefined),
  ]);
  if (!refuse) deps.onWarned?.(result, request);
  return { outcome: refuse ? 'refused' : 'warned', result, ...(lang ? { lang } : {}) };
}
