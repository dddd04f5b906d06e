/**
 * Field numbers of the Kubernetes messages the simulator decodes from protobuf: the
 * kinds kubectl's typed `create` generators send that way (kubectl 1.35: `create
 * namespace|secret|configmap|serviceaccount|deployment`) and DeleteOptions, and the messages they hold,
 * reduced to the fields those generators set or may set from their flags. Numbers from
 * k8s.io/api (core/v1, apps/v1) and k8s.io/apimachinery (meta/v1, runtime,
 * util/intstr, api/resource) generated.proto.
 *
 * `ptr` marks a field Go holds as a pointer: present with its zero value means set
 * (`replicas: 0`). Every other zero value is Go's omitempty default and left out.
 */
export type Scalar = 'string' | 'bytes' | 'int' | 'bool' | 'time' | 'quantity' | 'intOrString';
export type FieldType =
  Scalar | { readonly msg: string } | { readonly map: Scalar | { readonly msg: string } } | 'ignore';

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly repeated?: true;
  readonly ptr?: true;
}

type Message = Readonly<Record<number, FieldSpec>>;

const s = (name: string): FieldSpec => ({ name, type: 'string' });
const n = (name: string, ptr?: true): FieldSpec => ({ name, type: 'int', ...(ptr ? { ptr } : {}) });
const b = (name: string, ptr?: true): FieldSpec => ({ name, type: 'bool', ...(ptr ? { ptr } : {}) });
const m = (name: string, msg: string, ptr?: true): FieldSpec => ({
  name,
  type: { msg },
  ...(ptr ? { ptr } : {}),
});
const list = (name: string, type: FieldType): FieldSpec => ({ name, type, repeated: true });
const map = (name: string, value: Scalar | { msg: string }): FieldSpec => ({ name, type: { map: value } });

export const MESSAGES: Readonly<Record<string, Message>> = {
  ObjectMeta: {
    1: s('name'),
    2: s('generateName'),
    3: s('namespace'),
    5: s('uid'),
    6: s('resourceVersion'),
    7: n('generation'),
    8: { name: 'creationTimestamp', type: 'time' },
    10: n('deletionGracePeriodSeconds', true),
    11: map('labels', 'string'),
    12: map('annotations', 'string'),
    13: list('ownerReferences', { msg: 'OwnerReference' }),
    14: list('finalizers', 'string'),
  },
  OwnerReference: {
    1: s('kind'),
    3: s('name'),
    4: s('uid'),
    5: s('apiVersion'),
    6: b('controller', true),
    7: b('blockOwnerDeletion', true),
  },
  Namespace: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'NamespaceSpec'),
    3: { name: 'status', type: 'ignore' },
  },
  NamespaceSpec: { 1: list('finalizers', 'string') },
  Secret: {
    1: m('metadata', 'ObjectMeta'),
    2: map('data', 'bytes'),
    3: s('type'),
    4: map('stringData', 'string'),
    5: b('immutable', true),
  },
  ConfigMap: {
    1: m('metadata', 'ObjectMeta'),
    2: map('data', 'string'),
    3: map('binaryData', 'bytes'),
    4: b('immutable', true),
  },
  ServiceAccount: {
    1: m('metadata', 'ObjectMeta'),
    3: list('imagePullSecrets', { msg: 'LocalObjectReference' }),
    4: b('automountServiceAccountToken', true),
  },
  LocalObjectReference: { 1: s('name') },
  DeleteOptions: {
    1: n('gracePeriodSeconds', true),
    2: m('preconditions', 'Preconditions', true),
    3: b('orphanDependents', true),
    4: s('propagationPolicy'),
    5: list('dryRun', 'string'),
  },
  Preconditions: { 1: s('uid'), 2: s('resourceVersion') },
  Deployment: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'DeploymentSpec'),
    3: { name: 'status', type: 'ignore' },
  },
  DeploymentSpec: {
    1: n('replicas', true),
    2: m('selector', 'LabelSelector', true),
    3: m('template', 'PodTemplateSpec'),
    4: m('strategy', 'DeploymentStrategy'),
    5: n('minReadySeconds'),
    6: n('revisionHistoryLimit', true),
    7: b('paused'),
    9: n('progressDeadlineSeconds', true),
  },
  DeploymentStrategy: { 1: s('type'), 2: m('rollingUpdate', 'RollingUpdateDeployment', true) },
  RollingUpdateDeployment: {
    1: { name: 'maxUnavailable', type: 'intOrString', ptr: true },
    2: { name: 'maxSurge', type: 'intOrString', ptr: true },
  },
  LabelSelector: {
    1: map('matchLabels', 'string'),
    2: list('matchExpressions', { msg: 'LabelSelectorRequirement' }),
  },
  LabelSelectorRequirement: { 1: s('key'), 2: s('operator'), 3: list('values', 'string') },
  PodTemplateSpec: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'PodSpec') },
  PodSpec: {
    2: list('containers', { msg: 'Container' }),
    3: s('restartPolicy'),
    4: n('terminationGracePeriodSeconds', true),
    5: n('activeDeadlineSeconds', true),
    6: s('dnsPolicy'),
    7: map('nodeSelector', 'string'),
    8: s('serviceAccountName'),
    9: s('serviceAccount'),
    10: s('nodeName'),
    11: b('hostNetwork'),
    12: b('hostPID'),
    13: b('hostIPC'),
    15: list('imagePullSecrets', { msg: 'LocalObjectReference' }),
    16: s('hostname'),
    17: s('subdomain'),
    19: s('schedulerName'),
    20: list('initContainers', { msg: 'Container' }),
    21: b('automountServiceAccountToken', true),
    24: s('priorityClassName'),
    30: b('enableServiceLinks', true),
  },
  Container: {
    1: s('name'),
    2: s('image'),
    3: list('command', 'string'),
    4: list('args', 'string'),
    5: s('workingDir'),
    6: list('ports', { msg: 'ContainerPort' }),
    7: list('env', { msg: 'EnvVar' }),
    8: m('resources', 'ResourceRequirements'),
    13: s('terminationMessagePath'),
    14: s('imagePullPolicy'),
    16: b('stdin'),
    17: b('stdinOnce'),
    18: b('tty'),
    20: s('terminationMessagePolicy'),
  },
  ContainerPort: { 1: s('name'), 2: n('hostPort'), 3: n('containerPort'), 4: s('protocol'), 5: s('hostIP') },
  EnvVar: { 1: s('name'), 2: s('value') },
  ResourceRequirements: { 1: map('limits', 'quantity'), 2: map('requests', 'quantity') },
};

/** The message of each kind a protobuf body may carry, by `apiVersion/kind`. */
export const KINDS: Readonly<Record<string, string>> = {
  'v1/Namespace': 'Namespace',
  'v1/Secret': 'Secret',
  'v1/ConfigMap': 'ConfigMap',
  'v1/ServiceAccount': 'ServiceAccount',
  'apps/v1/Deployment': 'Deployment',
  // The body of a DELETE (helm uninstall deletes its release Secret so).
  'v1/DeleteOptions': 'DeleteOptions',
  'meta.k8s.io/v1/DeleteOptions': 'DeleteOptions',
};
