/**
 * The chart's ValidatingAdmissionPolicies, evaluated as the API server does (and the
 * simulator's sim/admission/validating-policy.ts): JSON integers as CEL ints, the
 * request's resource named from the object's kind, variables evaluated in order, the
 * matchConditions, then each validation. An expression that fails to evaluate throws
 * (the API server would deny it under failurePolicy Fail): a test sees it.
 */
import { readFileSync } from 'node:fs';
import { Environment } from '@marcbachmann/cel-js';
import { parseAllDocuments } from 'yaml';
import { toCel } from '../../sim/admission/cel.js';

export interface Policy {
  kind: string;
  metadata: { name: string };
  spec: {
    matchConstraints: {
      resourceRules: { apiGroups?: string[]; resources: string[]; operations: string[] }[];
    };
    matchConditions: { expression: string }[];
    variables?: { name: string; expression: string }[];
    validations: { expression: string; message: string }[];
  };
}

export const POLICY_FILE = 'deploy/admission-policy.yaml';
export const WORKER = 'system:serviceaccount:rollout-doctor:rollout-doctor-worker';
export const env = new Environment({ unlistedVariablesAreDyn: true });

const docs = parseAllDocuments(readFileSync(POLICY_FILE, 'utf8')).map((d) => d.toJS() as Policy);

export function policy(name: string): Policy {
  const found = docs.find((d) => d.kind === 'ValidatingAdmissionPolicy' && d.metadata.name === name);
  if (!found) throw new Error(`no policy ${name}`);
  return found;
}

/** JSON as CEL sees it on the API server (the simulator's conversion, sim/admission/cel.ts). */
export { toCel };

const RESOURCES: Record<string, string> = {
  Deployment: 'deployments',
  DaemonSet: 'daemonsets',
  StatefulSet: 'statefulsets',
  Rollout: 'rollouts',
};

function kindOf(object: unknown): string {
  const kind = (object as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : '';
}

/** The request's namespace as the API server sets it: the object's ('' for cluster-scoped ones). */
function namespaceOf(object: unknown): string {
  const ns = (object as { metadata?: { namespace?: unknown } } | null)?.metadata?.namespace;
  return typeof ns === 'string' ? ns : '';
}

/** The messages of the validations that fail, [] when the request is admitted (or not judged). */
export function denials(
  p: Policy,
  object: unknown,
  oldObject: unknown,
  username = WORKER,
  namespace = namespaceOf(object ?? oldObject),
): string[] {
  const variables: Record<string, unknown> = {};
  const context = {
    object: toCel(object ?? null),
    oldObject: toCel(oldObject ?? null),
    request: {
      userInfo: { username },
      namespace,
      resource: { resource: RESOURCES[kindOf(object ?? oldObject)] ?? '' },
    },
    variables,
  };
  for (const v of p.spec.variables ?? []) variables[v.name] = env.evaluate(v.expression, context);
  if (!p.spec.matchConditions.every((c) => env.evaluate(c.expression, context) === true)) return [];
  return p.spec.validations.filter((v) => env.evaluate(v.expression, context) !== true).map((v) => v.message);
}
