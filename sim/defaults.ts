/**
 * What the API server does to an object on every write: fill defaults (on create
 * and update alike, like the real decoder), validate the fields rollout-doctor's
 * patches touch, and keep generation in step with spec changes.
 */
import { simNow, simRandom, simUid } from './clock.js';
import type { ResourceType } from './resources.js';
import { apiVersionOf } from './resources.js';
import type { SimObject } from './store.js';
import { invalid } from './errors.js';
import { matchesLabels, requirementsOf } from './selectors.js';
import { resourceRequirementCauses } from './admission/resource-requirements.js';
import type { LabelSelector } from '../src/diagnosis/k8s.js';
import {
  defaultDaemonSet,
  defaultStatefulSet,
  prepareWorkload,
  workloadCauses,
} from './workload-defaults.js';
import {
  defaultWebhookConfiguration,
  KIND as WEBHOOK_CONFIGURATION,
  webhookConfigurationCauses,
} from './webhooks/config.js';

type Json = Record<string, unknown>;

const GENERATION_KINDS = new Set([
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'DeviceClass',
  'DeviceTaintRule',
  'Rollout',
]);

const DEVICE_TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'None'];

/**
 * DeviceTaintRule's taint.timeAdded: set at create or update when missing, and to now
 * when an update changes the effect but keeps the old time (pkg/registry/resource/devicetaintrule).
 */
function stampTimeAdded(o: SimObject, old?: SimObject): void {
  if (o.kind !== 'DeviceTaintRule') return;
  const taint = obj(obj(o['spec'])?.['taint']);
  if (!taint) return;
  const before = old ? obj(obj(old['spec'])?.['taint']) : undefined;
  const effectChanged = before !== undefined && before['effect'] !== taint['effect'];
  if (taint['timeAdded'] === undefined || (effectChanged && taint['timeAdded'] === before['timeAdded']))
    taint['timeAdded'] = nowRfc3339();
}

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function ensure(parent: Json, key: string): Json {
  const existing = obj(parent[key]);
  if (existing) return existing;
  const created: Json = {};
  parent[key] = created;
  return created;
}

/** RFC 3339 with seconds precision, as the API server writes timestamps. */
export function nowRfc3339(date = new Date(simNow())): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function defaultPodSpec(spec: Json): void {
  spec['restartPolicy'] ??= 'Always';
  spec['terminationGracePeriodSeconds'] ??= 30;
  spec['dnsPolicy'] ??= 'ClusterFirst';
  spec['schedulerName'] ??= 'default-scheduler';
  spec['securityContext'] ??= {};
  for (const list of ['containers', 'initContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const c of containers as Json[]) {
      c['terminationMessagePath'] ??= '/dev/termination-log';
      c['terminationMessagePolicy'] ??= 'File';
      const image = typeof c['image'] === 'string' ? c['image'] : '';
      c['imagePullPolicy'] ??= image.endsWith(':latest') || !image.includes(':') ? 'Always' : 'IfNotPresent';
      const resources = ensure(c, 'resources');
      // Requests default to limits when only limits are given (API server defaulting).
      const limits = obj(resources['limits']);
      if (limits) {
        const requests = ensure(resources, 'requests');
        for (const [k, v] of Object.entries(limits)) requests[k] ??= v;
      }
      const ports = c['ports'];
      if (Array.isArray(ports)) for (const p of ports as Json[]) p['protocol'] ??= 'TCP';
      for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        const probe = obj(c[kind]);
        if (probe) defaultProbe(probe);
      }
    }
  }
}

/** SetDefaults_Probe, SetDefaults_HTTPGetAction and SetDefaults_GRPCAction (k8s.io/kubernetes pkg/apis/core/v1/defaults.go). */
function defaultProbe(probe: Json): void {
  probe['timeoutSeconds'] ??= 1;
  probe['periodSeconds'] ??= 10;
  probe['successThreshold'] ??= 1;
  probe['failureThreshold'] ??= 3;
  const http = obj(probe['httpGet']);
  if (http) {
    if (http['path'] === undefined || http['path'] === '') http['path'] = '/';
    http['scheme'] ??= 'HTTP';
  }
  // SetDefaults_GRPCAction: kubectl describe dereferences the service.
  const grpc = obj(probe['grpc']);
  if (grpc) grpc['service'] ??= '';
}

function defaultDeployment(spec: Json): void {
  spec['replicas'] ??= 1;
  spec['revisionHistoryLimit'] ??= 10;
  spec['progressDeadlineSeconds'] ??= 600;
  const strategy = ensure(spec, 'strategy');
  strategy['type'] ??= 'RollingUpdate';
  if (strategy['type'] === 'RollingUpdate') {
    const ru = ensure(strategy, 'rollingUpdate');
    ru['maxSurge'] ??= '25%';
    ru['maxUnavailable'] ??= '25%';
  }
  const template = ensure(spec, 'template');
  defaultPodSpec(ensure(template, 'spec'));
}

