import { workloadHash } from '../../queue/alert-keys.js';
import type { ThreadRecord, ThreadStore } from '../../queue/alert-thread-store.js';
import { verdictKey } from './verdict-key.js';
import type { Diagnosis } from '../../engine/diagnosis.js';

/** A finished diagnose run, as the notify consumer sees it. */
export interface RunResult {
  cluster: string;
  jobId: string;
  /** The diagnosis, or why the run could not diagnose ("pod not found", ...). */
  outcome:
    | { status: 'diagnosed'; diagnosis: Diagnosis }
    | { status: 'failed'; reason: string }
    | { status: 'scanned' };
}

interface AlertResultDeps {
  store: ThreadStore;
  /** Posts the rendered result (with remediation buttons) as a reply in the thread. */
  postInThread: (thread: Pick<ThreadRecord, 'channel' | 'ts'>) => Promise<void>;
  /**
   * Opens a thread for an early-warning run's result when no alert opened one; returns
   * null when the verdict is not worth a thread.
   */
  openEarlyWarning?: (result: RunResult, workloadHash: string) => Promise<ThreadRecord | null>;
  logger: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void };
  now?: () => number;
}

export type AlertResultOutcome = 'posted' | 'unchanged' | 'no-thread';

/**
 * An alert asked for this run but its thread's root message is not stored yet (the
 * notify consumer handles the two jobs concurrently). Thrown so the notify job is
 * retried with backoff instead of dropping the diagnosis.
 */
export class ThreadNotReadyError extends Error {
  override name = 'ThreadNotReadyError';
}

/** How long after an alert linked a run its thread is still expected to appear. */
const THREAD_EXPECTED_MS = 10 * 60 * 1000;

/**
 * Delivers a diagnose run's result to the incident thread of its workload, if there
 * is one. The first result in a thread is always posted; a later one only when the
 * verdict changed (same findings on the same nodes stay quiet).
 */
export async function deliverAlertResult(
  deps: AlertResultDeps,
  result: RunResult,
): Promise<AlertResultOutcome> {
  if (result.outcome.status === 'scanned') return 'no-thread';
  const link = await deps.store.jobLink(result.cluster, result.jobId);
  const candidates = [link?.workloadHash];
  if (result.outcome.status === 'diagnosed') {
    const t = result.outcome.diagnosis.target;
    candidates.push(
      workloadHash({ cluster: result.cluster, namespace: t.namespace, kind: t.kind, name: t.name }),
    );
  }
  let thread: ThreadRecord | null = null;
  let workload: string | undefined;
  for (const candidate of candidates) {
    if (candidate === null || candidate === undefined) continue;
    workload ??= candidate;
    thread = await deps.store.find(candidate);
    if (thread !== null) break;
  }
  if (thread === null && workload !== undefined && link?.earlyWarning === true && deps.openEarlyWarning) {
    thread = await deps.openEarlyWarning(result, workload);
  }
  if (thread === null) {
    const now = deps.now?.() ?? Date.now();
    if (link !== null && !link.earlyWarning && now - link.linkedAt < THREAD_EXPECTED_MS) {
      throw new ThreadNotReadyError(`thread for ${result.jobId} not opened yet`);
    }
    return 'no-thread';
  }

  const verdict =
    result.outcome.status === 'diagnosed'
      ? verdictKey(result.outcome.diagnosis)
      : `failed:${result.outcome.reason}`;
  const previous = await deps.store.swapVerdict(thread.threadId, verdict);
  if (previous === verdict) {
    deps.logger.debug({ jobId: result.jobId, verdict }, 'alert thread verdict unchanged; not posted');
    return 'unchanged';
  }
  try {
    await deps.postInThread(thread);
  } catch (error) {
    // Forget the verdict so the retry of this notify job posts it.
    await deps.store.swapVerdict(thread.threadId, previous ?? '');
    throw error;
  }
  deps.logger.info({ jobId: result.jobId, verdict }, 'diagnosis posted in alert thread');
  return 'posted';
}
