/**
 * A workload kind is one identity in one registry (src/diagnosis/workloads/kinds.ts):
 * a throwaway fifth kind, OpenKruise's CloneSet, declared here in test code and added
 * to the registry's list, is parsed (TYPE/NAME, short name, the queue's enum), carried
 * in the snapshot's kind fields, given its API path and discovery path, asked about by
 * discovery, and listed in the worker's RBAC rules, with no other edit. And the product's
 * own vocabulary, paths and rules are the registry's (nothing lists the kinds again).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { workloadGrantProblems } from '../../scripts/workload-grants.js';
import type { ControllerRevision } from '../../src/diagnosis/k8s-workloads.js';
import type { LabelSelector, ObjectMeta, PodTemplateSpec } from '../../src/diagnosis/k8s.js';
import type { WorkloadObjects } from '../../src/diagnosis/snapshot/types.js';
import {
  fromIdentity,
  hasObjectsOf,
  kindsOf,
  workloadApi,
  workloadVocabulary,
  type KindOf,
  type ObjectsOf,
  type WorkloadObjectsOf,
} from '../../src/diagnosis/workload-api.js';
import {
  kindOfType,
  kindsPhrase,
  titlesPhrase,
  splitTypeName,
  WORKLOAD_KINDS,
  WORKLOAD_NAMES,
  type WorkloadKind,
} from '../../src/diagnosis/workload-ref.js';
import { WORKLOAD_APIS } from '../../src/diagnosis/workloads/kinds.js';
import { pathFor, pathIn, resourceTable, RESOURCES, type ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/errors.js';
import { kindServed, notServedSentence } from '../../src/kube/read/kind-served.js';
import { workloadRbacRules } from '../../src/kube/workload-rbac.js';

/** The fifth kind's object, as far as this test needs it. */
interface CloneSet {
  apiVersion?: string;
  kind?: 'CloneSet';
  metadata: ObjectMeta;
  spec: { replicas?: number; selector: LabelSelector; template: PodTemplateSpec };
}

/** Its identity: what workloads/cloneset/api.ts would hold. */
const cloneSetApi = workloadApi<CloneSet, ControllerRevision>()({
  kind: 'CloneSet',
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  resource: 'clonesets',
  types: ['cloneset', 'clonesets', 'clone', 'cloneset.apps.kruise.io', 'clonesets.apps.kruise.io'],
  title: 'CloneSet',
  verbs: ['get', 'list', 'watch', 'patch'],
  revisions: { kind: 'ControllerRevision', resource: 'controllerrevisions' },
  crd: { installedBy: 'OpenKruise' },
  snapshot: { object: 'cloneSet', revisions: 'controllerRevisions' },
});

/** The registry with its one new line. */
const FIVE = [...WORKLOAD_APIS, cloneSetApi] as const;

