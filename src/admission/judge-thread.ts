/**
 * The judging thread's entry (node:worker_threads; started by judge-thread-host.ts).
 *
 * It holds the cluster view (cached-source.ts: its own client, its reads, its windows
 * and its memo of answers) as well as the check, so data flows one way: the cluster's
 * objects are read, kept and judged here, and only a review (in) and its verdict (out)
 * cross between the threads. Judging in the thread against snapshots the answering
 * thread read would have it read, parse and copy the nodes and pods of every window
 * across (thousands of objects, on the very loop this thread exists to keep free), and
 * the reads would then flow in, out and back in.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createKubeClient } from '../kube/client.js';
import { cachedView } from './cached-source.js';
import { judge } from './judge.js';
import type { ReviewMessage, ThreadData, ThreadMessage } from './judge-messages.js';
import { ViewBusy } from './view-busy.js';
import { DEFAULT_LANG } from '../i18n/lang.js';

const port = parentPort;
if (!port) throw new Error('judge-thread.ts runs as a worker thread (judge-thread-host.ts starts it)');
const data = workerData as ThreadData;
const post = (message: ThreadMessage): void => port.postMessage(message);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

let clock = data.at ?? 0;
const view = cachedView(
  createKubeClient(data.kube),
  data.ttlMs,
  data.at === undefined ? Date.now : () => clock,
  {
    ...(data.bounds ? { bounds: data.bounds } : {}),
    onEvict: (cache) => post({ type: 'evicted', cache }),
    onRenewed: (namespaces) => post({ type: 'renewed', namespaces }),
  },
);
const judgeView = {
  ...view,
  langOf: async (namespace: string) => (await view.langOf(namespace)) ?? data.lang ?? DEFAULT_LANG,
};

port.on('message', ({ id, item, at }: ReviewMessage) => {
  if (at !== undefined) clock = at;
  judge(item, judgeView).then(
    (judged) => post({ type: 'judged', id, judged }),
    (error: unknown) =>
      post({ type: 'failed', id, busy: error instanceof ViewBusy, message: messageOf(error) }),
  );
});

view.warmUp().then(
  () => post({ type: 'warm' }),
  (error: unknown) => post({ type: 'warm', error: messageOf(error) }),
);
