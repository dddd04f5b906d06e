/**
 * deploy/admission-policy.yaml (rendered from the chart's admission-policy.yaml), evaluated: the ValidatingAdmissionPolicy lets
 * the worker's service account change exactly what the remediation kinds change and
 * nothing else, and delete only ReplicaSet-controlled pods. CEL runs here on
 * @marcbachmann/cel-js; the expressions use only has(), ==, in, all and exists, which
 * behave the same in Kubernetes' cel-go.
 */
import { V1DeploymentSpec, V1StatefulSetSpec, V1DaemonSetSpec, V1PodSpec } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { excludeNodeFromAffinity } from '../../src/remediation/affinity-merge.js';
import { MAX_SCALE_BACK_REPLICAS } from '../../src/remediation/patch-allowlist.js';
import {
  DEVICE_TAINT_KEY,
  DEVICE_TAINT_VALUE,
  deviceTaintRuleBody,
  deviceTaintRuleName,
} from '../../src/remediation/device-taint.js';
import { denials, env, policy, POLICY_FILE as FILE, WORKER } from '../support/admission-eval.js';

type Deployment = {
  kind?: string;
  metadata: Record<string, unknown>;
  spec: { template: { metadata: Record<string, unknown>; spec: Record<string, unknown> } } & Record<
    string,
    unknown
  >;
};
function deployment(): Deployment {
  return {
    kind: 'Deployment',
    metadata: {
      name: 'tracker',
      namespace: 'vision',
      labels: { app: 'tracker' },
      annotations: { team: 'cv' },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'tracker' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'tracker' }, annotations: { 'prometheus.io/scrape': 'true' } },
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-1' },
          containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.0' }],
          affinity: {
            podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] },
          },
        },
      },
    },
  };
}

function changed(edit: (d: Deployment) => void): Deployment {
  const d = deployment();
  edit(d);
  return d;
}

/** The seed node agent as the API server stores it: a DaemonSet has updateStrategy, no replicas or strategy. */
function daemonSet(): Deployment {
  const d = deployment();
  delete d.spec['replicas'];
  delete d.spec['strategy'];
  delete d.spec['progressDeadlineSeconds'];
  d.spec['updateStrategy'] = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
  d.kind = 'DaemonSet';
  return d;
}

