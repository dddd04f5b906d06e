/**
 * Large `kubectl get ... -o yaml|json` dumps for the dump-size benchmark: incident A
 * (test/fixtures/dumps/incident-a-gpu-surge.yaml, so the diagnosis has something to
 * find) plus many other Deployments, ReplicaSets, Pods, Events (core/v1 and
 * events.k8s.io/v1) and Nodes, shaped as kubectl prints them, until the file reaches
 * the wanted size. Each object kind is serialised once and then repeated with its
 * index substituted, so writing 100 MB takes a second, not minutes.
 */
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { parse, stringify } from 'yaml';

export type DumpFormat = 'list-yaml' | 'multi-doc-yaml' | 'json';

const FIXTURE = new URL('../../test/fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url);
const I = '@@I@@';

const labels = (app: string) => ({ app, 'app.kubernetes.io/part-of': 'shop', team: 'payments' });
const container = (app: string) => ({
  name: app,
  image: `registry.example.com/shop/${app}:1.${I}.0`,
  ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
  env: [
    { name: 'LOG_LEVEL', value: 'info' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
  ],
  resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '250m', memory: '512Mi' } },
  readinessProbe: {
    httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' },
    periodSeconds: 10,
    timeoutSeconds: 1,
    successThreshold: 1,
    failureThreshold: 3,
  },
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
});

function deployment(): object {
  const app = `svc-${I}`;
  const spec = {
    replicas: 3,
    selector: { matchLabels: { app } },
    template: { metadata: { labels: labels(app) }, spec: { containers: [container(app)] } },
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      annotations: {
        'deployment.kubernetes.io/revision': '2',
        'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: app, namespace: 'shop' }, spec })}\n`,
      },
      creationTimestamp: '2026-10-02T09:14:22Z',
      generation: 2,
      labels: labels(app),
      name: app,
      namespace: 'shop',
      resourceVersion: `10${I}`,
      uid: `00000000-0000-4000-8000-d${I}`,
    },
    spec: {
      ...spec,
      progressDeadlineSeconds: 600,
      revisionHistoryLimit: 10,
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
    },
    status: {
      availableReplicas: 3,
      observedGeneration: 2,
      readyReplicas: 3,
      replicas: 3,
      updatedReplicas: 3,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastTransitionTime: '2026-10-02T09:15:01Z',
          lastUpdateTime: '2026-10-02T09:15:01Z',
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "svc-${I}-5d8f7c9b4" has successfully progressed.`,
          lastTransitionTime: '2026-10-02T09:14:22Z',
          lastUpdateTime: '2026-10-02T09:15:01Z',
        },
      ],
    },
  };
}

function replicaSet(): object {
  const app = `svc-${I}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      annotations: {
        'deployment.kubernetes.io/desired-replicas': '3',
        'deployment.kubernetes.io/max-replicas': '4',
        'deployment.kubernetes.io/revision': '2',
      },
      creationTimestamp: '2026-10-02T09:14:22Z',
      generation: 1,
      labels: { ...labels(app), 'pod-template-hash': '5d8f7c9b4' },
      name: `${app}-5d8f7c9b4`,
      namespace: 'shop',
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'Deployment',
          name: app,
          uid: `00000000-0000-4000-8000-d${I}`,
        },
      ],
      resourceVersion: `20${I}`,
      uid: `00000000-0000-4000-8000-r${I}`,
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app, 'pod-template-hash': '5d8f7c9b4' } },
      template: {
        metadata: { labels: { ...labels(app), 'pod-template-hash': '5d8f7c9b4' } },
        spec: { containers: [container(app)] },
      },
    },
    status: {
      availableReplicas: 3,
      fullyLabeledReplicas: 3,
      observedGeneration: 1,
      readyReplicas: 3,
      replicas: 3,
    },
  };
}