function qosClass(spec: Json): string {
  const containers = Array.isArray(spec['containers']) ? (spec['containers'] as Json[]) : [];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const resources = obj(c['resources']) ?? {};
    const requests = obj(resources['requests']) ?? {};
    const limits = obj(resources['limits']) ?? {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined || String(limits[r]) !== String(requests[r] ?? limits[r]))
        guaranteed = false;
    }
  }
  return guaranteed ? 'Guaranteed' : any ? 'Burstable' : 'BestEffort';
}

/** Applies API-server defaulting for the object's kind, in place. */
export function applyDefaults(o: SimObject): void {
  const spec = obj(o['spec']);
  if (o.kind === 'Deployment' && spec) defaultDeployment(spec);
  if (o.kind === 'ReplicaSet' && spec) {
    spec['replicas'] ??= 1;
    const template = obj(spec['template']);
    const tspec = template && obj(template['spec']);
    if (tspec) defaultPodSpec(tspec);
  }
  if (o.kind === 'Pod' && spec) {
    defaultPodSpec(spec);
    spec['priority'] ??= 0;
    const status = ensure(o, 'status');
    status['phase'] ??= 'Pending';
    status['qosClass'] ??= qosClass(spec);
  }
  if (o.kind === 'PersistentVolumeClaim' && spec) spec['volumeMode'] ??= 'Filesystem';
  if ((o.kind === 'StatefulSet' || o.kind === 'DaemonSet') && spec) {
    if (o.kind === 'StatefulSet') defaultStatefulSet(spec);
    else defaultDaemonSet(spec);
    const template = ensure(spec, 'template');
    defaultPodSpec(ensure(template, 'spec'));
  }
  if (o.kind === 'LimitRange' && spec) defaultLimitRange(spec);
  if (o.kind === WEBHOOK_CONFIGURATION) defaultWebhookConfiguration(o);
}

/**
 * SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults.go), for type Container: the
 * default limit falls back to max, the default request to the default limit, then to min.
 */
function defaultLimitRange(spec: Json): void {
  for (const item of Array.isArray(spec['limits']) ? (spec['limits'] as Json[]) : []) {
    if (item['type'] !== 'Container') continue;
    const limits: Json = { ...obj(item['default']) };
    const requests: Json = { ...obj(item['defaultRequest']) };
    for (const [k, v] of Object.entries(obj(item['max']) ?? {})) limits[k] ??= v;
    for (const [k, v] of Object.entries(limits)) requests[k] ??= v;
    for (const [k, v] of Object.entries(obj(item['min']) ?? {})) requests[k] ??= v;
    // Empty lists stay out, as omitempty drops them.
    if (Object.keys(limits).length > 0) item['default'] = limits;
    if (Object.keys(requests).length > 0) item['defaultRequest'] = requests;
  }
}

function intOrPercentIsZero(v: unknown): boolean {
  return v === 0 || v === '0' || v === '0%';
}

function validIntOrPercent(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0;
  return typeof v === 'string' && /^\d+%$/.test(v);
}