describe(`${FILE}: StatefulSets (the same policy)`, () => {
  const p = policy('rollout-doctor-worker-deployments');
  const sts = (): Deployment => {
    const d = deployment();
    delete d.spec['strategy'];
    delete d.spec['progressDeadlineSeconds'];
    d.spec['serviceName'] = 'ledger';
    d.spec['podManagementPolicy'] = 'OrderedReady';
    d.spec['updateStrategy'] = { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
    d.spec['persistentVolumeClaimRetentionPolicy'] = { whenDeleted: 'Retain', whenScaled: 'Retain' };
    d.kind = 'StatefulSet';
    return d;
  };
  const edited = (edit: (d: Deployment) => void): Deployment => {
    const d = sts();
    edit(d);
    return d;
  };

  it('admits the node exclusion and a restart', () => {
    expect(
      denials(
        p,
        edited(
          (d) =>
            (d.spec.template.spec.affinity = excludeNodeFromAffinity(
              d.spec.template.spec.affinity as never,
              'node-b',
            )),
        ),
        sts(),
      ),
    ).toEqual([]);
    expect(
      denials(
        p,
        edited(
          (d) =>
            (d.spec.template.metadata.annotations = {
              ...(d.spec.template.metadata.annotations as object),
              'kubectl.kubernetes.io/restartedAt': 'now',
            }),
        ),
        sts(),
      ),
    ).toEqual([]);
  });

  it.each<[string, (d: Deployment) => void]>([
    [
      'the claim retention policy',
      (d) =>
        (d.spec['persistentVolumeClaimRetentionPolicy'] = { whenDeleted: 'Delete', whenScaled: 'Delete' }),
    ],
    ['the ordinals', (d) => (d.spec['ordinals'] = { start: 5 })],
    ['the replicas', (d) => (d.spec['replicas'] = 0)],
  ])('denies a change of %s', (_what, edit) => {
    expect(denials(p, edited(edit), sts())).not.toEqual([]);
  });
});

describe(`${FILE}: DaemonSets (the same policy)`, () => {
  const p = policy('rollout-doctor-worker-deployments');
  const edited = (edit: (d: Deployment) => void): Deployment => {
    const d = daemonSet();
    edit(d);
    return d;
  };

  it.each<[string, (d: Deployment) => void]>([
    [
      'set-rolling-update on spec.updateStrategy',
      (d) =>
        (d.spec['updateStrategy'] = {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
        }),
    ],
    [
      'exclude-node',
      (d) =>
        (d.spec.template.spec.affinity = excludeNodeFromAffinity(
          d.spec.template.spec.affinity as never,
          'node-a',
        )),
    ],
  ])('admits %s', (_kind, edit) => {
    expect(denials(p, edited(edit), daemonSet())).toEqual([]);
  });

  it.each<[string, (d: Deployment) => void]>([
    ['the image', (d) => (d.spec.template.spec.containers = [{ name: 'agent', image: 'evil/miner:1' }])],
    ['the selector', (d) => (d.spec.selector = { matchLabels: { app: 'other' } })],
    ['minReadySeconds', (d) => (d.spec['minReadySeconds'] = 600)],
    ['hostNetwork', (d) => (d.spec.template.spec.hostNetwork = true)],
    ['tolerations', (d) => (d.spec.template.spec.tolerations = [{ operator: 'Exists' }])],
  ])('denies a change of %s', (_what, edit) => {
    expect(denials(p, edited(edit), daemonSet())).not.toEqual([]);
  });
});

describe(`${FILE}: protected platform namespaces (issue 41.2)`, () => {
  const inKubeSystem = (d: Deployment): Deployment => ({
    ...d,
    metadata: { ...d.metadata, namespace: 'kube-system' },
  });
  const protectedOnly =
    'the worker may not write in a protected platform namespace (admissionPolicy.protectedNamespaces)';

  it('denies the node exclusion a plan would write, on a kube-system DaemonSet (the CNI, kube-proxy)', () => {
    const p = policy('rollout-doctor-worker-deployments');
    const excluded = daemonSet();
    excluded.spec.template.spec.affinity = excludeNodeFromAffinity(
      excluded.spec.template.spec.affinity as never,
      'node-a',
    );
    expect(denials(p, excluded, daemonSet())).toEqual([]);
    expect(denials(p, inKubeSystem(excluded), inKubeSystem(daemonSet()))).toEqual([protectedOnly]);
    const strategy = daemonSet();
    strategy.spec['updateStrategy'] = {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: '100%' },
    };
    expect(denials(p, inKubeSystem(strategy), inKubeSystem(daemonSet()))).toContain(protectedOnly);
  });

  it.each(['pods', 'pod-deletion-cost', 'replicaset-scale', 'rollouts', 'rollouts-status'])(
    'every namespaced policy (%s) denies any worker write in kube-system first',
    (name) => {
      const p = policy(`rollout-doctor-worker-${name}`);
      expect(p.spec.validations[0]?.message).toBe(protectedOnly);
      const context = {
        object: { metadata: { namespace: 'kube-system' } },
        oldObject: { metadata: { namespace: 'kube-system' } },
        request: { userInfo: { username: WORKER }, namespace: 'kube-system' },
      };
      expect(env.evaluate(p.spec.validations[0]?.expression ?? 'true', context)).toBe(false);
      expect(
        env.evaluate(p.spec.validations[0]?.expression ?? 'false', {
          ...context,
          request: { ...context.request, namespace: 'vision' },
        }),
      ).toBe(true);
    },
  );
});

