/**
 * What the API server does to apps/v1 StatefulSets and DaemonSets on every write:
 * defaulting (pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet and
 * SetDefaults_DaemonSet), the registry strategies' field handling
 * (pkg/registry/apps/statefulset/strategy.go dropStatefulSetDisabledFields,
 * pkg/registry/apps/daemonset/strategy.go PrepareForCreate/PrepareForUpdate and the
 * templateGeneration kept in the `deprecated.daemonset.template.generation` annotation)
 * and the validation rules a rollout fix can trip (pkg/apis/apps/validation).
 */
import type { LabelSelector } from '../src/diagnosis/k8s.js';
import { canonicalJson } from './controllers/rollout-math.js';
import { matchesLabels, requirementsOf } from './selectors.js';
import type { SimObject } from './store.js';

type Json = Record<string, unknown>;
type Cause = { field: string; message: string };

/**
 * The MaxUnavailableStatefulSet feature gate at the version the simulator reports
 * (v1.34.1): alpha, off by default (pkg/features/kube_features.go: 1.24 alpha, 1.35 beta
 * on). Off, the API server drops `rollingUpdate.maxUnavailable` unless the stored
 * object already uses it, and the controller replaces one pod at a time.
 */
export const MAX_UNAVAILABLE_STATEFULSET = false;

export const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

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

