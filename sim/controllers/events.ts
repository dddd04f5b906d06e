/**
 * core/v1 Event recording as client-go's EventCorrelator does it
 * (tools/record/events_cache.go):
 * - deduplication (eventLogger): the same source, object, type, reason and message bump
 *   `count` and `lastTimestamp` on one Event (found through an index kept in step with
 *   every write, not a scan of the namespace);
 * - aggregation (EventAggregator, 10 events within 600 s): events of one source, object,
 *   type and reason are similar; once 10 distinct messages of them were seen within 10
 *   minutes of each other, each further one is folded into a single Event worded
 *   `(combined from similar events): <the latest message>`, whose count grows (a
 *   ReplicaSet refused by a quota names a new pod every time, so its 10th FailedCreate
 *   already reads that way). The events' spam filter is not simulated.
 */
import { randomBytes } from 'node:crypto';
import { nowRfc3339 } from '../defaults.js';
import type { SimObject, Store } from '../store.js';
import { resourceForKind, apiVersionOf } from '../resources.js';
import { applyDirect } from '../scenario.js';
import { simNow } from '../clock.js';

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

const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;

interface AggregateRecord {
  messages: Set<string>;
  last: number;
}

interface Aggregation {
  records: Map<string, AggregateRecord>;
  /** The Event each aggregate key was folded into. */
  folded: Map<string, string>;
}

const aggregations = new WeakMap<Store, Aggregation>();

function aggregationOf(store: Store): Aggregation {
  let a = aggregations.get(store);
  if (!a) {
    a = { records: new Map(), folded: new Map() };
    aggregations.set(store, a);
  }
  return a;
}

/** EventAggregatorByReasonFunc's key: source, involved object, type, reason. */
function aggregateKey(input: EventInput, apiVersion: string): string {
  const o = input.involved.metadata;
  return [
    input.component,
    input.host ?? '',
    input.involved.kind,
    o.namespace ?? '',
    o.name,
    o.uid ?? '',
    apiVersion,
    input.type,
    input.reason,
  ].join('\u0000');
}

/**
 * EventAggregate: whether this event is the 10th distinct similar one (or later) in the
 * window, in which case it is recorded as the aggregate event instead.
 */
function aggregated(store: Store, key: string, message: string, now: number): boolean {
  const { records } = aggregationOf(store);
  let record = records.get(key);
  if (!record || now - record.last > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), last: now };
  record.messages.add(message);
  record.last = now;
  records.set(key, record);
  if (record.messages.size < AGGREGATE_MAX_EVENTS) return false;
  const first = record.messages.values().next().value;
  if (first !== undefined) record.messages.delete(first);
  return true;
}

/** Records (or aggregates) an event about an object. */
export function recordEvent(store: Store, input: EventInput): void {
  const { involved } = input;
  const rtOfInvolved = resourceForKind(involved.kind);
  const involvedApiVersion = rtOfInvolved ? apiVersionOf(rtOfInvolved) : 'v1';
  const key = aggregateKey(input, involvedApiVersion);
  if (aggregated(store, key, input.message, simNow())) {
    recordAggregate(store, input, key, involvedApiVersion);
    return;
  }
  const namespace = involved.metadata.namespace ?? 'default';
  const uid = involved.metadata.uid ?? '';
  const name = eventIndex(store).get(
    aggregationKey(namespace, uid, input.reason, input.message, input.component),
  );
  const existing = name === undefined ? undefined : store.get('Event', namespace, name);
  const now = nowRfc3339();
  if (existing) {
    const copy = structuredClone(existing);
    copy['count'] = ((existing['count'] as number | undefined) ?? 1) + 1;
    copy['lastTimestamp'] = now;
    store.put(copy);
    return;
  }
  applyDirect(
    store,
    newEvent(
      input,
      `${involved.metadata.name}.${randomBytes(8).toString('hex')}`,
      input.message,
      involvedApiVersion,
    ),
  );
}

/** The aggregate event: created once per key (named `<object>.<hex time>`), then its count and message follow. */
function recordAggregate(store: Store, input: EventInput, key: string, apiVersion: string): void {
  const { folded } = aggregationOf(store);
  const namespace = input.involved.metadata.namespace ?? 'default';
  const message = `(combined from similar events): ${input.message}`;
  const name = folded.get(key);
  const existing = name ? store.get('Event', namespace, name) : undefined;
  if (existing) {
    const copy = structuredClone(existing);
    copy['count'] = ((existing['count'] as number | undefined) ?? 1) + 1;
    copy['lastTimestamp'] = nowRfc3339();
    copy['message'] = message;
    store.put(copy);
    return;
  }
  const created = `${input.involved.metadata.name}.${(BigInt(simNow()) * 1_000_000n).toString(16)}`;
  folded.set(key, created);
  applyDirect(store, newEvent(input, created, message, apiVersion));
}

function newEvent(input: EventInput, name: string, message: string, apiVersion: string): object {
  const { involved } = input;
  const namespace = involved.metadata.namespace ?? 'default';
  const now = nowRfc3339();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: {
      kind: involved.kind,
      namespace: involved.metadata.namespace,
      name: involved.metadata.name,
      uid: involved.metadata.uid ?? '',
      apiVersion,
      resourceVersion: involved.metadata.resourceVersion,
      ...(input.fieldPath ? { fieldPath: input.fieldPath } : {}),
    },
    reason: input.reason,
    message,
    type: input.type,
    source: { component: input.component, ...(input.host ? { host: input.host } : {}) },
    reportingComponent: input.component,
    reportingInstance: input.host ?? '',
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    eventTime: null,
  };
}