describe(`${FILE}: the node exclusion's exact shape (issue 41.2)`, () => {
  const p = policy('rollout-doctor-worker-deployments');
  const shapeOnly =
    'the required node affinity may change only by adding or only by removing NotIn exclusions (kubernetes.io/hostname, or another node label except on a DaemonSet) in each term, at most 3 nodes by name or values of a label';
  const withAffinity = (affinity: unknown): Deployment => {
    const d = daemonSet();
    d.spec.template.spec.affinity = affinity;
    return d;
  };
  const zoned = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }] },
          { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] },
        ],
      },
    },
  };
  const required = (terms: unknown[]) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  });

  it('admits what exclude-node writes (into no affinity, into every term, a second node) and its Undo', () => {
    const once = excludeNodeFromAffinity(zoned as never, 'node-a');
    expect(denials(p, withAffinity(once), withAffinity(zoned))).toEqual([]);
    expect(denials(p, withAffinity(excludeNodeFromAffinity(once, 'node-b')), withAffinity(once))).toEqual([]);
    expect(denials(p, withAffinity(zoned), withAffinity(once))).toEqual([]);
    const fresh = excludeNodeFromAffinity(daemonSet().spec.template.spec.affinity as never, 'node-a');
    expect(denials(p, withAffinity(fresh), daemonSet())).toEqual([]);
    expect(denials(p, daemonSet(), withAffinity(fresh))).toEqual([]);
  });

  it.each<[string, unknown, unknown]>([
    [
      'an affinity matching no node, where there was none',
      undefined,
      required([
        { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['no-such-node'] }] },
      ]),
    ],
    [
      'more than 3 nodes excluded at once',
      undefined,
      required([
        {
          matchExpressions: [
            { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['n1', 'n2', 'n3', 'n4'] },
          ],
        },
      ]),
    ],
    [
      'another key excluded',
      undefined,
      required([{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }]),
    ],
    [
      'a term dropped',
      zoned,
      required([
        { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }] },
      ]),
    ],
    [
      'an existing expression changed',
      zoned,
      required([
        { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['nowhere'] }] },
        { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] },
      ]),
    ],
    [
      'four nodes in one term, in one write',
      zoned,
      required([
        {
          matchExpressions: [
            { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] },
            { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['n1', 'n2', 'n3', 'n4'] },
          ],
        },
        {
          matchExpressions: [
            { key: 'gpu', operator: 'Exists' },
            { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['n1'] },
          ],
        },
      ]),
    ],
  ])('denies %s on a DaemonSet', (_what, before, after) => {
    expect(denials(p, withAffinity(after), withAffinity(before))).toContain(shapeOnly);
  });

  it('judges a workloadRef Rollout (no spec.template) without an error, leaving it to the rollouts policy', () => {
    const ref = {
      kind: 'Rollout',
      metadata: { namespace: 'vision' },
      spec: { workloadRef: { kind: 'Deployment', name: 'web' } },
    };
    expect(denials(p, ref, ref)).not.toContain(shapeOnly);
    const grown = {
      ...ref,
      spec: {
        ...ref.spec,
        template: {
          spec: {
            affinity: required([
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['x'] }] },
            ]),
          },
        },
      },
    };
    expect(denials(p, grown, ref)).toContain(shapeOnly);
  });
});

