/**
 * Whether a ReplicaSet carries a Rollout's template, as argo-rollouts decides it when
 * the hash does not say (utils/replicaset/replicaset.go FindNewReplicaSet,
 * PodTemplateEqualIgnoreHash). A Rollout is a custom resource: the API server applies no
 * pod defaults to its template, while the ReplicaSet's template holds them all
 * (imagePullPolicy, terminationMessagePath, dnsPolicy, ...). Upstream defaults the
 * Rollout's template (SetObjectDefaults_PodTemplate) before comparing; this drops, from
 * both sides, every field whose value is the one pod defaulting would write
 * (k8s.io/kubernetes pkg/apis/core/v1/defaults.go), and the metadata the controller
 * injects into its ReplicaSets' templates (the canary/stable ephemeral metadata, the
 * anti-affinity against the stable pods). A
 * field set explicitly to its default compares equal to one left out, as after
 * upstream's defaulting. Pure.
 */
import type { PodTemplateSpec } from '../../k8s.js';
import type { ReplicaSet } from '../../k8s-workloads.js';
import type { RolloutAntiAffinity } from '../../k8s-argo.js';
import { semanticEqual } from '../../base/semantic-equal.js';

/** utils/replicaset/canary.go EphemeralMetadataAnnotation: what the controller injected. */
const EPHEMERAL_METADATA = 'rollout.argoproj.io/ephemeral-metadata';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deletes `key` when it holds `value`. */
function dropIf(o: Json, key: string, value: unknown): void {
  if (o[key] === value) delete o[key];
}

function dropEmpty(o: Json, key: string): void {
  const v = o[key];
  if (isObject(v) && Object.keys(v).length === 0) delete o[key];
}

/** SetDefaults_Container: Always for `:latest` or no tag (and no digest), else IfNotPresent. */
function defaultPullPolicy(image: unknown): string {
  if (typeof image !== 'string' || image.includes('@')) return 'IfNotPresent';
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  const tag = colon > slash ? image.slice(colon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function probe(p: unknown): void {
  if (!isObject(p)) return;
  dropIf(p, 'timeoutSeconds', 1);
  dropIf(p, 'periodSeconds', 10);
  dropIf(p, 'successThreshold', 1);
  dropIf(p, 'failureThreshold', 3);
  if (isObject(p.httpGet)) dropIf(p.httpGet, 'scheme', 'HTTP');
}

function container(c: unknown): void {
  if (!isObject(c)) return;
  dropIf(c, 'terminationMessagePath', '/dev/termination-log');
  dropIf(c, 'terminationMessagePolicy', 'File');
  dropIf(c, 'imagePullPolicy', defaultPullPolicy(c.image));
  dropEmpty(c, 'resources');
  for (const port of Array.isArray(c.ports) ? c.ports : [])
    if (isObject(port)) dropIf(port, 'protocol', 'TCP');
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) probe(c[key]);
  for (const env of Array.isArray(c.env) ? c.env : []) {
    const fieldRef = isObject(env) && isObject(env.valueFrom) ? env.valueFrom.fieldRef : undefined;
    if (isObject(fieldRef)) dropIf(fieldRef, 'apiVersion', 'v1');
  }
}

function volume(v: unknown): void {
  if (!isObject(v)) return;
  for (const key of ['configMap', 'secret', 'projected', 'downwardAPI']) {
    const source = v[key];
    if (isObject(source)) dropIf(source, 'defaultMode', 420);
  }
  if (isObject(v.hostPath)) dropIf(v.hostPath, 'type', '');
}

/** The template without the values pod defaulting writes, and without the controller's injected metadata. */
function withoutDefaults(template: PodTemplateSpec, injected?: { labels?: Json; annotations?: Json }): Json {
  const copy = structuredClone(template) as unknown as Json;
  const metadata = isObject(copy.metadata) ? copy.metadata : {};
  delete metadata.creationTimestamp;
  for (const part of ['labels', 'annotations'] as const) {
    const own = metadata[part];
    if (!isObject(own)) continue;
    for (const key of Object.keys(injected?.[part] ?? {})) delete own[key];
  }
  copy.metadata = metadata;
  const spec = isObject(copy.spec) ? copy.spec : {};
  dropIf(spec, 'restartPolicy', 'Always');
  dropIf(spec, 'dnsPolicy', 'ClusterFirst');
  dropIf(spec, 'schedulerName', 'default-scheduler');
  dropIf(spec, 'terminationGracePeriodSeconds', 30);
  dropEmpty(spec, 'securityContext');
  // The deprecated spec.serviceAccount: upstream leaves it out of the comparison (argo-rollouts#1356).
  delete spec.serviceAccount;
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of Array.isArray(spec[key]) ? spec[key] : []) container(c);
  }
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) volume(v);
  copy.spec = spec;
  return copy;
}

