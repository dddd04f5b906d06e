/**
 * Ownership from the Deployment's own metadata, and per-plan drift verdicts, on
 * objects shaped as the API server returns them (`kubectl get -o yaml
 * --show-managed-fields`): managedFields entries with manager, operation, time and
 * a fieldsV1 tree, the status entry on the status subresource.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { ObjectMeta } from '../../src/diagnosis/k8s.js';
import type { OwnerSettingsRead } from '../../src/diagnosis/snapshot/types.js';
import { detectOwner, desiredManifest, manifestSets } from '../../src/diagnosis/ownership.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { planDrift } from '../../src/remediation/drift.js';
import { toJson } from '../../src/report/json.js';
import { recommendedPlan } from '../../src/chat/use-cases/plan-text.js';
import { driftLine, renderDiagnosis } from '../support/slack-run.js';
import { orderByDrift } from '../../src/remediation/plan-order.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { renderText } from '../../src/report/text.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

const TIME = '2026-11-22T02:39:00Z';

/** The status entry every Deployment carries (kube-controller-manager on the status subresource). */
const STATUS_ENTRY = {
  apiVersion: 'apps/v1',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } },
    'f:status': {
      'f:availableReplicas': {},
      'f:conditions': { '.': {}, 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } },
      'f:observedGeneration': {},
      'f:replicas': {},
      'f:updatedReplicas': {},
    },
  },
  manager: 'kube-controller-manager',
  operation: 'Update',
  subresource: 'status',
  time: TIME,
};

/** The seed's manifest as fieldsV1 (no strategy in it), with extra metadata fields. */
function manifestFields(
  metadata: Record<string, unknown>,
  spec: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    'f:metadata': metadata,
    'f:spec': {
      'f:replicas': {},
      'f:selector': {},
      'f:template': {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:containers': {
            'k:{"name":"object-tracker"}': {
              '.': {},
              'f:image': {},
              'f:name': {},
              'f:ports': {
                'k:{"containerPort":8004,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
              },
              'f:resources': { 'f:limits': { 'f:nvidia.com/gpu': {} } },
            },
          },
          'f:nodeSelector': { 'f:kubernetes.io/hostname': {} },
        },
      },
      ...spec,
    },
  };
}

function entry(manager: string, operation: 'Apply' | 'Update', fieldsV1: Record<string, unknown>) {
  return { apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1, manager, operation, time: TIME };
}

type Shape = (d: Deployment) => void;

function setMeta(d: Deployment, meta: Partial<ObjectMeta> & { managedFields?: unknown[] }): void {
  const { labels, annotations, managedFields, ...rest } = meta;
  Object.assign(d.metadata, rest);
  d.metadata.labels = { ...d.metadata.labels, ...labels };
  d.metadata.annotations = { ...d.metadata.annotations, ...annotations };
  Object.assign(d.metadata, { managedFields: [...(managedFields ?? []), STATUS_ENTRY] });
}

/** Argo CD, server-side apply, default annotation tracking; `strategy` also in Git when asked. */
const argoSsa =
  (withStrategy = false): Shape =>
  (d) => {
    const annotations = {
      'argocd.argoproj.io/tracking-id': 'vision-tracker:apps/Deployment:vision/object-tracker',
    };
    // Server-side apply writes no last-applied annotation.
    delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
    setMeta(d, {
      annotations,
      managedFields: [
        entry(
          'argocd-controller',
          'Apply',
          manifestFields(
            { 'f:annotations': { 'f:argocd.argoproj.io/tracking-id': {} }, 'f:labels': { 'f:app': {} } },
            withStrategy
              ? { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } } }
              : {},
          ),
        ),
      ],
    });
  };

const fluxKustomize =
  (withStrategy = false): Shape =>
  (d) => {
    delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
    setMeta(d, {
      labels: {
        'kustomize.toolkit.fluxcd.io/name': 'apps',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      },
      managedFields: [
        entry(
          'kustomize-controller',
          'Apply',
          manifestFields(
            {
              'f:labels': {
                'f:app': {},
                'f:kustomize.toolkit.fluxcd.io/name': {},
                'f:kustomize.toolkit.fluxcd.io/namespace': {},
              },
            },
            withStrategy ? { 'f:strategy': { 'f:type': {}, 'f:rollingUpdate': { 'f:maxSurge': {} } } } : {},
          ),
        ),
      ],
    });
  };

const helmMeta = {
  labels: { 'app.kubernetes.io/managed-by': 'Helm', 'helm.sh/chart': 'object-tracker-0.4.2' },
  annotations: {
    'meta.helm.sh/release-name': 'tracker',
    'meta.helm.sh/release-namespace': 'vision',
  },
};
const helmFields = manifestFields(
  {
    'f:annotations': { '.': {}, 'f:meta.helm.sh/release-name': {}, 'f:meta.helm.sh/release-namespace': {} },
    'f:labels': { '.': {}, 'f:app': {}, 'f:app.kubernetes.io/managed-by': {}, 'f:helm.sh/chart': {} },
  },
  {
    'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
  },
);

const fluxHelm: Shape = (d) => {
  delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  setMeta(d, {
    labels: {
      ...helmMeta.labels,
      'helm.toolkit.fluxcd.io/name': 'tracker',
      'helm.toolkit.fluxcd.io/namespace': 'vision',
    },
    annotations: helmMeta.annotations,
    managedFields: [entry('helm-controller', 'Update', helmFields)],
  });
};

const helm: Shape = (d) => {
  delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  setMeta(d, { ...helmMeta, managedFields: [entry('helm', 'Update', helmFields)] });
};

/** kubectl apply (client-side): the seed as it is, plus the manager kubectl writes. */
const kubectlApply: Shape = (d) => {
  setMeta(d, {
    managedFields: [
      entry(
        'kubectl-client-side-apply',
        'Update',
        manifestFields({
          'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
          'f:labels': { '.': {}, 'f:app': {} },
        }),
      ),
    ],
  });
};

function seedWith(shape: Shape) {
  const snapshot = seedIncidentA();
  shape(snapshot.deployment);
  return snapshot;
}

const ownerOf = (d: Deployment) => detectOwner({ group: 'apps', kind: 'Deployment', metadata: d.metadata });