describe(`${FILE}: Deployments`, () => {
  const p = policy('rollout-doctor-worker-deployments');

  it('matches updates of Deployments, DaemonSets, StatefulSets and Argo Rollouts by the worker only', () => {
    expect(p.spec.matchConstraints.resourceRules).toEqual([
      expect.objectContaining({
        resources: ['deployments', 'daemonsets', 'statefulsets'],
        operations: ['UPDATE'],
      }),
      expect.objectContaining({
        apiGroups: ['argoproj.io'],
        resources: ['rollouts'],
        operations: ['UPDATE'],
      }),
    ]);
    const hostile = changed((d) => (d.spec.template.spec.hostPID = true));
    expect(denials(p, hostile, deployment())).not.toEqual([]);
    expect(
      denials(p, hostile, deployment(), 'system:serviceaccount:kube-system:deployment-controller'),
    ).toEqual([]);
  });

  it.each<[string, (d: Deployment) => void]>([
    ['set-recreate', (d) => (d.spec.strategy = { type: 'Recreate' })],
    [
      'set-rolling-update',
      (d) => (d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }),
    ],
    [
      'rollout-restart',
      (d) =>
        (d.spec.template.metadata.annotations = {
          'prometheus.io/scrape': 'true',
          'kubectl.kubernetes.io/restartedAt': '2026-11-22T13:00:00Z',
        }),
    ],
    [
      'exclude-node',
      (d) =>
        (d.spec.template.spec.affinity = excludeNodeFromAffinity(
          d.spec.template.spec.affinity as never,
          'worker-3',
        )),
    ],
    [
      'exclude-node with its record on the Deployment (issue 65.5)',
      (d) => {
        d.spec.template.spec.affinity = excludeNodeFromAffinity(
          d.spec.template.spec.affinity as never,
          'worker-3',
        );
        d.metadata.annotations = {
          ...(d.metadata.annotations as object),
          'rollout-doctor.io/exclusion.values': '{"kubernetes.io/hostname":["worker-3"]}',
          'rollout-doctor.io/exclusion.expires-at': '2026-11-28T10:00:00Z',
        };
      },
    ],
    ['no change at all', () => undefined],
  ])('admits %s', (_kind, edit) => {
    expect(denials(p, changed(edit), deployment())).toEqual([]);
  });

  it("admits the removal of the exclusion's record, and still denies any other annotation beside it", () => {
    const record = { 'rollout-doctor.io/exclusion.set-at': '2026-11-27T10:00:00Z' };
    const excluded = changed(
      (d) => (d.metadata.annotations = { ...(d.metadata.annotations as object), ...record }),
    );
    expect(denials(p, deployment(), excluded)).toEqual([]);
    const sneaked = changed(
      (d) => (d.metadata.annotations = { ...(d.metadata.annotations as object), ...record, owner: 'me' }),
    );
    expect(denials(p, sneaked, deployment())).not.toEqual([]);
    const lookalike = changed(
      (d) =>
        (d.metadata.annotations = { ...(d.metadata.annotations as object), 'rollout-doctor.io/other': 'x' }),
    );
    expect(denials(p, lookalike, deployment())).not.toEqual([]);
  });

  it('admits a restart annotation on a template that had no annotations', () => {
    const before = changed((d) => delete d.spec.template.metadata.annotations);
    const after = changed(
      (d) => (d.spec.template.metadata.annotations = { 'kubectl.kubernetes.io/restartedAt': 'now' }),
    );
    expect(denials(p, after, before)).toEqual([]);
  });

  it.each<[string, (d: Deployment) => void]>([
    ['the image', (d) => (d.spec.template.spec.containers = [{ name: 'tracker', image: 'evil/miner:1' }])],
    ['hostPID', (d) => (d.spec.template.spec.hostPID = true)],
    [
      'a privileged container',
      (d) =>
        ((d.spec.template.spec.containers as object[])[0] = {
          name: 'x',
          securityContext: { privileged: true },
        }),
    ],
    ['the service account', (d) => (d.spec.template.spec.serviceAccountName = 'cluster-admin-sa')],
    ['tolerations', (d) => (d.spec.template.spec.tolerations = [{ operator: 'Exists' }])],
    ['the nodeSelector', (d) => delete d.spec.template.spec.nodeSelector],
    ['volumes', (d) => (d.spec.template.spec.volumes = [{ name: 'root', hostPath: { path: '/' } }])],
    ['replicas', (d) => (d.spec.replicas = 0)],
    ['paused', (d) => (d.spec.paused = true)],
    ['the selector', (d) => (d.spec.selector = { matchLabels: { app: 'other' } })],
    ['Deployment labels', (d) => (d.metadata.labels = { app: 'tracker', owner: 'me' })],
    ['Deployment annotations', (d) => (d.metadata.annotations = {})],
    ['template labels', (d) => (d.spec.template.metadata.labels = { app: 'tracker', x: 'y' })],
    [
      'another template annotation',
      (d) => (d.spec.template.metadata.annotations = { 'prometheus.io/scrape': 'false' }),
    ],
    ['a removed template annotation', (d) => (d.spec.template.metadata.annotations = {})],
    ['pod anti-affinity', (d) => (d.spec.template.spec.affinity = {})],
    [
      'preferred node affinity',
      (d) =>
        (d.spec.template.spec.affinity = {
          podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] },
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] },
        }),
    ],
  ])('denies a change of %s', (_what, edit) => {
    expect(denials(p, changed(edit), deployment())).not.toEqual([]);
  });

  it('names every PodSpec and DeploymentSpec field the API has, except the ones a plan changes', () => {
    const text = p.spec.validations.map((v) => v.expression).join('\n');
    const pod = V1PodSpec.getAttributeTypeMap().map((a) => a.name);
    for (const field of pod.filter((f) => f !== 'affinity'))
      expect(text, `PodSpec.${field}`).toContain(`object.spec.template.spec.${field}`);
    const spec = V1DeploymentSpec.getAttributeTypeMap().map((a) => a.name);
    for (const field of spec.filter((f) => f !== 'strategy' && f !== 'template'))
      expect(text, `DeploymentSpec.${field}`).toContain(`object.spec.${field}`);
    // The same policy judges StatefulSets and DaemonSets: every field of theirs is held too.
    const others = [V1StatefulSetSpec, V1DaemonSetSpec].flatMap((t) =>
      t.getAttributeTypeMap().map((a) => a.name),
    );
    for (const field of others.filter((f) => f !== 'updateStrategy' && f !== 'template'))
      expect(text, `spec.${field}`).toContain(`object.spec.${field}`);
  });
});