/** SetDefaults_StatefulSet (StatefulSetAutoDeletePVC is GA since 1.32, so the retention policy is defaulted). */
export function defaultStatefulSet(spec: Json): void {
  spec['podManagementPolicy'] ??= 'OrderedReady';
  const strategy = ensure(spec, 'updateStrategy');
  if (strategy['type'] === undefined || strategy['type'] === '') {
    strategy['type'] = 'RollingUpdate';
    strategy['rollingUpdate'] ??= {};
  }
  const ru = obj(strategy['rollingUpdate']);
  if (strategy['type'] === 'RollingUpdate' && ru) {
    ru['partition'] ??= 0;
    if (MAX_UNAVAILABLE_STATEFULSET) ru['maxUnavailable'] ??= 1;
  }
  const retention = ensure(spec, 'persistentVolumeClaimRetentionPolicy');
  retention['whenDeleted'] ??= 'Retain';
  retention['whenScaled'] ??= 'Retain';
  spec['replicas'] ??= 1;
  spec['revisionHistoryLimit'] ??= 10;
  // Not a default but the wire form: serviceName has no omitempty, so it is always served.
  spec['serviceName'] ??= '';
  const templates = spec['volumeClaimTemplates'];
  if (Array.isArray(templates)) {
    for (const t of templates as Json[]) {
      // The embedded claims are defaulted as PersistentVolumeClaims (core/v1 defaults).
      t['apiVersion'] ??= 'v1';
      t['kind'] ??= 'PersistentVolumeClaim';
      ensure(t, 'spec')['volumeMode'] ??= 'Filesystem';
      ensure(t, 'status')['phase'] ??= 'Pending';
    }
  }
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0. */
export function defaultDaemonSet(spec: Json): void {
  const strategy = ensure(spec, 'updateStrategy');
  if (strategy['type'] === undefined || strategy['type'] === '') strategy['type'] = 'RollingUpdate';
  if (strategy['type'] === 'RollingUpdate') {
    const ru = ensure(strategy, 'rollingUpdate');
    ru['maxUnavailable'] ??= 1;
    ru['maxSurge'] ??= 0;
  }
  spec['revisionHistoryLimit'] ??= 10;
}

/**
 * The registry strategies' create/update handling: a StatefulSet loses maxUnavailable
 * while the gate is off and the old object did not use it; a DaemonSet's template
 * generation starts at 1 and grows by one with every template change, whatever the
 * request said.
 */
export function prepareWorkload(o: SimObject, old: SimObject | undefined): void {
  const spec = obj(o['spec']);
  if (!spec) return;
  if (o.kind === 'StatefulSet' && !MAX_UNAVAILABLE_STATEFULSET) {
    const oldRu = obj(obj(obj(old?.['spec'])?.['updateStrategy'])?.['rollingUpdate']);
    const ru = obj(obj(spec['updateStrategy'])?.['rollingUpdate']);
    if (ru && oldRu?.['maxUnavailable'] === undefined) delete ru['maxUnavailable'];
  }
  if (o.kind === 'DaemonSet') {
    const annotations = (o.metadata.annotations ??= {});
    if (!old) {
      const given = Number(annotations[TEMPLATE_GENERATION] ?? '0');
      annotations[TEMPLATE_GENERATION] = String(Number.isInteger(given) && given >= 1 ? given : 1);
      return;
    }
    const before = Number(old.metadata.annotations?.[TEMPLATE_GENERATION] ?? '1') || 1;
    const changed = canonicalJson(obj(old['spec'])?.['template']) !== canonicalJson(spec['template']);
    annotations[TEMPLATE_GENERATION] = String(changed ? before + 1 : before);
  }
}

function isZero(v: unknown): boolean {
  return v === undefined || v === 0 || v === '0%' || v === '0';
}

function validIntOrPercent(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0;
  return typeof v === 'string' && /^\d+%$/.test(v);
}

/** field.Error's rendering of an IntOrString: a string quoted, a number bare. */
function shown(v: unknown): string {
  return JSON.stringify(v ?? 0);
}

function intOrPercentCauses(path: string, v: unknown): Cause[] {
  if (v === undefined || validIntOrPercent(v)) {
    if (typeof v === 'string' && Number(v.slice(0, -1)) > 100)
      return [{ field: path, message: `Invalid value: ${shown(v)}: must not be greater than 100%` }];
    return [];
  }
  if (typeof v === 'number')
    return [{ field: path, message: `Invalid value: ${shown(v)}: must be greater than or equal to 0` }];
  return [
    {
      field: path,
      message: `Invalid value: ${shown(v)}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    },
  ];
}

function selectorCauses(spec: Json, kind: string, noun: string): Cause[] {
  const selector = obj(spec['selector']) as LabelSelector | undefined;
  const labels = obj(obj(obj(spec['template'])?.['metadata'])?.['labels']) as
    Record<string, string> | undefined;
  const reqs = requirementsOf(selector);
  if (reqs.length === 0)
    return [{ field: 'spec.selector', message: `Invalid value: {}: empty selector is invalid for ${noun}` }];
  if (matchesLabels(reqs, labels)) return [];
  // ValidatePodTemplateSpecForStatefulSet quotes the words; ValidateDaemonSetSpec does not.
  const detail =
    kind === 'StatefulSet'
      ? '`selector` does not match template `labels`'
      : 'selector does not match template labels';
  return [
    {
      field: 'spec.template.metadata.labels',
      message: `Invalid value: ${JSON.stringify(labels ?? {})}: ${detail}`,
    },
  ];
}

/** ValidateRollingUpdateDaemonSet: exactly one of maxSurge and maxUnavailable is non-zero. */
function daemonSetStrategyCauses(spec: Json): Cause[] {
  const strategy = obj(spec['updateStrategy']) ?? {};
  const type = strategy['type'];
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate')
    return [
      {
        field: 'spec.updateStrategy',
        message: `Unsupported value: ${JSON.stringify(strategy)}: supported values: "RollingUpdate", "OnDelete"`,
      },
    ];
  const ru = obj(strategy['rollingUpdate']) ?? {};
  const path = 'spec.updateStrategy.rollingUpdate';
  const causes = [
    ...intOrPercentCauses(`${path}.maxUnavailable`, ru['maxUnavailable']),
    ...intOrPercentCauses(`${path}.maxSurge`, ru['maxSurge']),
  ];
  const unavailable = !isZero(ru['maxUnavailable']);
  const surge = !isZero(ru['maxSurge']);
  if (unavailable && surge)
    causes.push({
      field: `${path}.maxSurge`,
      message: `Invalid value: ${shown(ru['maxSurge'])}: may not be set when maxUnavailable is non-zero`,
    });
  if (!unavailable && !surge)
    causes.push({
      field: `${path}.maxUnavailable`,
      message: 'Required value: cannot be 0 when maxSurge is 0',
    });
  return causes;
}

const STATEFULSET_MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

function statefulSetCauses(spec: Json, old: SimObject | undefined): Cause[] {
  const causes: Cause[] = [];
  const replicas = spec['replicas'];
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    causes.push({
      field: 'spec.replicas',
      message: `Invalid value: ${String(replicas)}: must be greater than or equal to 0`,
    });
  const strategy = obj(spec['updateStrategy']) ?? {};
  const ru = obj(strategy['rollingUpdate']);
  if (strategy['type'] === 'OnDelete' && ru) {
    causes.push({
      field: 'spec.updateStrategy.rollingUpdate',
      message: `Invalid value: ${JSON.stringify(ru)}: only allowed for updateStrategy 'RollingUpdate'`,
    });
  } else if (strategy['type'] !== 'OnDelete' && strategy['type'] !== 'RollingUpdate') {
    causes.push({
      field: 'spec.updateStrategy.type',
      message: `Unsupported value: ${JSON.stringify(strategy['type'])}: supported values: "OnDelete", "RollingUpdate"`,
    });
  }
  const partition = ru?.['partition'];
  if (typeof partition === 'number' && partition < 0)
    causes.push({
      field: 'spec.updateStrategy.rollingUpdate.partition',
      message: `Invalid value: ${partition}: must be greater than or equal to 0`,
    });
  if (ru && ru['maxUnavailable'] !== undefined) {
    causes.push(
      ...intOrPercentCauses('spec.updateStrategy.rollingUpdate.maxUnavailable', ru['maxUnavailable']),
    );
    if (isZero(ru['maxUnavailable']))
      causes.push({
        field: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
        message: `Invalid value: ${shown(ru['maxUnavailable'])}: cannot be 0`,
      });
  }
  const policy = spec['podManagementPolicy'];
  if (policy !== 'OrderedReady' && policy !== 'Parallel')
    causes.push({
      field: 'spec.podManagementPolicy',
      message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "OrderedReady", "Parallel"`,
    });
  const oldSpec = obj(old?.['spec']);
  if (oldSpec) {
    // ValidateStatefulSetUpdate: everything but these fields is immutable.
    const rest = (s: Json): string =>
      canonicalJson(Object.fromEntries(Object.entries(s).filter(([k]) => !STATEFULSET_MUTABLE.includes(k))));
    if (rest(spec) !== rest(oldSpec))
      causes.push({
        field: 'spec',
        message: `Forbidden: updates to statefulset spec for fields other than ${STATEFULSET_MUTABLE.slice(
          0,
          -1,
        )
          .map((f) => `'${f}'`)
          .join(', ')} and 'minReadySeconds' are forbidden`,
      });
  }
  return causes;
}

/** The validation causes for a StatefulSet or DaemonSet write (none for other kinds). */
export function workloadCauses(o: SimObject, old: SimObject | undefined): Cause[] {
  const spec = obj(o['spec']);
  if (!spec) return [];
  if (o.kind === 'StatefulSet')
    return [...selectorCauses(spec, o.kind, 'statefulset'), ...statefulSetCauses(spec, old)];
  if (o.kind !== 'DaemonSet') return [];
  const causes = [...selectorCauses(spec, o.kind, 'daemonset'), ...daemonSetStrategyCauses(spec)];
  const restart = obj(obj(spec['template'])?.['spec'])?.['restartPolicy'];
  if (restart !== undefined && restart !== 'Always')
    causes.push({
      field: 'spec.template.spec.restartPolicy',
      message: `Unsupported value: ${JSON.stringify(restart)}: supported values: "Always"`,
    });
  const oldSelector = obj(old?.['spec'])?.['selector'];
  if (old && canonicalJson(oldSelector) !== canonicalJson(spec['selector']))
    causes.push({
      field: 'spec.selector',
      message: `Invalid value: ${JSON.stringify(spec['selector'])}: field is immutable`,
    });
  return causes;
}