/** The owner's settings object as the collector records it once read (or why not). */
function settingsRead(
  kind: OwnerSettingsRead['kind'],
  namespace: string,
  name: string,
  object: unknown,
  state: OwnerSettingsRead['state'] = 'read',
): OwnerSettingsRead {
  const api = {
    Application: ['argoproj.io/v1alpha1', 'applications.argoproj.io'],
    Kustomization: ['kustomize.toolkit.fluxcd.io/v1', 'kustomizations.kustomize.toolkit.fluxcd.io'],
    HelmRelease: ['helm.toolkit.fluxcd.io/v2', 'helmreleases.helm.toolkit.fluxcd.io'],
  }[kind];
  return {
    kind,
    apiVersion: api[0] ?? '',
    resource: api[1] ?? '',
    namespace,
    name,
    state,
    ...(state === 'read' ? { object } : {}),
    settle: `kubectl get ${api[1] ?? ''} ${name} -n ${namespace} -o yaml`,
  };
}
const kustomization = (spec: Record<string, unknown> = {}) =>
  settingsRead('Kustomization', 'flux-system', 'apps', { spec: { interval: '10m', prune: true, ...spec } });
const application = (spec: Record<string, unknown>, status?: Record<string, unknown>) =>
  settingsRead('Application', 'argocd', 'vision-tracker', { spec, ...(status ? { status } : {}) });
const helmRelease = (spec: Record<string, unknown>) =>
  settingsRead('HelmRelease', 'vision', 'tracker', { spec: { interval: '5m', ...spec } });