function pod(): object {
  const app = `svc-${I}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      creationTimestamp: '2026-10-02T09:14:23Z',
      generateName: `${app}-5d8f7c9b4-`,
      labels: { ...labels(app), 'pod-template-hash': '5d8f7c9b4' },
      name: `${app}-5d8f7c9b4-x${I}`,
      namespace: 'shop',
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'ReplicaSet',
          name: `${app}-5d8f7c9b4`,
          uid: `00000000-0000-4000-8000-r${I}`,
        },
      ],
      resourceVersion: `30${I}`,
      uid: `00000000-0000-4000-8000-p${I}`,
    },
    spec: {
      containers: [
        {
          ...container(app),
          volumeMounts: [
            {
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              name: `kube-api-access-${I}`,
              readOnly: true,
            },
          ],
        },
      ],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      nodeName: `node-${I}`,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        {
          effect: 'NoExecute',
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          tolerationSeconds: 300,
        },
        {
          effect: 'NoExecute',
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          tolerationSeconds: 300,
        },
      ],
      volumes: [
        {
          name: `kube-api-access-${I}`,
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            ],
          },
        },
      ],
    },
    status: {
      conditions: [
        'PodReadyToStartContainers',
        'Initialized',
        'Ready',
        'ContainersReady',
        'PodScheduled',
      ].map((type) => ({
        type,
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: '2026-10-02T09:14:30Z',
      })),
      containerStatuses: [
        {
          containerID: `containerd://${I}`,
          image: `registry.example.com/shop/${app}:1.${I}.0`,
          imageID: `registry.example.com/shop/${app}@sha256:${I}`,
          lastState: {},
          name: app,
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: '2026-10-02T09:14:29Z' } },
        },
      ],
      hostIP: '10.0.0.1',
      phase: 'Running',
      podIP: '10.1.0.1',
      qosClass: 'Burstable',
      startTime: '2026-10-02T09:14:23Z',
    },
  };
}

function coreEvent(): object {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    count: 1,
    firstTimestamp: '2026-11-22T01:00:00Z',
    lastTimestamp: '2026-11-22T01:00:00Z',
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      name: `svc-${I}-5d8f7c9b4-x${I}`,
      namespace: 'shop',
      resourceVersion: `30${I}`,
      uid: `00000000-0000-4000-8000-p${I}`,
    },
    message: `Successfully pulled image "registry.example.com/shop/svc-${I}:1.${I}.0" in 1.2s (1.2s including waiting)`,
    metadata: {
      creationTimestamp: '2026-11-22T01:00:00Z',
      name: `svc-${I}-5d8f7c9b4-x${I}.18a2b3c4d5e6f7${I}`,
      namespace: 'shop',
      resourceVersion: `40${I}`,
      uid: `00000000-0000-4000-8000-e${I}`,
    },
    reason: 'Pulled',
    reportingComponent: 'kubelet',
    reportingInstance: `node-${I}`,
    source: { component: 'kubelet', host: `node-${I}` },
    type: 'Normal',
  };
}

function eventsV1(): object {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    eventTime: null,
    deprecatedCount: 1,
    deprecatedFirstTimestamp: '2026-11-22T01:00:00Z',
    deprecatedLastTimestamp: '2026-11-22T01:00:00Z',
    deprecatedSource: { component: 'deployment-controller' },
    metadata: {
      creationTimestamp: '2026-11-22T01:00:00Z',
      name: `svc-${I}.28a2b3c4d5e6f7${I}`,
      namespace: 'shop',
      resourceVersion: `50${I}`,
      uid: `00000000-0000-4000-8000-f${I}`,
    },
    note: `Scaled up replica set svc-${I}-5d8f7c9b4 from 0 to 3`,
    reason: 'ScalingReplicaSet',
    regarding: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: `svc-${I}`,
      namespace: 'shop',
      resourceVersion: `10${I}`,
      uid: `00000000-0000-4000-8000-d${I}`,
    },
    reportingController: 'deployment-controller',
    reportingInstance: '',
    type: 'Normal',
  };
}

