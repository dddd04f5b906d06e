/**
 * The answering thread's handle on the judging thread (judge-thread.ts): starts it,
 * sends it reviews and hands back its judgments, counts what its view reports, and
 * starts it again when it dies. Reviews in flight at that moment are rejected (the
 * answer: no warning, outcome error), never left waiting; those that come while it is
 * being started again after repeated deaths are rejected at once.
 *
 * The entry is the compiled judge-thread.js beside this module (dist/, the image); where
 * this module is TypeScript itself (tsx, vitest), the thread loads judge-thread.ts
 * through tsx's loader, which a thread does not inherit from a process that registered
 * it in code (bin/rollout-doctor.js in a checkout, vitest).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import type { Evicted, ViewBounds } from './cached-source.js';
import type { JudgeItem, Judged } from './judge.js';
import type { ReviewMessage, ThreadData, ThreadKubeOptions, ThreadMessage } from './judge-messages.js';
import { ViewBusy } from './view-busy.js';
import type { Lang } from '../i18n/lang.js';

const TYPESCRIPT = import.meta.url.endsWith('.ts');
const ENTRY = new URL(TYPESCRIPT ? './judge-thread.ts' : './judge-thread.js', import.meta.url);
/** After a thread that died at once, the next start waits this long, doubled each time up to MAX_RESTART_MS. */
const FIRST_RESTART_MS = 100;
const MAX_RESTART_MS = 5000;

export interface JudgeThreadOptions {
  kube: ThreadKubeOptions;
  /** How long one read of the cluster serves reviews (cached-source.ts). */
  ttlMs: number;
  bounds?: Partial<ViewBounds>;
  lang?: Lang;
  /** The view's clock when not Date.now (tests move it to end windows). */
  now?: () => number;
  logger: Logger;
  onEvict?: (cache: Evicted) => void;
  onRenewed?: (namespaces: number) => void;
}

export interface JudgeThread {
  judge(item: JudgeItem): Promise<Judged>;
  /** Resolves once a thread's first read of the cluster is over (done or failed), or on close. */
  warm: Promise<void>;
  /** The thread judging now, if one runs (tests stop it to see it started again). */
  current(): Worker | undefined;
  close(): Promise<void>;
}

interface Waiting {
  resolve: (judged: Judged) => void;
  reject: (error: Error) => void;
}

function execArgv(): string[] {
  if (!TYPESCRIPT) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

export function startJudgeThread(options: JudgeThreadOptions): JudgeThread {
  const data: ThreadData = {
    kube: options.kube,
    ttlMs: options.ttlMs,
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.lang ? { lang: options.lang } : {}),
  };
  const pending = new Map<number, Waiting>();
  let worker: Worker | undefined;
  let closing = false;
  let nextId = 0;
  let deaths = 0;
  let restart: NodeJS.Timeout | undefined;
  let warmed: () => void = () => undefined;
  const warm = new Promise<void>((resolve) => {
    warmed = resolve;
  });

  const received = (message: ThreadMessage): void => {
    if (message.type === 'evicted') return options.onEvict?.(message.cache);
    if (message.type === 'renewed') return options.onRenewed?.(message.namespaces);
    deaths = 0;
    if (message.type === 'warm') {
      if (message.error !== undefined)
        options.logger.warn({ err: message.error }, 'first read of the cluster failed');
      return warmed();
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.type === 'judged') return waiting?.resolve(message.judged);
    waiting?.reject(message.busy ? new ViewBusy() : new Error(message.message));
  };

  const stopped = (thread: Worker, code: number): void => {
    if (thread !== worker) return;
    worker = undefined;
    for (const waiting of pending.values())
      waiting.reject(new Error(`the judging thread stopped (exit code ${code})`));
    pending.clear();
    if (closing) return;
    deaths += 1;
    const delay = deaths > 1 ? Math.min(MAX_RESTART_MS, FIRST_RESTART_MS * 2 ** (deaths - 2)) : 0;
    options.logger.warn({ code, delay }, 'the judging thread stopped: starting another');
    if (delay === 0) start();
    else restart = setTimeout(start, delay);
  };

  function start(): void {
    restart = undefined;
    const thread = new Worker(ENTRY, {
      workerData: options.now ? { ...data, at: options.now() } : data,
      execArgv: execArgv(),
    });
    thread.on('message', received);
    thread.on('error', (error) => options.logger.error({ err: error }, 'the judging thread failed'));
    thread.on('exit', (code) => stopped(thread, code));
    worker = thread;
  }

  start();
  return {
    warm,
    current: () => worker,
    judge(item) {
      return new Promise<Judged>((resolve, reject) => {
        if (!worker) return reject(new Error('the judging thread is being started again'));
        const id = (nextId += 1);
        const message: ReviewMessage = { id, item, ...(options.now ? { at: options.now() } : {}) };
        pending.set(id, { resolve, reject });
        try {
          worker.postMessage(message);
        } catch (error) {
          pending.delete(id);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    async close() {
      closing = true;
      clearTimeout(restart);
      warmed();
      await worker?.terminate();
    },
  };
}