describe('who applies the Deployment', () => {
  it.each([
    ['Argo CD (tracking id)', argoSsa(), { tool: 'argocd', name: 'vision-tracker' }],
    [
      'Flux kustomize-controller',
      fluxKustomize(),
      { tool: 'flux-kustomize', name: 'apps', namespace: 'flux-system' },
    ],
    [
      'Flux helm-controller (Helm annotations too)',
      fluxHelm,
      { tool: 'flux-helm', name: 'tracker', namespace: 'vision' },
    ],
    ['Helm', helm, { tool: 'helm', name: 'tracker', namespace: 'vision' }],
    ['kubectl apply', kubectlApply, { tool: 'kubectl', name: 'kubectl-client-side-apply' }],
  ] as const)('%s', (_label, shape, expected) => {
    const owner = ownerOf(seedWith(shape).deployment);
    expect(owner).toMatchObject(expected);
    expect(owner?.evidence).toBeTruthy();
  });

  it('Argo CD under label tracking: the instance label with the argocd-controller manager', () => {
    const d = seedWith((dep) =>
      setMeta(dep, {
        labels: { 'app.kubernetes.io/instance': 'vision-tracker' },
        managedFields: [
          entry('argocd-controller', 'Update', manifestFields({ 'f:labels': { 'f:app': {} } })),
        ],
      }),
    ).deployment;
    expect(ownerOf(d)).toMatchObject({ tool: 'argocd', name: 'vision-tracker' });
  });

  it('Argo CD under label tracking by an older Argo CD: the argocd-application-controller manager (argo-cd#20815)', () => {
    const d = seedWith((dep) =>
      setMeta(dep, {
        labels: { 'app.kubernetes.io/instance': 'vision-tracker' },
        managedFields: [
          entry('argocd-application-controller', 'Update', manifestFields({ 'f:labels': { 'f:app': {} } })),
        ],
      }),
    ).deployment;
    const owner = ownerOf(d);
    expect(owner).toMatchObject({ tool: 'argocd', name: 'vision-tracker' });
    expect(owner?.evidence).toContain('argocd-application-controller');
  });

  it("an older Argo CD's Apply entry is the manifest when the current manager has none; a field only it holds once the current one applies is unknown", () => {
    const legacyOnly = seedWith((dep) => {
      argoSsa(true)(dep);
      for (const e of (dep.metadata as { managedFields: { manager?: string }[] }).managedFields)
        if (e.manager === 'argocd-controller') e.manager = 'argocd-application-controller';
    }).deployment;
    const owner = ownerOf(legacyOnly);
    if (!owner) throw new Error('no owner');
    expect(desiredManifest(legacyOnly.metadata, owner)).toMatchObject({
      source: 'managed-fields',
      manager: 'argocd-application-controller',
    });
    expect(
      manifestSets(desiredManifest(legacyOnly.metadata, owner), [
        'spec',
        'strategy',
        'rollingUpdate',
        'maxSurge',
      ]),
    ).toBe(true);
    // After the upgrade the current manager applies Git without the strategy: only the older entry holds it.
    const both = seedWith((dep) => {
      argoSsa()(dep);
      const managed = (dep.metadata as { managedFields: unknown[] }).managedFields;
      managed.unshift(
        entry('argocd-application-controller', 'Apply', {
          'f:spec': { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } } },
        }),
      );
    });
    const plan = diagnose(both).remediations.find((p) => p.kind === 'set-rolling-update');
    expect(plan?.drift?.reverted).toBe('unknown');
    expect(plan?.drift?.why).toContain('argocd-application-controller');
  });

  it('<ns>/<app> (a qualified name) in the tracking id names the namespace too; a malformed id proves nothing', () => {
    const d = seedWith(argoSsa()).deployment;
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'argocd.argoproj.io/tracking-id': 'team-a/vision-tracker:apps/Deployment:vision/object-tracker',
    };
    expect(ownerOf(d)).toMatchObject({ tool: 'argocd', name: 'vision-tracker', namespace: 'team-a' });
    d.metadata.annotations['argocd.argoproj.io/tracking-id'] =
      'vision-tracker:apps/Deployment/x:vision/object-tracker';
    expect(ownerOf(d)?.tool).not.toBe('argocd');
  });

  it('an app in another namespace: <ns>_<app> in the tracking id', () => {
    const d = seedWith(argoSsa()).deployment;
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'argocd.argoproj.io/tracking-id': 'team-a_vision-tracker:apps/Deployment:vision/object-tracker',
    };
    expect(ownerOf(d)).toMatchObject({ tool: 'argocd', name: 'vision-tracker', namespace: 'team-a' });
  });

  describe('look-alikes are not owners', () => {
    it('no owner: only the controller manager and a create', () => {
      const d = seedWith((dep) => {
        delete dep.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
        setMeta(dep, { managedFields: [entry('kubectl-create', 'Update', manifestFields({}))] });
      }).deployment;
      expect(ownerOf(d)).toBeUndefined();
    });

    it('the Helm label without the Helm annotations (helm template | kubectl create)', () => {
      const d = seedWith((dep) => {
        delete dep.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
        setMeta(dep, {
          labels: helmMeta.labels,
          managedFields: [entry('kubectl-create', 'Update', manifestFields({}))],
        });
      }).deployment;
      expect(ownerOf(d)).toBeUndefined();
    });

    it('the instance label alone (charts set it) is not Argo CD', () => {
      const d = seedWith(helm).deployment;
      d.metadata.labels = { ...d.metadata.labels, 'app.kubernetes.io/instance': 'tracker' };
      expect(ownerOf(d)?.tool).toBe('helm');
    });

    it('a ReplicaSet inherits the Argo CD annotation: never Argo-managed', () => {
      const snapshot = seedWith(argoSsa());
      const rs = snapshot.parts.newRs;
      rs.metadata.annotations = {
        ...rs.metadata.annotations,
        'argocd.argoproj.io/tracking-id': 'vision-tracker:apps/Deployment:vision/object-tracker',
      };
      expect(detectOwner({ group: 'apps', kind: 'ReplicaSet', metadata: rs.metadata })).toBeUndefined();
    });

    it('a tracking id naming another object (a copied manifest) proves nothing, nor does kubectl then', () => {
      const d = seedWith(kubectlApply).deployment;
      d.metadata.annotations = {
        ...d.metadata.annotations,
        'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:shop/checkout',
      };
      expect(ownerOf(d)).toBeUndefined();
    });

    it('a tracking id naming another kind or group with the same namespace and name proves nothing', () => {
      for (const id of [
        'vision-tracker:apps/StatefulSet:vision/object-tracker',
        'vision-tracker:argoproj.io/Deployment:vision/object-tracker',
        'vision-tracker:apps/Deployment:other/object-tracker',
      ]) {
        const d = seedWith(argoSsa()).deployment;
        d.metadata.annotations = { ...d.metadata.annotations, 'argocd.argoproj.io/tracking-id': id };
        expect(ownerOf(d), id).toBeUndefined();
      }
    });

    it('last-applied with managedFields that show no kubectl manager is not proof of kubectl apply', () => {
      const d = seedWith((dep) =>
        setMeta(dep, { managedFields: [entry('Terraform', 'Update', manifestFields({}))] }),
      ).deployment;
      expect(ownerOf(d)).toBeUndefined();
    });

    it('last-applied with the instance label and no managedFields: Argo CD label tracking stays open', () => {
      const d = seedIncidentA().deployment;
      d.metadata.labels = { ...d.metadata.labels, 'app.kubernetes.io/instance': 'vision-tracker' };
      expect(ownerOf(d)).toBeUndefined();
    });
  });

  describe('kubectl apply: the manager that applied is named', () => {
    it('the manager holding last-applied, not the first kubectl* writer (kubectl-edit)', () => {
      const d = seedWith((dep) => {
        kubectlApply(dep);
        const entries = (dep.metadata as { managedFields: unknown[] }).managedFields;
        entries.unshift(entry('kubectl-edit', 'Update', { 'f:spec': { 'f:replicas': {} } }));
      }).deployment;
      expect(ownerOf(d)).toMatchObject({ tool: 'kubectl', name: 'kubectl-client-side-apply' });
      expect(ownerOf(d)?.evidence).toContain('kubectl-client-side-apply');
    });

    it('kubectl apply --server-side: manager kubectl with operation Apply, its entry the manifest', () => {
      const { result, plan } = (() => {
        const r = diagnose(
          seedWith((dep) => {
            delete dep.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
            setMeta(dep, {
              managedFields: [
                entry('kubectl-edit', 'Update', { 'f:spec': { 'f:replicas': {} } }),
                entry(
                  'kubectl',
                  'Apply',
                  manifestFields(
                    { 'f:labels': { 'f:app': {} } },
                    { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } } },
                  ),
                ),
              ],
            });
          }),
        );
        return { result: r, plan: r.remediations.find((p) => p.kind === 'set-rolling-update') };
      })();
      expect(result.managedBy).toMatchObject({ tool: 'kubectl', name: 'kubectl' });
      expect(result.managedBy?.evidence).toContain('--server-side');
      expect(plan?.drift).toMatchObject({
        reverted: false,
        by: 'kubectl apply --server-side (field manager kubectl)',
      });
      expect(plan?.drift?.why).toContain(
        'maxSurge, spec.strategy.rollingUpdate.maxUnavailable: in the manifest applied server-side',
      );
      expect(plan?.drift?.why).toContain('--force-conflicts');
      expect(plan?.drift?.why).toContain('restartedAt]: not in the applied manifest');
      expect(plan?.drift?.why).toContain('managedFields of kubectl');
    });

    it('a kubectl manager with an Update (kubectl edit, create) and no last-applied is not kubectl apply', () => {
      const d = seedWith((dep) => {
        delete dep.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
        setMeta(dep, { managedFields: [entry('kubectl', 'Update', manifestFields({}))] });
      }).deployment;
      expect(ownerOf(d)).toBeUndefined();
    });

    it('a last-applied annotation that is not JSON: the manifest is unknown, never "not in it"', () => {
      const snapshot = seedWith(kubectlApply);
      snapshot.deployment.metadata.annotations = {
        ...snapshot.deployment.metadata.annotations,
        'kubectl.kubernetes.io/last-applied-configuration': '{"spec": {"strategy": ',
      };
      const result = diagnose(snapshot);
      expect(result.managedBy).toMatchObject({ tool: 'kubectl', name: 'kubectl-client-side-apply' });
      const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
      expect(plan?.drift?.reverted).toBe('unknown');
      expect(plan?.drift?.why).toContain('is not JSON');
      expect(plan?.drift?.why).not.toContain('not in the applied manifest');
    });
  });

  describe('a bare last-applied annotation without managedFields (older objects, stripped dumps)', () => {
    it('is kubectl client-side apply, the evidence saying managedFields were absent', () => {
      const d = seedIncidentA().deployment;
      expect((d.metadata as { managedFields?: unknown }).managedFields).toBeUndefined();
      const owner = ownerOf(d);
      expect(owner).toMatchObject({ tool: 'kubectl', name: 'kubectl-client-side-apply' });
      expect(owner?.evidence).toContain('managedFields were absent');
    });

    it('its drift reads the manifest from the annotation', () => {
      const result = diagnose(seedIncidentA());
      expect(result.managedBy?.tool).toBe('kubectl');
      const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
      expect(plan?.drift).toMatchObject({
        reverted: false,
        by: 'kubectl apply (field manager kubectl-client-side-apply)',
      });
      expect(plan?.drift?.why).toContain('not in the applied manifest');
      expect(plan?.drift?.why).toContain('last-applied-configuration');
    });

    it('look-alikes stay what they were: the Helm label alone, an Argo CD annotation on a ReplicaSet', () => {
      const d = seedIncidentA().deployment;
      d.metadata.labels = { ...d.metadata.labels, ...helmMeta.labels };
      // The Helm label is no GitOps marker: still client-side apply (a chart rendered and kubectl-applied).
      expect(ownerOf(d)?.tool).toBe('kubectl');
      const rs = seedIncidentA().parts.newRs;
      rs.metadata.annotations = {
        ...rs.metadata.annotations,
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
        'argocd.argoproj.io/tracking-id': 'vision-tracker:apps/Deployment:vision/object-tracker',
      };
      expect(detectOwner({ group: 'apps', kind: 'ReplicaSet', metadata: rs.metadata })).toBeUndefined();
    });
  });
});