describe(`${FILE}: pods`, () => {
  const p = policy('rollout-doctor-worker-pods');
  const pod = (ownerReferences?: object[]) => ({
    metadata: { name: 'p', ...(ownerReferences ? { ownerReferences } : {}) },
  });

  it('admits deleting a pod its ReplicaSet or StatefulSet controls, denies a bare pod or one another kind owns', () => {
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true };
    expect(denials(p, null, pod([rs]))).toEqual([]);
    expect(denials(p, null, pod([{ ...rs, kind: 'StatefulSet' }]))).toEqual([]);
    expect(denials(p, null, pod())).toEqual([
      'the worker may delete only pods that a ReplicaSet or a StatefulSet controls',
    ]);
    expect(denials(p, null, pod([{ ...rs, kind: 'DaemonSet' }]))).not.toEqual([]);
    expect(denials(p, null, pod([{ ...rs, kind: 'Job', apiVersion: 'batch/v1' }]))).not.toEqual([]);
    expect(denials(p, null, pod([{ ...rs, controller: false }]))).not.toEqual([]);
  });
});

describe(`${FILE}: ReplicaSet scale`, () => {
  const p = policy('rollout-doctor-worker-replicaset-scale');
  /** An autoscaling/v1 Scale as the API server sends it (spec.replicas omitted at 0). */
  const scale = (replicas: number) => ({
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: 'tracker-6d4cf56db6',
      namespace: 'vision',
      uid: 'b1f0c3e2-5a4d-4c1e-9f7a-2d3c4b5a6e7f',
    },
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: 1, selector: 'app=tracker,pod-template-hash=6d4cf56db6' },
  });

  it('matches only the scale subresource of ReplicaSets, for the worker', () => {
    expect(p.spec.matchConstraints.resourceRules.flatMap((r) => r.resources)).toEqual(['replicasets/scale']);
    expect(
      denials(p, scale(5), scale(1), 'system:serviceaccount:kube-system:horizontal-pod-autoscaler'),
    ).toEqual([]);
  });

  const UP_DENIED = 'the worker may scale a ReplicaSet down, and up only to at most 20 replicas';
  const NOT_DEPLOYMENTS =
    'the worker may scale only a ReplicaSet a Deployment manages (pod-template-hash in its selector)';
  /** The same Scale with another selector (a standalone ReplicaSet, another controller's). */
  const withSelector = (replicas: number, selector?: string) => {
    const o = scale(replicas);
    return { ...o, status: selector === undefined ? { replicas: 1 } : { ...o.status, selector } };
  };

  it('admits scaling down (to 0, which the Scale omits)', () => {
    expect(denials(p, scale(0), scale(1))).toEqual([]);
    expect(denials(p, scale(1), scale(3))).toEqual([]);
    expect(denials(p, scale(1), scale(1))).toEqual([]);
  });

  it('admits scaling up (the Undo of scale-old-replicaset) only to the bound, only a Deployment’s ReplicaSet', () => {
    // The bound is the allowlist's: the worker never sends what the API server would deny.
    expect(MAX_SCALE_BACK_REPLICAS).toBe(20);
    expect(denials(p, scale(1), scale(0))).toEqual([]);
    expect(denials(p, scale(3), scale(1))).toEqual([]);
    expect(denials(p, scale(MAX_SCALE_BACK_REPLICAS), scale(0))).toEqual([]);
    expect(denials(p, scale(MAX_SCALE_BACK_REPLICAS + 1), scale(0))).toEqual([UP_DENIED]);
    expect(denials(p, scale(500), scale(3))).toEqual([UP_DENIED]);
  });

  it('scales no ReplicaSet that a Deployment does not manage, up or down', () => {
    // A standalone ReplicaSet scaled to 0 stays there: an outage no controller undoes.
    for (const selector of [
      'app=tracker',
      // Argo Rollouts' ReplicaSets: the key only ends in pod-template-hash.
      'app=tracker,rollouts-pod-template-hash=6d4cf56db6',
      // A prefixed key is not the Deployment controller's label either.
      'app=tracker,example.com/pod-template-hash=6d4cf56db6',
      undefined,
    ]) {
      expect(denials(p, withSelector(0, selector), withSelector(1, selector))).toEqual([NOT_DEPLOYMENTS]);
      expect(denials(p, withSelector(2, selector), withSelector(1, selector))).toEqual([NOT_DEPLOYMENTS]);
    }
    expect(denials(p, withSelector(0, 'pod-template-hash=6d4cf56db6'), scale(1))).toEqual([]);
    // The selector as the API server prints it: keys sorted, so the hash may come first or last.
    expect(
      denials(
        p,
        withSelector(2, 'pod-template-hash=6d4cf56db6,tier=edge'),
        withSelector(1, 'pod-template-hash=6d4cf56db6,tier=edge'),
      ),
    ).toEqual([]);
    expect(
      denials(
        p,
        withSelector(2, 'app=tracker,pod-template-hash=6d4cf56db6'),
        withSelector(1, 'app=tracker,pod-template-hash=6d4cf56db6'),
      ),
    ).toEqual([]);
  });
});