/** Returns 422 errors for the invalid states a patch could produce in the fields we touch. */
export function validate(rt: ResourceType, o: SimObject, old: SimObject | undefined): void {
  const name = o.metadata.name;
  const causes: { field: string; message: string }[] = [];
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || name.length > 253) {
    causes.push({
      field: 'metadata.name',
      message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
    });
  }
  const spec = obj(o['spec']);
  if (o.kind === 'Deployment' && spec) {
    const strategy = obj(spec['strategy']) ?? {};
    const ru = obj(strategy['rollingUpdate']);
    if (strategy['type'] === 'Recreate' && ru) {
      causes.push({
        field: 'spec.strategy.rollingUpdate',
        message: "Forbidden: may not be specified when strategy `type` is 'Recreate'",
      });
    } else if (strategy['type'] !== 'Recreate' && strategy['type'] !== 'RollingUpdate') {
      causes.push({
        field: 'spec.strategy.type',
        message: `Unsupported value: "${String(strategy['type'])}": supported values: "Recreate", "RollingUpdate"`,
      });
    }
    if (ru) {
      for (const f of ['maxSurge', 'maxUnavailable']) {
        if (!validIntOrPercent(ru[f])) {
          causes.push({
            field: `spec.strategy.rollingUpdate.${f}`,
            message: `Invalid value: ${JSON.stringify(ru[f])}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
          });
        }
      }
      if (intOrPercentIsZero(ru['maxSurge']) && intOrPercentIsZero(ru['maxUnavailable'])) {
        causes.push({
          field: 'spec.strategy.rollingUpdate.maxUnavailable',
          message: `Invalid value: ${typeof ru['maxUnavailable'] === 'string' ? `"${ru['maxUnavailable']}"` : String(ru['maxUnavailable'])}: may not be 0 when \`maxSurge\` is 0`,
        });
      }
    }
    const replicas = spec['replicas'];
    if (typeof replicas !== 'number' || replicas < 0 || !Number.isInteger(replicas)) {
      causes.push({
        field: 'spec.replicas',
        message: `Invalid value: ${String(replicas)}: must be greater than or equal to 0`,
      });
    }
  }
  if ((o.kind === 'Deployment' || o.kind === 'ReplicaSet') && spec) {
    const selector = obj(spec['selector']) as LabelSelector | undefined;
    const template = obj(spec['template']);
    const labels = obj(obj(template?.['metadata'])?.['labels']) as Record<string, string> | undefined;
    const reqs = requirementsOf(selector);
    if (reqs.length === 0) {
      causes.push({
        field: 'spec.selector',
        message: 'Invalid value: {}: empty selector is invalid for deployment',
      });
    } else if (!matchesLabels(reqs, labels)) {
      causes.push({
        field: 'spec.template.metadata.labels',
        message: `Invalid value: ${JSON.stringify(labels ?? {})}: \`selector\` does not match template \`labels\``,
      });
    }
    const oldSpec = old ? obj(old['spec']) : undefined;
    if (oldSpec && JSON.stringify(oldSpec['selector']) !== JSON.stringify(spec['selector'])) {
      causes.push({
        field: 'spec.selector',
        message: `Invalid value: ${JSON.stringify(selector)}: field is immutable`,
      });
    }
  }
  if (o.kind === 'DeviceTaintRule') {
    const taint = obj(spec?.['taint']);
    const effect = taint?.['effect'];
    const oldEffect = old ? obj(obj(old['spec'])?.['taint'])?.['effect'] : undefined;
    if (typeof taint?.['key'] !== 'string' || taint['key'] === '')
      causes.push({ field: 'spec.taint.key', message: 'Required value' });
    if (effect === undefined || effect === '') {
      causes.push({ field: 'spec.taint.effect', message: 'Required value' });
    } else if (!DEVICE_TAINT_EFFECTS.includes(String(effect)) && effect !== oldEffect) {
      // Unknown effects already stored stay valid (the API ratchets them).
      causes.push({
        field: 'spec.taint.effect',
        message: `Unsupported value: ${JSON.stringify(effect)}: supported values: ${DEVICE_TAINT_EFFECTS.map((e) => `"${e}"`).join(', ')}`,
      });
    }
  }
  if (o.kind === 'ResourceClaim' && old && JSON.stringify(o['spec']) !== JSON.stringify(old['spec'])) {
    causes.push({ field: 'spec', message: 'Invalid value: "field is immutable"' });
  }
  causes.push(...workloadCauses(o, old), ...resourceRequirementCauses(o));
  if (o.kind === WEBHOOK_CONFIGURATION) causes.push(...webhookConfigurationCauses(o));
  if (causes.length > 0) throw invalid(rt, name, causes);
}

/**
 * Sets server-owned metadata for a new object: uid, creationTimestamp, generation,
 * apiVersion/kind, and a name from generateName.
 */
export function prepareCreate(rt: ResourceType, o: SimObject): void {
  o.apiVersion = apiVersionOf(rt);
  o.kind = rt.kind;
  const meta = o.metadata;
  meta.uid = simUid();
  meta.creationTimestamp = nowRfc3339();
  if (GENERATION_KINDS.has(rt.kind)) meta.generation = 1;
  delete meta.deletionTimestamp;
  stampTimeAdded(o);
  prepareWorkload(o, undefined);
}

/** Carries server-owned fields across an update and bumps generation on spec change. */
export function prepareUpdate(rt: ResourceType, o: SimObject, old: SimObject): void {
  o.apiVersion = apiVersionOf(rt);
  o.kind = rt.kind;
  o.metadata.uid = old.metadata.uid;
  o.metadata.creationTimestamp = old.metadata.creationTimestamp;
  if (old.metadata.deletionTimestamp) o.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
  if (GENERATION_KINDS.has(rt.kind)) {
    const changed = JSON.stringify(o['spec']) !== JSON.stringify(old['spec']);
    o.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
  }
  stampTimeAdded(o, old);
  prepareWorkload(o, old);
}

/**
 * Name for `metadata.generateName` (5 random lowercase alphanumerics, like the API
 * server; a prefix past 58 characters is cut there, so the name stays within 63).
 */
export function generatedName(prefix: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let suffix = '';
  for (let i = 0; i < 5; i += 1) suffix += alphabet[Math.floor(simRandom() * alphabet.length)] ?? 'x';
  return `${prefix.slice(0, 58)}${suffix}`;
}
