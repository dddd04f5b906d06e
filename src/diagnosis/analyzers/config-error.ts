import type { Analyzer } from '../analyzer.js';
import { classifyContainers, type MissingConfigRef } from '../crash/container-failures.js';
import type { Finding } from '../finding.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { podRows } from './report-groups.js';

/**
 * ConfigError: containers cannot be created because a ConfigMap or Secret (or a key
 * in one) they reference is missing: waiting reason CreateContainerConfigError, or
 * the kubelet's Failed / FailedMount events naming what is missing.
 */
export const configError: Analyzer = {
  name: 'config-error',
  analyze(ctx) {
    const { snapshot } = ctx;
    const failing = classifyContainers(ctx).filter((r) => r.failures.includes('config-error'));
    if (failing.length === 0) return [];
    const refs = distinctRefs(failing.flatMap((r) => r.missingConfig));
    return [finding(snapshot, refs, failing)];
  },
};

function finding(
  snapshot: WorkloadSnapshot,
  refs: MissingConfigRef[],
  failing: ReturnType<typeof classifyContainers>,
): Omit<Finding, 'remediations'> {
  const what =
    refs.length > 0
      ? refs.map(describe).join('; ')
      : (failing[0]?.waitingMessage ?? 'a referenced ConfigMap or Secret is missing');
  const pods = new Set(failing.map((r) => r.pod)).size;
  return {
    code: 'ConfigError',
    severity: 'critical',
    summary: `${snapshot.target.name}: ${pods} pod(s) cannot start their containers: ${what}.`,
    explanation:
      'The kubelet will not create a container whose environment or volumes reference a ConfigMap or Secret (or a ' +
      'key in one) that does not exist, unless the reference is marked optional. The pod stays in ' +
      'CreateContainerConfigError (or ContainerCreating for volumes) and retries by itself once the object or key ' +
      "exists: create it in the pod's namespace, or fix the name in the template.",
    evidence: [
      {
        type: 'pods',
        title: 'Containers waiting on configuration',
        pods: podRows(
          failing,
          (r) =>
            `${r.container}: ${r.waitingReason ?? 'config error'}${r.waitingMessage ? ` (${r.waitingMessage})` : ''}`,
        ),
      },
      ...refs.map((ref) => ({ type: 'note' as const, text: `missing: ${describe(ref)}` })),
    ],
  };
}

function describe(ref: MissingConfigRef): string {
  const object = `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
  return ref.key ? `key ${ref.key} is missing from ${object}` : `${object} does not exist`;
}

function distinctRefs(refs: MissingConfigRef[]): MissingConfigRef[] {
  const seen = new Map<string, MissingConfigRef>();
  for (const ref of refs) seen.set(`${ref.kind}/${ref.namespace ?? ''}/${ref.name}/${ref.key ?? ''}`, ref);
  return [...seen.values()];
}
