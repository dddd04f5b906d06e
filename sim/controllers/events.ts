/**
 * core/v1 Event recording with the event recorder's aggregation: the same source,
 * object, reason and message bump `count` and `lastTimestamp` on one Event.
 */
import { randomBytes } from 'node:crypto';
import { nowRfc3339 } from '../defaults.js';
import type { SimObject, Store } from '../store.js';
import { resourceForKind, apiVersionOf } from '../resources.js';
import { applyDirect } from '../scenario.js';

export interface EventInput {
  involved: SimObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  component: string;
  host?: string;
  fieldPath?: string;
}

/** What the recorder aggregates by: namespace, involved object, reason, message, source component. */
function aggregationKey(
  namespace: string,
  uid: string,
  reason: unknown,
  message: unknown,
  component: unknown,
): string {
  return JSON.stringify([namespace, uid, reason, message, component]);
}

function keyOfEvent(e: SimObject): string {
  return aggregationKey(
    e.metadata.namespace ?? '',
    (e['involvedObject'] as { uid?: string } | undefined)?.uid ?? '',
    e['reason'],
    e['message'],
    (e['source'] as { component?: string } | undefined)?.component,
  );
}

const indexes = new WeakMap<Store, Map<string, string>>();

/**
 * The stored Events by aggregation key (to their name), kept in step with every write:
 * looking an event up must not scan the namespace, whose events grow with every pod
 * (thousands for a DaemonSet on thousands of nodes).
 */
function eventIndex(store: Store): Map<string, string> {
  const existing = indexes.get(store);
  if (existing) return existing;
  const index = new Map<string, string>();
  for (const e of store.list('Event')) index.set(keyOfEvent(e), e.metadata.name);
  store.subscribe((change) => {
    if (change.kind !== 'Event') return;
    if (change.old) {
      const key = keyOfEvent(change.old);
      if (index.get(key) === change.old.metadata.name) index.delete(key);
    }
    if (change.type !== 'DELETED') index.set(keyOfEvent(change.object), change.object.metadata.name);
  });
  indexes.set(store, index);
  return index;
}

/** Records (or aggregates) an event about an object. */
export function recordEvent(store: Store, input: EventInput): void {
  const { involved } = input;
  const namespace = involved.metadata.namespace ?? 'default';
  const uid = involved.metadata.uid ?? '';
  const key = aggregationKey(namespace, uid, input.reason, input.message, input.component);
  const name = eventIndex(store).get(key);
  const existing = name === undefined ? undefined : store.get('Event', namespace, name);
  const now = nowRfc3339();
  if (existing) {
    const copy = structuredClone(existing);
    copy['count'] = ((existing['count'] as number | undefined) ?? 1) + 1;
    copy['lastTimestamp'] = now;
    store.put(copy);
    return;
  }
  const rt = resourceForKind(involved.kind);
  applyDirect(store, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${involved.metadata.name}.${randomBytes(8).toString('hex')}`, namespace },
    involvedObject: {
      kind: involved.kind,
      namespace: involved.metadata.namespace,
      name: involved.metadata.name,
      uid,
      apiVersion: rt ? apiVersionOf(rt) : 'v1',
      resourceVersion: involved.metadata.resourceVersion,
      ...(input.fieldPath ? { fieldPath: input.fieldPath } : {}),
    },
    reason: input.reason,
    message: input.message,
    type: input.type,
    source: { component: input.component, ...(input.host ? { host: input.host } : {}) },
    reportingComponent: input.component,
    reportingInstance: input.host ?? '',
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    eventTime: null,
  });
}
