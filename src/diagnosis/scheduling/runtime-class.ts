/**
 * The RuntimeClass admission plugin (plugin/pkg/admission/runtimeclass): a pod that names
 * a runtimeClassName gets the class's `overhead.podFixed` as its `spec.overhead`, which
 * the scheduler adds to its requests (NodeResourcesFit, resource.PodRequests) and a
 * ResourceQuota charges. A template names the class, not the overhead: it is taken here
 * from a pod admitted under the same class (every pod of a class gets the same overhead),
 * of the workload or another read pod. Where none was read, it is not known.
 */
import type { Pod, PodSpec } from '../k8s.js';

type RuntimeClassAdmission = { result: 'admitted'; spec: PodSpec } | { result: 'unknown'; why: string };

export function admitRuntimeClass(spec: PodSpec, pods: readonly Pod[]): RuntimeClassAdmission {
  const name = spec.runtimeClassName;
  if (!name || spec.overhead) return { result: 'admitted', spec };
  const admitted = pods.find((p) => p.spec.runtimeClassName === name);
  if (!admitted)
    return {
      result: 'unknown',
      why: `the template names RuntimeClass ${name}, whose pod overhead (added to each new pod's requests at admission) is not known: no pod running under it was read`,
    };
  const { overhead } = admitted.spec;
  return { result: 'admitted', spec: overhead ? { ...spec, overhead } : spec };
}
