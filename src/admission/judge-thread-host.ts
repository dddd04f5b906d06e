/**
 * The answering thread's handle on the judging thread (judge-thread.ts): starts it,
 * sends it reviews and hands back its judgments, counts what its view reports, and
 * starts it again when it dies. Reviews in flight at that moment are rejected (the
 * answer: no warning, outcome error), never left waiting; those that come while it is
 * being started again after repeated deaths are rejected at once.
 *
 * The entry is the compiled judge-thread.js beside this module (dist/, the image); where
 * this module is TypeScript itself (tsx, vitest, bin/rollout-doctor.js in a checkout),
 * the thread registers tsx's loader itself and loads judge-thread.ts through it.
 */
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

interface JudgeThreadOptions {
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

/**
 * The thread, on the compiled entry; or on the TypeScript one through tsx, registered in
 * the thread itself: on Node 20 a thread started with `--import tsx` still refuses .ts.
 */
function newThread(workerData: ThreadData): Worker {
  if (!TYPESCRIPT) return new Worker(ENTRY, { workerData });
  // Resolved here (the thread's own base is its working directory); tsx running this
  // module as CommonJS gives no import.meta.resolve, and the thread resolves it then.
  const api = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const code = `import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(ENTRY.href)}); });`;
  return new Worker(code, { eval: true, workerData });
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
    const thread = newThread(options.now ? { ...data, at: options.now() } : data);
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