describe('a fifth kind added to the registry', () => {
  it('is parsed as kubectl spells it, by both command parsers and the queue schema', () => {
    const vocabulary = workloadVocabulary(FIVE, 'Deployment');
    expect(vocabulary.kindOfType('clone')).toBe('CloneSet');
    expect(vocabulary.kindOfType('CloneSets.apps.kruise.io')).toBe('CloneSet');
    expect(vocabulary.splitTypeName('clone/web')).toEqual({ kind: 'CloneSet', name: 'web' });
    expect(vocabulary.splitTypeName('web')).toEqual({ kind: 'Deployment', name: 'web' });
    expect(vocabulary.isKind('CloneSet')).toBe(true);
    expect(vocabulary.kindsPhrase('s', 'and')).toBe(
      'Deployments, DaemonSets, StatefulSets, Rollouts and CloneSets',
    );
    // The help texts' phrase (titlesPhrase, below) names it too.
    expect(vocabulary.titlesPhrase('s', 'and')).toBe(
      'Deployments, DaemonSets, StatefulSets, Argo Rollouts and CloneSets',
    );
    expect(z.enum(vocabulary.kinds).parse('CloneSet')).toBe('CloneSet');
    expectTypeOf<KindOf<typeof FIVE>>().toEqualTypeOf<WorkloadKind | 'CloneSet'>();
  });

  it('gets its snapshot member from its identity', () => {
    type Five = WorkloadObjectsOf<typeof FIVE>;
    expectTypeOf<ObjectsOf<typeof cloneSetApi>>().toEqualTypeOf<
      { cloneSet: CloneSet } & { controllerRevisions: ControllerRevision[] }
    >();
    expectTypeOf<ObjectsOf<typeof cloneSetApi>>().toExtend<Five>();
    expectTypeOf<WorkloadObjects>().toExtend<Five>();
    const objects: Five = {
      cloneSet: { metadata: { name: 'web' }, spec: { selector: {}, template: { spec: { containers: [] } } } },
      controllerRevisions: [],
    };
    expect(hasObjectsOf(cloneSetApi, objects)).toBe(true);
    expect(hasObjectsOf(WORKLOAD_NAMES.StatefulSet, objects)).toBe(false);
    // Its module's name, revision objects and snapshot fields, from the identity alone.
    const own = fromIdentity(cloneSetApi);
    expect(own.kind).toBe('CloneSet');
    expect(own.revisionObjects).toBe(cloneSetApi.revisions);
    expect(own.objects(objects.cloneSet, [])).toEqual(objects);
    expectTypeOf(own.objects).returns.toEqualTypeOf<ObjectsOf<typeof cloneSetApi>>();
  });

  it('gets its API path and its group-version discovery path', () => {
    const table = resourceTable(FIVE);
    const call = { verb: 'get', resource: 'clonesets', namespace: 'shop', name: 'web' } as const;
    expect(pathIn(table, call)).toBe('/apis/apps.kruise.io/v1alpha1/namespaces/shop/clonesets/web');
    expect(pathIn(table, { verb: 'get', resource: 'apps.kruise.io/v1alpha1' })).toBe(
      '/apis/apps.kruise.io/v1alpha1',
    );
    // The product's table holds no such kind: the path came from the identity alone.
    expect(() => pathIn(RESOURCES, call)).toThrow(/no such resource/);
  });

  it('is asked about by discovery, and a cluster without its CRD says so', async () => {
    const table = resourceTable(FIVE);
    const served = (resources: string[] | 404): KubeClient => ({
      server: 'https://127.0.0.1:6443',
      context: 'test',
      namespace: undefined,
      call: <T>(call: ApiCall): Promise<T> => {
        const path = pathIn(table, call);
        if (path !== '/apis/apps.kruise.io/v1alpha1') throw new Error(`unexpected ${path}`);
        if (resources === 404) {
          return Promise.reject(new KubeApiError('not found', 404, { verb: 'get', resource: call.resource }));
        }
        return Promise.resolve({ resources: resources.map((name) => ({ name })) } as T);
      },
      text: () => Promise.reject(new Error('no text')),
      watch: () => Promise.reject(new Error('no watch')),
    });
    await expect(kindServed(served(['clonesets', 'broadcastjobs']), cloneSetApi)).resolves.toBe(true);
    await expect(kindServed(served(['broadcastjobs']), cloneSetApi)).resolves.toBe(false);
    await expect(kindServed(served(404), cloneSetApi)).resolves.toBe(false);
    // A built-in kind is served: discovery is not asked.
    await expect(kindServed(served(404), WORKLOAD_NAMES.StatefulSet)).resolves.toBe(true);
    expect(notServedSentence(cloneSetApi)).toBe(
      'this cluster serves no clonesets.apps.kruise.io (OpenKruise is not installed): there are no CloneSets to diagnose',
    );
  });

  it("is in the worker's RBAC rules, and the rendered chart is held to them", () => {
    expect(workloadRbacRules(FIVE)).toEqual(
      expect.arrayContaining([
        { apiGroups: ['apps.kruise.io'], resources: ['clonesets'], verbs: ['get', 'list', 'watch', 'patch'] },
        { apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['list'] },
      ]),
    );
    const rbac = readFileSync('deploy/worker-rbac.yaml', 'utf8');
    const admission = readFileSync('deploy/admission-policy.yaml', 'utf8');
    // The registered kinds fit what the chart renders; the fifth does not until its rules are written.
    expect(workloadGrantProblems(WORKLOAD_APIS, rbac, admission)).toEqual([]);
    expect(workloadGrantProblems(FIVE, rbac, admission)).toEqual([
      "deploy/worker-rbac.yaml: the worker's ClusterRole does not grant get clonesets.apps.kruise.io",
      "deploy/worker-rbac.yaml: the worker's ClusterRole does not grant list clonesets.apps.kruise.io",
      "deploy/worker-rbac.yaml: the worker's ClusterRole does not grant watch clonesets.apps.kruise.io",
      "deploy/worker-rbac.yaml: the worker's ClusterRole does not grant patch clonesets.apps.kruise.io",
      "deploy/admission-policy.yaml: no ValidatingAdmissionPolicy bounds the worker's patches of clonesets.apps.kruise.io",
    ]);
  });
});