describe('what the desired manifest holds', () => {
  it('reads fieldsV1 of the owner Apply entry: leaves, maps and list items', () => {
    const d = seedWith(argoSsa()).deployment;
    const owner = ownerOf(d);
    if (!owner) throw new Error('no owner');
    const manifest = desiredManifest(d.metadata, owner);
    expect(manifest.source).toBe('managed-fields');
    expect(manifestSets(manifest, ['spec', 'strategy'])).toBe(false);
    expect(manifestSets(manifest, ['spec', 'replicas'])).toBe(true);
    expect(manifestSets(manifest, ['spec', 'template', 'spec', 'containers', '0', 'image'])).toBe(true);
    expect(manifestSets(manifest, ['spec', 'template', 'spec', 'nodeSelector'])).toBe(true);
    // The status entry (kube-controller-manager) is no part of the manifest.
    expect(manifestSets(manifest, ['status', 'replicas'])).toBe(false);
  });

  it('a leaf {} holds what is under it only for fields atomic by the schema, never for a granular map', () => {
    const manifest = {
      source: 'managed-fields' as const,
      manager: 'kustomize-controller',
      fields: [
        {
          'f:metadata': { 'f:labels': {}, 'f:annotations': { '.': {} } },
          'f:spec': {
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:annotations': {}, 'f:labels': { '.': {} } },
              'f:spec': {
                'f:nodeSelector': {},
                'f:tolerations': {},
                'f:affinity': {
                  'f:nodeAffinity': { 'f:requiredDuringSchedulingIgnoredDuringExecution': {} },
                },
              },
            },
          },
        },
      ],
    };
    const template = ['spec', 'template'];
    // Granular maps: {} (or only ".") says the manager set the map, not any key of it.
    expect(
      manifestSets(manifest, [...template, 'metadata', 'annotations', 'kubectl.kubernetes.io/restartedAt']),
    ).toBe(false);
    expect(manifestSets(manifest, [...template, 'metadata', 'labels', 'team'])).toBe(false);
    expect(manifestSets(manifest, [...template, 'spec', 'nodeSelector', 'kubernetes.io/hostname'])).toBe(
      false,
    );
    expect(manifestSets(manifest, ['metadata', 'annotations', 'note'])).toBe(false);
    expect(manifestSets(manifest, ['metadata', 'labels', 'app'])).toBe(false);
    // The map itself is set.
    expect(manifestSets(manifest, [...template, 'metadata', 'annotations'])).toBe(true);
    // Atomic: the selector, tolerations and the required node affinity are one value each.
    expect(manifestSets(manifest, ['spec', 'selector', 'matchLabels', 'app'])).toBe(true);
    expect(manifestSets(manifest, [...template, 'spec', 'tolerations', '0', 'key'])).toBe(true);
    expect(
      manifestSets(manifest, [
        ...template,
        'spec',
        'affinity',
        'nodeAffinity',
        'requiredDuringSchedulingIgnoredDuringExecution',
        'nodeSelectorTerms',
        '0',
        'matchExpressions',
      ]),
    ).toBe(true);
  });

  it('Flux with an empty template annotations map in Git: a restart annotation is not in Git, so it stays', () => {
    const snapshot = seedWith((d) => {
      fluxKustomize()(d);
      const flux = (d.metadata as { managedFields: { fieldsV1: Record<string, Record<string, unknown>> }[] })
        .managedFields[0];
      const spec = flux?.fieldsV1['f:spec'] as { 'f:template': { 'f:metadata': Record<string, unknown> } };
      spec['f:template']['f:metadata']['f:annotations'] = {};
      d.spec.template.metadata = { ...d.spec.template.metadata, annotations: {} };
    });
    const plan = diagnose(snapshot).remediations.find((p) => p.kind === 'set-rolling-update');
    expect(plan?.drift?.reverted).toBe(false);
    expect(plan?.drift?.why).toContain('restartedAt]: not in Git');
  });

  it('reads the last-applied annotation for client-side apply', () => {
    const d = seedWith(kubectlApply).deployment;
    const owner = ownerOf(d);
    if (!owner) throw new Error('no owner');
    const manifest = desiredManifest(d.metadata, owner);
    expect(manifest.source).toBe('last-applied');
    expect(manifestSets(manifest, ['spec', 'strategy'])).toBe(false);
    expect(
      manifestSets(manifest, ['spec', 'template', 'spec', 'nodeSelector', 'kubernetes.io/hostname']),
    ).toBe(true);
  });
});

