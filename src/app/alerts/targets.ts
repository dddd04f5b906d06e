import type { AlertMap } from '../../config/alert-map.js';
import { DEFAULT_WORKLOAD_KIND, kindOfType, type WorkloadKind } from '../../diagnosis/workload-ref.js';
import { groupHash, workloadHash, type WorkloadKeyParts } from '../../queue/alert-keys.js';
import type { AlertmanagerAlert, AlertmanagerPayload } from './payload.js';

/** One workload an Alertmanager notification is about, merged over all its alerts. */
export interface AlertTarget {
  cluster: string;
  namespace: string;
  /**
   * The workload's name: named by a workload alert (its kind in `workload.kind`), or a
   * Deployment's guessed from pod names (then `guessed`).
   */
  deployment?: string;
  guessed: boolean;
  /** Pods named by pod alerts; the worker resolves their owner through ownerReferences. */
  pods: string[];
  /** Application containers named by pod alerts (never the workload alerts' exporter sidecar). */
  containers: string[];
  workload: WorkloadKeyParts;
  workloadHash: string;
  /** `resolved` only when every alert of this notification for the workload is resolved. */
  status: 'firing' | 'resolved';
  alertNames: string[];
  /** Earliest startsAt of its alerts: identifies the firing episode. */
  startsAt: string;
  /** Latest endsAt of its resolved alerts, when resolved. */
  endsAt?: string;
  /** First summary/description annotation, for the root message. */
  summary?: string;
}

/** An alert that names no workload we can diagnose; acknowledged and ignored. */
interface IgnoredAlert {
  alertname: string;
  reason: string;
}

interface MappedNotification {
  groupHash: string;
  targets: AlertTarget[];
  ignored: IgnoredAlert[];
  /** Alerts Alertmanager left out of this notification (`max_alerts`). */
  truncatedAlerts: number;
}

interface MapOptions {
  alertMap: AlertMap;
  /** Cluster used when an alert carries no `cluster` label. */
  defaultCluster: string;
  /** Clusters with a worker queue; alerts for others are ignored (a retry would not help). */
  clusters: readonly string[];
}

/** Caps keep job data small when a group holds hundreds of pods of one workload. */
const MAX_PODS_PER_TARGET = 20;
const MAX_SUMMARY_CHARS = 300;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
/**
 * A Deployment's pod is named `<deployment>-<pod-template-hash>-<5 random>`, both
 * suffixes drawn from Kubernetes' safe-encoding alphabet (no vowels, no 0/1/3).
 */
const DEPLOYMENT_POD = /^(.+)-[bcdfghjklmnpqrstvwxz2456789]{6,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/**
 * Guesses the Deployment owning a pod from its name, so pod alerts and Deployment
 * alerts for one workload share a thread and a dedup window before the worker has
 * read ownerReferences. Returns undefined when the name does not have that shape.
 */
export function guessDeploymentFromPod(pod: string): string | undefined {
  const match = DEPLOYMENT_POD.exec(pod);
  const name = match?.[1];
  return name !== undefined && DNS_SUBDOMAIN.test(name) ? name : undefined;
}

/**
 * Maps every alert of a notification to the workload it is about and merges alerts
 * for the same workload. Alerts with an unknown name, missing labels or names that
 * are not valid Kubernetes names are returned in `ignored` with the reason.
 */
export function mapNotification(payload: AlertmanagerPayload, options: MapOptions): MappedNotification {
  const byWorkload = new Map<string, AlertTarget>();
  const ignored: IgnoredAlert[] = [];
  for (const alert of payload.alerts) {
    const result = mapAlert(alert, options);
    if ('reason' in result) {
      ignored.push(result);
      continue;
    }
    const existing = byWorkload.get(result.workloadHash);
    byWorkload.set(result.workloadHash, existing ? mergeTargets(existing, result) : result);
  }
  return {
    groupHash: groupHash(payload.groupKey),
    targets: [...byWorkload.values()],
    ignored,
    truncatedAlerts: payload.truncatedAlerts,
  };
}

function mapAlert(alert: AlertmanagerAlert, options: MapOptions): AlertTarget | IgnoredAlert {
  const alertname = alert.labels['alertname'] ?? '';
  const spec = Object.hasOwn(options.alertMap, alertname) ? options.alertMap[alertname] : undefined;
  if (!spec) return { alertname, reason: 'alert name is not mapped to a workload' };
  const namespace = alert.labels['namespace'] ?? '';
  const name = alert.labels[spec.label] ?? '';
  const cluster = alert.labels['cluster'] ?? options.defaultCluster;
  if (!DNS_LABEL.test(namespace)) return { alertname, reason: 'missing or invalid "namespace" label' };
  if (!DNS_SUBDOMAIN.test(name)) return { alertname, reason: `missing or invalid "${spec.label}" label` };
  if (!options.clusters.includes(cluster))
    return { alertname, reason: `no worker serves cluster "${cluster}"` };

  let deployment: string | undefined;
  let kind: WorkloadKind = DEFAULT_WORKLOAD_KIND;
  let guessed = false;
  const pods: string[] = [];
  const containers: string[] = [];
  if (spec.kind !== 'pod') {
    deployment = name;
    kind = kindOfType(spec.kind) ?? DEFAULT_WORKLOAD_KIND;
  } else {
    pods.push(name);
    deployment = guessDeploymentFromPod(name);
    guessed = deployment !== undefined;
    const container = alert.labels['container'];
    if (container !== undefined && DNS_LABEL.test(container)) containers.push(container);
  }
  const workload: WorkloadKeyParts =
    deployment !== undefined
      ? { cluster, namespace, kind, name: deployment }
      : { cluster, namespace, kind: 'Pod', name };
  const summary = alert.annotations['summary'] ?? alert.annotations['description'];
  return {
    cluster,
    namespace,
    ...(deployment !== undefined ? { deployment } : {}),
    guessed,
    pods,
    containers,
    workload,
    workloadHash: workloadHash(workload),
    status: alert.status,
    alertNames: [alertname],
    startsAt: alert.startsAt,
    ...(alert.status === 'resolved' && alert.endsAt !== undefined ? { endsAt: alert.endsAt } : {}),
    ...(summary !== undefined ? { summary: summary.slice(0, MAX_SUMMARY_CHARS) } : {}),
  };
}

function mergeTargets(a: AlertTarget, b: AlertTarget): AlertTarget {
  // A Deployment alert names the workload for certain; prefer it over a guess.
  const deploymentFromB = a.guessed && !b.guessed && b.deployment !== undefined;
  const endsAt = [a.endsAt, b.endsAt].filter((t): t is string => t !== undefined).sort();
  const merged: AlertTarget = {
    ...a,
    guessed: deploymentFromB ? false : a.guessed,
    pods: union(a.pods, b.pods).slice(0, MAX_PODS_PER_TARGET),
    containers: union(a.containers, b.containers),
    status: a.status === 'firing' || b.status === 'firing' ? 'firing' : 'resolved',
    alertNames: union(a.alertNames, b.alertNames),
    startsAt: a.startsAt <= b.startsAt ? a.startsAt : b.startsAt,
  };
  const latestEnd = endsAt.at(-1);
  if (merged.status === 'resolved' && latestEnd !== undefined) merged.endsAt = latestEnd;
  else delete merged.endsAt;
  if (merged.summary === undefined && b.summary !== undefined) merged.summary = b.summary;
  return merged;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
