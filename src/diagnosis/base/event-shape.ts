/**
 * Events come in two shapes: core/v1 (`involvedObject`, `message`, `count`,
 * `lastTimestamp`) and events.k8s.io/v1 (`regarding`, `note`, `series`, the
 * `deprecated*` copies), which `kubectl get events.events.k8s.io -o yaml` writes. The
 * analyzers read the core shape; this turns either into it without losing the text.
 */
import type { KubeEvent } from '../k8s.js';

type Raw = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const obj = (v: unknown): Raw | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined;

/**
 * The event in core/v1 shape. A core/v1 event, or one naming no object at all (which
 * the dump's schema then refuses, saying so), is returned as it is.
 */
export function coreEvent(event: Raw): Raw {
  if (obj(event['involvedObject']) || !obj(event['regarding'])) return event;
  const series = obj(event['series']);
  const source = obj(event['deprecatedSource']);
  const component = text(event['reportingController']) ?? text(source?.['component']);
  const firstTimestamp = text(event['deprecatedFirstTimestamp']);
  const lastTimestamp =
    text(series?.['lastObservedTime']) ?? text(event['deprecatedLastTimestamp']) ?? text(event['eventTime']);
  const count = num(series?.['count']) ?? num(event['deprecatedCount']);
  const message = text(event['note']) ?? text(event['message']);
  return {
    ...event,
    involvedObject: obj(event['regarding']),
    ...(message !== undefined ? { message } : {}),
    ...(count !== undefined ? { count } : {}),
    ...(firstTimestamp !== undefined ? { firstTimestamp } : {}),
    ...(lastTimestamp !== undefined ? { lastTimestamp } : {}),
    ...(component !== undefined || source
      ? {
          source: {
            ...(component ? { component } : {}),
            ...(text(source?.['host']) ? { host: text(source?.['host']) } : {}),
          },
        }
      : {}),
  };
}

/** Typed convenience for objects already known to be events. */
export function asCoreEvent(event: KubeEvent): KubeEvent {
  return coreEvent(event as unknown as Raw) as unknown as KubeEvent;
}