describe(`${FILE}: pod deletion cost`, () => {
  const p = policy('rollout-doctor-worker-pod-deletion-cost');
  const COST = 'controller.kubernetes.io/pod-deletion-cost';
  const pod = (annotations?: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    metadata: {
      name: 'ingress-c4689577d-5hc99',
      namespace: 'edge',
      labels: { app: 'ingress', 'pod-template-hash': 'c4689577d' },
      ...(annotations ? { annotations } : {}),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'ingress-c4689577d', uid: 'u', controller: true },
      ],
      ...extra,
    },
    spec: { nodeName: 'edge-1', containers: [{ name: 'ingress', image: 'edge/ingress:1.0' }] },
  });

  it('admits setting the deletion cost on a pod its ReplicaSet controls, with or without other annotations', () => {
    expect(denials(p, pod({ [COST]: '-2147483648' }), pod())).toEqual([]);
    expect(denials(p, pod({ team: 'edge', [COST]: '-2147483648' }), pod({ team: 'edge' }))).toEqual([]);
  });

  it('denies any other change, and pods without a ReplicaSet', () => {
    const other = "the worker may change only a pod's controller.kubernetes.io/pod-deletion-cost annotation";
    expect(denials(p, pod({ team: 'x', [COST]: '-1' }), pod({ team: 'edge' }))).toEqual([other]);
    expect(denials(p, pod({ [COST]: '-1' }), pod({ team: 'edge' }))).toEqual([other]);
    const relabeled = pod({ [COST]: '-1' });
    relabeled.metadata.labels = { app: 'other', 'pod-template-hash': 'c4689577d' };
    expect(denials(p, relabeled, pod())).toEqual([other]);
    const respec = pod({ [COST]: '-1' });
    respec.spec.containers = [{ name: 'ingress', image: 'evil/image:1' }];
    expect(denials(p, respec, pod())).toEqual([other]);
    const bare = { ...pod(), metadata: { name: 'bare', namespace: 'edge' } };
    expect(
      denials(p, { ...bare, metadata: { ...bare.metadata, annotations: { [COST]: '-1' } } }, bare),
    ).toContain('the worker may update only pods that a ReplicaSet controls');
  });
});

