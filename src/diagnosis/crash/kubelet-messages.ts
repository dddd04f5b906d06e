/**
 * The kubelet's own wording, parsed: which container an event is about, missing
 * ConfigMaps/Secrets/keys, and liveness/startup probe kills.
 */
import type { KubeEvent } from '../k8s.js';

/** A ConfigMap or Secret (or one key of it) that a container needs and cannot get. */
export interface MissingConfigRef {
  kind: 'ConfigMap' | 'Secret';
  namespace?: string;
  name: string;
  key?: string;
}

export interface ProbeKill {
  probe: 'liveness' | 'startup';
  /** Kill events summed over their `count`. */
  kills: number;
  /** Most recent Unhealthy message for that probe, such as "Liveness probe failed: HTTP probe failed with statuscode: 500". */
  lastFailure?: string;
}

/** The container an event is about, from `spec.containers{name}` / `spec.initContainers{name}`. */
export function eventContainer(event: KubeEvent): string | undefined {
  const match = /^spec\.(?:initContainers|containers|ephemeralContainers)\{(.+)\}$/.exec(
    event.involvedObject.fieldPath ?? '',
  );
  return match?.[1];
}

/**
 * Parses the kubelet's wording for missing configuration, as it appears in the
 * CreateContainerConfigError waiting message, `Failed` events and `FailedMount` events:
 * `couldn't find key DB_HOST in ConfigMap vision/app-config`,
 * `configmap "app-config" not found`, `secret "db-creds" not found`.
 */
export function findMissingConfig(text: string): MissingConfigRef[] {
  const refs: MissingConfigRef[] = [];
  for (const m of text.matchAll(/couldn't find key (\S+) in (ConfigMap|Secret) ([^/\s]+)\/([^\s,;]+)/g)) {
    const [, key = '', kind, namespace = '', name = ''] = m;
    refs.push({ kind: kind === 'Secret' ? 'Secret' : 'ConfigMap', namespace, name, key });
  }
  for (const m of text.matchAll(/\b(configmap|secret)s? "([^"]+)" not found/gi)) {
    const [, kind = '', name = ''] = m;
    refs.push({ kind: kind.toLowerCase() === 'secret' ? 'Secret' : 'ConfigMap', name });
  }
  return refs;
}

export function dedupeRefs(refs: MissingConfigRef[]): MissingConfigRef[] {
  const seen = new Map<string, MissingConfigRef>();
  for (const ref of refs) seen.set(`${ref.kind}/${ref.namespace ?? ''}/${ref.name}/${ref.key ?? ''}`, ref);
  return [...seen.values()];
}

/**
 * Liveness and startup probe kills: the kubelet emits `Unhealthy` events
 * ("Liveness probe failed: ...", or "Liveness probe errored: ..." when the probe
 * itself could not run) and, when the failure threshold is reached,
 * `Killing` ("Container api failed liveness probe, will be restarted").
 */
export function findProbeKills(events: readonly KubeEvent[]): ProbeKill[] {
  const kills: ProbeKill[] = [];
  for (const probe of ['liveness', 'startup'] as const) {
    const killEvents = events.filter(
      (e) => e.reason === 'Killing' && new RegExp(`failed ${probe} probe`, 'i').test(e.message ?? ''),
    );
    const unhealthy = events
      .filter(
        (e) =>
          e.reason === 'Unhealthy' &&
          new RegExp(`^${probe} probe (?:failed|errored)`, 'i').test(e.message ?? ''),
      )
      .sort((a, b) => eventTime(b) - eventTime(a));
    if (killEvents.length === 0 && unhealthy.length === 0) continue;
    const lastFailure = unhealthy[0]?.message;
    kills.push({
      probe,
      kills: killEvents.reduce((sum, e) => sum + (e.count ?? 1), 0),
      ...(lastFailure ? { lastFailure } : {}),
    });
  }
  return kills;
}

export function eventTime(event: KubeEvent): number {
  const t = Date.parse(event.lastTimestamp ?? event.eventTime ?? event.firstTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
}
