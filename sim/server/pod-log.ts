/** GET pods/<name>/log with container, previous, tailLines and limitBytes, worded like the kubelet. */
import { badRequest, notFound } from '../errors.js';
import type { LogStore } from '../logs.js';
import type { ResourceType } from '../resources.js';
import type { Store } from '../store.js';
import type { Pod } from '../../src/diagnosis/k8s.js';

/** Returns the log text for a pod container, or throws an ApiError. */
export function podLog(
  store: Store,
  logs: LogStore,
  rt: ResourceType,
  namespace: string,
  name: string,
  params: URLSearchParams,
): string {
  const pod = store.get('Pod', namespace, name) as unknown as Pod | undefined;
  if (!pod) throw notFound(rt, name);
  const names = pod.spec.containers.map((c) => c.name);
  let container = params.get('container') ?? undefined;
  if (!container) {
    if (names.length !== 1) {
      throw badRequest(
        `a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`,
      );
    }
    container = names[0] ?? '';
  }
  if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  const previous = params.get('previous') === 'true' || params.get('previous') === '1';
  const stored = logs.get(namespace, name, container);
  const status = pod.status?.containerStatuses?.find((c) => c.name === container);
  let text: string;
  if (previous) {
    if (stored?.previous === undefined) {
      throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
    }
    text = stored.previous;
  } else {
    if (stored === undefined) {
      const reason = status?.state?.waiting?.reason ?? 'ContainerCreating';
      throw badRequest(`container "${container}" in pod "${name}" is waiting to start: ${reason}`);
    }
    text = stored.current;
  }
  const tail = params.get('tailLines');
  if (tail !== null) {
    const n = Number(tail);
    if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid tailLines: ${tail}`);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    text = lines
      .slice(Math.max(0, lines.length - n))
      .map((l) => `${l}\n`)
      .join('');
  }
  const limit = params.get('limitBytes');
  if (limit !== null) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n <= 0) throw badRequest(`invalid limitBytes: ${limit}`);
    const buf = Buffer.from(text, 'utf8');
    if (buf.length > n) text = buf.subarray(0, n).toString('utf8');
  }
  return text;
}
