/**
 * The pod-to-pod constraints the scheduler checks, in isolation: host ports
 * (NodePorts plugin), label selectors of pod (anti-)affinity terms, and the
 * PersistentVolumeClaims a pod mounts.
 */
import type { LabelSelector, Pod, PodAffinityTerm, PodSpec } from '../k8s.js';
import { matchesRequirement } from './node-match.js';

export interface HostPort {
  port: number;
  protocol: string;
  hostIP: string;
}

/**
 * Host ports the pod binds: `hostPort` of app containers and sidecars, and every
 * `containerPort` under hostNetwork (API defaulting copies it into hostPort).
 */
export function hostPorts(spec: PodSpec): HostPort[] {
  const containers = [
    ...spec.containers,
    ...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  const ports: HostPort[] = [];
  for (const container of containers) {
    for (const port of container.ports ?? []) {
      const hostPort = port.hostPort ?? (spec.hostNetwork ? port.containerPort : undefined);
      if (!hostPort) continue;
      ports.push({ port: hostPort, protocol: port.protocol ?? 'TCP', hostIP: port.hostIP || '0.0.0.0' });
    }
  }
  return ports;
}

/** Same port and protocol, and the addresses overlap (0.0.0.0 overlaps every address). */
export function portsConflict(a: HostPort, b: HostPort): boolean {
  return (
    a.port === b.port &&
    a.protocol === b.protocol &&
    (a.hostIP === b.hostIP || a.hostIP === '0.0.0.0' || b.hostIP === '0.0.0.0')
  );
}

export function formatHostPort(port: HostPort): string {
  return `hostPort ${port.port}/${port.protocol}${port.hostIP === '0.0.0.0' ? '' : ` on ${port.hostIP}`}`;
}

/** Label selector semantics: an empty selector matches everything. */
export function matchesLabelSelector(labels: Record<string, string>, selector: LabelSelector): boolean {
  const matchLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return matchLabels && (selector.matchExpressions ?? []).every((req) => matchesRequirement(labels, req));
}

/**
 * The affinity term selects the pod: its namespace is in the term's namespaces (the
 * owner's namespace when none are listed) and its labels match. A term without a
 * labelSelector selects nothing, as in the scheduler.
 */
export function termSelectsPod(term: PodAffinityTerm, ownerNamespace: string | undefined, pod: Pod): boolean {
  if (!term.labelSelector) return false;
  const namespaces = term.namespaces && term.namespaces.length > 0 ? term.namespaces : [ownerNamespace];
  if (!namespaces.includes(pod.metadata.namespace)) return false;
  return matchesLabelSelector(pod.metadata.labels ?? {}, term.labelSelector);
}

export function requiredAntiAffinity(spec: PodSpec): PodAffinityTerm[] {
  return spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
}

/** Claim names the pod mounts. */
export function claimNames(spec: PodSpec): string[] {
  return (spec.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
  );
}
