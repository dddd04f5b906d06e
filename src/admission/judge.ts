/**
 * The heavy half of answering a review: whether the namespace exists, the check of the
 * change against the cluster view (check.ts `checkOne`, one answer per change and
 * window), the refuse label and the warnings' language. It runs where the view is: in
 * the judging thread (judge-thread.ts) for the served webhook, so that no judgment holds
 * the event loop that accepts connections and answers; inline for the callers that give
 * answerReview a view of their own (tests, check-kinds).
 *
 * `reviewItem` is the cheap half the answering thread does itself: which reviews are
 * judged at all, and the workload they carry.
 */
import { createHash } from 'node:crypto';
import { checkOne, type CheckResult } from '../check/check.js';
import { asWorkload } from '../check/manifests.js';
import type { CheckSource } from '../check/source.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { Lang } from '../i18n/lang.js';
import type { AdmissionRequest } from './review.js';

/** What the judgment reads (cached-source.ts in the judging thread). */
export interface JudgeView {
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
   * Whether the namespace exists (cached-source.ts); absent: taken to. A review of one
   * that does not is answered with no warning and reads nothing more (outcome `absent`);
   * a lookup that cannot start now rejects with ViewBusy (outcome `busy`, no warning).
   */
  exists?: (namespace: string) => Promise<boolean>;
  /** A review of the namespace (one that exists) came (cached-source.ts renews its reads). */
  touch?: (namespace: string) => void;
}

/** A review to judge: plain data, as it crosses to the judging thread. */
export interface JudgeItem {
  kind: WorkloadKind;
  /** The workload, its namespace set. */
  object: WorkloadObject;
  old?: WorkloadObject;
  operation: 'CREATE' | 'UPDATE';
  namespace: string;
}

/** The judgment: plain data, as it comes back from the judging thread. */
export interface Judged {
  outcome: 'absent' | 'unknown' | 'clear' | 'warned' | 'refused';
  result?: CheckResult;
  lang?: Lang;
}

/** The workload a review would have judged, or `skipped` (not a CREATE or UPDATE of one). */
export function reviewItem(request: AdmissionRequest): JudgeItem | 'skipped' {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return 'skipped';
  if (request.subResource) return 'skipped';
  const workload = asWorkload(request.object);
  if ('problem' in workload) return 'skipped';
  const old = request.operation === 'UPDATE' ? asWorkload(request.oldObject) : undefined;
  const namespace = request.namespace ?? workload.object.metadata.namespace ?? 'default';
  const object = { ...workload.object, metadata: { ...workload.object.metadata, namespace } };
  return {
    kind: workload.kind,
    object,
    ...(old && 'object' in old ? { old: old.object } : {}),
    operation: request.operation,
    namespace,
  };
}

export async function judge(item: JudgeItem, view: JudgeView): Promise<Judged> {
  const { object, old, namespace } = item;
  // Nothing more is read for a namespace that does not exist (only a caller other than
  // the API server names one), and it is not renewed.
  if (view.exists && !(await view.exists(namespace))) return { outcome: 'absent' };
  view.touch?.(namespace);
  const compute = (): Promise<CheckResult> =>
    checkOne(
      {
        kind: item.kind,
        object,
        ...(old ? { old } : {}),
        ...(item.operation === 'CREATE' ? { isNew: true } : {}),
      },
      view.source(),
      namespace,
    );
  // A new object's verdict does not depend on its name (it has no pods yet); an update's does.
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        item.kind,
        namespace,
        item.operation === 'CREATE' ? '' : object.metadata.name,
        object.spec,
        old?.spec ?? null,
      ]),
    )
    .digest('hex');
  const found = view.memo ? await view.memo(key, compute) : await compute();
  const result =
    found.target.name === object.metadata.name
      ? found
      : { ...found, target: { ...found.target, name: object.metadata.name ?? '' } };
  if (result.verdict === 'unknown') return { outcome: 'unknown', result };
  if (result.verdict !== 'never-finishes') return { outcome: 'clear', result };
  const [refuse, lang] = await Promise.all([
    view.refuses(namespace).catch(() => false),
    view.langOf?.(namespace).catch(() => undefined),
  ]);
  return { outcome: refuse ? 'refused' : 'warned', result, ...(lang ? { lang } : {}) };
}
