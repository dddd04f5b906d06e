/**
 * How stored objects are shown on the wire: core Events served through
 * events.k8s.io/v1 are converted to that group's field names.
 */
import { apiVersionOf, type ResourceType } from '../resources.js';
import type { SimObject } from '../store.js';

function toEventsV1(o: SimObject): unknown {
  const source = o['source'] as { component?: string; host?: string } | undefined;
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: o.metadata,
    eventTime: o['eventTime'] ?? null,
    reason: o['reason'],
    note: o['message'],
    type: o['type'],
    regarding: o['involvedObject'],
    reportingController: o['reportingComponent'] ?? source?.component ?? '',
    reportingInstance: o['reportingInstance'] ?? source?.host ?? '',
    action: o['action'] ?? o['reason'],
    deprecatedSource: source,
    deprecatedCount: o['count'],
    deprecatedFirstTimestamp: o['firstTimestamp'],
    deprecatedLastTimestamp: o['lastTimestamp'],
  };
}

/** The wire form of a stored object for the resource it was requested through. */
export function present(rt: ResourceType, o: SimObject): unknown {
  if (rt.kind === 'Event' && rt.group === 'events.k8s.io') return toEventsV1(o);
  if (o.apiVersion === apiVersionOf(rt)) return o;
  return { ...o, apiVersion: apiVersionOf(rt) };
}
