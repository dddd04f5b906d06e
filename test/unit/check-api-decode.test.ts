/**
 * check refuses, as bad input at its line, a workload the API server cannot decode
 * (src/check/api-decode.ts): a value of the wrong type, or a field the API does not have.
 * Each rule has the arm that refuses and the arm that passes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiShape, decodeProblem } from '../../src/check/api-decode.js';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { makeDeployment } from '../support/k8s-builders.js';
import { makeStatefulSet } from '../support/statefulset-builders.js';

const shape = await apiShape();
type Edit = (o: Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
const deployment = (edit: Edit): unknown => {
  const d = structuredClone(makeDeployment('web')) as unknown as Record<string, unknown>;
  edit(d);
  return d;
};
const problem = (edit: Edit) => decodeProblem(shape, 'Deployment', deployment(edit));

describe('values the API cannot decode', () => {
  it('a number where the API takes text (an env value, a label, an arg) is refused; quoted it passes', () => {
    const env =
      (value: unknown): Edit =>
      (o) =>
        (o['spec'].template.spec.containers[0].env = [{ name: 'PORT', value }]);
    expect(problem(env(8080))).toEqual({
      path: ['spec', 'template', 'spec', 'containers', 0, 'env', 0, 'value'],
      problem:
        'Deployment spec.template.spec.containers[0].env[0].value is a number (8080) where the API takes a string (a number where the API takes text: quote it): the API server refuses it',
    });
    expect(problem(env('8080'))).toBeUndefined();
    expect(problem((o) => (o['metadata'].labels = { version: 1 }))?.problem).toContain(
      'metadata.labels.version is a number (1)',
    );
    expect(problem((o) => (o['spec'].template.spec.containers[0].args = ['--port', 8080]))?.path).toEqual([
      'spec',
      'template',
      'spec',
      'containers',
      0,
      'args',
      1,
    ]);
  });

  it('a boolean in a nodeSelector (YAML reads yes as true) is refused with the quoting hint', () => {
    expect(problem((o) => (o['spec'].template.spec.nodeSelector = { gpu: true }))?.problem).toBe(
      'Deployment spec.template.spec.nodeSelector.gpu is a boolean (true) where the API takes a string (YAML reads yes, no, on, off, true and false unquoted as booleans: quote it): the API server refuses it',
    );
    expect(problem((o) => (o['spec'].template.spec.nodeSelector = { gpu: 'yes' }))).toBeUndefined();
  });

  it('replicas must be whole, a list must be a list; resource amounts may be numbers or strings', () => {
    expect(problem((o) => (o['spec'].replicas = 1.5))?.problem).toContain(
      'spec.replicas is a number (1.5) where the API takes a whole number',
    );
    expect(problem((o) => (o['spec'].template.spec.tolerations = { key: 'gpu' }))?.problem).toContain(
      'where the API takes a list',
    );
    const amounts: Edit = (o) =>
      (o['spec'].template.spec.containers[0].resources = {
        requests: { cpu: 2, memory: '1Gi', 'nvidia.com/gpu': 1 },
        limits: { 'nvidia.com/gpu': 1 },
      });
    expect(problem(amounts)).toBeUndefined();
    expect(
      problem(
        (o) =>
          (o['spec'].strategy = {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' },
          }),
      ),
    ).toBeUndefined();
  });

  it("a resourceFieldRef's divisor is a Quantity: a number passes (divisor: 1), a boolean does not", () => {
    const divisor =
      (value: unknown): Edit =>
      (o) =>
        (o['spec'].template.spec.containers[0].env = [
          { name: 'GOMAXPROCS', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: value } } },
        ]);
    expect(problem(divisor(1))).toBeUndefined();
    expect(problem(divisor('1m'))).toBeUndefined();
    expect(problem(divisor(true))?.problem).toContain('resourceFieldRef.divisor is a boolean (true)');
  });

  it('nulls and empty mappings, as kubectl create --dry-run writes them, pass', () => {
    expect(
      problem((o) => {
        o['metadata'].creationTimestamp = null;
        o['spec'].strategy = {};
        o['spec'].template.spec.containers[0].resources = {};
        o['status'] = {};
      }),
    ).toBeUndefined();
  });
});

describe('fields the API does not have', () => {
  it('a misspelt field is named with the field it is closest to; spelt right it passes', () => {
    expect(
      problem((o) => (o['spec'].template.spec.containers[0].resource = { requests: { cpu: '1' } })),
    ).toEqual({
      path: ['spec', 'template', 'spec', 'containers', 0, 'resource'],
      problem:
        'Deployment spec.template.spec.containers[0].resource is not a field of the API (did you mean resources?): kubectl apply refuses it with its default strict validation, and without it the field is dropped',
    });
    // A field a released Kubernetes has that the models' release dropped (1.35's workloadRef) passes.
    expect(
      problem((o) => (o['spec'].template.spec.workloadRef = { name: 'training', podGroup: 'workers' })),
    ).toBeUndefined();
    expect(problem((o) => (o['spec'].template.spec.workloadRefs = {}))?.problem).toContain(
      'did you mean workloadRef?',
    );
    // The decoder is case-sensitive.
    expect(problem((o) => (o['spec'].Replicas = 2))?.problem).toContain(
      'spec.Replicas is not a field of the API (did you mean replicas?)',
    );
    expect(
      problem((o) => (o['spec'].template.spec.containers[0].resources = { requests: { cpu: '1' } })),
    ).toBeUndefined();
  });

  it('a type error is said before an unknown field (the decoder stops at it); a StatefulSet is judged, an Argo Rollout is not', () => {
    const both = problem((o) => {
      o['spec'].bogus = 1;
      o['spec'].replicas = 'two';
    });
    expect(both?.problem).toContain('spec.replicas is a string ("two")');
    const sts = structuredClone(makeStatefulSet('db')) as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    sts['spec'].volumeClaimTemplate = [];
    expect(decodeProblem(shape, 'StatefulSet', sts)?.problem).toContain('did you mean volumeClaimTemplates?');
    expect(decodeProblem(shape, 'Rollout', { spec: { anything: true } })).toBeUndefined();
  });
});

describe('check on a manifest the API cannot decode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-check-decode-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const DUMP = join(import.meta.dirname, '../fixtures/dumps/check-created-objects.json');

  it('exit 2 naming the file and the line of the field; quoted, it is judged', async () => {
    const write = (gpu: string): string => {
      const file = join(dir, `gpu-${gpu.replace(/\W/g, '')}.yaml`);
      writeFileSync(
        file,
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector:
        gpu: ${gpu}
      containers:
        - name: app
          image: reg/app:2
`,
      );
      return file;
    };
    const bad = fakeIo();
    const file = write('yes');
    expect(await runCli(['check', '-f', file, '--from-file', DUMP], bad.io)).toBe(2);
    expect(bad.stderr()).toContain(
      `${file}:11: Deployment spec.template.spec.nodeSelector.gpu is a boolean (true)`,
    );
    const good = fakeIo();
    expect(await runCli(['check', '-f', write('"yes"'), '--from-file', DUMP], good.io)).not.toBe(2);
    expect(good.stderr()).not.toContain('the API server refuses it');
  });
});
