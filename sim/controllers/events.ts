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

/** Records (or aggregates) an event about an object. */
export function recordEvent(store: Store, input: EventInput): void {
  const { involved } = input;
  const namespace = involved.metadata.namespace ?? 'default';
  const uid = involved.metadata.uid ?? '';
  const existing = store
    .list('Event', namespace, [])
    .find(
      (e) =>
        (e['involvedObject'] as { uid?: string } | undefined)?.uid === uid &&
        e['reason'] === input.reason &&
        e['message'] === input.message &&
        (e['source'] as { component?: string } | undefined)?.component === input.component,
    );
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