/** The labels and annotations the controller injected into the ReplicaSet's template, as it recorded them. */
function injectedMetadata(rs: ReplicaSet): { labels?: Json; annotations?: Json } | undefined {
  const raw = rs.metadata.annotations?.[EPHEMERAL_METADATA];
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed)
      ? {
          ...(isObject(parsed.labels) ? { labels: parsed.labels } : {}),
          ...(isObject(parsed.annotations) ? { annotations: parsed.annotations } : {}),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * RemoveInjectedAntiAffinityRule: with strategy.antiAffinity the controller adds, to the
 * new ReplicaSet's template, a pod anti-affinity term selecting the stable pods by hash
 * label (a preferred one when the strategy prefers, else a required one); the first
 * such term goes, and what it leaves empty with it.
 */
function withoutInjectedAntiAffinity(
  template: Json,
  strategy: RolloutAntiAffinity | undefined,
  hashLabel: string,
): void {
  const spec = isObject(template.spec) ? template.spec : undefined;
  const affinity = spec && isObject(spec.affinity) ? spec.affinity : undefined;
  const anti = affinity && isObject(affinity.podAntiAffinity) ? affinity.podAntiAffinity : undefined;
  if (!strategy || !spec || !affinity || !anti) return;
  const preferred = strategy.preferredDuringSchedulingIgnoredDuringExecution !== undefined;
  const key = preferred
    ? 'preferredDuringSchedulingIgnoredDuringExecution'
    : 'requiredDuringSchedulingIgnoredDuringExecution';
  const terms = Array.isArray(anti[key]) ? (anti[key] as unknown[]) : [];
  const selects = (term: unknown): boolean => {
    const t = preferred && isObject(term) ? term.podAffinityTerm : term;
    const selector = isObject(t) && isObject(t.labelSelector) ? t.labelSelector : undefined;
    const expressions = selector && Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
    return expressions.some((e) => isObject(e) && e.key === hashLabel);
  };
  const at = terms.findIndex(selects);
  if (at < 0) return;
  terms.splice(at, 1);
  if (terms.length === 0) delete anti[key];
  if (Object.keys(anti).length === 0) delete affinity.podAntiAffinity;
  if (Object.keys(affinity).length === 0) delete spec.affinity;
}

/** PodTemplateEqualIgnoreHash: the ReplicaSet's template is the Rollout's once both are defaulted. */
export function carriesTemplate(
  rs: ReplicaSet,
  template: PodTemplateSpec,
  hashLabel: string,
  antiAffinity?: RolloutAntiAffinity,
): boolean {
  if (!rs.spec.template) return false;
  const live = withoutDefaults(rs.spec.template, injectedMetadata(rs));
  withoutInjectedAntiAffinity(live, antiAffinity, hashLabel);
  const desired = withoutDefaults(template);
  for (const t of [live, desired]) {
    const labels = isObject(t.metadata) && isObject(t.metadata.labels) ? t.metadata.labels : undefined;
    if (labels) delete labels[hashLabel];
  }
  return semanticEqual(live, desired);
}
