/**
 * What the answering thread and the judging thread (judge-thread.ts) say to each other:
 * plain data only (structured clone). Reviews go in, judgments and the view's counts
 * come out; no cluster data crosses the other way.
 */
import type { KubeClientOptions } from '../kube/client.js';
import type { Evicted, ViewBounds } from './cached-source.js';
import type { JudgeItem, Judged } from './judge.js';
import type { Lang } from '../i18n/lang.js';

/** How the judging thread reads the cluster: the client options that can be copied to it (no functions). */
export type ThreadKubeOptions = Pick<
  KubeClientOptions,
  'kubeconfig' | 'environment' | 'context' | 'requestTimeoutMs' | 'retry'
>;

/** The judging thread's workerData. */
export interface ThreadData {
  kube: ThreadKubeOptions;
  ttlMs: number;
  bounds?: Partial<ViewBounds>;
  /** The warnings' language where a namespace names none; absent: English. */
  lang?: Lang;
  /**
   * The view's clock as the answering thread read it at the start, when that clock is not
   * Date.now (tests move it): each review then carries the clock's reading (`at`).
   */
  at?: number;
}

export interface ReviewMessage {
  id: number;
  item: JudgeItem;
  at?: number;
}

export type ThreadMessage =
  | { type: 'judged'; id: number; judged: Judged }
  /** busy: the namespace lookup could not start (ViewBusy); else the judgment failed with `message`. */
  | { type: 'failed'; id: number; busy: boolean; message: string }
  /** The first read is over (`error`: it failed; reviews read what they need). */
  | { type: 'warm'; error?: string }
  | { type: 'evicted'; cache: Evicted }
  | { type: 'renewed'; namespaces: number };