describe("the product's kinds are the registry's", () => {
  it('names, parsing and phrases come from the registry', () => {
    expect(WORKLOAD_KINDS).toEqual(kindsOf(WORKLOAD_APIS));
    expect(Object.keys(WORKLOAD_NAMES)).toEqual([...WORKLOAD_KINDS]);
    expect(kindOfType('sts')).toBe('StatefulSet');
    expect(splitTypeName('ro/tracker')).toEqual({ kind: 'Rollout', name: 'tracker' });
    expect(kindsPhrase('s', 'and')).toBe('Deployments, DaemonSets, StatefulSets and Rollouts');
  });

  it('every kind has its path, and the Rollout its discovery, at the paths the API serves', () => {
    expect(pathFor({ verb: 'get', resource: 'statefulsets', namespace: 'payments', name: 'ledger' })).toBe(
      '/apis/apps/v1/namespaces/payments/statefulsets/ledger',
    );
    expect(pathFor({ verb: 'list', resource: 'rollouts', namespace: 'shop' })).toBe(
      '/apis/argoproj.io/v1alpha1/namespaces/shop/rollouts',
    );
    expect(pathFor({ verb: 'get', resource: 'argoproj.io/v1alpha1' })).toBe('/apis/argoproj.io/v1alpha1');
    expect(notServedSentence(WORKLOAD_NAMES.Rollout)).toBe(
      'this cluster serves no rollouts.argoproj.io (Argo Rollouts is not installed): there are no Rollouts to diagnose',
    );
  });

  it('a kind left out of the rendered RBAC is named', () => {
    // The check is not vacuous: drop the StatefulSet from the rendered ClusterRole.
    const rbac = readFileSync('deploy/worker-rbac.yaml', 'utf8').replace(
      "resources: ['deployments', 'daemonsets', 'statefulsets']",
      "resources: ['deployments', 'daemonsets']",
    );
    const admission = readFileSync('deploy/admission-policy.yaml', 'utf8');
    expect(workloadGrantProblems(WORKLOAD_APIS, rbac, admission)).toContain(
      "deploy/worker-rbac.yaml: the worker's ClusterRole does not grant patch statefulsets.apps",
    );
  });

  it('help texts and sentences name the kinds through the registry, never by hand (issue 68.3)', async () => {
    const { usage } = await import('../../src/cli/run-cli.js');
    expect(usage()).toContain(`list ${titlesPhrase('s', 'and')} that are stuck`);
    expect(titlesPhrase('', 'or')).toBe('Deployment, DaemonSet, StatefulSet or Argo Rollout');
    // No source line (comments aside) spells three kinds in a row itself.
    const { readdirSync } = await import('node:fs');
    const byHand =
      /\b(Deployments?|DaemonSets?|StatefulSets?)(, | and | or )(DaemonSets?|StatefulSets?|Argo Rollouts?|Rollouts?)(, | and | or )/;
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const found = files.flatMap((file) =>
      readFileSync(`src/${file}`, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && byHand.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
    // The check sees what it looks for.
    expect(byHand.test("'not a Deployment, DaemonSet, StatefulSet or Argo Rollout'")).toBe(true);
  });
});