describe('drift per plan', () => {
  const strategyPlan = (shape: Shape, settings?: OwnerSettingsRead) => {
    const snapshot = seedWith(shape);
    const result = diagnose(settings ? { ...snapshot, ownerSettings: settings } : snapshot);
    const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
    if (!plan)
      throw new Error(`no set-rolling-update plan: ${result.remediations.map((p) => p.kind).join()}`);
    return { result, plan };
  };

  it('the seed case: no strategy in Git, so Argo CD does not revert a live strategy patch', () => {
    const { result, plan } = strategyPlan(argoSsa());
    expect(result.managedBy).toMatchObject({ tool: 'argocd', name: 'vision-tracker' });
    expect(plan.drift).toMatchObject({ reverted: false, by: 'Argo CD application vision-tracker' });
    expect(plan.drift?.fields).toEqual(
      expect.arrayContaining([
        'spec.strategy.rollingUpdate.maxSurge',
        'spec.strategy.rollingUpdate.maxUnavailable',
      ]),
    );
    expect(plan.drift?.why).toContain("not in Argo CD's manifest");
  });

  it('Argo CD with the strategy in Git: unknown, because self-heal lives on the Application', () => {
    const { plan } = strategyPlan(argoSsa(true));
    expect(plan.drift?.reverted).toBe('unknown');
    expect(plan.drift?.why).toContain('selfHeal');
  });

  it('Argo CD with client-side apply: the last-applied manifest decides', () => {
    const { plan } = strategyPlan((d) => {
      setMeta(d, {
        annotations: {
          'argocd.argoproj.io/tracking-id': 'vision-tracker:apps/Deployment:vision/object-tracker',
        },
      });
    });
    expect(plan.drift?.reverted).toBe(false);
    expect(plan.drift?.why).toContain('last-applied-configuration');
  });

  it('Argo CD whose manifest the Deployment does not show (no Apply entry, no last-applied): unknown', () => {
    const { plan } = strategyPlan((d) => {
      delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
      setMeta(d, {
        annotations: {
          'argocd.argoproj.io/tracking-id': 'vision-tracker:apps/Deployment:vision/object-tracker',
        },
      });
    });
    expect(plan.drift?.reverted).toBe('unknown');
    expect(plan.drift?.why).toContain('not known');
  });

  it('Flux: a field outside Git written by rollout-doctor survives; a field in Git is reverted once the Kustomization is read and not suspended', () => {
    const outside = strategyPlan(fluxKustomize()).plan.drift;
    expect(outside?.reverted).toBe(false);
    expect(outside?.why).toContain('rollout-doctor');
    expect(outside?.by).toBe('Flux Kustomization flux-system/apps');
    // Suspension not read: unknown, not true.
    const unread = strategyPlan(fluxKustomize(true)).plan.drift;
    expect(unread?.reverted).toBe('unknown');
    expect(unread?.why).toContain('spec.suspend');
    const inGit = strategyPlan(fluxKustomize(true), kustomization({ interval: '10m' })).plan.drift;
    expect(inGit?.reverted).toBe(true);
    expect(inGit?.why).toContain('maxSurge');
    expect(inGit?.why).toContain('every 10m');
  });

  it('a field another writer took from the owner (an earlier Undo, a kubectl edit) is unknown, not "not in the manifest"', () => {
    // The strategy was in Git; rollout-doctor's set-rolling-update and its Undo (or a
    // kubectl edit) changed it, which moved it out of argocd-controller's Apply entry.
    const taken =
      (manager: string): Shape =>
      (d) => {
        argoSsa()(d);
        const managed = (d.metadata as { managedFields: unknown[] }).managedFields;
        managed.unshift(
          entry(manager, 'Update', {
            'f:spec': { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } } },
          }),
        );
      };
    for (const manager of ['rollout-doctor', 'kubectl-edit']) {
      const drift = strategyPlan(taken(manager)).plan.drift;
      expect(drift?.reverted).toBe('unknown');
      expect(drift?.why).toContain(`field manager ${manager} does`);
    }
    // Held by nobody (defaulted by the API server): not in the manifest, as before.
    expect(strategyPlan(argoSsa()).plan.drift?.reverted).toBe(false);
  });

  it("a restart marker held by kubectl rollout restart does not make the owner's manifest unknown", () => {
    const drift = strategyPlan((d) => {
      fluxKustomize()(d);
      const managed = (d.metadata as { managedFields: unknown[] }).managedFields;
      managed.unshift(
        entry('kubectl-rollout', 'Update', {
          'f:spec': {
            'f:template': {
              'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/restartedAt': {} } },
            },
          },
        }),
      );
    }).plan.drift;
    expect(drift?.reverted).toBe(false);
  });

  it.each([
    ['annotation', 'kustomize.toolkit.fluxcd.io/reconcile', 'disabled'],
    ['label', 'kustomize.toolkit.fluxcd.io/reconcile', 'Disabled'],
    ['annotation', 'kustomize.toolkit.fluxcd.io/ssa', 'Ignore'],
    ['annotation', 'kustomize.toolkit.fluxcd.io/ssa', 'IfNotPresent'],
  ])(
    'Flux: a field in Git is not reverted when the Deployment opts out with the %s %s: %s',
    (where, key, value) => {
      const drift = strategyPlan((d) => {
        fluxKustomize(true)(d);
        if (where === 'label') d.metadata.labels = { ...d.metadata.labels, [key]: value };
        else d.metadata.annotations = { ...d.metadata.annotations, [key]: value };
      }).plan.drift;
      expect(drift?.reverted).toBe(false);
      expect(drift?.why).toContain(`${where} ${key}: ${value}`);
    },
  );

  it('Flux: ssa Merge (or Override) does not stop kustomize-controller from applying Git', () => {
    const drift = strategyPlan((d) => {
      fluxKustomize(true)(d);
      d.metadata.annotations = { ...d.metadata.annotations, 'kustomize.toolkit.fluxcd.io/ssa': 'Merge' };
    }, kustomization()).plan.drift;
    expect(drift?.reverted).toBe(true);
  });

  it('Flux helm-controller: a chart field of a Deployment left out of drift detection is not reverted until the next upgrade', () => {
    const drift = strategyPlan((d) => {
      fluxHelm(d);
      d.metadata.annotations = {
        ...d.metadata.annotations,
        'helm.toolkit.fluxcd.io/driftDetection': 'disabled',
      };
    }).plan.drift;
    expect(drift?.reverted).toBe(false);
    expect(drift?.why).toContain('helm.toolkit.fluxcd.io/driftDetection: disabled');
    expect(drift?.why).toContain('next upgrade');
  });

  it('Flux helm-controller: unknown for chart fields (drift detection on the HelmRelease); Helm: not until the next upgrade', () => {
    expect(strategyPlan(fluxHelm).plan.drift?.reverted).toBe('unknown');
    const helmDrift = strategyPlan(helm).plan.drift;
    expect(helmDrift?.reverted).toBe(false);
    expect(helmDrift?.why).toContain('next helm upgrade');
  });

  describe("the owner's settings, read where RBAC allows", () => {
    const STRATEGY = 'spec.strategy.rollingUpdate.maxSurge';
    it('Argo CD with the strategy in Git: self-heal on reverts it; off, auto-sync off or enabled: false does not', () => {
      expect(
        strategyPlan(argoSsa(true), application({ syncPolicy: { automated: { selfHeal: true } } })).plan
          .drift,
      ).toMatchObject({ reverted: true });
      const off = [
        [{ syncPolicy: { automated: { selfHeal: false, prune: true } } }, 'self-heal is off'],
        [{ syncPolicy: {} }, 'spec.syncPolicy.automated is not set'],
        [{}, 'spec.syncPolicy.automated is not set'],
        [{ syncPolicy: { automated: { enabled: false, selfHeal: true } } }, 'enabled is false'],
      ] as const;
      for (const [spec, words] of off) {
        const drift = strategyPlan(argoSsa(true), application(spec)).plan.drift;
        expect(drift?.reverted, JSON.stringify(spec)).toBe(false);
        expect(drift?.why).toContain(words);
      }
      // enabled: true (Argo CD 3.1+) is on, as an absent enabled is.
      expect(
        strategyPlan(
          argoSsa(true),
          application({ syncPolicy: { automated: { enabled: true, selfHeal: true } } }),
        ).plan.drift?.reverted,
      ).toBe(true);
    });

    it('Argo CD: ignoreDifferences covering the field (JSON pointer, plain jq path, our manager) keeps it; a jq filter leaves it unknown; another kind or name does not count', () => {
      const heal = { automated: { selfHeal: true } };
      const verdict = (ignoreDifferences: unknown[], syncOptions: string[] = []) =>
        strategyPlan(argoSsa(true), application({ syncPolicy: { ...heal, syncOptions }, ignoreDifferences }))
          .plan.drift;
      expect(
        verdict([{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/strategy'] }])?.reverted,
      ).toBe(false);
      expect(
        verdict([{ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.strategy.rollingUpdate'] }])
          ?.reverted,
      ).toBe(false);
      expect(
        verdict([{ group: '*', kind: 'Deployment', managedFieldsManagers: ['rollout-doctor'] }])?.reverted,
      ).toBe(false);
      const respected = verdict(
        [{ group: 'apps', kind: 'Deployment', name: 'object-tracker', jsonPointers: ['/spec/strategy'] }],
        ['RespectIgnoreDifferences=true'],
      );
      expect(respected?.why).toContain('RespectIgnoreDifferences=true a sync keeps the live value');
      expect(
        verdict([
          {
            group: 'apps',
            kind: 'Deployment',
            jqPathExpressions: ['.spec.template.spec.containers[] | select(.name == "x")'],
          },
        ])?.reverted,
      ).toBe('unknown');
      // Not this Deployment, or the core group (empty): self-heal reverts it.
      expect(
        verdict([{ group: 'apps', kind: 'StatefulSet', jsonPointers: ['/spec/strategy'] }])?.reverted,
      ).toBe(true);
      expect(
        verdict([{ group: 'apps', kind: 'Deployment', name: 'other', jsonPointers: ['/spec/strategy'] }])
          ?.reverted,
      ).toBe(true);
      expect(verdict([{ kind: 'Deployment', jsonPointers: ['/spec/strategy'] }])?.reverted).toBe(true);
      expect(
        verdict([{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] }])?.reverted,
      ).toBe(true);
    });

    it('Argo CD: an Application whose status lists other resources but not this Deployment proves nothing', () => {
      const drift = strategyPlan(
        argoSsa(true),
        application(
          { syncPolicy: { automated: { selfHeal: true } } },
          { resources: [{ group: 'apps', kind: 'Deployment', namespace: 'vision', name: 'other' }] },
        ),
      ).plan.drift;
      expect(drift?.reverted).toBe('unknown');
      expect(drift?.why).toContain('status.resources');
      const listed = strategyPlan(
        argoSsa(true),
        application(
          { syncPolicy: { automated: { selfHeal: true } } },
          { resources: [{ group: 'apps', kind: 'Deployment', namespace: 'vision', name: 'object-tracker' }] },
        ),
      ).plan.drift;
      expect(listed?.reverted).toBe(true);
    });

    it('Argo CD whose manifest is not known: auto-sync off settles it (nothing reverts by itself); self-heal on leaves it unknown', () => {
      const noManifest: Shape = (d) => {
        delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
        setMeta(d, {
          annotations: {
            'argocd.argoproj.io/tracking-id': 'vision-tracker:apps/Deployment:vision/object-tracker',
          },
        });
      };
      expect(strategyPlan(noManifest, application({})).plan.drift?.reverted).toBe(false);
      expect(
        strategyPlan(noManifest, application({ syncPolicy: { automated: { selfHeal: true } } })).plan.drift
          ?.reverted,
      ).toBe('unknown');
    });

    it('a read that did not happen stays unknown and names the read or grant that settles it', () => {
      for (const [state, words] of [
        ['forbidden', 'grant get on applications.argoproj.io in argocd'],
        ['not-served', 'serves no applications.argoproj.io'],
        ['not-found', 'kubectl get applications.argoproj.io vision-tracker -n argocd -o yaml'],
        ['failed', 'failed'],
        ['not-in-dump', 'not in the dump'],
      ] as const) {
        const drift = strategyPlan(
          argoSsa(true),
          settingsRead('Application', 'argocd', 'vision-tracker', undefined, state),
        ).plan.drift;
        expect(drift?.reverted, state).toBe('unknown');
        expect(drift?.why).toContain(words);
      }
      // A malformed object is not read either.
      const odd = strategyPlan(argoSsa(true), application({ syncPolicy: { automated: { selfHeal: 'yes' } } }))
        .plan.drift;
      expect(odd?.reverted).toBe('unknown');
      expect(odd?.why).toContain('not in the argoproj.io/v1alpha1 shape');
    });

    it('Flux Kustomization: suspended keeps a Git field until resumed; read and not suspended reverts it', () => {
      const suspended = strategyPlan(fluxKustomize(true), kustomization({ suspend: true })).plan.drift;
      expect(suspended?.reverted).toBe(false);
      expect(suspended?.why).toContain('suspended');
      expect(
        strategyPlan(fluxKustomize(true), kustomization({ suspend: false, force: true })).plan.drift
          ?.reverted,
      ).toBe(true);
    });

    it('Flux HelmRelease: drift detection enabled reverts a chart field; warn, disabled, unset, suspended or an ignore rule do not', () => {
      expect(
        strategyPlan(fluxHelm, helmRelease({ driftDetection: { mode: 'enabled' } })).plan.drift?.reverted,
      ).toBe(true);
      for (const spec of [
        { driftDetection: { mode: 'warn' } },
        { driftDetection: { mode: 'disabled' } },
        {},
        { suspend: true, driftDetection: { mode: 'enabled' } },
        { driftDetection: { mode: 'enabled', ignore: [{ paths: ['/spec/strategy'] }] } },
        {
          driftDetection: {
            mode: 'enabled',
            ignore: [{ paths: ['/spec/strategy'], target: { kind: 'Deployment', name: 'object-.*' } }],
          },
        },
      ]) {
        expect(strategyPlan(fluxHelm, helmRelease(spec)).plan.drift?.reverted, JSON.stringify(spec)).toBe(
          false,
        );
      }
      const bySelector = strategyPlan(
        fluxHelm,
        helmRelease({
          driftDetection: {
            mode: 'enabled',
            ignore: [{ paths: ['/spec/strategy'], target: { labelSelector: 'tier=gpu' } }],
          },
        }),
      ).plan.drift;
      expect(bySelector?.reverted).toBe('unknown');
      const otherKind = strategyPlan(
        fluxHelm,
        helmRelease({
          driftDetection: {
            mode: 'enabled',
            ignore: [{ paths: ['/spec/strategy'], target: { kind: 'StatefulSet' } }],
          },
        }),
      ).plan.drift;
      expect(otherKind?.reverted).toBe(true);
      expect(otherKind?.fields).toContain(STRATEGY);
    });
  });

  describe('no owner recognised: unknown is not empty', () => {
    const noLastApplied =
      (managedFields: unknown[]): Shape =>
      (d) => {
        delete d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
        setMeta(d, { managedFields });
      };

    it('only kubectl and the Kubernetes controllers wrote it: not reverted, and the why says what was seen', () => {
      const { result, plan } = strategyPlan(
        noLastApplied([entry('kubectl-create', 'Update', manifestFields({}))]),
      );
      expect(result.managedBy).toBeUndefined();
      expect(plan.drift).toMatchObject({
        reverted: false,
        by: 'no GitOps owner recognised',
        ownerRecognised: false,
      });
      expect(plan.drift?.why).toContain(
        'no Flux labels, Argo CD tracking, Helm release annotations or kubectl last-applied',
      );
      expect(plan.drift?.why).toContain('kubectl-create, kube-controller-manager');
      expect(plan.drift?.fields).toContain('spec.strategy.rollingUpdate.maxSurge');
      // Every plan says something: none is left without a verdict.
      expect(result.remediations.every((p) => p.drift !== undefined)).toBe(true);
    });

    it('a manager we do not know (Terraform): unknown, naming it and the fields it holds', () => {
      const { plan } = strategyPlan(
        noLastApplied([
          entry(
            'Terraform',
            'Update',
            manifestFields({}, { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {} } } }),
          ),
        ]),
      );
      expect(plan.drift?.reverted).toBe('unknown');
      expect(plan.drift?.why).toContain('Terraform (holds spec.strategy.rollingUpdate.maxSurge)');
    });

    it('a status-only writer is not a writer of the spec', () => {
      const { plan } = strategyPlan(
        noLastApplied([
          entry('kubectl-create', 'Update', manifestFields({})),
          {
            ...entry('some-operator', 'Update', { 'f:status': { 'f:replicas': {} } }),
            subresource: 'status',
          },
        ]),
      );
      expect(plan.drift?.reverted).toBe(false);
    });

    it('a GitOps marker that proves no owner (tracking id of another object): unknown', () => {
      const { result, plan } = strategyPlan((d) => {
        noLastApplied([entry('kubectl-create', 'Update', manifestFields({}))])(d);
        d.metadata.annotations = {
          ...d.metadata.annotations,
          'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:shop/checkout',
        };
      });
      expect(result.managedBy).toBeUndefined();
      expect(plan.drift?.reverted).toBe('unknown');
      expect(plan.drift?.why).toContain('argocd.argoproj.io/tracking-id');
    });

    it('the Helm label alone (no release annotations, only kubectl wrote it): unknown, naming the label', () => {
      const { result, plan } = strategyPlan((d) => {
        noLastApplied([entry('kubectl-create', 'Update', manifestFields({}))])(d);
        d.metadata.labels = { ...d.metadata.labels, 'app.kubernetes.io/managed-by': 'Helm' };
      });
      expect(result.managedBy).toBeUndefined();
      expect(plan.drift?.reverted).toBe('unknown');
      expect(plan.drift?.why).toContain(
        "app.kubernetes.io/managed-by=Helm looks like a GitOps tool's but proves no owner",
      );
      // managed-by naming kubectl is no marker.
      const kubectl = strategyPlan((d) => {
        noLastApplied([entry('kubectl-create', 'Update', manifestFields({}))])(d);
        d.metadata.labels = { ...d.metadata.labels, 'app.kubernetes.io/managed-by': 'kubectl' };
      });
      expect(kubectl.plan.drift?.reverted).toBe(false);
    });

    it('no managedFields and no last-applied (a stripped dump): unknown, no writer ruled out', () => {
      const d = seedIncidentA();
      delete d.deployment.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
      const result = diagnose(d);
      const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
      expect(plan?.drift?.reverted).toBe('unknown');
      expect(plan?.drift?.why).toContain('no managedFields');
    });

    it('scaling an old ReplicaSet: not reverted even without an owner', () => {
      const result = diagnose(seedWith(noLastApplied([entry('Terraform', 'Update', manifestFields({}))])));
      const plan = result.remediations.find((p) => p.kind === 'scale-old-replicaset');
      expect(plan?.drift).toMatchObject({ reverted: false, ownerRecognised: false });
    });

    it('shown before the click: text report, JSON and the Slack fix line', () => {
      const { result } = strategyPlan(noLastApplied([entry('Terraform', 'Update', manifestFields({}))]));
      const text = renderText(result);
      expect(text).toMatch(/Reverted: unknown: no GitOps owner recognised/);
      const json = toJson(result);
      expect(json.remediations.find((r) => r.kind === 'set-rolling-update')?.drift).toMatchObject({
        reverted: 'unknown',
        ownerRecognised: false,
      });
      const plan = result.remediations.find((r) => r.kind === 'set-rolling-update');
      if (!plan) throw new Error('no plan');
      expect(driftLine(plan, { short: true })).toBe(
        ':grey_question: *May be reverted*: no GitOps owner recognised (why in the thread)',
      );
      expect(driftLine(plan)).toContain('Terraform');
    });
  });

  it('scaling an old ReplicaSet is reverted by no owner', () => {
    const d = seedWith(fluxKustomize(true)).deployment;
    const drift = planDrift(
      {
        id: 'x',
        kind: 'scale-old-replicaset',
        target: { kind: 'Deployment', namespace: 'vision', name: 'object-tracker' },
        summary: '',
        impact: '',
        warnings: [],
        patch: { type: 'json', body: [] },
        replicaSet: {
          name: 'object-tracker-6d4cf56db6',
          uid: 'u',
          podTemplateHash: '6d4cf56db6',
          replicas: 1,
          to: 0,
          newReplicaSet: { name: 'object-tracker-7b9f8c5d4f', uid: 'n' },
        },
        preconditions: { uid: 'u', generation: 4, fields: [] },
        inverse: null,
        addresses: 'RolloutSurgeDeadlock',
      },
      d,
      ownerOf(d),
    );
    expect(drift).toMatchObject({
      reverted: false,
      fields: ['replicaset/object-tracker-6d4cf56db6 spec.replicas'],
    });
  });

  describe('the recommended plan is the fix that sticks', () => {
    const primaryButton = (result: ReturnType<typeof diagnose>): string | undefined => {
      const plans = Object.fromEntries(
        result.remediations.map((p) => [p.id, { state: 'open' as const, expiresAt: Date.now() + 60_000 }]),
      );
      const m = renderDiagnosis({ cluster: 'prod', diagnosis: result, dryRuns: {}, plans });
      const buttons = (
        m.blocks as { type: string; elements?: { style?: string; text: { text: string } }[] }[]
      )
        .filter((b) => b.type === 'actions')
        .flatMap((b) => b.elements ?? []);
      return buttons.find((b) => b.style === 'primary')?.text.text;
    };

    it("the seed case (no strategy in the manifest, nothing reverted): the builders' order, set-rolling-update first", () => {
      for (const shape of [argoSsa(), kubectlApply, fluxKustomize()]) {
        const result = diagnose(seedWith(shape));
        expect(result.remediations.map((p) => p.kind)).toEqual([
          'set-rolling-update',
          'set-recreate',
          'scale-old-replicaset',
        ]);
        expect(recommendedPlan(result)?.kind).toBe('set-rolling-update');
        expect(primaryButton(result)).toBe('Apply: set-rolling-update');
      }
    });

    it('a strategy in Git that Flux puts back (true) or Argo CD may (unknown): scale-old-replicaset first, the rest in order', () => {
      for (const shape of [fluxKustomize(true), argoSsa(true)]) {
        const snapshot = seedWith(shape);
        const result = diagnose(snapshot);
        expect(result.remediations.map((p) => [p.kind, p.drift?.reverted])).toEqual([
          ['scale-old-replicaset', false],
          ['set-rolling-update', result.remediations[1]?.drift?.reverted],
          ['set-recreate', result.remediations[2]?.drift?.reverted],
        ]);
        expect(result.remediations[1]?.drift?.reverted).not.toBe(false);
        expect(result.findings[0]?.remediations[0]).toBe(result.remediations[0]?.id);
        expect(recommendedPlan(result)?.kind).toBe('scale-old-replicaset');
        expect(primaryButton(result)).toBe('Apply: scale-old-replicaset');
        // Same plans, same ids: only the order moved.
        const again = diagnose(snapshot);
        expect(again.remediations.map((p) => p.id)).toEqual(result.remediations.map((p) => p.id));
      }
    });

    it('"unknown" ranks below false and above true; delete-pods never ranks above a fix', () => {
      const plan = (
        id: string,
        kind: RemediationPlan['kind'],
        reverted: boolean | 'unknown',
      ): RemediationPlan =>
        ({ id, kind, drift: { reverted, by: 'x', fields: [], why: '' } }) as unknown as RemediationPlan;
      const plans = new Map(
        [
          plan('a', 'exclude-node', true),
          plan('b', 'set-recreate', 'unknown'),
          plan('c', 'delete-pods', false),
          plan('d', 'scale-old-replicaset', false),
          plan('e', 'set-rolling-update', 'unknown'),
        ].map((p) => [p.id, p]),
      );
      expect(orderByDrift(['a', 'b', 'c', 'd', 'e'], plans)).toEqual(['d', 'b', 'e', 'a', 'c']);
    });
  });

  it('the JSON report carries managedBy and each plan drift; the text says both in a line', () => {
    const { result } = strategyPlan(argoSsa());
    const json = toJson(result);
    expect(json.managedBy?.tool).toBe('argocd');
    expect(json.remediations.find((r) => r.kind === 'set-rolling-update')?.drift?.reverted).toBe(false);
    const text = renderText(result);
    expect(text).toContain('Managed by Argo CD application vision-tracker');
    expect(text).toMatch(/Reverted: no, by Argo CD application vision-tracker/);
  });
});