function node(): object {
  const name = `node-${I}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      creationTimestamp: '2026-09-01T00:00:00Z',
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'm6i.2xlarge',
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': 'eu-west-1a',
      },
      name,
      resourceVersion: `60${I}`,
      uid: `00000000-0000-4000-8000-n${I}`,
    },
    spec: { podCIDR: '10.1.0.0/24', providerID: `aws:///eu-west-1a/i-${I}` },
    status: {
      addresses: [
        { address: '10.0.0.1', type: 'InternalIP' },
        { address: name, type: 'Hostname' },
      ],
      allocatable: { cpu: '7910m', 'ephemeral-storage': '95500736762', memory: '31482416Ki', pods: '110' },
      capacity: { cpu: '8', 'ephemeral-storage': '104322028Ki', memory: '32500272Ki', pods: '110' },
      conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure']
        .map((type) => ({
          type,
          status: 'False',
          reason: `KubeletHasNo${type}`,
          message: `kubelet has no ${type}`,
          lastHeartbeatTime: '2026-11-22T01:00:00Z',
          lastTransitionTime: '2026-09-01T00:00:00Z',
        }))
        .concat([
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: '2026-11-22T01:00:00Z',
            lastTransitionTime: '2026-09-01T00:00:00Z',
          },
        ]),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: Array.from({ length: 12 }, (_, k) => ({
        names: [
          `registry.example.com/shop/svc-${k}@sha256:${I}${k}`,
          `registry.example.com/shop/svc-${k}:1.${k}.0`,
        ],
        sizeBytes: 123456789 + k,
      })),
      nodeInfo: {
        architecture: 'amd64',
        bootID: `b-${I}`,
        containerRuntimeVersion: 'containerd://1.7.22',
        kernelVersion: '6.1.109-118.189.amzn2023.x86_64',
        kubeProxyVersion: 'v1.34.1',
        kubeletVersion: 'v1.34.1',
        machineID: `m-${I}`,
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023.6.20241010',
        systemUUID: `s-${I}`,
      },
    },
  };
}

/** One "unit" of noise: a Deployment with its ReplicaSet, 3 Pods, 4 Events and a Node. */
const UNIT = [
  deployment(),
  replicaSet(),
  pod(),
  pod(),
  pod(),
  coreEvent(),
  coreEvent(),
  eventsV1(),
  eventsV1(),
  node(),
];

/** kubectl's YAML for one object as an item of `items:` (go-yaml prints `- ` at column 0). */
function yamlItem(object: unknown): string {
  const text = stringify(object, { lineWidth: 0 });
  return text
    .trimEnd()
    .split('\n')
    .map((line, n) => (n === 0 ? `- ${line}` : line === '' ? line : `  ${line}`))
    .join('\n')
    .concat('\n');
}

function templates(format: DumpFormat, objects: readonly unknown[]): string[] {
  switch (format) {
    case 'list-yaml':
      return objects.map(yamlItem);
    case 'multi-doc-yaml':
      return objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`);
    case 'json':
      return objects.map((o) => `,\n${JSON.stringify(o, null, 4).replace(/^/gm, '        ')}`);
  }
}

/**
 * Writes a dump of about `bytes` bytes to `file` and returns its size and object count.
 * @example await writeDump('/tmp/d.yaml', 'list-yaml', 10 * 2 ** 20)
 */
export async function writeDump(
  file: string,
  format: DumpFormat,
  bytes: number,
): Promise<{ bytes: number; objects: number }> {
  const fixture = parse(await readFile(FIXTURE, 'utf8')) as { items: unknown[] };
  const out = createWriteStream(file);
  let written = 0;
  let objects = 0;
  const write = async (text: string): Promise<void> => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  const head = {
    'list-yaml': 'apiVersion: v1\nitems:\n',
    'multi-doc-yaml': '',
    json: '{\n    "apiVersion": "v1",\n    "items": [\n',
  }[format];
  await write(head);
  const [first = '', ...rest] = templates(format, fixture.items);
  await write(format === 'json' ? first.slice(2) : first);
  for (const text of rest) await write(text);
  objects += fixture.items.length;
  const unit = templates(format, UNIT);
  const tail = {
    'list-yaml': 'kind: List\nmetadata:\n  resourceVersion: ""\n',
    'multi-doc-yaml': '',
    json: '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
  }[format];
  for (let i = 1; written + tail.length < bytes; i += 1) {
    let chunk = '';
    for (const text of unit) chunk += text.replaceAll(I, String(i));
    await write(chunk);
    objects += unit.length;
  }
  await write(tail);
  out.end();
  await once(out, 'finish');
  return { bytes: written, objects };
}