describe(`${FILE}: DeviceTaintRules (taint-device)`, () => {
  const create = policy('rollout-doctor-worker-devicetaintrules-create');
  const remove = policy('rollout-doctor-worker-devicetaintrules-delete');
  const plan = {
    id: 'taint-device-1',
    target: { kind: 'Deployment' as const, namespace: 'vision', name: 'detector' },
    deviceTaint: {
      apiVersion: 'resource.k8s.io/v1' as const,
      name: deviceTaintRuleName({ driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' }),
      driver: 'gpu.nvidia.com',
      pool: 'gpu-node-1',
      device: 'gpu-0',
      node: 'gpu-node-1',
      resourceID: 'gpu.nvidia.com/gpu-node-1/gpu-0',
      taint: { key: DEVICE_TAINT_KEY, value: DEVICE_TAINT_VALUE, effect: 'NoSchedule' as const },
    },
  };
  /** The rule the executor writes (deviceTaintRuleBody), edited. */
  const rule = (edit: (r: ReturnType<typeof deviceTaintRuleBody>) => void = () => undefined) => {
    const r = deviceTaintRuleBody(plan);
    edit(r);
    return r;
  };

  it('admits the rule the executor writes, and its deletion', () => {
    expect(create.spec.matchConstraints.resourceRules.flatMap((r) => r.resources)).toEqual([
      'devicetaintrules',
    ]);
    expect(denials(create, rule(), null)).toEqual([]);
    expect(denials(remove, null, rule())).toEqual([]);
  });

  it('denies NoExecute, another key, a whole pool or driver, and a rule not labelled as ours', () => {
    const denied = [
      rule((r) => (r.spec.taint.effect = 'NoExecute')),
      rule((r) => (r.spec.taint.key = 'example.com/maintenance')),
      rule((r) => delete r.spec.deviceSelector.device),
      rule((r) => (r.spec.deviceSelector = { driver: 'gpu.nvidia.com' })),
      // An empty field names no device: the policy does not rely on API validation to refuse it.
      rule((r) => (r.spec.deviceSelector.device = '')),
      rule((r) => (r.spec.deviceSelector.pool = '')),
      rule((r) => delete r.metadata.labels),
    ];
    for (const r of denied) expect(denials(create, r, null)).not.toEqual([]);
    // Someone else's rule is not the worker's to delete.
    expect(
      denials(
        remove,
        null,
        rule((r) => delete r.metadata.labels),
      ),
    ).toEqual(['the worker may delete only the DeviceTaintRules it wrote']);
    expect(
      denials(
        remove,
        null,
        rule((r) => (r.spec.taint.key = 'example.com/maintenance')),
      ),
    ).not.toEqual([]);
    // Administrators are not matched.
    expect(denials(create, denied[0], null, 'system:admin')).toEqual([]);
  });
});

describe(`${FILE}: Argo Rollouts`, () => {
  const spec = policy('rollout-doctor-worker-rollouts');
  const status = policy('rollout-doctor-worker-rollouts-status');
  type Ro = {
    kind: string;
    metadata: Record<string, unknown>;
    spec: Record<string, unknown> & {
      strategy: { canary: Record<string, unknown> };
      template: { spec: Record<string, unknown> };
    };
    status: Record<string, unknown>;
  };
  function rollout(edit: (r: Ro) => void = () => undefined): Ro {
    const r: Ro = {
      kind: 'Rollout',
      metadata: {
        name: 'tracker',
        namespace: 'vision',
        annotations: { 'rollout.argoproj.io/revision': '2' },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'tracker' } },
        strategy: { canary: { steps: [{ setWeight: 50 }, { pause: {} }], canaryService: 'tracker-canary' } },
        template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } },
      },
      status: {
        phase: 'Progressing',
        currentPodHash: 'b2',
        stableRS: 'a1',
        currentStepIndex: 0,
        pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-24T10:00:00Z' }],
      },
    };
    edit(r);
    return r;
  }

  it('matches updates of Rollouts and of their status subresource, by the worker only', () => {
    expect(spec.spec.matchConstraints.resourceRules[0]?.resources).toEqual(['rollouts']);
    expect(status.spec.matchConstraints.resourceRules[0]?.resources).toEqual(['rollouts/status']);
    const promoted = rollout((r) => (r.status.promoteFull = true));
    expect(denials(status, promoted, rollout(), 'system:serviceaccount:argo-rollouts:argo-rollouts')).toEqual(
      [],
    );
  });

  it("admits the canary-bounds fix (set, and its Undo's removal) and nothing else of the spec", () => {
    const fixed = rollout((r) => Object.assign(r.spec.strategy.canary, { maxSurge: 0, maxUnavailable: 1 }));
    expect(denials(spec, fixed, rollout())).toEqual([]);
    expect(denials(spec, rollout(), fixed)).toEqual([]);
    const denied = [
      rollout((r) => (r.spec.strategy.canary.steps = [])),
      rollout((r) => (r.spec.strategy.canary.canaryService = 'other')),
      rollout((r) => (r.spec.replicas = 0)),
      rollout((r) => (r.spec.paused = true)),
      rollout((r) => (r.metadata.annotations = {})),
      rollout((r) => (r.spec.strategy = { blueGreen: { activeService: 'x' } } as never)),
    ];
    for (const r of denied) expect(denials(spec, r, rollout()), JSON.stringify(r.spec)).not.toEqual([]);
  });

  it("admits the node exclusion's record on a Rollout, written and removed (issue 65.5), and no other annotation", () => {
    const record = {
      'rollout-doctor.io/exclusion.values': '{"kubernetes.io/hostname":["gpu-node-2"]}',
      'rollout-doctor.io/exclusion.expires-at': '2026-11-28T10:00:00Z',
    };
    const excluded = rollout((r) => {
      r.spec.template.spec.affinity = excludeNodeFromAffinity(undefined, 'gpu-node-2');
      r.metadata.annotations = { ...(r.metadata.annotations as object), ...record };
    });
    const workload = policy('rollout-doctor-worker-deployments');
    for (const p of [spec, workload]) {
      expect(denials(p, excluded, rollout())).toEqual([]);
      expect(denials(p, rollout(), excluded)).toEqual([]);
    }
    const sneaked = rollout((r) => {
      r.metadata.annotations = { ...(r.metadata.annotations as object), ...record, owner: 'me' };
    });
    expect(denials(spec, sneaked, rollout())).not.toEqual([]);
    const revision = rollout((r) => (r.metadata.annotations = { 'rollout.argoproj.io/revision': '3' }));
    expect(denials(spec, revision, rollout())).not.toEqual([]);
  });

  it('lets the workload policy judge the pod template: the node exclusion passes, an image change does not', () => {
    const workload = policy('rollout-doctor-worker-deployments');
    expect(workload.spec.matchConstraints.resourceRules.map((r) => r.resources)).toContainEqual(['rollouts']);
    const excluded = rollout((r) => {
      r.spec.template.spec.affinity = excludeNodeFromAffinity(undefined, 'gpu-node-2');
    });
    expect(denials(workload, excluded, rollout())).toEqual([]);
    expect(denials(spec, excluded, rollout())).toEqual([]);
    const image = rollout((r) => {
      r.spec.template.spec.containers = [{ name: 'tracker', image: 'evil:1' }];
    });
    expect(denials(workload, image, rollout())).toEqual([
      "of the pod template's spec the worker may change only affinity.nodeAffinity",
    ]);
  });

  it('admits setting status.abort to true, and no other status write (a promote is one)', () => {
    expect(
      denials(
        status,
        rollout((r) => (r.status.abort = true)),
        rollout(),
      ),
    ).toEqual([]);
    // Each with the abort the policy admits, so only the other write can be what it denies.
    const aborted = (edit: (r: Ro) => void): Ro =>
      rollout((r) => {
        r.status.abort = true;
        edit(r);
      });
    const denied = [
      aborted((r) => (r.status.promoteFull = true)),
      aborted((r) => delete r.status.pauseConditions),
      aborted((r) => (r.status.currentStepIndex = 2)),
      aborted((r) => (r.status.stableRS = 'b2')),
      aborted((r) => (r.metadata.labels = { evil: 'yes' })),
      rollout((r) => (r.status.abort = false)),
    ];
    for (const r of denied) expect(denials(status, r, rollout()), JSON.stringify(r.status)).not.toEqual([]);
  });
});
